// Whatever a client sends, the sandbox answers it and keeps serving (docs/service.md, "Limits";
// docs/sandbox.md, "Durability").
import {request} from 'node:http'
import {describe, expect, it, test as base} from 'vitest'
import {PNG_HUGE, PNG_NOT_ZLIB, craftedPng, realJpeg, realPng, webp} from '../helpers/images.js'
import {startSandboxProcess, type SandboxProcess} from '../helpers/sandbox-process.js'
import type {SandboxContext} from '../../src/sandbox/index.js'
import {harness, withHarness, type Harness} from './helpers.js'
import {invoiceBody, publishInvoice, submitCheckout} from './invoices-helpers.js'

async function json(url: string, init: RequestInit = {}): Promise<{status: number; body: any; headers: Headers}> {
  const response = await fetch(url, init)
  const text = await response.text()
  return {status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), headers: response.headers}
}

/** A served sandbox, a child process of its own: whether it lives on is what is tested. */
const itProcess = base.extend<{sb: SandboxProcess}>({
  sb: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const sb = await startSandboxProcess()
      try {
        await use(sb)
      } finally {
        await sb.stop()
      }
    },
    {scope: 'file'},
  ],
})

const logged: string[] = []
const itHostile = withHarness({
  log: (line: string) => logged.push(line),
  domains: [
    (ctx: SandboxContext) =>
      ctx.router.add({
        method: 'GET',
        path: '/v1/_test/throws',
        auth: 'none',
        responses: {200: {description: 'never'}},
        handler: () => {
          throw new Error('secret detail: /home/user/.config at line 42')
        },
      }),
  ],
})
const itImages = withHarness()
const itPdf = withHarness()
/** The rate-limit tests: a fresh sandbox each, as the limit counts per address. */
const itLimited = base.extend<{h: Harness}>({
  // eslint-disable-next-line no-empty-pattern
  h: async ({}, use) => {
    const h = await harness({rateLimit: 3})
    try {
      await use(h)
    } finally {
      await h.close()
    }
  },
})

describe('a crafted image never stops the process', () => {
  const api = (sb: SandboxProcess, method: string, path: string, body?: unknown) =>
    json(`${sb.url}${path}`, {method, headers: {'x-api-key': sb.keys.sandbox, 'content-type': 'application/json'}, body: body === undefined ? undefined : JSON.stringify(body)})

  itProcess.for([
    ['image data that is not zlib', PNG_NOT_ZLIB],
    ['an IHDR declaring 60000 × 60000', PNG_HUGE],
  ] as const)('a PNG with %s: refused at the PUT, and the PDF of an invoice that tries to use it still answers', async ([_label, bytes], {sb}) => {
    const upload = await api(sb, 'POST', '/v1/files/upload-url', {filename: 'cover.png', content_type: 'image/png', size: bytes.length})
    expect(upload.status).toBe(201)
    const put = await json(upload.body.upload_url, {method: 'PUT', body: bytes, headers: {'content-type': 'image/png'}})
    // Whether or not the cover was taken, the invoice's PDF link answers and the process lives on.
    const created = await api(sb, 'POST', '/v1/invoices', invoiceBody({cover_image_url: upload.body.file_url}))
    const invoice = created.status === 201 ? created.body : (await api(sb, 'POST', '/v1/invoices', invoiceBody())).body
    const published = await api(sb, 'POST', `/v1/invoices/${invoice.id}/publish`)
    const pdf = await fetch(published.body.pdf_url).then((r) => r.status, (error: Error) => error.message)
    // The process lives on: it serves the next request, after the render, and has not exited.
    expect((await api(sb, 'GET', '/v1/payments')).status).toBe(200)
    expect(sb.exited()).toBeUndefined()
    expect(pdf).toBe(200)
    expect(put.status).toBe(400)
    expect(put.body.errors[0].field).toBe('body')
  })
})

