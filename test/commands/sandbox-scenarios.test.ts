/**
 * Scenarios over real HTTP: scripted numbers, operator outages, API and delivery faults, set with
 * the CLI's stand-ins (found through SVC_SANDBOX_URL / SVC_SANDBOX_ADMIN_TOKEN, with no saved
 * state: the CI-container path) and observed as a user would (the CLI's output and exit codes, the
 * server's state, the webhooks a receiver gets, the sandbox's log).
 */
import {afterAll, afterEach, beforeAll, describe, expect, it, vi} from 'vitest'

import {skippingClock} from '../helpers/clock.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {startReceiver, waitFor, type Receiver} from '../helpers/receiver.js'
import {startServe, startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

const temp = tempConfigDir()
let h: TestSandbox
let receiver: Receiver
const logs: string[] = []

const adminEnv = () => ({SVC_SANDBOX_URL: h.sb.url, SVC_SANDBOX_ADMIN_TOKEN: h.sb.adminToken})
const cli = (args: string[], env: Record<string, string> = {}) => h.cli(temp.dir, 'sandbox', runInProcess)(args, {env: {...adminEnv(), ...env}})
const json = async (args: string[]) => {
  const r = await cli([...args, '--json'])
  expect(r.exitCode, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0)
  return JSON.parse(r.stdout)
}
const eventsFor = (paymentId: string) => receiver.received.filter((d) => (d.event.data as {id?: string})?.id === paymentId)
const paymentCount = async () => (await h.get('/v1/payments?limit=1')).total as number

// The sandbox's time and the runs' on one clock that jumps through the runs' waits (a watch's
// interval and --timeout), firing the settlements on the way: a watch takes no real time.
const clock = skippingClock()
beforeAll(async () => {
  receiver = await startReceiver({path: '/hooks'})
  h = await startTestSandbox({settleAfterMs: 200, clock, webhookEndpoints: [{url: receiver.url}], log: (line) => void logs.push(line)})
})

afterEach(async () => {
  await h.admin('DELETE', '/faults')
  for (const operator of ['MTN', 'ORANGE']) await h.admin('POST', `/operators/${operator}/up`)
})

afterAll(async () => {
  await h?.close()
  await receiver?.close()
  temp.cleanup()
})

describe('scripted numbers', () => {
  it('a scripted FAILED fails with the scripted code and sends payment.failed with it; list marks it; remove ends it', async () => {
    const set = await json(['sandbox', 'numbers', 'set', '670112233', '--operator', 'MTN', '--outcome', 'FAILED', '--failure-code', 'INSUFFICIENT_FUNDS'])
    expect(set).toMatchObject({phone_number: '237670112233', operator: 'MTN', outcome: 'FAILED', failure_code: 'INSUFFICIENT_FUNDS', scripted: true})
    const paid = await cli(['pay', 'create', '--amount', '1500', '--phone', '670112233', '--operator', 'MTN', '--watch', '--interval', '250ms', '--json'])
    expect(paid.exitCode).toBe(1)
    const payment = JSON.parse(paid.stdout)
    expect(payment).toMatchObject({status: 'FAILED', failure_code: 'INSUFFICIENT_FUNDS'})
    await waitFor(() => eventsFor(payment.id).length > 0, 5_000, 'payment.failed')
    expect(eventsFor(payment.id).map((d) => [d.event.type, (d.event.data as any).failure_code])).toEqual([['payment.failed', 'INSUFFICIENT_FUNDS']])

    // Every payment of that customer, until removed.
    const again = JSON.parse((await cli(['pay', 'create', '--amount', '10', '--phone', '670112233', '--operator', 'MTN', '--watch', '--interval', '250ms', '--json'])).stdout)
    expect(again.failure_code).toBe('INSUFFICIENT_FUNDS')

    const listed = await json(['sandbox', 'numbers', 'list'])
    expect(listed.filter((n: any) => !n.scripted)).toHaveLength(10)
    expect(listed.filter((n: any) => n.scripted)).toEqual([expect.objectContaining({phone_number: '237670112233', outcome: 'FAILED'})])
    const table = await cli(['sandbox', 'numbers', 'list'])
    expect(table.stdout).toMatch(/237670112233\s+FAILED\s+INSUFFICIENT_FUNDS\s+scripted/)
    expect(table.stdout).toMatch(/237670000001\s+SUCCESS\s+spec test number/)

    expect(await json(['sandbox', 'numbers', 'remove', '670112233'])).toEqual({phone_number: '237670112233', deleted: true})
    expect((await json(['sandbox', 'numbers', 'list'])).filter((n: any) => n.scripted)).toEqual([])
    const gone = await cli(['sandbox', 'numbers', 'remove', '670112233'])
    expect(gone.exitCode).not.toBe(0)
    expect(gone.stderr).toContain('237670112233')
  })

  it("the spec's test numbers cannot be scripted (400 naming the number); bad flag combinations send nothing", async () => {
    const refused = await cli(['sandbox', 'numbers', 'set', '670000001', '--operator', 'MTN', '--outcome', 'FAILED'])
    expect(refused.exitCode).toBe(2)
    expect(refused.stderr).toContain('237670000001')
    const raw = await fetch(`${h.sb.adminUrl}/numbers/237650000099`, {
      method: 'PUT',
      headers: {authorization: `Bearer ${h.sb.adminToken}`, 'content-type': 'application/json'},
      body: JSON.stringify({operator: 'ORANGE', outcome: 'SUCCESS'}),
    })
    expect(raw.status).toBe(400)
    expect(((await raw.json()) as any).errors).toEqual([expect.objectContaining({field: 'number', message: expect.stringContaining('237650000099')})])

    for (const [args, flag] of [
      [['--outcome', 'SUCCESS', '--then', 'FAILED'], '--then'],
      [['--outcome', 'UNSPECIFIED', '--after', '30s'], '--after'],
      [['--outcome', 'SUCCESS', '--failure-code', 'EXPIRED'], '--failure-code'],
      [['--outcome', 'UNSPECIFIED', '--then', 'SUCCESS', '--after', 'soon'], 'after'],
    ] as const) {
      const r = await cli(['sandbox', 'numbers', 'set', '670445566', '--operator', 'MTN', ...args])
      expect(r.exitCode, r.stderr).toBe(2)
      expect(r.stderr).toContain(flag)
    }
    expect((await h.admin('GET', '/numbers')).data.filter((n: any) => n.scripted)).toEqual([])
  })

  it('a customer who never answers: PENDING for good, so `pay watch` times out (exit 8), even across a clock advance', async () => {
    await json(['sandbox', 'numbers', 'set', '670778899', '--operator', 'MTN', '--outcome', 'PENDING'])
    const created = await json(['pay', 'create', '--amount', '2000', '--phone', '670778899', '--operator', 'MTN'])
    const watched = await cli(['pay', 'watch', created.id, '--interval', '250ms', '--timeout', '1s'])
    expect(watched.exitCode).toBe(8)
    await h.admin('POST', '/clock/advance', {ms: 3_600_000})
    expect((await h.get(`/v1/payments/${created.id}/status`)).status).toBe('PENDING')
    expect(eventsFor(created.id)).toEqual([])
    await json(['sandbox', 'numbers', 'remove', '670778899'])
  })

  it('UNSPECIFIED then SUCCESS after 30s on the sandbox clock, and payment.success then', async () => {
    await json(['sandbox', 'numbers', 'set', '690112235', '--operator', 'ORANGE', '--outcome', 'UNSPECIFIED', '--then', 'SUCCESS', '--after', '30s'])
    const created = await json(['pay', 'create', '--amount', '3000', '--phone', '690112235', '--operator', 'ORANGE'])
    await h.admin('POST', '/clock/advance', {ms: 1_000})
    expect((await h.get(`/v1/payments/${created.id}/status`)).status).toBe('UNSPECIFIED')
    await h.admin('POST', '/clock/advance', {ms: 20_000})
    expect((await h.get(`/v1/payments/${created.id}/status`)).status).toBe('UNSPECIFIED')
    expect(eventsFor(created.id)).toEqual([])
    await h.admin('POST', '/clock/advance', {ms: 10_000})
    expect((await h.get(`/v1/payments/${created.id}/status`)).status).toBe('SUCCESS')
    await waitFor(() => eventsFor(created.id).length > 0, 5_000, 'payment.success')
    expect(eventsFor(created.id).map((d) => d.event.type)).toEqual(['payment.success'])
    await json(['sandbox', 'numbers', 'remove', '690112235'])
  })
})

describe('operator outages', () => {
  it('fail: its payments fail with PROVIDER_UNAVAILABLE, the other operator is unaffected, and it ends by itself after --for', async () => {
    const down = await json(['sandbox', 'operator', 'down', 'MTN', '--for', '10m'])
    expect(down).toMatchObject({operator: 'MTN', up: false, outage: {mode: 'fail', until: expect.any(String)}})
    const mtn = await cli(['pay', 'create', '--amount', '100', '--phone', '670000001', '--watch', '--interval', '250ms', '--json'])
    expect(mtn.exitCode).toBe(1)
    expect(JSON.parse(mtn.stdout)).toMatchObject({status: 'FAILED', failure_code: 'PROVIDER_UNAVAILABLE'})
    const orange = await json(['pay', 'create', '--amount', '100', '--phone', '650000001', '--watch', '--interval', '250ms'])
    expect(orange.status).toBe('SUCCESS')
    await h.admin('POST', '/clock/advance', {ms: 10 * 60_000})
    expect((await h.admin('GET', '/operators')).data).toEqual([
      {operator: 'MTN', up: true, outage: null},
      {operator: 'ORANGE', up: true, outage: null},
    ])
    expect((await json(['pay', 'create', '--amount', '100', '--phone', '670000001', '--watch', '--interval', '250ms'])).status).toBe('SUCCESS')
  })

  it('unspecified: payments stay UNSPECIFIED until `operator up`, then resolve', async () => {
    await json(['sandbox', 'operator', 'down', 'ORANGE', '--mode', 'unspecified'])
    const created = await json(['pay', 'create', '--amount', '700', '--phone', '650000002'])
    await h.admin('POST', '/clock/advance', {ms: 3_600_000})
    expect((await h.get(`/v1/payments/${created.id}/status`)).status).toBe('UNSPECIFIED')
    const up = await json(['sandbox', 'operator', 'up', 'ORANGE'])
    expect(up).toMatchObject({operator: 'ORANGE', up: true, payments_resolving: 1})
    await h.sb.clock.advance(1)
    expect((await h.get(`/v1/payments/${created.id}/status`)).status).toBe('SUCCESS')
  })

  it('a person reads the outage as a detail view: labels from the catalogue, the time as `pay status` shows it (English and French)', async () => {
    const english = await cli(['sandbox', 'operator', 'down', 'ORANGE', '--mode', 'slow'])
    expect(english.exitCode, english.stderr).toBe(0)
    expect(english.stdout).toMatch(/^OPERATOR\s+ORANGE$/m)
    expect(english.stdout).toMatch(/^SINCE\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/m)
    expect(english.stdout).not.toMatch(/\d{2}:\d{2}:\d{2}\.\d{3}Z/)
    await json(['sandbox', 'operator', 'up', 'ORANGE'])
    const french = await cli(['sandbox', 'operator', 'down', 'ORANGE', '--mode', 'slow', '--lang', 'fr'])
    expect(french.exitCode, french.stderr).toBe(0)
    expect(french.stdout).toMatch(/^OPÉRATEUR\s+ORANGE$/m)
    expect(french.stdout).toMatch(/^DEPUIS\s+\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} UTC$/m)
    await json(['sandbox', 'operator', 'up', 'ORANGE'])
  })

  it('slow: payments settle a minute later instead of at once', async () => {
    await json(['sandbox', 'operator', 'down', 'MTN', '--mode', 'slow'])
    const created = await json(['pay', 'create', '--amount', '800', '--phone', '670000002'])
    await h.admin('POST', '/clock/advance', {ms: 30_000})
    expect((await h.get(`/v1/payments/${created.id}/status`)).status).toBe('PENDING')
    await h.admin('POST', '/clock/advance', {ms: 31_000})
    expect((await h.get(`/v1/payments/${created.id}/status`)).status).toBe('SUCCESS')
  })
})

