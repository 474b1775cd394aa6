import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {
  type ForwardReport,
  type Listener,
  type ListenerOptions,
  type ReceivedReport,
  type RejectedReport,
  generateSecret,
  openEventLog,
  parseForwardTo,
  replayEvent,
  signPayload,
  startListener,
} from '../../../src/lib/webhooks/index.js'
import {testClock} from '../../helpers/clock.js'
import {type Receiver, makeEvent, startReceiver, waitFor} from '../../helpers/receiver.js'

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function app(secret: string): Promise<Receiver> {
  const local = await startReceiver({secret})
  cleanups.push(() => local.close())
  return local
}

async function listener(options: ListenerOptions): Promise<Listener> {
  const started = await startListener({backoff: () => 20, ...options})
  cleanups.push(() => started.close({graceMs: 100}))
  return started
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-webhooks-'))
  cleanups.push(() => rm(dir, {recursive: true, force: true}))
  return dir
}

/** POST one delivery to the listener, signed with `secret` (or with the given headers). */
async function deliver(
  target: Listener,
  event: object,
  secret: string,
  options: {timestamp?: number; headers?: Record<string, string>; id?: string} = {},
): Promise<{status: number; body: Record<string, unknown>}> {
  const body = JSON.stringify(event)
  const id = options.id ?? (event as {id: string}).id
  const headers = options.headers ?? {...signPayload(secret, id, body, options.timestamp)}
  const response = await fetch(target.url + '/', {
    method: 'POST',
    headers: {'content-type': 'application/json', ...headers},
    body,
  })
  return {status: response.status, body: (await response.json()) as Record<string, unknown>}
}