describe('the document worker', () => {
  it('a decoder that throws from its own callback ends the worker, not the process: later jobs are served', async () => {
    const {DocumentWorker} = await import('../../src/sandbox/invoices/document-worker.js')
    const documents = new DocumentWorker()
    try {
      const h = await harness()
      const invoice = await publishInvoice(h)
      await h.close()
      // Bypassing the PUT's check, as an old data file could: pdfkit's PNG decoder throws from a zlib callback.
      const bad = await documents.run({kind: 'pdf', input: {invoice, businessName: 'B', cover: PNG_NOT_ZLIB}}).then(
        () => 'rendered',
        (error: Error) => error.message,
      )
      // pdfkit may finish the document before its decoder's callback throws: then the throw ends the
      // worker a moment later, failing whatever job it holds. Either way, the sandbox goes on.
      expect(bad).toMatch(/rendered|Z_DATA_ERROR|incorrect header check|worker/)
      let good: Uint8Array | undefined
      for (let attempt = 0; attempt < 3 && !good; attempt++) good = await documents.run({kind: 'pdf', input: {invoice, businessName: 'B'}}).then((r) => r.bytes, () => undefined)
      expect(Buffer.from(good!).subarray(0, 5).toString()).toBe('%PDF-')
    } finally {
      await documents.close()
    }
  })
})

