/**
 * The service counts a request when it arrives; the client took its slot earlier, by as much as the
 * request took to get there (a loaded machine, a slow network). A request slow to arrive must not
 * let a later, fast one reach the service before the service's window has room: the client counts
 * each request from its answer, which comes after its arrival.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {createClient, type ApiClient} from '../../../src/lib/api/index.js'
import {sharedBudget} from '../../../src/lib/api/shared-pace.js'
import {fakeClock, json, startServer, TEST_KEY, USER_AGENT, type TestServer} from './helpers.js'

let server: TestServer | undefined
let client: ApiClient | undefined
let dir: string | undefined
afterEach(async () => {
  await client?.close()
  await server?.close()
  if (dir) rmSync(dir, {recursive: true, force: true})
  client = server = dir = undefined
})

/**
 * A service allowing 2 requests in any 60 s of its clock (the test's fake one), counted on arrival;
 * request `index` reaches it `latency[index]` ms after it was sent.
 */
async function slowFirstService(clock: ReturnType<typeof fakeClock>, latency: number[]) {
  const arrivals: number[] = []
  const refused: number[] = []
  server = await startServer((_req, res, _got, index) => {
    clock.advance(latency[index] ?? 0)
    const now = clock.now()
    if (arrivals.filter((t) => t > now - 60_000).length >= 2) {
      refused.push(index)
      return json(res, 429, {message: 'slow down', code: 'rate_limited'}, {'retry-after': '1'})
    }
    arrivals.push(now)
    json(res, 200, {data: []})
  })
  return {url: server.url, refused}
}

describe('pacing counts a request from its answer, not from its slot', () => {
  it('one process: the first request 3 s on the way, the third does not reach the service before its window has room', async () => {
    const clock = fakeClock(0)
    const service = await slowFirstService(clock, [3000, 0, 0])
    client = createClient({baseUrl: service.url, apiKey: TEST_KEY, userAgent: USER_AGENT, ratePerMinute: 2, clock, retry: {maxRetries: 0}})
    for (let i = 0; i < 3; i++) await client.request({method: 'GET', path: '/v1/payments'})
    expect(service.refused).toEqual([])
    // The third waited for the first's answer (t=3 s) to leave the window.
    expect(clock.now()).toBeGreaterThanOrEqual(63_000)
  })

  it('processes sharing the key (the budget file): the same, past the budget’s arrival margin', async () => {
    const clock = fakeClock(0)
    const service = await slowFirstService(clock, [3000, 0, 0])
    dir = mkdtempSync(join(tmpdir(), 'svc-pace-'))
    const shared = sharedBudget({dir, apiKey: TEST_KEY, baseUrl: service.url, ratePerMinute: 2})!
    // This process does not pace itself (rate 0): only the shared budget holds it.
    client = createClient({baseUrl: service.url, apiKey: TEST_KEY, userAgent: USER_AGENT, ratePerMinute: 0, shared, clock, retry: {maxRetries: 0}})
    for (let i = 0; i < 3; i++) await client.request({method: 'GET', path: '/v1/payments'})
    expect(service.refused).toEqual([])
  })
})