describe('startListener: forwarding', () => {
  it('re-signs every event with the local secret (verified by standardwebhooks), keeping webhook-id, adding extra headers', async () => {
    const localSecret = generateSecret()
    const inboundSecret = generateSecret()
    const local = await app(localSecret)
    const reports: ForwardReport[] = []
    const target = await listener({
      localSecret,
      inboundSecret,
      routes: parseForwardTo([`${local.url}/webhooks?src=svc`]),
      headers: {'x-tenant': 'acme'},
      onForward: (report) => reports.push(report),
    })
    expect(target.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const oldTimestamp = Math.floor(Date.now() / 1000) - 60
    for (let n = 0; n < 5; n++) {
      const result = await deliver(target, makeEvent(n), inboundSecret, {timestamp: oldTimestamp})
      expect(result.status).toBe(200)
    }
    await waitFor(() => local.received.length === 5)
    expect(local.unverified).toBe(0)
    for (const delivery of local.received) {
      expect(delivery.path).toBe('/webhooks?src=svc')
      expect(delivery.headers['webhook-id']).toBe(delivery.event.id)
      expect(Number(delivery.headers['webhook-timestamp'])).toBeGreaterThan(oldTimestamp)
      expect(delivery.headers['x-tenant']).toBe('acme')
    }
    expect(new Set(local.received.map((d) => d.event.id)).size).toBe(5)
    await waitFor(() => reports.length === 5)
    for (const report of reports) {
      expect(report).toMatchObject({ok: true, status: 200, type: 'payment.success', attempt: 1})
      expect(report.eventId).toMatch(/^evt_test_/)
      expect(report.latencyMs).toBeGreaterThan(0)
      expect(report.at).toBeInstanceOf(Date)
    }
    expect(target.stats).toMatchObject({received: 5, delivered: 5, rejected: 0})
    expect(target.pending()).toEqual([])
  })

  it('forwards the inbound body byte for byte', async () => {
    const localSecret = generateSecret()
    const local = await app(localSecret)
    const target = await listener({localSecret, routes: parseForwardTo([local.url])})
    const body = '{ "id": "evt_spaced", "type": "payment.failed", "data": {"id": "svcpay_test_9"} }'
    const response = await fetch(target.url, {method: 'POST', body, headers: {...signPayload(generateSecret(), 'evt_spaced', body)}})
    expect(response.status).toBe(200)
    await waitFor(() => local.received.length === 1)
    expect(local.received[0].body).toBe(body)
  })

  it('routes by event type, applies the events filter and reports what it skips', async () => {
    const localSecret = generateSecret()
    const success = await app(localSecret)
    const failed = await app(localSecret)
    const received: ReceivedReport[] = []
    const routed = await listener({
      localSecret,
      routes: parseForwardTo([`payment.success=${success.url}/ok`, `payment.failed=${failed.url}/ko`]),
      onReceived: (report) => received.push(report),
    })
    routed.ingest(makeEvent(1, 'payment.success'))
    routed.ingest(makeEvent(2, 'payment.failed'))
    routed.ingest(makeEvent(3, 'payment.success'))
    await waitFor(() => success.received.length === 2 && failed.received.length === 1)
    expect(success.received.map((d) => d.path)).toEqual(['/ok', '/ok'])
    expect(failed.received.map((d) => d.event.type)).toEqual(['payment.failed'])

    const filtered = await listener({
      localSecret,
      routes: parseForwardTo([`${success.url}/all`]),
      events: ['payment.failed'],
      onReceived: (report) => received.push(report),
    })
    expect(filtered.ingest(makeEvent(10, 'payment.success')).outcome).toBe('filtered')
    expect(filtered.ingest(makeEvent(11, 'payment.failed')).outcome).toBe('accepted')
    await waitFor(() => success.received.some((d) => d.path === '/all') && filtered.pending().length === 0)
    // Nothing else queued or sent: the filtered event never became an attempt.
    expect(filtered.stats).toMatchObject({attempts: 1, delivered: 1})
    expect(success.received.filter((d) => d.path === '/all').map((d) => d.event.id)).toEqual(['evt_test_000011'])

    const partial = await listener({localSecret, routes: parseForwardTo([`payment.success=${success.url}/only`])})
    expect(partial.ingest(makeEvent(20, 'payment.failed')).outcome).toBe('no_route')
    expect(partial.stats.skipped).toBe(1)
    expect(received.filter((r) => r.outcome === 'filtered').map((r) => r.eventId)).toEqual(['evt_test_000010'])
  })
})

describe('startListener: inbound verification and duplicates', () => {
  it('answers 401 to a bad signature, a stale timestamp and a missing header, and reports why', async () => {
    const localSecret = generateSecret()
    const inboundSecret = generateSecret()
    const local = await app(localSecret)
    const rejected: RejectedReport[] = []
    const target = await listener({
      localSecret,
      inboundSecret,
      routes: parseForwardTo([local.url]),
      onRejected: (report) => rejected.push(report),
    })
    const wrongSecret = await deliver(target, makeEvent(1), generateSecret())
    expect(wrongSecret.status).toBe(401)
    expect(wrongSecret.body).toMatchObject({code: 'invalid_signature', reason: 'signature_mismatch'})

    const stale = await deliver(target, makeEvent(2), inboundSecret, {timestamp: Math.floor(Date.now() / 1000) - 3600})
    expect(stale.status).toBe(401)
    expect(stale.body.reason).toBe('timestamp_too_old')

    const body = JSON.stringify(makeEvent(3))
    const signed = signPayload(inboundSecret, 'evt_test_000003', body)
    const missing = await fetch(target.url, {
      method: 'POST',
      body,
      headers: {'webhook-id': signed['webhook-id'], 'webhook-timestamp': signed['webhook-timestamp']},
    })
    expect(missing.status).toBe(401)

    const tampered = await fetch(target.url, {method: 'POST', body: body.replace('1003', '9999'), headers: {...signed}})
    expect(tampered.status).toBe(401)

    expect(rejected.map((r) => r.reason)).toEqual([
      'signature_mismatch',
      'timestamp_too_old',
      'header_missing',
      'signature_mismatch',
    ])
    expect(rejected[1].message).toContain('1 h')
    expect(rejected[1].message).toContain('in the past')
    expect(rejected[1].skewSeconds).toBeLessThanOrEqual(-3600)
    expect(rejected[2].header).toBe('webhook-signature')
    expect(rejected[0].webhookId).toBe('evt_test_000001')

    // During a rotation either secret is accepted.
    const rotated = await listener({localSecret, inboundSecret: [generateSecret(), inboundSecret], routes: parseForwardTo([local.url])})
    expect((await deliver(rotated, makeEvent(4), inboundSecret)).status).toBe(200)
    await waitFor(() => local.received.length === 1)
    expect(local.received[0].event.id).toBe('evt_test_000004')
    expect(target.stats.rejected).toBe(4)
  })

  it('acknowledges a duplicate (same webhook-id) and forwards it once', async () => {
    const localSecret = generateSecret()
    const inboundSecret = generateSecret()
    const local = await app(localSecret)
    const target = await listener({localSecret, inboundSecret, routes: parseForwardTo([local.url])})
    const event = makeEvent(7)
    const first = await deliver(target, event, inboundSecret)
    const second = await deliver(target, event, inboundSecret)
    const third = await deliver(target, {...event, created_at: 'later'}, inboundSecret)
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200])
    expect(first.body.duplicate).toBeUndefined()
    expect(second.body.duplicate).toBe(true)
    expect(target.ingest(event).outcome).toBe('duplicate')
    await waitFor(() => local.received.length >= 1 && target.pending().length === 0)
    // Nothing else queued or sent: the duplicates never became attempts.
    expect(target.stats).toMatchObject({received: 1, duplicates: 3, attempts: 1, delivered: 1})
    expect(local.received).toHaveLength(1)
  })

  it('refuses a body that is not an event', async () => {
    const localSecret = generateSecret()
    const target = await listener({localSecret, routes: parseForwardTo(['http://127.0.0.1:9/'])})
    const response = await fetch(target.url, {method: 'POST', body: 'not json'})
    expect(response.status).toBe(400)
    const noType = await fetch(target.url, {method: 'POST', body: JSON.stringify({id: 'evt_1'})})
    expect(noType.status).toBe(400)
    expect((await fetch(target.url, {method: 'PUT', body: '{}'})).status).toBe(405)
  })
})