describe('hostile input', () => {
  const raw = (h: Harness, method: string, path: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    json(`${h.sb.url}${path}`, {method, body, headers: {'x-api-key': h.sb.keys.sandbox, 'content-type': 'application/json', ...headers}})

  itHostile('a failure inside one request is a 500 with a generic message, the detail in the log, and the next request is served', async ({h}) => {
    const reply = await json(`${h.sb.url}/v1/_test/throws`)
    expect(reply.status).toBe(500)
    expect(reply.body.code).toBe('internal_error')
    expect(reply.body.message).not.toContain('secret detail')
    expect(logged.join('\n')).toContain('secret detail')
    expect((await h.api('GET', '/v1/payments')).status).toBe(200)
  })

  itHostile('a body over 1 MiB is a 413 payload_too_large that reaches the client', async ({h}) => {
    const big = JSON.stringify({amount: 100, phone_number: '670000001', operator: 'MTN', pad: 'x'.repeat(2 * 1024 * 1024)})
    const reply = await raw(h, 'POST', '/v1/payments', big)
    expect(reply.status).toBe(413)
    expect(reply.body.code).toBe('payload_too_large')
    expect((await h.api('GET', '/v1/payments')).status).toBe(200)
  })

  /** Send `size` bytes in pieces, as a client still sending while the server answers; resolves with the status it reads. */
  function streamed(h: Harness, method: string, path: string, size: number, headers: Record<string, string>): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const req = request(new URL(`${h.sb.url}${path}`), {method, headers: {'content-type': 'application/json', 'content-length': size, ...headers}}, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      const piece = Buffer.alloc(64 * 1024, 0x20)
      let sent = 0
      const pump = () => {
        while (sent < size) {
          const chunk = piece.subarray(0, Math.min(piece.length, size - sent))
          sent += chunk.length
          if (!req.write(chunk)) return void req.once('drain', pump)
        }
        req.end()
      }
      pump()
    })
  }

  itHostile('an answer given before the body is read still reaches a client that is sending it: 401, 404, 405, a GET with a body', async ({h}) => {
    expect(await streamed(h, 'POST', '/v1/payments', 900 * 1024, {})).toBe(401)
    expect(await streamed(h, 'POST', '/v1/nowhere', 900 * 1024, {'x-api-key': h.sb.keys.sandbox})).toBe(404)
    expect(await streamed(h, 'DELETE', '/v1/payments', 900 * 1024, {'x-api-key': h.sb.keys.sandbox})).toBe(405)
    expect(await streamed(h, 'GET', '/v1/openapi.json', 900 * 1024, {})).toBe(200)
  })

  itHostile('a 413 reaches a client that declared the length and is still sending (node:http)', async ({h}) => {
    const url = new URL(`${h.sb.url}/v1/payments`)
    const size = 10 * 1024 * 1024
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, {method: 'POST', headers: {'x-api-key': h.sb.keys.sandbox, 'content-type': 'application/json', 'content-length': size}}, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      const piece = Buffer.alloc(64 * 1024, 0x20)
      let sent = 0
      const pump = () => {
        while (sent < size) {
          sent += piece.length
          if (!req.write(piece)) return void req.once('drain', pump)
        }
        req.end()
      }
      pump()
    })
    expect(status).toBe(413)
  })

  itHostile('JSON nested 10,000 deep, or 33 deep, is a 400 naming the body; 32 is parsed', async ({h}) => {
    for (const depth of [10_000, 33]) {
      const reply = await raw(h, 'POST', '/v1/payments', `${'['.repeat(depth)}${']'.repeat(depth)}`)
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe('validation_error')
      expect(reply.body.message).not.toMatch(/stack/i)
    }
    // 32 levels: parsed, then refused by the schema (an array is not the object expected).
    const ok = await raw(h, 'POST', '/v1/payments', `{"amount": ${'['.repeat(31)}${']'.repeat(31)}, "phone_number": "670000001", "operator": "MTN"}`)
    expect(ok.status).toBe(400)
    expect(ok.body.errors.map((e: any) => e.field)).toEqual(['amount'])
  })

  itHostile.for(['1e300', '9007199254740993', '12.5', '1000000000001', '0', '-5', '1e400', '5000.0000000000000001'])(
    'amount %s is refused, never rounded',
    async (amount, {h}) => {
      const reply = await raw(h, 'POST', '/v1/payments', `{"amount": ${amount}, "phone_number": "670000001", "operator": "MTN"}`)
      expect(reply.status).toBe(400)
      expect(reply.body.errors.map((e: any) => e.field)).toEqual(['amount'])
    },
  )

  itHostile('amount 1 000 000 000 000 is accepted exactly', async ({h}) => {
    const reply = await raw(h, 'POST', '/v1/payments', '{"amount": 1000000000000, "phone_number": "670000001", "operator": "MTN"}')
    expect(reply.status).toBe(201)
    expect(reply.body.amount).toBe(1_000_000_000_000)
  })

  itHostile.for([
    ['price over 10^12', {items: [{name: 'A', price: 1_000_000_000_001, quantity: 1}]}, 'items[0].price'],
    ['quantity over 10^6', {items: [{name: 'A', price: 500, quantity: 1_000_001}]}, 'items[0].quantity'],
    ['a total over 10^15', {items: Array.from({length: 2}, () => ({name: 'A', price: 1_000_000_000_000, quantity: 1_000}))}, 'items'],
  ] as const)('an invoice with %s is refused', async ([_label, overrides, field], {h}) => {
    const reply = await h.api('POST', '/v1/invoices', {body: invoiceBody(overrides)})
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: any) => e.field)).toContain(field)
  })

  itHostile('a quantity written 2.0e0 or 9007199254740993 is refused', async ({h}) => {
    for (const quantity of ['2.0e0', '9007199254740993']) {
      const text = JSON.stringify(invoiceBody({items: [{name: 'A', price: 500, quantity: 1}]})).replace('"quantity":1', `"quantity":${quantity}`)
      const reply = await raw(h, 'POST', '/v1/invoices', text)
      expect(reply.status).toBe(400)
      expect(reply.body.errors.map((e: any) => e.field)).toEqual(['items[0].quantity'])
    }
  })

  itHostile.for(['\u0000', '\u0007', '\u001b[31m', '\u007f', '\u0085', '\u009b'])('a control character (%j) in a string is refused', async (control, {h}) => {
    const reply = await h.api('POST', '/v1/invoices', {body: invoiceBody({customer_name: `Awa${control}Bakery`})})
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: any) => e.field)).toEqual(['customer_name'])
  })

  itHostile('tabs and line breaks are kept', async ({h}) => {
    const reply = await h.api('POST', '/v1/invoices', {body: invoiceBody({notes: 'Line 1\r\nLine 2\n\tindented'})})
    expect(reply.status).toBe(201)
    expect(reply.body.notes).toBe('Line 1\r\nLine 2\n\tindented')
  })

  itHostile('invalid UTF-8 is refused, never replaced', async ({h}) => {
    const body = Buffer.concat([Buffer.from('{"amount": 100, "phone_number": "670000001", "operator": "MTN", "x": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])
    const reply = await raw(h, 'POST', '/v1/payments', body)
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: any) => e.field)).toEqual(['body'])
    const inName = Buffer.concat([Buffer.from(JSON.stringify(invoiceBody()).replace('Awa Bakery', 'Awa')).subarray(0, 20), Buffer.from([0xc3, 0x28])])
    expect((await raw(h, 'POST', '/v1/invoices', inName)).status).toBe(400)
  })

  itHostile.for(['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'])('a field named %s is an unknown field', async (name, {h}) => {
    const reply = await raw(h, 'POST', '/v1/payments', `{"amount": 100, "phone_number": "670000001", "operator": "MTN", "${name}": {"amount": 5}}`)
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: any) => e.field)).toEqual([name])
    const item = JSON.stringify(invoiceBody()).replace('"quantity":3', `"quantity":3,"${name}":1`)
    const nested = await raw(h, 'POST', '/v1/invoices', item)
    expect(nested.status).toBe(400)
    expect(nested.body.errors.map((e: any) => e.field)).toEqual([`items[0].${name}`])
  })

  itHostile('every string a request may carry has a published maximum length', async ({h}) => {
    const doc = (await h.api('GET', '/v1/openapi.json', {key: null})).body
    const unbounded: string[] = []
    const walk = (schema: any, where: string) => {
      if (!schema) return
      if (schema.$ref) return walk(doc.components.schemas[schema.$ref.split('/').pop()], where)
      const types = [schema.type].flat()
      if (types.includes('string') && !schema.enum && schema.maxLength === undefined) unbounded.push(where)
      for (const [name, child] of Object.entries(schema.properties ?? {})) walk(child, `${where}.${name}`)
      if (schema.items) walk(schema.items, `${where}[]`)
    }
    for (const [path, item] of Object.entries<any>(doc.paths))
      for (const [method, operation] of Object.entries<any>(item)) {
        walk(operation.requestBody?.content?.['application/json']?.schema, `${method} ${path}`)
        for (const parameter of operation.parameters ?? []) walk(parameter.schema, `${method} ${path} ${parameter.name}`)
      }
    expect(unbounded).toEqual([])
    const create = doc.components.schemas.CreateInvoiceRequest.properties
    expect([create.customer_name.maxLength, create.external_reference.maxLength, create.notes.maxLength, create.customer_email.maxLength]).toEqual([200, 200, 2000, 254])
    const item = doc.components.schemas.LineItem.properties
    expect([item.name.maxLength, item.description.maxLength]).toEqual([200, 1000])
  })
})

