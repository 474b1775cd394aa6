import {mkdtemp, readdir, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {cacheFileFor, clearDiscoveryMemory, createClient, describeFromOpenApi, discoverService, extractList, FALLBACK_OPERATIONS, fillPath, type ApiClient} from '../../../src/lib/api/index.js'
import {SvcError} from '../../../src/lib/errors.js'
import {closedPort, fakeClock, json, TEST_KEY, USER_AGENT, type TestServer, useServers} from './helpers.js'

/** A service that made other choices than svc's (docs/service.md), in another style. */
const OTHER_SERVICE = {
  openapi: '3.1.0',
  info: {title: 'Other', version: '1'},
  servers: [{url: 'https://api.example.com/v1'}],
  paths: {
    '/payments': {
      get: {operationId: 'listPayments', responses: {'200': {$ref: '#/components/responses/PaymentList'}}},
      post: {operationId: 'createPayment', responses: {'201': {description: 'ok'}}},
    },
    '/payments/{payment_id}': {get: {operationId: 'getPaymentStatus', summary: 'Payment status', responses: {}}},
    '/invoices': {
      get: {
        operationId: 'listInvoices',
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  allOf: [
                    {$ref: '#/components/schemas/Page'},
                    {type: 'object', properties: {invoices: {type: 'array', items: {type: 'object'}}}},
                  ],
                },
              },
            },
          },
        },
      },
      post: {operationId: 'createInvoice', responses: {}},
    },
    '/invoices/{invoice_id}': {
      get: {operationId: 'retrieveInvoice', summary: 'Retrieve an invoice', responses: {}},
      delete: {operationId: 'voidInvoice', summary: 'Void (cancel) an invoice', responses: {}},
    },
    '/invoices/{invoice_id}/actions/finalize': {
      post: {operationId: 'finalizeInvoice', summary: 'Finalize an invoice, optionally send it', responses: {}},
    },
    '/invoices/{invoice_id}/document.pdf': {get: {operationId: 'invoiceDocument', responses: {}}},
    '/invoices/{invoice_id}/deliveries': {post: {operationId: 'deliverInvoice', summary: 'Deliver by email or WhatsApp', responses: {}}},
    '/uploads': {post: {operationId: 'createUpload', summary: 'Get an upload URL for a file', responses: {}}},
  },
  components: {
    responses: {
      PaymentList: {
        content: {'application/json': {schema: {$ref: '#/components/schemas/PaymentList'}}},
      },
    },
    schemas: {
      PaymentList: {
        type: 'object',
        properties: {results: {type: 'array', items: {}}, count: {type: 'integer'}, hasMore: {type: 'boolean'}},
      },
      Page: {type: 'object', properties: {total_count: {type: 'integer'}, page: {type: 'integer'}}},
    },
  },
}

/** svc's choices (docs/service.md), as the local sandbox publishes them. */
const CONTRACT_SERVICE = {
  openapi: '3.1.0',
  info: {title: 'svc', version: '1'},
  paths: Object.fromEntries(
    Object.entries(FALLBACK_OPERATIONS)
      .filter(([name]) => name !== 'openapi')
      .reduce((acc, [name, op]) => {
        const item = acc.get(op.path) ?? {}
        item[op.method.toLowerCase()] = {
          operationId: name.replace(/\.(\w)/, (_m, c: string) => c.toUpperCase()),
          responses:
            name === 'payment.list'
              ? {'200': {content: {'application/json': {schema: {type: 'object', properties: {data: {type: 'array'}, total: {}, has_more: {}}}}}}}
              : {},
        }
        acc.set(op.path, item)
        return acc
      }, new Map<string, Record<string, unknown>>()),
  ),
}