describe('faults on the API', () => {
  it('`pay create` under a 503 on POST /v1/payments exits 7 and creates nothing (never twice); the log says it was injected', async () => {
    const fault = await json(['sandbox', 'faults', 'set', '--route', 'POST /v1/payments', '--error', '503'])
    expect(fault).toMatchObject({id: expect.stringMatching(/^flt_/), target: 'api', route: 'POST /v1/payments', error: '503', rate: 1})
    const before = await paymentCount()
    const r = await cli(['pay', 'create', '--amount', '4321', '--phone', '670000001'])
    expect(r.exitCode).toBe(7)
    expect(await paymentCount()).toBe(before)
    // Reads are untouched by a fault on one route.
    expect((await cli(['pay', 'list'])).exitCode).toBe(0)
    const listed = await json(['sandbox', 'faults', 'list'])
    expect(listed).toEqual([expect.objectContaining({id: fault.id, injected: 1})])
    expect(logs.filter((line) => line.startsWith(`injected fault ${fault.id} `))).toEqual([
      expect.stringContaining('on POST /v1/payments'),
    ])
    expect(await json(['sandbox', 'faults', 'clear', fault.id])).toMatchObject({cleared: true, data: [expect.objectContaining({id: fault.id})]})
    expect((await cli(['pay', 'create', '--amount', '4321', '--phone', '670000001'])).exitCode).toBe(0)
    expect(await paymentCount()).toBe(before + 1)
  })

  it('html: an HTML 502 page from a "gateway"; reset: the connection is cut; 429 with Retry-After; latency delays the answer', async () => {
    const get = () => fetch(`${h.sb.url}/v1/payments`, {headers: {'x-api-key': h.sb.keys.sandbox}})
    await json(['sandbox', 'faults', 'set', '--error', 'html'])
    const html = await get()
    expect(html.status).toBe(502)
    expect(html.headers.get('content-type')).toMatch(/text\/html/)
    expect(await html.text()).toContain('502 Bad Gateway')
    await json(['sandbox', 'faults', 'clear'])

    await json(['sandbox', 'faults', 'set', '--error', 'reset'])
    await expect(get()).rejects.toThrow()
    await json(['sandbox', 'faults', 'clear'])

    await json(['sandbox', 'faults', 'set', '--error', '429', '--route', 'GET /v1/payments/{paymentId}/status'])
    expect((await get()).status).toBe(200)
    const limited = await fetch(`${h.sb.url}/v1/payments/svcpay_test_x/status`, {headers: {'x-api-key': h.sb.keys.sandbox}})
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    await json(['sandbox', 'faults', 'clear'])

    // The answer waits 400 ms of the sandbox's (machine) clock, which the test moves: it is still
    // held 1 ms before, and comes once the 400 ms have passed.
    await json(['sandbox', 'faults', 'set', '--latency', '400ms'])
    let answered = false
    const delayed = get().then((response) => ((answered = true), response))
    await vi.waitFor(() => expect(clock.waiting('wait')).toContain(400), {timeout: 10_000, interval: 10})
    clock.advance(399)
    expect(clock.waiting('wait')).toContain(1)
    expect(answered).toBe(false)
    clock.advance(1)
    expect((await delayed).status).toBe(200)
    // The admin surface is never faulted: this clear got through.
    expect((await json(['sandbox', 'faults', 'clear'])).data).toHaveLength(1)
  })

  it('--for ends a fault on the sandbox clock; bad flags are refused before anything is sent', async () => {
    await json(['sandbox', 'faults', 'set', '--error', '500', '--for', '5m'])
    const get = () => fetch(`${h.sb.url}/v1/payments`, {headers: {'x-api-key': h.sb.keys.sandbox}})
    expect((await get()).status).toBe(500)
    await h.admin('POST', '/clock/advance', {ms: 5 * 60_000})
    expect((await get()).status).toBe(200)
    expect((await json(['sandbox', 'faults', 'list']))).toEqual([])

    for (const [args, flag] of [
      [['--error', '503', '--rate', '2'], '--rate'],
      [['--route', 'payments', '--error', '503'], '--route'],
      [['--deliveries', 'drop', '--error', '503'], '--error'],
      [['--rate', '0.5'], '--error'],
      [['--error', '503', '--delay', '3s'], '--delay'],
      [['--error', '418'], '--error'],
    ] as const) {
      const r = await cli(['sandbox', 'faults', 'set', ...args])
      expect(r.exitCode, r.stderr).toBe(2)
      expect(r.stderr).toContain(flag)
    }
    expect((await h.admin('GET', '/faults')).data).toEqual([])
  })

  it('a rate is drawn from the seed: two sandboxes with the same --seed fault the same requests', async () => {
    const pattern = async () => {
      const other = await startTestSandbox({seed: 42})
      try {
        await other.admin('POST', '/faults', {error: '503', rate: 0.5})
        const statuses: number[] = []
        for (let i = 0; i < 16; i++) statuses.push((await fetch(`${other.sb.url}/v1/payments`, {headers: {'x-api-key': other.sb.keys.sandbox}})).status)
        return statuses
      } finally {
        await other.close()
      }
    }
    const first = await pattern()
    expect(first).toContain(503)
    expect(first).toContain(200)
    expect(await pattern()).toEqual(first)
  })
})