describe('uploaded images are checked at the PUT', () => {
  async function put(h: Harness, bytes: Buffer, contentType: string): Promise<{status: number; body: any}> {
    const url = await h.api('POST', '/v1/files/upload-url', {body: {filename: 'cover', content_type: contentType, size: bytes.length}})
    return json(url.body.upload_url, {method: 'PUT', body: bytes, headers: {'content-type': contentType}})
  }

  itImages.for([
    ['a real PNG', realPng(), 'image/png'],
    ['a real JPEG', realJpeg(), 'image/jpeg'],
    ['a WebP', webp(640, 480), 'image/webp'],
    ['a 10000 × 1 PNG', realPng(10_000, 1), 'image/png'],
  ] as const)('%s is stored', async ([_label, bytes, type], {h}) => {
    expect((await put(h, bytes, type)).status).toBe(200)
  })

  itImages.for([
    ['a PNG whose data is not zlib', PNG_NOT_ZLIB, 'image/png'],
    ['a PNG declaring 60000 × 60000', PNG_HUGE, 'image/png'],
    ['a PNG declaring 10001 × 1', craftedPng(10_001, 1, Buffer.alloc(0)), 'image/png'],
    ['a truncated PNG', realPng(64, 64).subarray(0, 60), 'image/png'],
    ['a JPEG signature and noise', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]), 'image/jpeg'],
    ['a WebP of 20000 × 8', webp(16_000, 8), 'image/webp'],
    ['a RIFF WEBP with no image chunk', Buffer.concat([Buffer.from('RIFF'), Buffer.from([20, 0, 0, 0]), Buffer.from('WEBPJUNK'), Buffer.alloc(12)]), 'image/webp'],
  ] as const)('%s is a 400 naming the body', async ([_label, bytes, type], {h}) => {
    const reply = await put(h, bytes, type)
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe('validation_error')
    expect(reply.body.errors[0].field).toBe('body')
  })
})