describe('startListener: retries', () => {
  it('retries non-2xx answers with the backoff until the app accepts', async () => {
    const localSecret = generateSecret()
    const local = await app(localSecret)
    local.statusFor = (_delivery, index) => (index < 3 ? (index === 1 ? 404 : 500) : 204)
    const reports: ForwardReport[] = []
    const delays: number[] = []
    const target = await listener({
      localSecret,
      routes: parseForwardTo([local.url]),
      backoff: (attempt) => {
        delays.push(attempt)
        return 10 * attempt
      },
      onForward: (report) => reports.push(report),
    })
    target.ingest(makeEvent(1))
    await waitFor(() => reports.some((r) => r.ok))
    expect(reports.map((r) => [r.attempt, r.status, r.ok])).toEqual([
      [1, 500, false],
      [2, 404, false],
      [3, 500, false],
      [4, 204, true],
    ])
    expect(reports.slice(0, 3).map((r) => r.retryInMs)).toEqual([10, 20, 30])
    expect(delays).toEqual([1, 2, 3])
    expect(local.received.every((d) => d.event.id === 'evt_test_000001')).toBe(true)
    // Each attempt is signed afresh and verifies.
    expect(local.unverified).toBe(0)
    expect(target.stats).toMatchObject({attempts: 4, failedAttempts: 3, delivered: 1})
    expect(target.pending()).toEqual([])
  })

  it('loses nothing while the app is down, then delivers everything once it is back on the same port', async () => {
    const localSecret = generateSecret()
    const inboundSecret = generateSecret()
    const local = await app(localSecret)
    const reports: ForwardReport[] = []
    const target = await listener({
      localSecret,
      inboundSecret,
      routes: parseForwardTo([`${local.url}/hook`]),
      retry: {baseMs: 20, maxMs: 200, jitter: 0},
      backoff: undefined,
      onForward: (report) => reports.push(report),
    })
    // Up for the first ten, down for thirty, up again.
    for (let n = 0; n < 10; n++) await deliver(target, makeEvent(n), inboundSecret)
    await waitFor(() => local.received.length === 10)
    await local.stop()
    for (let n = 10; n < 40; n++) {
      expect((await deliver(target, makeEvent(n), inboundSecret)).status).toBe(200)
    }
    await waitFor(() => reports.filter((r) => !r.ok).length >= 30, 5_000, 'failed attempts')
    expect(reports.find((r) => !r.ok)?.error).toMatch(/refused|reset/)
    const stillPending = target.pending()
    expect(stillPending.length).toBe(30)
    expect(stillPending[0].lastError).toBeDefined()
    // Down a while longer: every one of the thirty retried at least once more, still kept.
    await waitFor(() => reports.filter((r) => !r.ok).length >= 60, 10_000, 'retries while down')
    expect(target.pending().length).toBe(30)
    await local.restart()
    await waitFor(() => target.pending().length === 0, 5_000, 'pending to drain')
    const ids = local.received.map((d) => d.event.id)
    expect(new Set(ids).size).toBe(40)
    expect(ids.length).toBe(40)
    expect(local.unverified).toBe(0)
    expect(target.stats.delivered).toBe(40)
  })

  it('close() says what is still pending', async () => {
    const localSecret = generateSecret()
    const local = await app(localSecret)
    await local.stop()
    // The retries on a clock that stands still until the test moves it.
    const clock = testClock(Date.now())
    const target = await startListener({localSecret, routes: parseForwardTo([local.url]), backoff: () => 50, clock})
    target.ingest(makeEvent(1))
    target.ingest(makeEvent(2, 'payment.failed'))
    await waitFor(() => target.stats.failedAttempts >= 2 && clock.waiting('wait').filter((ms) => ms === 50).length === 2)
    const {pending} = await target.close({graceMs: 100})
    expect(pending.map((p) => p.eventId).sort()).toEqual(['evt_test_000001', 'evt_test_000002'])
    expect(pending[0].attempts).toBeGreaterThanOrEqual(1)
    expect(pending[0].url).toBe(local.url + '/')
    const attemptsAtClose = target.stats.attempts
    // No attempt after close, over three of the 50 ms backoffs (an attempt counts as it starts).
    clock.advance(150)
    expect(target.stats.attempts).toBe(attemptsAtClose)
    expect(() => target.ingest(makeEvent(3))).toThrow()
  })
})