describe('describeFromOpenApi', () => {
  it('finds every operation of a service that made other choices', () => {
    const {operations, lists} = describeFromOpenApi(OTHER_SERVICE)
    const pick = (name: keyof typeof operations) => `${operations[name].method} ${operations[name].path} ${operations[name].source}`
    expect(pick('invoice.get')).toBe('GET /v1/invoices/{invoice_id} openapi')
    expect(pick('invoice.publish')).toBe('POST /v1/invoices/{invoice_id}/actions/finalize openapi')
    expect(pick('invoice.cancel')).toBe('DELETE /v1/invoices/{invoice_id} openapi')
    expect(pick('invoice.pdf')).toBe('GET /v1/invoices/{invoice_id}/document.pdf openapi')
    expect(pick('invoice.send')).toBe('POST /v1/invoices/{invoice_id}/deliveries openapi')
    expect(pick('files.uploadUrl')).toBe('POST /v1/uploads openapi')
    expect(pick('payment.status')).toBe('GET /v1/payments/{payment_id} openapi')
    expect(pick('payment.create')).toBe('POST /v1/payments openapi')
    expect(pick('invoice.list')).toBe('GET /v1/invoices openapi')
    expect(lists.payments).toEqual({itemsKey: 'results', totalKey: 'count', hasMoreKey: 'hasMore'})
    expect(lists.invoices).toEqual({itemsKey: 'invoices', totalKey: 'total_count', hasMoreKey: undefined})
  })

  it('reads the contract choices as they are published', () => {
    const {operations, lists} = describeFromOpenApi(CONTRACT_SERVICE)
    for (const [name, op] of Object.entries(FALLBACK_OPERATIONS)) {
      if (name === 'openapi') continue
      expect(operations[name as keyof typeof operations], name).toMatchObject({...op, source: 'openapi'})
    }
    expect(lists.payments).toEqual({itemsKey: 'data', totalKey: 'total', hasMoreKey: 'has_more'})
  })

  it('fills what the document is silent on from the built-in choices (docs/service.md)', () => {
    const silent = {openapi: '3.1.0', paths: {'/v1/invoices/{id}': {get: {responses: {}}}}}
    const {operations} = describeFromOpenApi(silent)
    expect(operations['invoice.get']).toMatchObject({path: '/v1/invoices/{id}', source: 'openapi'})
    expect(operations['invoice.publish']).toEqual({...FALLBACK_OPERATIONS['invoice.publish'], source: 'fallback'})
    expect(describeFromOpenApi('garbage').operations['invoice.pdf'].source).toBe('fallback')
  })

  it('fillPath fills the one parameter whatever its name, encoded', () => {
    expect(fillPath('/v1/invoices/{invoice_id}/pdf', 'inv 1/x')).toBe('/v1/invoices/inv%201%2Fx/pdf')
    expect(fillPath('/v1/invoices/{invoiceId}', {invoiceId: 'inv_1'})).toBe('/v1/invoices/inv_1')
    expect(fillPath('/v1/invoices/{id}', {invoiceId: 'inv_2'})).toBe('/v1/invoices/inv_2')
    expect(() => fillPath('/v1/{a}/{b}', 'x')).toThrow()
  })
})

