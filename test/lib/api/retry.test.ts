import {describe, expect, it, vi} from 'vitest'
import {backoffDelayMs, createClient, DEFAULT_RETRY, parseRetryAfter, retryDecision, type ClientOptions} from '../../../src/lib/api/index.js'
import {ApiError, NetworkError} from '../../../src/lib/errors.js'
import {fakeClock, json, TEST_KEY, USER_AGENT, type Handler, useServers} from './helpers.js'

const {clients, serve} = useServers()

function setup(baseUrl: string, extra: Partial<ClientOptions> = {}) {
  const clock = fakeClock()
  const lines: string[] = []
  const client = createClient({
    baseUrl,
    apiKey: TEST_KEY,
    userAgent: USER_AGENT,
    clock,
    random: () => 0.5,
    ratePerMinute: 0,
    trace: (line) => lines.push(line),
    ...extra,
  })
  clients.push(client)
  return {client, clock, lines}
}

/** Fails `failures` times with `status` (and headers), then answers 200. */
function flaky(failures: number, status: number, headers: Record<string, string> = {}): Handler {
  return (_req, res, _got, index) => {
    if (index < failures) json(res, status, {message: `failure ${index}`, code: 'x'}, headers)
    else json(res, 200, {ok: true, attempt: index + 1})
  }
}