describe('startListener with an event log', () => {
  it('logs events and attempts, survives a restart (resumes undelivered, keeps duplicates out) and replays', async () => {
    const dir = await tempDir()
    const localSecret = generateSecret()
    const local = await app(localSecret)
    const routes = parseForwardTo([local.url])

    const log = await openEventLog({dir})
    const first = await startListener({localSecret, routes, eventLog: log, backoff: () => 20})
    first.ingest(makeEvent(1), 'poll')
    await waitFor(() => local.received.length === 1)
    await local.stop()
    first.ingest(makeEvent(2), 'poll')
    await waitFor(() => first.stats.failedAttempts >= 1)
    const closed = await first.close({graceMs: 50})
    expect(closed.pending.map((p) => p.eventId)).toEqual(['evt_test_000002'])
    await log.close()

    const history = await (await openEventLog({dir})).history()
    expect(history.map((e) => [e.id, e.delivered])).toEqual([
      ['evt_test_000001', true],
      ['evt_test_000002', false],
    ])
    expect(history[0]).toMatchObject({type: 'payment.success', source: 'poll'})
    expect(history[0].attempts[0]).toMatchObject({ok: true, status: 200, attempt: 1})
    expect(JSON.stringify(history)).not.toContain('v1,')

    // The app is back; a new listener on the same log resumes event 2 and still knows event 1.
    await local.restart()
    const log2 = await openEventLog({dir})
    cleanups.push(() => log2.close())
    const second = await listener({localSecret, routes, eventLog: log2})
    expect(second.stats.resumed).toBe(1)
    await waitFor(() => local.received.some((d) => d.event.id === 'evt_test_000002'))
    expect(second.ingest(makeEvent(1)).outcome).toBe('duplicate')
    expect((await log2.findEvent('evt_test_000002'))?.delivered).toBe(true)

    // Replay sends a logged event again, signed afresh.
    const before = local.received.length
    const replayed = await replayEvent({log: log2, eventId: 'evt_test_000001', routes, secret: localSecret})
    expect(replayed).toMatchObject({ok: true, status: 200, eventId: 'evt_test_000001', type: 'payment.success'})
    expect(local.received.length).toBe(before + 1)
    expect(local.received.at(-1)?.event.id).toBe('evt_test_000001')
    expect(local.unverified).toBe(0)
    const after = await log2.findEvent('evt_test_000001')
    expect(after?.attempts.map((a) => a.attempt)).toEqual([1, 2])
    await expect(replayEvent({log: log2, eventId: 'evt_nope', routes, secret: localSecret})).rejects.toMatchObject({
      exitCode: 4,
      code: 'not_found',
    })
  })
})
