import {describe, expect} from 'vitest'
import {paddedPng, realJpeg, realPng, webp} from '../helpers/images.js'
import {withHarness, type Harness} from './helpers.js'
import {invoiceBody, mintKey} from './invoices-helpers.js'

// Real images: the PUT decodes what it stores (hostile.test.ts has the crafted ones).
const PNG = realPng()
const JPEG = realJpeg()
const WEBP = webp()
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(58, 3)])

const it = withHarness()

describe('files: upload URL, storage host, cover_image_url', () => {
  const uploadUrl = (h: Harness, body: Record<string, unknown>, key?: string) => h.api('POST', '/v1/files/upload-url', {body, key})
  const put = (url: string, bytes: Buffer, contentType: string) =>
    fetch(url, {method: 'PUT', body: bytes, headers: {'content-type': contentType}}).then(async (r) => ({status: r.status, body: (await r.json()) as any}))

  /** An uploaded file's URL. */
  async function upload(h: Harness, bytes: Buffer, contentType: string, key?: string): Promise<string> {
    const reply = await uploadUrl(h, {filename: 'cover photo.png', content_type: contentType, size: bytes.length}, key)
    expect(reply.status).toBe(201)
    expect((await put(reply.body.upload_url, bytes, contentType)).status).toBe(200)
    return reply.body.file_url
  }

  it('answers {upload_url, method PUT, headers, file_url, expires_at} on the storage host, signed and expiring', async ({h}) => {
    const reply = await uploadUrl(h, {filename: 'cover.png', content_type: 'image/png', size: PNG.length})
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({method: 'PUT', headers: {'content-type': 'image/png'}})
    expect(reply.body.upload_url).toMatch(new RegExp(`^${h.sb.url}/storage/uploads/file_test_\\w+\\?expires=\\d+&signature=[\\w-]+$`))
    expect(reply.body.file_url).toMatch(new RegExp(`^${h.sb.url}/storage/files/file_test_\\w+/cover\\.png$`))
    expect(Date.parse(reply.body.expires_at) - h.sb.clock.now()).toBeGreaterThan(14 * 60 * 1000)
    // Nothing is served before the upload.
    expect((await fetch(reply.body.file_url)).status).toBe(404)
  })

  it.for([
    ['image/png', PNG],
    ['image/jpeg', JPEG],
    ['image/webp', WEBP],
  ] as const)('a %s upload is served back byte for byte without a key', async ([contentType, bytes], {h}) => {
    const fileUrl = await upload(h, bytes, contentType)
    const response = await fetch(fileUrl)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(contentType)
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true)
  })

  it.for([
    ['a gif', {content_type: 'image/gif'}, 'content_type'],
    ['over 5 MB', {size: 5 * 1024 * 1024 + 1}, 'size'],
    ['size 0', {size: 0}, 'size'],
    ['no filename', {filename: undefined}, 'filename'],
  ] as const)('upload-url: %s is a 400', async ([_label, overrides, field], {h}) => {
    const body = JSON.parse(JSON.stringify({filename: 'a.png', content_type: 'image/png', size: 100, ...overrides}))
    const reply = await uploadUrl(h, body)
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: any) => e.field)).toContain(field)
  })

  it('exactly 5 MB is accepted and stored', async ({h}) => {
    const big = paddedPng(5 * 1024 * 1024)
    const fileUrl = await upload(h, big, 'image/png')
    expect(Number((await fetch(fileUrl)).headers.get('content-length'))).toBe(big.length)
  })

  it.for([
    ['bytes that are not the declared type', GIF, 'image/png', 400],
    ['a jpeg declared as png', JPEG, 'image/png', 400],
    ['another content type than declared', PNG, 'image/jpeg', 400],
    ['fewer bytes than declared', PNG.subarray(0, 40), 'image/png', 400],
  ] as const)('the PUT refuses %s', async ([_label, bytes, contentType, status], {h}) => {
    const reply = await uploadUrl(h, {filename: 'a.png', content_type: 'image/png', size: PNG.length})
    const result = await put(reply.body.upload_url, bytes, contentType)
    expect(result.status).toBe(status)
    expect((await fetch(reply.body.file_url)).status).toBe(404)
  })

  it('the PUT refuses a forged signature and an expired URL (sandbox clock)', async ({h}) => {
    const reply = await uploadUrl(h, {filename: 'a.png', content_type: 'image/png', size: PNG.length})
    const forged = await put(reply.body.upload_url.replace(/signature=[\w-]{4}/, 'signature=AAAA'), PNG, 'image/png')
    expect(forged.status).toBe(403)
    expect(forged.body.code).toBe('invalid_signature')
    const noSignature = await put(reply.body.upload_url.split('?')[0], PNG, 'image/png')
    expect(noSignature.status).toBe(403)
    await h.sb.clock.advance(15 * 60 * 1000 + 1000)
    const expired = await put(reply.body.upload_url, PNG, 'image/png')
    expect(expired.status).toBe(403)
    expect(expired.body.code).toBe('url_expired')
  })

  it('needs files:write', async ({h}) => {
    const key = await mintKey(h, ['invoices:write'])
    const reply = await uploadUrl(h, {filename: 'a.png', content_type: 'image/png', size: 10}, key)
    expect(reply.status).toBe(403)
    expect(reply.body.code).toBe('insufficient_scope')
  })

  describe('cover_image_url', () => {
    it('accepts an uploaded file_url of this host and echoes it', async ({h}) => {
      const fileUrl = await upload(h, PNG, 'image/png')
      const reply = await h.api('POST', '/v1/invoices', {body: invoiceBody({cover_image_url: fileUrl})})
      expect(reply.status).toBe(201)
      expect(reply.body.cover_image_url).toBe(fileUrl)
    })

    it.for([
      ['another host', async (_h: Harness): Promise<string> => 'https://cdn.example.com/storage/files/file_test_abc/cover.png'],
      ['this host, another path', async (h: Harness): Promise<string> => `${h.sb.url}/pay/i/x`],
      ['a file_url never uploaded', async (h: Harness): Promise<string> => (await uploadUrl(h, {filename: 'a.png', content_type: 'image/png', size: 10})).body.file_url],
      ['a file that does not exist', async (h: Harness): Promise<string> => `${h.sb.url}/storage/files/file_test_nope/cover.png`],
      ['the right file under another name', async (h: Harness): Promise<string> => (await upload(h, PNG, 'image/png')).replace(/[^/]+$/, 'other.png')],
      ['a live file on a sandbox invoice', async (h: Harness): Promise<string> => upload(h, PNG, 'image/png', h.sb.keys.live)],
      ['the same host written differently', async (h: Harness): Promise<string> => (await upload(h, PNG, 'image/png')).replace('127.0.0.1', 'localhost')],
    ] as const)('refuses %s (400 naming cover_image_url)', async ([_label, url], {h}) => {
      const reply = await h.api('POST', '/v1/invoices', {body: invoiceBody({cover_image_url: await url(h)})})
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe('validation_error')
      expect(reply.body.errors).toEqual([{field: 'cover_image_url', message: expect.stringContaining('cover_image_url')}])
    })
  })
})
