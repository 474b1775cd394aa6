import {describe, expect, it, vi} from 'vitest'
import {cleanExcerpt, createClient, type ApiClient, type ClientOptions} from '../../../src/lib/api/index.js'
import {ApiError, NetworkError, SvcError} from '../../../src/lib/errors.js'
import {closedPort, fakeClock, TEST_KEY, USER_AGENT, type Handler, useServers} from './helpers.js'

const {clients, serve} = useServers()

function client(baseUrl: string, extra: Partial<ClientOptions> = {}): ApiClient {
  const clock = fakeClock()
  const c = createClient({
    baseUrl,
    apiKey: TEST_KEY,
    userAgent: USER_AGENT,
    clock,
    ratePerMinute: 0,
    retry: {maxRetries: 0},
    ...extra,
  })
  clients.push(c)
  return c
}

function raw(status: number, body: string, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, headers)
    res.end(body)
  }
}

async function failure(c: ApiClient, method = 'GET', path = '/v1/payments'): Promise<unknown> {
  return c.request({method, path}).then(
    () => {
      throw new Error('expected a failure')
    },
    (e: unknown) => e,
  )
}

describe('error bodies that are not the JSON error of the contract', () => {
  it('an HTML page from a proxy: status, reason and a short tag-free excerpt', async () => {
    const html =
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>' +
      '<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.25.3</center>' +
      `<script>var x = 1;</script>${'<p>padding</p>'.repeat(200)}</body></html>`
    const server = await serve(raw(502, html, {'content-type': 'text/html'}))
    const error = (await failure(client(server.url))) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(502)
    expect(error.exitCode).toBe(7)
    expect(error.message).toContain('502 Bad Gateway')
    expect(error.message).toContain('text/html')
    expect(error.message).toContain('nginx/1.25.3')
    expect(error.message).not.toMatch(/<|color:red|var x/)
    expect(error.message.length).toBeLessThan(320)
  })

  it('truncated JSON', async () => {
    const server = await serve(raw(500, '{"message": "internal err', {'content-type': 'application/json'}))
    const error = (await failure(client(server.url))) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.message).toContain('500 Internal Server Error')
    expect(error.message).toContain('{"message": "internal err')
  })

  it('an empty body', async () => {
    const server = await serve(raw(503, ''))
    const error = (await failure(client(server.url))) as ApiError
    expect(error.message).toBe('The service answered 503 Service Unavailable with an empty body.')
    expect(error.code).toBe('server_error')
  })

  it('the wrong content type (plain text)', async () => {
    const server = await serve(raw(403, 'Forbidden by WAF rule 1234\n', {'content-type': 'text/plain; charset=utf-8'}))
    const error = (await failure(client(server.url))) as ApiError
    expect(error.exitCode).toBe(3)
    expect(error.message).toContain('403 Forbidden')
    expect(error.message).toContain('text/plain')
    expect(error.message).toContain('Forbidden by WAF rule 1234')
  })

  it('a JSON error under "error" and a Retry-After header', async () => {
    const server = await serve(raw(429, JSON.stringify({error: {message: 'too many', code: 'rate_limited'}}), {
      'content-type': 'application/json',
      'retry-after': '17',
    }))
    const error = (await failure(client(server.url))) as ApiError
    expect(error.message).toBe('too many')
    expect(error.code).toBe('rate_limited')
    expect(error.retryAfterSeconds).toBe(17)
    expect(error.hint).toContain('17')
  })

  it('a 2xx with a malformed JSON body is an error, exit 7', async () => {
    const server = await serve(raw(201, '{"id": "inv_1", "status": ', {'content-type': 'application/json'}))
    const error = (await failure(client(server.url), 'POST', '/v1/invoices')) as SvcError
    expect(error).toBeInstanceOf(SvcError)
    expect(error.exitCode).toBe(7)
    expect(error.code).toBe('invalid_response')
    expect(error.message).toContain('201 Created')
    expect(error.message).toMatch(/outcome may be unknown/)
  })

  it('a 2xx HTML page (captive portal) is an error too', async () => {
    const server = await serve(raw(200, '<html><body>Please log in to the Wi-Fi</body></html>', {'content-type': 'text/html'}))
    const error = (await failure(client(server.url))) as SvcError
    expect(error.code).toBe('invalid_response')
    expect(error.message).toContain('Please log in to the Wi-Fi')
  })
})

