/**
 * Images within a memory budget: an upload whose decoded size would pass the pixel budget (an A4
 * page at 300 dpi, 2480 × 3508) is refused at the PUT with 400 naming the limit, from its header,
 * before anything is decoded; the largest accepted cover is downscaled once for the PDF, and a
 * sandbox serving 20 PDFs with it at once stays under 400 MB of RSS (a process of its own, its
 * memory read from /proc).
 */
import {readFileSync} from 'node:fs'
import {constants, deflateSync} from 'node:zlib'
import {PNG} from 'pngjs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {MAX_IMAGE_PIXELS} from '../../src/contract/limits.js'
import {craftedPng} from '../helpers/images.js'
import {startSandboxProcess, type SandboxProcess} from '../helpers/sandbox-process.js'

/**
 * The largest accepted cover: 2480 × 3508 (35 MB decoded), noisy in 3 × 3 blocks so that its PNG
 * (~3.2 MB) is within the 5 MB upload limit.
 */
function largestCover(): Buffer {
  const png = new PNG({width: 2480, height: 3508})
  for (let y = 0; y < 3508; y++) {
    for (let column = 0; column < 2480; column++) {
      let x = (((column / 3) | 0) * 73856093) ^ (((y / 3) | 0) * 19349663)
      x = (x * 1103515245 + 12345) & 0x7fffffff
      const at = (y * 2480 + column) * 4
      png.data[at] = x & 0xff
      png.data[at + 1] = (x >> 8) & 0xff
      png.data[at + 2] = (x >> 16) & 0xff
      png.data[at + 3] = 255
    }
  }
  return PNG.sync.write(png, {deflateLevel: 9})
}

let sb: SandboxProcess
// Made before the sandbox starts: seconds of CPU between two requests would let the server close an
// idle keep-alive connection just as the client reuses it.
let cover: Buffer
beforeAll(async () => {
  cover = largestCover()
  sb = await startSandboxProcess()
}, 120_000)
afterAll(async () => {
  // What the process said if it died (a crash must show in the failure, not hide behind "fetch failed").
  if (sb?.exited()) process.stderr.write(`sandbox exited ${JSON.stringify(sb.exited())}: ${sb.stderr()}\n`)
  await sb?.stop()
})

const json = {'content-type': 'application/json'}
async function api(method: string, path: string, body?: unknown): Promise<{status: number; body: any}> {
  const headers: Record<string, string> = {'x-api-key': sb.keys.sandbox, ...(body === undefined ? {} : json)}
  if (method === 'POST' && path === '/v1/invoices') headers['idempotency-key'] = crypto.randomUUID()
  const response = await fetch(`${sb.url}${path}`, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)})
  return {status: response.status, body: await response.json()}
}

async function upload(bytes: Buffer): Promise<{status: number; body: any; fileUrl: string}> {
  const slot = await api('POST', '/v1/files/upload-url', {filename: 'cover.png', content_type: 'image/png', size: bytes.length})
  expect(slot.status, JSON.stringify(slot.body)).toBe(201)
  const put = await fetch(slot.body.upload_url, {method: 'PUT', body: bytes, headers: {'content-type': 'image/png'}})
  return {status: put.status, body: await put.json(), fileUrl: slot.body.file_url}
}

/** The sandbox process's resident memory, MB. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024
}

describe('the pixel budget', () => {
  it('is an A4 page at 300 dpi', () => {
    expect(MAX_IMAGE_PIXELS).toBe(2480 * 3508)
  })

  // The zeros deflated run-length (Z_RLE): the same image data, a stream of the same size (~1/1000
  // of the data) as the default strategy's, made with a fifth of its CPU.
  const zeros = (bytes: number) => deflateSync(Buffer.alloc(bytes), {strategy: constants.Z_RLE})
  it.each([
    ['10000 × 10000 of zeros, within the side limit', craftedPng(10_000, 10_000, zeros(10_000 * 40_001))],
    ['2481 × 3508, one column over', craftedPng(2481, 3508, zeros(3508 * (2481 * 4 + 1)))],
    // Its data is not even zlib: the header alone refuses it (nothing was decoded).
    ['3000 × 3000 whose data is garbage', craftedPng(3000, 3000, Buffer.from('not zlib at all'))],
  ])('%s: 400 naming the limit, from the header', async (_label, bytes) => {
    const before = rssMb(sb.pid)
    const reply = await upload(bytes)
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0].field).toBe('body')
    expect(reply.body.errors[0].message).toMatch(/at most 8 699 840 pixels|at most 8,699,840 pixels/)
    // Refused without decoding: the process did not grow by the image's decoded size.
    expect(rssMb(sb.pid) - before).toBeLessThan(150)
  }, 60_000)

  it('2480 × 3508 is accepted', async () => {
    const reply = await upload(cover)
    expect(reply.status, `${JSON.stringify(reply.body)} ${sb.stderr()}`).toBe(200)
  }, 60_000)
})

describe('PDFs with the largest accepted cover', () => {
  it('20 concurrent PDF fetches of invoices with it: RSS stays under 400 MB', async () => {
    const uploaded = await upload(cover)
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200)
    const pdfUrls: string[] = []
    for (let i = 0; i < 20; i++) {
      const created = await api('POST', '/v1/invoices', {
        customer_name: `Customer ${i}`,
        due_date: '2099-12-31',
        cover_image_url: uploaded.fileUrl,
        items: [{name: 'Bread', price: 500, quantity: i + 1}],
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      expect((await api('POST', `/v1/invoices/${created.body.id}/publish`, {})).status).toBe(200)
      const pdf = await api('GET', `/v1/invoices/${created.body.id}/pdf`)
      expect(pdf.status).toBe(200)
      pdfUrls.push(pdf.body.pdf_url)
    }
    const before = rssMb(sb.pid)
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(sb.pid))), 20)
    try {
      const answers = await Promise.all(pdfUrls.map((url) => fetch(url).then(async (r) => ({status: r.status, bytes: (await r.arrayBuffer()).byteLength}))))
      for (const answer of answers) expect(answer.status).toBe(200)
      // Downscaled for the page: each PDF is far smaller than the cover's decoded 35 MB.
      for (const answer of answers) expect(answer.bytes).toBeLessThan(4 * 1024 * 1024)
    } finally {
      clearInterval(sampler)
    }
    peak = Math.max(peak, rssMb(sb.pid))
    process.stderr.write(`images-budget: RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB through 20 concurrent PDF fetches\n`)
    expect(peak).toBeLessThan(400)
  }, 180_000)
})