describe('faults on webhook deliveries', () => {
  const settle = async (phone: string) => {
    const created = await json(['pay', 'create', '--amount', '900', '--phone', phone])
    await h.sb.clock.advance(250)
    await h.sb.clock.idle()
    return created.id as string
  }

  it('duplicate: the same delivery twice, with the same webhook-id', async () => {
    await json(['sandbox', 'faults', 'set', '--deliveries', 'duplicate'])
    const id = await settle('670000001')
    await waitFor(() => eventsFor(id).length === 2, 5_000, 'two deliveries')
    const [a, b] = eventsFor(id)
    expect(a.headers['webhook-id']).toBe(b.headers['webhook-id'])
    expect(a.body).toBe(b.body)
    expect(logs.some((line) => line.includes('(duplicate)') && line.includes(a.event.id))).toBe(true)
  })

  it('drop: the receiver never gets it; the delivery is marked failed by the injected fault', async () => {
    await json(['sandbox', 'faults', 'set', '--deliveries', 'drop'])
    const id = await settle('670000002')
    await h.sb.clock.advance(24 * 3_600_000)
    expect(eventsFor(id)).toEqual([])
    const event = (await h.admin('GET', '/events?type=payment.success&limit=5')).data.find((e: any) => e.data.id === id)
    expect(event.deliveries).toEqual([
      expect.objectContaining({status: 'failed', fault: expect.stringMatching(/^flt_\d+ drop$/), attempts: [expect.objectContaining({error: expect.stringContaining('injected fault')})]}),
    ])
  })

  it('delay: held for --delay on the sandbox clock; reorder: a later event overtakes it', async () => {
    await json(['sandbox', 'faults', 'set', '--deliveries', 'delay', '--delay', '30s'])
    const late = await settle('680000001')
    await h.sb.clock.advance(20_000)
    expect(eventsFor(late)).toEqual([])
    await h.sb.clock.advance(10_000)
    await waitFor(() => eventsFor(late).length === 1, 5_000, 'the delayed delivery')
    await json(['sandbox', 'faults', 'clear'])

    const fault = await json(['sandbox', 'faults', 'set', '--deliveries', 'reorder'])
    const first = await settle('690000001')
    await json(['sandbox', 'faults', 'clear', fault.id])
    const second = await settle('650000001')
    await waitFor(() => eventsFor(second).length === 1, 5_000, 'the second event')
    expect(eventsFor(first)).toEqual([])
    await h.sb.clock.advance(5_000)
    await waitFor(() => eventsFor(first).length === 1, 5_000, 'the reordered event')
    const order = receiver.received.map((d) => (d.event.data as any).id).filter((p) => p === first || p === second)
    expect(order).toEqual([second, first])
  })
})