describe('PDFs are rendered once per version and carry an ETag', () => {
  itPdf('the same version answers the same ETag, If-None-Match answers 304, a change answers a new one', async ({h}) => {
    const invoice = await publishInvoice(h)
    const first = await fetch(invoice.pdf_url)
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^"[\w-]+"$/)
    const bytes = Buffer.from(await first.arrayBuffer())
    const again = await fetch(invoice.pdf_url)
    expect(again.headers.get('etag')).toBe(etag)
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true)
    const notModified = await fetch(invoice.pdf_url, {headers: {'if-none-match': etag!}})
    expect(notModified.status).toBe(304)
    expect(await notModified.text()).toBe('')
    await h.admin('PUT', '/_admin/business', {language: 'fr'})
    const french = await fetch(invoice.pdf_url, {headers: {'if-none-match': etag!}})
    expect(french.status).toBe(200)
    const frenchTag = french.headers.get('etag')
    expect(frenchTag).not.toBe(etag)
    await h.api('POST', `/v1/invoices/${invoice.id}/cancel`)
    const cancelled = await fetch(invoice.pdf_url, {headers: {'if-none-match': frenchTag!}})
    expect(cancelled.status).toBe(200)
    expect(cancelled.headers.get('etag')).not.toBe(frenchTag)
    await h.admin('PUT', '/_admin/business', {language: 'en'})
  })
})

describe('the checkout form and the keyless signed URLs are rate limited per client address', () => {
  // The harness itself reads /v1/openapi.json without a key: that counts against the address too.
  itLimited('the checkout form: 429 past the limit, per address', async ({h}) => {
    const invoice = await publishInvoice(h)
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await submitCheckout(h, invoice, {phone: 'nope', operator: 'MTN', amount: 100})).status)
    expect(statuses).toEqual([400, 400, 429, 429, 429])
    // The API key's own window is untouched.
    expect((await h.api('GET', '/v1/payments')).status).toBe(200)
  })

  itLimited('the signed PDF URL and the storage host: 429 past the limit, with Retry-After', async ({h}) => {
    const invoice = await publishInvoice(h)
    const statuses: number[] = []
    let last: Response | undefined
    for (let i = 0; i < 4; i++) {
      last = await fetch(invoice.pdf_url)
      statuses.push(last.status)
      await last.arrayBuffer()
    }
    expect(statuses).toEqual([200, 200, 429, 429])
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0)
    const upload = await h.api('POST', '/v1/files/upload-url', {body: {filename: 'a.png', content_type: 'image/png', size: 10}})
    expect((await fetch(upload.body.upload_url, {method: 'PUT', body: Buffer.alloc(10), headers: {'content-type': 'image/png'}})).status).toBe(429)
  })
})