describe('discoverService: fetch, cache, fallback', () => {
  let cacheDir: string
  const {clients, serve} = useServers()

  beforeEach(async () => {
    clearDiscoveryMemory()
    cacheDir = await mkdtemp(join(tmpdir(), 'svc-discovery-'))
  })
  afterEach(async () => {
    await rm(cacheDir, {recursive: true, force: true})
  })

  function client(baseUrl: string): ApiClient {
    const clock = fakeClock()
    const c = createClient({baseUrl, apiKey: TEST_KEY, userAgent: USER_AGENT, ratePerMinute: 0, clock})
    clients.push(c)
    return c
  }
  const openapiHits = (server: TestServer) => server.received.filter((r) => r.url === '/v1/openapi.json').length

  it('reads the served document without a key, caches it, and refetches after the TTL', async () => {
    const server = await serve((_req, res) => json(res, 200, OTHER_SERVICE))
    const clock = fakeClock()
    const c = client(server.url)
    const first = await discoverService(c, {cacheDir, clock})
    expect(first.source).toBe('network')
    expect(first.operations['invoice.publish'].path).toBe('/v1/invoices/{invoice_id}/actions/finalize')
    expect(server.received[0]!.headers['x-api-key']).toBeUndefined()
    const files = await readdir(cacheDir)
    expect(files).toEqual([(await cacheFileFor(cacheDir, server.url)).split('/').at(-1)])

    clearDiscoveryMemory() // as a new process would
    clock.advance(59 * 60 * 1000)
    const second = await discoverService(c, {cacheDir, clock})
    expect(second.source).toBe('cache')
    expect(second.operations['invoice.publish'].path).toBe('/v1/invoices/{invoice_id}/actions/finalize')
    expect(openapiHits(server)).toBe(1)

    clearDiscoveryMemory()
    clock.advance(2 * 60 * 1000) // past the hour
    const third = await discoverService(c, {cacheDir, clock})
    expect(third.source).toBe('network')
    expect(openapiHits(server)).toBe(2)
  })

  it('remembers within the process too (no second read)', async () => {
    const server = await serve((_req, res) => json(res, 200, CONTRACT_SERVICE))
    const c = client(server.url)
    await discoverService(c)
    await discoverService(c)
    expect(openapiHits(server)).toBe(1)
  })

  it('one cache file per base URL', async () => {
    const a = await serve((_req, res) => json(res, 200, OTHER_SERVICE))
    const b = await serve((_req, res) => json(res, 200, CONTRACT_SERVICE))
    const fromA = await discoverService(client(a.url), {cacheDir})
    const fromB = await discoverService(client(b.url), {cacheDir})
    expect(fromA.operations['invoice.pdf'].path).toBe('/v1/invoices/{invoice_id}/document.pdf')
    expect(fromB.operations['invoice.pdf'].path).toBe('/v1/invoices/{invoiceId}/pdf')
    expect(await readdir(cacheDir)).toHaveLength(2)
  })

  it('ignores a corrupt cache file', async () => {
    const server = await serve((_req, res) => json(res, 200, OTHER_SERVICE))
    await writeFile(await cacheFileFor(cacheDir, server.url), '{"baseUrl": "trunc')
    const description = await discoverService(client(server.url), {cacheDir})
    expect(description.source).toBe('network')
    expect(openapiHits(server)).toBe(1)
  })

  it('falls back to the built-in choices on a 404, and does not ask again at once', async () => {
    const server = await serve((_req, res) => json(res, 404, {message: 'not found', code: 'not_found'}))
    const c = client(server.url)
    const lines: string[] = []
    const description = await discoverService(c, {cacheDir, trace: (line) => lines.push(line)})
    expect(lines).toEqual([expect.stringMatching(/^\* operations from svc's built-in description \(.*not found/)])
    expect(description.source).toBe('fallback')
    expect(description.fallbackReason).toContain('not found')
    expect(description.operations['invoice.cancel']).toEqual({...FALLBACK_OPERATIONS['invoice.cancel'], source: 'fallback'})
    expect(description.lists.invoices.itemsKey).toBe('data')
    clearDiscoveryMemory()
    await discoverService(c, {cacheDir})
    expect(openapiHits(server)).toBe(1)
  })

  it('falls back on garbage: an HTML page, or JSON that is not OpenAPI', async () => {
    const html = await serve((_req, res) => {
      res.writeHead(200, {'content-type': 'text/html'})
      res.end('<html>hello</html>')
    })
    const notOpenApi = await serve((_req, res) => json(res, 200, {hello: 'world'}))
    for (const server of [html, notOpenApi]) {
      const description = await discoverService(client(server.url), {cacheDir})
      expect(description.source).toBe('fallback')
      expect(description.operations['invoice.get'].path).toBe('/v1/invoices/{invoiceId}')
    }
  })

  it('falls back, without failing or retrying, when the service is unreachable', async () => {
    const port = await closedPort()
    const description = await discoverService(client(`http://127.0.0.1:${port}`), {cacheDir})
    expect(description.source).toBe('fallback')
    expect(description.operations['invoice.publish'].path).toBe('/v1/invoices/{invoiceId}/publish')
    // Nothing remembered: the next command asks again.
    expect(await readdir(cacheDir)).toEqual([])
  })
})

describe('extractList', () => {
  it('a bare array', () => {
    expect(extractList([1, 2])).toEqual({items: [1, 2]})
  })

  it('the contract envelopes', () => {
    expect(extractList({data: [1], limit: 1, offset: 0, total: 3, has_more: true})).toEqual({items: [1], total: 3, hasMore: true})
    expect(extractList({data: [1, 2], page: 2, page_size: 2, total: 4, total_pages: 2})).toEqual({items: [1, 2], total: 4, hasMore: false})
    expect(extractList({data: [1], limit: 1, offset: 1, total: 3})).toEqual({items: [1], total: 3, hasMore: true})
  })

  it('each envelope key, and the one the description names first', () => {
    for (const key of ['data', 'items', 'results', 'payments', 'invoices']) {
      expect(extractList({[key]: ['x']}).items, key).toEqual(['x'])
    }
    expect(extractList({data: ['meta'], payments: ['p']}, {itemsKey: 'payments'}).items).toEqual(['p'])
    expect(extractList({results: [1], count: 9, hasMore: false}, {itemsKey: 'results', totalKey: 'count'})).toEqual({
      items: [1],
      total: 9,
      hasMore: false,
    })
    expect(extractList({data: [1]}, 'payments').items).toEqual([1])
  })

  it('an unrecognised shape is a readable error, not a crash', () => {
    expect(() => extractList({rows: 'x', n: 1})).toThrow(SvcError)
    expect(() => extractList({rows: 'x'})).toThrow(/rows/)
    expect(() => extractList(null)).toThrow(SvcError)
    expect(() => extractList('text')).toThrow(SvcError)
  })
})