describe('retries of safe reads', () => {
  it('retries 503 with exponential backoff and full jitter, then succeeds', async () => {
    const server = await serve(flaky(3, 503))
    const {client, clock} = setup(server.url)
    const response = await client.request<{attempt: number}>({method: 'GET', path: '/v1/payments'})
    expect(response.data.attempt).toBe(4)
    expect(server.received).toHaveLength(4)
    // random() = 0.5 of min(8000, 500 * 2^(n-1)).
    expect(clock.sleeps).toEqual([250, 500, 1000])
  })

  it('stops after maxRetries and throws the last error (429 → exit 6)', async () => {
    const server = await serve((_req, res, _got, index) => json(res, 429, {message: `slow down ${index}`, code: 'rate_limited'}))
    const {client, clock} = setup(server.url)
    const error = (await client.request({method: 'GET', path: '/v1/payments'}).catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(429)
    expect(error.exitCode).toBe(6)
    expect(error.message).toBe('slow down 4')
    expect(server.received).toHaveLength(1 + DEFAULT_RETRY.maxRetries)
    expect(clock.sleeps).toEqual([250, 500, 1000, 2000])
  })

  it('caps the backoff at maxDelayMs and honours a custom retry count', async () => {
    const server = await serve((_req, res) => json(res, 502, {message: 'bad gateway'}))
    const {client, clock} = setup(server.url, {retry: {maxRetries: 6, baseDelayMs: 1000, maxDelayMs: 3000}, random: () => 0.999})
    const error = (await client.request({method: 'GET', path: '/v1/payments'}).catch((e: unknown) => e)) as ApiError
    expect(error.exitCode).toBe(7)
    expect(server.received).toHaveLength(7)
    expect(clock.sleeps).toEqual([999, 1998, 2997, 2997, 2997, 2997])
  })

  it('honours Retry-After in seconds', async () => {
    const server = await serve(flaky(2, 429, {'retry-after': '3'}))
    const {client, clock} = setup(server.url)
    await client.request({method: 'GET', path: '/v1/invoices'})
    expect(clock.sleeps).toEqual([3000, 3000])
  })

  it('honours Retry-After as an HTTP date, and caps a long one', async () => {
    const clock = fakeClock()
    const inSeven = new Date(clock.now() + 7000).toUTCString()
    const server = await serve((_req, res, _got, index) => {
      if (index === 0) json(res, 503, {message: 'x'}, {'retry-after': inSeven})
      else if (index === 1) json(res, 503, {message: 'x'}, {'retry-after': '3600'})
      else json(res, 200, {})
    })
    const {client} = setup(server.url, {clock, retry: {maxRetryAfterMs: 20_000}})
    await client.request({method: 'GET', path: '/v1/invoices'})
    expect(clock.sleeps).toEqual([7000, 20_000])
  })

  it('retries a network failure (connection reset) of a GET', async () => {
    const server = await serve((req, res, _got, index) => {
      if (index === 0) req.socket.destroy()
      else json(res, 200, {ok: true})
    })
    const {client} = setup(server.url)
    const response = await client.request({method: 'GET', path: '/v1/payments/p/status'})
    expect(response.status).toBe(200)
    expect(server.received).toHaveLength(2)
  })

  it('does not retry a 4xx other than 429', async () => {
    const server = await serve((_req, res) => json(res, 404, {message: 'no such invoice', code: 'not_found'}))
    const {client, clock} = setup(server.url)
    const error = (await client.request({method: 'GET', path: '/v1/invoices/inv_x'}).catch((e: unknown) => e)) as ApiError
    expect(error.exitCode).toBe(4)
    expect(server.received).toHaveLength(1)
    expect(clock.sleeps).toEqual([])
  })
})

describe('POST /v1/payments is never retried', () => {
  it('exactly one request after a 503', async () => {
    const server = await serve(flaky(5, 503))
    const {client, lines} = setup(server.url)
    const error = (await client
      .request({method: 'POST', path: '/v1/payments', body: {amount: 100}, idempotencyKey: 'even-with-a-key'})
      .catch((e: unknown) => e)) as ApiError
    expect(error.status).toBe(503)
    expect(error.exitCode).toBe(7)
    expect(server.received).toHaveLength(1)
    expect(lines.some((l) => l.includes('not retried'))).toBe(true)
  })

  it('exactly one request after a connection reset, and the error says the outcome may be unknown', async () => {
    const server = await serve((req) => req.socket.destroy())
    const {client} = setup(server.url)
    const error = (await client.request({method: 'POST', path: '/v1/payments', body: {amount: 100}}).catch((e: unknown) => e)) as NetworkError
    expect(error).toBeInstanceOf(NetworkError)
    expect(error.code).toBe('network_error')
    expect(error.hint).toMatch(/outcome may be unknown/)
    expect(server.received).toHaveLength(1)
  })

  it('nor is send, nor an unknown POST, even when tagged as retryable by a wrong operation', async () => {
    const server = await serve(flaky(5, 503))
    const {client} = setup(server.url)
    await client.request({method: 'POST', path: '/v1/invoices/inv_1/send', body: {}}).catch(() => undefined)
    await client.request({method: 'POST', path: '/v1/other'}).catch(() => undefined)
    await client.request({method: 'POST', path: '/v1/payments', operation: 'invoice.publish'}).catch(() => undefined)
    expect(server.received).toHaveLength(3)
  })
})

describe('POST /v1/invoices', () => {
  it('retries with the same Idempotency-Key on every attempt', async () => {
    const server = await serve(flaky(3, 500))
    const {client} = setup(server.url)
    const response = await client.request({method: 'POST', path: '/v1/invoices', body: {customer_name: 'A'}, idempotencyKey: 'idem-42'})
    expect(response.status).toBe(200)
    expect(server.received).toHaveLength(4)
    expect(server.received.map((r) => r.headers['idempotency-key'])).toEqual(['idem-42', 'idem-42', 'idem-42', 'idem-42'])
    expect(new Set(server.received.map((r) => r.body)).size).toBe(1)
  })

  it('retries after a timeout with the same key', async () => {
    // The attempt's deadline is on the client's clock: the test moves it past the first attempt's
    // 5 s once the server has that attempt, and the second, answered at once, meets no deadline
    // (nothing moves the clock further). The first attempt is never answered: it ends only when
    // the client gives up on it, which the server sees as its connection closing.
    let abandoned = false
    const server = await serve((_req, res, _got, index) => {
      if (index === 0) {
        res.on('close', () => (abandoned = true))
        return
      }
      json(res, 201, {id: 'inv_1'}, {'idempotent-replayed': 'true'})
    })
    const {client, clock} = setup(server.url, {timeoutMs: 5_000})
    const request = client.request({method: 'POST', path: '/v1/invoices', body: {}, idempotencyKey: 'idem-t'})
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    expect(clock.deadlines()).toEqual([5_000])
    clock.expire(4_999)
    expect(abandoned).toBe(false)
    clock.expire(1)
    const response = await request
    expect(response.replayed).toBe(true)
    await vi.waitFor(() => expect(abandoned).toBe(true))
    expect(server.received.map((r) => r.headers['idempotency-key'])).toEqual(['idem-t', 'idem-t'])
  })

  it('retries a 409 idempotency_in_progress', async () => {
    const server = await serve((_req, res, _got, index) => {
      if (index === 0) json(res, 409, {message: 'in progress', code: 'idempotency_in_progress'})
      else json(res, 201, {id: 'inv_1'})
    })
    const {client} = setup(server.url)
    const response = await client.request({method: 'POST', path: '/v1/invoices', body: {}, idempotencyKey: 'k'})
    expect(response.status).toBe(201)
    expect(server.received).toHaveLength(2)
  })

  it('refuses to retry without an Idempotency-Key', async () => {
    const server = await serve(flaky(3, 503))
    const {client} = setup(server.url)
    await expect(client.request({method: 'POST', path: '/v1/invoices', body: {}})).rejects.toBeInstanceOf(ApiError)
    expect(server.received).toHaveLength(1)
  })
})

describe('idempotent POSTs by the contract', () => {
  it('publish, cancel and upload-url retry', async () => {
    for (const path of ['/v1/invoices/inv_1/publish', '/v1/invoices/inv_1/cancel', '/v1/files/upload-url']) {
      const server = await serve(flaky(2, 503))
      const {client} = setup(server.url)
      const response = await client.request({method: 'POST', path, body: {}})
      expect(response.status, path).toBe(200)
      expect(server.received, path).toHaveLength(3)
    }
  })
})

describe('retryDecision', () => {
  it('classifies each operation of the contract', () => {
    const decide = (method: string, path: string, idempotencyKey?: string) => retryDecision({method, path, idempotencyKey}).class
    expect(decide('GET', '/v1/payments')).toBe('safe')
    expect(decide('head', '/v1/invoices/inv_1')).toBe('safe')
    expect(decide('POST', '/v1/payments')).toBe('never')
    expect(decide('POST', '/v1/payments/', 'k')).toBe('never')
    expect(decide('POST', '/v1/invoices', 'k')).toBe('idempotency-key')
    expect(decide('POST', '/v1/invoices')).toBe('never')
    expect(decide('POST', '/v1/invoices/inv_1/publish')).toBe('idempotent')
    expect(decide('POST', '/v1/invoices/inv_1/cancel')).toBe('idempotent')
    expect(decide('POST', '/v1/files/upload-url')).toBe('idempotent')
    expect(decide('POST', '/v1/invoices/inv_1/send')).toBe('never')
    expect(decide('POST', '/v1/anything')).toBe('never')
    expect(decide('PUT', '/upload/abc')).toBe('idempotent')
    expect(decide('PATCH', '/v1/invoices/inv_1')).toBe('never')
    expect(retryDecision({method: 'POST', path: '/v1/x/y', operation: 'invoice.publish'}).class).toBe('idempotent')
    expect(retryDecision({method: 'POST', path: '/v1/x/y', operation: 'invoice.send'}).class).toBe('never')
  })

  it('parseRetryAfter reads seconds and dates, and ignores garbage', () => {
    const now = Date.parse('2026-03-01T10:00:00Z')
    expect(parseRetryAfter('5', now)).toBe(5000)
    expect(parseRetryAfter('Sun, 01 Mar 2026 10:00:12 GMT', now)).toBe(12_000)
    expect(parseRetryAfter('Sun, 01 Mar 2026 09:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
  })

  it('backoffDelayMs is full jitter under an exponential ceiling', () => {
    expect(backoffDelayMs(1, DEFAULT_RETRY, () => 0)).toBe(0)
    expect(backoffDelayMs(3, DEFAULT_RETRY, () => 0.5)).toBe(1000)
    expect(backoffDelayMs(10, DEFAULT_RETRY, () => 0.5)).toBe(4000)
  })
})