describe('a sandbox in another container: serve --admin-token, SVC_SANDBOX_URL and SVC_SANDBOX_ADMIN_TOKEN', () => {
  it('the stand-ins drive it by its address and token alone, with no saved state; half the pair is refused', async () => {
    const serveDir = tempConfigDir()
    const otherDir = tempConfigDir()
    const token = 'ci-admin-token-0123456789'
    const served = await startServe(serveDir.dir, ['--settle-after', '100ms'], {SVC_SANDBOX_ADMIN_TOKEN: token})
    try {
      expect(served.info.admin_token).toBe(token)
      const env = {SVC_SANDBOX_URL: served.info.base_url, SVC_SANDBOX_ADMIN_TOKEN: token}
      const set = await runInProcess(['sandbox', 'faults', 'set', '--error', '503', '--json'], {configDir: otherDir.dir, env})
      expect(set.exitCode, set.stderr).toBe(0)
      const listed = await runInProcess(['sandbox', 'faults', 'list', '--json'], {configDir: otherDir.dir, env: {...env, SVC_SANDBOX_URL: `${served.info.base_url}/`}})
      expect(JSON.parse(listed.stdout)).toHaveLength(1)

      const wrong = await runInProcess(['sandbox', 'faults', 'list'], {configDir: otherDir.dir, env: {...env, SVC_SANDBOX_ADMIN_TOKEN: 'not-the-token-at-all'}})
      expect(wrong.exitCode).toBe(3)
      const half = await runInProcess(['sandbox', 'faults', 'list'], {configDir: otherDir.dir, env: {SVC_SANDBOX_URL: served.info.base_url}})
      expect(half.exitCode).toBe(2)
      expect(half.stderr).toContain('SVC_SANDBOX_ADMIN_TOKEN')
      // Without the variables and without saved state, there is no sandbox to drive.
      expect((await runInProcess(['sandbox', 'faults', 'list'], {configDir: otherDir.dir})).exitCode).toBe(7)
    } finally {
      await served.stop()
      serveDir.cleanup()
      otherDir.cleanup()
    }
    const short = await runInProcess(['sandbox', 'serve', '--port', '0', '--admin-token', 'short'], {configDir: temp.dir})
    expect(short.exitCode).toBe(2)
    expect(short.stderr).toContain('--admin-token')
  })
})

describe('serve on a non-loopback address', () => {
  // The one test that binds beyond loopback: what it prints and saves is what is under test; port
  // 0, stopped at once.
  it('--host 0.0.0.0 says what other machines can reach and saves an address they can use, never 0.0.0.0', async () => {
    const serveDir = tempConfigDir()
    const served = await startServe(serveDir.dir, ['--host', '0.0.0.0'], {SVC_SANDBOX_ADMIN_TOKEN: 'ci-admin-token-0123456789'})
    try {
      const info = served.info as {base_url: string; pay_url: string; admin_url: string}
      expect(info.base_url).not.toContain('0.0.0.0')
      expect(info.pay_url).toBe(`${info.base_url}/pay`)
      const profile = await runInProcess(['profiles', 'list', '--json'], {configDir: serveDir.dir})
      expect(profile.stdout).not.toContain('0.0.0.0')
      expect(profile.stdout).toContain(info.base_url)
    } finally {
      const {stderr} = await served.stop()
      expect(stderr).toMatch(/reachable from other machines/)
      expect(stderr).toContain('/pay')
      expect(stderr).toContain('/_admin')
      expect(stderr).toMatch(/signed/)
      serveDir.cleanup()
    }
  })
})
