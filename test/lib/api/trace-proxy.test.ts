import {afterEach, describe, expect, it} from 'vitest'
import {createClient, createRedactor, type ApiClient, type ClientOptions} from '../../../src/lib/api/index.js'
import {ApiError} from '../../../src/lib/errors.js'
import {maskSecret} from '../../../src/contract/keys.js'
import {fakeClock, json, startProxy, TEST_KEY, USER_AGENT, useServers} from './helpers.js'

const {servers, clients, serve} = useServers()
const PROXY_VARS = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'] as const
const savedEnv = Object.fromEntries(PROXY_VARS.map((name) => [name, process.env[name]]))

afterEach(async () => {
  for (const name of PROXY_VARS) {
    if (savedEnv[name] === undefined) delete process.env[name]
    else process.env[name] = savedEnv[name]
  }
})

function client(baseUrl: string, extra: Partial<ClientOptions> = {}): ApiClient {
  const clock = fakeClock()
  const c = createClient({baseUrl, apiKey: TEST_KEY, userAgent: USER_AGENT, clock, random: () => 0.5, ...extra})
  clients.push(c)
  return c
}

describe('--verbose trace', () => {
  it('shows method, URL, status, duration, headers, Idempotency-Key and retries, never the key', async () => {
    // The server echoes the key everywhere it can: a header, the error body, the success body.
    const server = await serve((req, res, _got, index) => {
      const key = String(req.headers['x-api-key'])
      if (index === 0) json(res, 503, {message: `key ${key} is busy`}, {'x-echo': key, 'retry-after': '1'})
      else json(res, 201, {id: 'inv_1', echoed: key}, {'x-echo': key, 'x-request-id': 'req_7'})
    })
    const lines: string[] = []
    const c = client(`${server.url}/`, {trace: (line) => lines.push(line)})
    await c.request({method: 'POST', path: '/v1/invoices', query: {k: TEST_KEY}, body: {a: 1}, idempotencyKey: 'idem-trace-1'})
    const trace = lines.join('\n')
    expect(trace).not.toContain(TEST_KEY)
    expect(trace).toContain(maskSecret(TEST_KEY))
    expect(trace).toMatch(new RegExp(`> POST ${server.url}/v1/invoices\\?k=\\S+ \\(attempt 1/5\\)`))
    expect(trace).toContain('(attempt 2/5)')
    expect(trace).toContain(`> X-API-Key: ${maskSecret(TEST_KEY)}`)
    expect(trace).toContain('> Idempotency-Key: idem-trace-1')
    expect(trace).toContain(`> User-Agent: ${USER_AGENT}`)
    expect(trace).toMatch(/< 503 Service Unavailable \(\d+ ms, \d+ bytes\)/)
    expect(trace).toMatch(/< 201 Created \(\d+ ms, \d+ bytes\)/)
    expect(trace).toContain('< x-request-id: req_7')
    expect(trace).toContain('* retry 1/4 in 1000 ms after 503 Service Unavailable')
  })

  it('error messages never carry the key either', async () => {
    const server = await serve((req, res) => {
      res.writeHead(500, {'content-type': 'text/html'})
      res.end(`<html><body>bad key ${String(req.headers['x-api-key'])}</body></html>`)
    })
    const error = (await client(server.url, {retry: {maxRetries: 0}})
      .request({method: 'GET', path: '/v1/payments'})
      .catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.message).not.toContain(TEST_KEY)
    expect(error.message).toContain(maskSecret(TEST_KEY))
  })

  it('createRedactor replaces every occurrence', () => {
    const redact = createRedactor(TEST_KEY)
    expect(redact(`${TEST_KEY} and ${TEST_KEY}`)).toBe(`${maskSecret(TEST_KEY)} and ${maskSecret(TEST_KEY)}`)
    expect(createRedactor(undefined)('same')).toBe('same')
  })
})

describe('proxy environment variables', () => {
  it('HTTP_PROXY routes requests through the proxy', async () => {
    const server = await serve((_req, res) => json(res, 200, {ok: true}))
    const proxy = await startProxy()
    servers.push(proxy)
    process.env.HTTP_PROXY = proxy.url
    delete process.env.NO_PROXY
    delete process.env.no_proxy
    const c = client(server.url)
    const response = await c.request<{ok: boolean}>({method: 'GET', path: '/v1/payments'})
    await c.request({method: 'GET', path: '/v1/payments'})
    expect(response.data.ok).toBe(true)
    expect(proxy.count()).toBeGreaterThanOrEqual(1)
    expect(proxy.targets[0]).toContain(`127.0.0.1:${server.port}`)
    expect(server.received).toHaveLength(2)
  })

  it('NO_PROXY bypasses the proxy', async () => {
    const server = await serve((_req, res) => json(res, 200, {ok: true}))
    const proxy = await startProxy()
    servers.push(proxy)
    process.env.HTTP_PROXY = proxy.url
    process.env.NO_PROXY = 'localhost,127.0.0.1'
    await client(server.url).request({method: 'GET', path: '/v1/payments'})
    expect(server.received).toHaveLength(1)
    expect(proxy.count()).toBe(0)
  })

  it('a proxy that is down is a network error', async () => {
    const server = await serve((_req, res) => json(res, 200, {ok: true}))
    const proxy = await startProxy()
    await proxy.close()
    process.env.HTTP_PROXY = proxy.url
    const error = await client(server.url, {retry: {maxRetries: 0}})
      .request({method: 'GET', path: '/v1/payments'})
      .catch((e: unknown) => e)
    expect((error as {code?: string}).code).toBe('not_connected')
    expect(server.received).toHaveLength(0)
  })
})
