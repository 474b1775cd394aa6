import {afterEach, describe, expect, it} from 'vitest'
import {createClient, Pacer, type ApiClient} from '../../../src/lib/api/index.js'
import {fakeClock, json, startServer, TEST_KEY, USER_AGENT, type TestServer} from './helpers.js'

function pacer(ratePerMinute: number) {
  const clock = fakeClock(0)
  return {clock, pacer: new Pacer({ratePerMinute, clock})}
}

describe('Pacer: rolling window', () => {
  it('lets N requests through at once, then waits for the oldest to leave the window', async () => {
    const {clock, pacer: p} = pacer(3)
    for (let i = 0; i < 3; i++) expect(await p.acquire()).toBe(0)
    expect(clock.sleeps).toEqual([])
    expect(await p.acquire()).toBe(60_000)
    expect(clock.now()).toBe(60_000)
  })

  it('is a rolling window, not a fixed minute', async () => {
    const {clock, pacer: p} = pacer(2)
    await p.acquire() // t=0
    clock.advance(40_000)
    await p.acquire() // t=40 s
    // The third may start when the first leaves the window (t=60 s), the fourth at t=100 s.
    expect(await p.acquire()).toBe(20_000)
    expect(clock.now()).toBe(60_000)
    expect(await p.acquire()).toBe(40_000)
    expect(clock.now()).toBe(100_000)
  })

  it('never lets more than N start in any 60 s window over a long run', async () => {
    const {clock, pacer: p} = pacer(5)
    const starts: number[] = []
    for (let i = 0; i < 23; i++) {
      await p.acquire()
      starts.push(clock.now())
      clock.advance(1_000) // each request takes a second
    }
    for (const start of starts) {
      expect(starts.filter((s) => s >= start && s < start + 60_000).length).toBeLessThanOrEqual(5)
    }
  })

  it('serialises concurrent callers', async () => {
    const {clock, pacer: p} = pacer(2)
    const waits = await Promise.all([p.acquire(), p.acquire(), p.acquire()])
    expect(waits).toEqual([0, 0, 60_000])
    expect(clock.sleeps).toEqual([60_000])
  })

  it('0 turns the window off', async () => {
    const {clock, pacer: p} = pacer(0)
    for (let i = 0; i < 500; i++) await p.acquire()
    expect(clock.sleeps).toEqual([])
  })
})

describe('Pacer: the server headers', () => {
  it('waits until RateLimit-Reset when RateLimit-Remaining is 0', async () => {
    const {clock, pacer: p} = pacer(100)
    p.observe({'ratelimit-remaining': '0', 'ratelimit-reset': '12'})
    expect(await p.acquire()).toBe(12_000)
    expect(await p.acquire()).toBe(0)
  })

  it('does not wait while requests remain, and also when the window is off', async () => {
    const {pacer: p} = pacer(0)
    p.observe({'ratelimit-remaining': '3', 'ratelimit-reset': '30'})
    expect(await p.acquire()).toBe(0)
    p.observe({'ratelimit-remaining': '0', 'ratelimit-reset': '5'})
    expect(await p.acquire()).toBe(5_000)
  })

  it('reads an epoch reset, the X- forms, and the combined RateLimit header', async () => {
    const {clock, pacer: p} = pacer(100)
    p.observe({'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(clock.now() / 1000) + 2_000_000_000)})
    // Capped: a far-off reset must not hang the CLI.
    expect(await p.acquire()).toBe(120_000)
    const second = pacer(100)
    second.pacer.observe({ratelimit: 'limit=100, remaining=0, reset=7'})
    expect(await second.pacer.acquire()).toBe(7_000)
  })
})

describe('the client paces its requests', () => {
  let server: TestServer | undefined
  let client: ApiClient | undefined
  afterEach(async () => {
    await client?.close()
    await server?.close()
  })

  it('ratePerMinute 2: the third request waits a minute; a 0-remaining answer holds the next', async () => {
    server = await startServer((_req, res, _got, index) =>
      json(res, 200, {}, index === 3 ? {'ratelimit-remaining': '0', 'ratelimit-reset': '9'} : {}),
    )
    const clock = fakeClock(0)
    const lines: string[] = []
    client = createClient({
      baseUrl: server.url,
      apiKey: TEST_KEY,
      userAgent: USER_AGENT,
      ratePerMinute: 2,
      clock,
      trace: (line) => lines.push(line),
    })
    for (let i = 0; i < 3; i++) await client.request({method: 'GET', path: '/v1/payments'})
    expect(clock.sleeps).toEqual([60_000])
    expect(lines).toContain('* pacing: waited 60000 ms to stay under the rate limit')
    await client.request({method: 'GET', path: '/v1/payments'}) // answers remaining 0, reset 9 s
    await client.request({method: 'GET', path: '/v1/payments'})
    // 9 s for the server's reset, then the window (two at t=60 s) holds it until t=120 s.
    expect(clock.sleeps).toEqual([60_000, 9_000, 51_000])
    expect(clock.now()).toBe(120_000)
    expect(server.received).toHaveLength(5)
  })
})