describe('network failures and deadlines', () => {
  it('connection refused → NetworkError not_connected; nothing was sent, so the hint is about connectivity', async () => {
    const port = await closedPort()
    const error = (await failure(client(`http://127.0.0.1:${port}`))) as NetworkError
    expect(error).toBeInstanceOf(NetworkError)
    expect(error.code).toBe('not_connected')
    expect(error.exitCode).toBe(7)
    expect(error.message).toContain('ECONNREFUSED')
    expect(error.hint).toMatch(/base URL/)
    expect(`${error.message} ${error.hint}`).not.toMatch(/outcome may be unknown/)
    const write = (await client(`http://127.0.0.1:${port}`)
      .request({method: 'POST', path: '/v1/payments', body: {}})
      .catch((e: unknown) => e)) as NetworkError
    expect(write.hint).toMatch(/base URL/)
  })

  // The attempt's deadline is on the client's clock: these tests move it, once the server has the
  // request, instead of waiting for it.
  it('a server that never answers headers → timeout at the attempt deadline', async () => {
    const server = await serve(() => undefined)
    const clock = fakeClock()
    const pending = failure(client(server.url, {timeoutMs: 200, clock}))
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    expect(clock.deadlines()).toEqual([200])
    clock.expire(200)
    const error = (await pending) as NetworkError
    expect(error).toBeInstanceOf(NetworkError)
    expect(error.code).toBe('timeout')
    expect(error.message).toContain('0.2 s')
    // A read changes nothing: the hint is about connectivity, not an unknown outcome.
    expect(error.hint).toMatch(/base URL/)
  })

  it('a slow body → timeout too (the deadline covers the body)', async () => {
    let bodyStarted = false
    const server = await serve((_req, res) => {
      res.writeHead(200, {'content-type': 'application/json'})
      res.write('{"data": [', () => (bodyStarted = true))
      // ...and the rest never comes.
    })
    const clock = fakeClock()
    const pending = failure(client(server.url, {timeoutMs: 250, clock}))
    await vi.waitFor(() => expect(bodyStarted).toBe(true))
    clock.expire(250)
    const error = (await pending) as NetworkError
    expect(error).toBeInstanceOf(NetworkError)
    expect(error.code).toBe('timeout')
  })

  it('a per-request deadline overrides the client one', async () => {
    const server = await serve(() => undefined)
    const clock = fakeClock()
    const pending = client(server.url, {timeoutMs: 30_000, clock})
      .request({method: 'GET', path: '/v1/payments', timeoutMs: 100})
      .catch((e: unknown) => e)
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    expect(clock.deadlines()).toEqual([100])
    clock.expire(100)
    const error = (await pending) as NetworkError
    expect(error.code).toBe('timeout')
    expect(error.message).toContain('0.1 s')
  })

  it('a connection reset mid-body → NetworkError', async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, {'content-type': 'application/json', 'content-length': '1000'})
      // Cut once the start of the body is on its way.
      res.write('{"data": [1, 2, 3', () => req.socket.destroy())
    })
    const error = (await failure(client(server.url))) as NetworkError
    expect(error).toBeInstanceOf(NetworkError)
    expect(error.code).toBe('network_error')
    expect(error.hint).toMatch(/base URL/)
  })

  it('the caller aborting (Ctrl-C) is exit 130 and not retried', async () => {
    const controller = new AbortController()
    // Abort once the request has arrived (a fixed delay could fire before, on a loaded machine).
    const server = await serve(() => controller.abort())
    const c = client(server.url, {retry: {maxRetries: 4}})
    const error = (await c.request({method: 'GET', path: '/v1/payments', signal: controller.signal}).catch((e: unknown) => e)) as SvcError
    expect(error.exitCode).toBe(130)
    expect(server.received).toHaveLength(1)
  })
})

describe('cleanExcerpt', () => {
  it('strips tags, scripts and whitespace, and truncates', () => {
    expect(cleanExcerpt('<b>Hello</b>\n\n  <i>world</i>')).toBe('Hello world')
    expect(cleanExcerpt('x'.repeat(500), 20)).toHaveLength(20)
    expect(cleanExcerpt('a\u0000\u0001b')).toBe('a b')
  })
})
