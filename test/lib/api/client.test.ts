import {readdir, readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {buildUserAgent, createClient, type ApiClient} from '../../../src/lib/api/index.js'
import {ApiError} from '../../../src/lib/errors.js'
import {fakeClock, json, TEST_KEY, USER_AGENT, useServers} from './helpers.js'

const {clients, serve} = useServers()

function client(baseUrl: string, extra: Partial<Parameters<typeof createClient>[0]> = {}): ApiClient {
  const clock = fakeClock()
  const c = createClient({baseUrl, apiKey: TEST_KEY, userAgent: USER_AGENT, clock, ...extra})
  clients.push(c)
  return c
}

describe('createClient: requests', () => {
  it('sends JSON with the key, user agent, accept and idempotency key, and reads the answer', async () => {
    const server = await serve((_req, res) =>
      json(res, 201, {id: 'inv_test_1', status: 'DRAFT'}, {'x-request-id': 'req_123', 'idempotent-replayed': 'true'}),
    )
    const response = await client(server.url).request<{id: string}>({
      method: 'post',
      path: '/v1/invoices',
      body: {customer_name: 'Awa Bakery'},
      idempotencyKey: 'key-1',
      query: {a: 1, skip: undefined, list: ['x', 'y']},
    })
    expect(response.status).toBe(201)
    expect(response.data.id).toBe('inv_test_1')
    expect(response.requestId).toBe('req_123')
    expect(response.replayed).toBe(true)
    const got = server.received[0]!
    expect(got.method).toBe('POST')
    expect(got.url).toBe('/v1/invoices?a=1&list=x&list=y')
    expect(got.headers['x-api-key']).toBe(TEST_KEY)
    expect(got.headers['user-agent']).toBe(USER_AGENT)
    expect(got.headers['content-type']).toBe('application/json')
    expect(got.headers.accept).toBe('application/json')
    expect(got.headers['idempotency-key']).toBe('key-1')
    expect(JSON.parse(got.body)).toEqual({customer_name: 'Awa Bakery'})
  })

  it('keeps a base URL path prefix and reads request_id from the body', async () => {
    const server = await serve((_req, res) => json(res, 200, {request_id: 'req_body', data: []}))
    const response = await client(`${server.url}/api/`).request({method: 'GET', path: '/v1/payments'})
    expect(server.received[0]!.url).toBe('/api/v1/payments')
    expect(response.requestId).toBe('req_body')
    expect(response.replayed).toBe(false)
  })

  it('auth: false sends no key; an empty 2xx body is undefined data', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(204)
      res.end()
    })
    const response = await client(server.url).request({method: 'POST', path: '/v1/x', auth: false})
    expect(response.status).toBe(204)
    expect(response.data).toBeUndefined()
    expect(server.received[0]!.headers['x-api-key']).toBeUndefined()
  })

  it('absolute URLs: the key goes only to the base URL origin', async () => {
    const api = await serve((_req, res) => json(res, 200, {ok: true}))
    const storage = await serve((_req, res) => {
      res.writeHead(200, {'content-type': 'application/pdf'})
      res.end(Buffer.from('%PDF-1.7 bytes'))
    })
    const c = client(api.url)
    await c.request({method: 'GET', path: `${api.url}/v1/invoices/inv_1`})
    const pdf = await c.request<Buffer>({
      method: 'GET',
      path: `${storage.url}/signed/inv_1.pdf?sig=abc`,
      responseType: 'buffer',
      headers: {'X-API-Key': TEST_KEY},
    })
    expect(api.received[0]!.headers['x-api-key']).toBe(TEST_KEY)
    expect(storage.received[0]!.headers['x-api-key']).toBeUndefined()
    expect(Buffer.isBuffer(pdf.data)).toBe(true)
    expect(pdf.data.toString()).toBe('%PDF-1.7 bytes')
  })

  it('follows a GET redirect to another origin without the key', async () => {
    const storage = await serve((_req, res) => json(res, 200, {ok: 'storage'}))
    const api = await serve((_req, res) => {
      res.writeHead(302, {location: `${storage.url}/file`})
      res.end()
    })
    const response = await client(api.url).request<{ok: string}>({method: 'GET', path: '/v1/invoices/inv_1/pdf'})
    expect(response.data.ok).toBe('storage')
    expect(api.received[0]!.headers['x-api-key']).toBe(TEST_KEY)
    expect(storage.received[0]!.headers['x-api-key']).toBeUndefined()
  })

  it('PUTs raw bytes with the caller content type (upload_url)', async () => {
    const storage = await serve((_req, res) => {
      res.writeHead(200)
      res.end()
    })
    const api = await serve((_req, res) => json(res, 200, {}))
    await client(api.url).request({
      method: 'PUT',
      path: `${storage.url}/upload/abc`,
      rawBody: Buffer.from('PNGDATA'),
      headers: {'Content-Type': 'image/png'},
    })
    const got = storage.received[0]!
    expect(got.body).toBe('PNGDATA')
    expect(got.headers['content-type']).toBe('image/png')
    expect(got.headers['x-api-key']).toBeUndefined()
  })

  it('a 4xx JSON error becomes an ApiError with every field of the contract', async () => {
    const server = await serve((_req, res) =>
      json(
        res,
        400,
        {message: 'amount must be at least 1', code: 'validation_error', errors: [{field: 'amount', message: 'too small'}], failure_code: 'X'},
        {'x-request-id': 'req_9'},
      ),
    )
    const error = await client(server.url)
      .request({method: 'POST', path: '/v1/payments', body: {amount: 0}})
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    const api = error as ApiError
    expect(api.status).toBe(400)
    expect(api.exitCode).toBe(2)
    expect(api.code).toBe('validation_error')
    expect(api.message).toBe('amount must be at least 1')
    expect(api.errors).toEqual([{field: 'amount', message: 'too small'}])
    expect(api.failureCode).toBe('X')
    expect(api.requestId).toBe('req_9')
  })
})

describe('buildUserAgent', () => {
  it('is svc/<version> node/<version>', () => {
    expect(buildUserAgent('1.2.3', '20.1.0')).toBe('svc/1.2.3 node/20.1.0')
    expect(buildUserAgent('1.2.3')).toBe(`svc/1.2.3 node/${process.versions.node}`)
  })
})

describe('start-up cost', () => {
  it('no module of src/lib/api imports undici at the top level (only `import type`)', async () => {
    const dir = join(import.meta.dirname, '../../../src/lib/api')
    const files = (await readdir(dir)).filter((f) => f.endsWith('.ts'))
    expect(files.length).toBeGreaterThan(3)
    for (const file of files) {
      const source = await readFile(join(dir, file), 'utf8')
      const staticImports = [...source.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1])
      expect(staticImports, file).not.toContain('undici')
    }
  })
})
