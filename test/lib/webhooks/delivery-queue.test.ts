import {afterEach, describe, expect, it} from 'vitest'
import type {Clock} from '../../../src/contract/clock.js'
import {
  createDeliveryQueue,
  createForwarder,
  exponentialBackoff,
  type ForwardReport,
  generateSecret,
} from '../../../src/lib/webhooks/index.js'
import {makeEvent, startReceiver, waitFor} from '../../helpers/receiver.js'

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

/** A clock the test moves by hand: timers fire only when `advance` passes their time. */
function manualClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start
  const timers = new Map<number, {at: number; callback: () => void}>()
  let next = 1
  const clock: Clock & {advance(ms: number): void; waiting(): number[]} = {
    now: () => now,
    monotonic: () => now,
    setTimer(callback, ms) {
      const id = next++
      timers.set(id, {at: now + ms, callback})
      return id
    },
    clearTimer: (timer) => void timers.delete(timer as number),
    advance(ms) {
      now += ms
      for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > now) continue
        timers.delete(id)
        timer.callback()
      }
    },
    waiting: () => [...timers.values()].map((timer) => timer.at - now),
  }
  return clock
}

async function setUp(clock: Clock, policy = {baseMs: 30_000, maxMs: 120_000, jitter: 0}) {
  const secret = generateSecret()
  const app = await startReceiver({secret})
  cleanups.push(() => app.close())
  const forwarder = await createForwarder({secret})
  cleanups.push(() => forwarder.close())
  const reports: ForwardReport[] = []
  const stats = {delivered: 0, attempts: 0, failedAttempts: 0}
  const queue = createDeliveryQueue({
    send: forwarder.send,
    backoff: exponentialBackoff(policy),
    clock,
    stats,
    onForward: (report) => reports.push(report),
  })
  cleanups.push(async () => {
    queue.stop()
    await queue.drained()
  })
  return {app, queue, reports, stats}
}

function input(n: number, url: string) {
  const event = makeEvent(n)
  return {eventId: event.id, webhookId: event.id, type: event.type, body: JSON.stringify(event), url, receivedAt: new Date()}
}

describe('delivery queue with an injected clock', () => {
  it('retries a refused delivery at 30 s, 60 s, 120 s of the clock, without waiting for them', async () => {
    const clock = manualClock()
    const {app, queue, reports, stats} = await setUp(clock)
    app.statusFor = (_delivery, index) => (index < 3 ? 503 : 200)
    queue.enqueue(input(1, `${app.url}/hooks`))
    for (const expected of [30_000, 60_000, 120_000]) {
      await waitFor(() => reports.length > 0 && reports.at(-1)!.retryInMs !== undefined && clock.waiting().length === 1)
      expect(reports.at(-1)!.retryInMs).toBe(expected)
      expect(clock.waiting()).toEqual([expected])
      expect(queue.pending()[0].nextAttemptAt?.getTime()).toBe(clock.now() + expected)
      // Nothing moves before the clock does.
      const attempts = stats.attempts
      clock.advance(expected - 1)
      expect(stats.attempts).toBe(attempts)
      reports.length = 0
      clock.advance(1)
      expect(stats.attempts).toBe(attempts + 1)
    }
    await waitFor(() => reports.some((report) => report.ok))
    expect(app.received).toHaveLength(4)
    expect(stats).toEqual({delivered: 1, attempts: 4, failedAttempts: 3})
    expect(queue.pending()).toEqual([])
  })

  it('sends what waited only because the app was unreachable as soon as the app answers again', async () => {
    const clock = manualClock()
    const {app, queue, reports} = await setUp(clock)
    const url = app.url
    await app.stop()
    queue.enqueue(input(1, url))
    queue.enqueue(input(2, url))
    await waitFor(() => reports.length === 2)
    expect(reports.every((report) => !report.ok && report.status === undefined && report.retryInMs === 30_000)).toBe(true)
    await app.restart()
    queue.enqueue(input(3, url))
    // The clock has not moved: the two waiting ones go on the third's success, not on their timers.
    await waitFor(() => app.received.length === 3)
    expect(app.received.map((d) => d.event.id).sort()).toEqual(['evt_test_000001', 'evt_test_000002', 'evt_test_000003'])
    await waitFor(() => queue.pending().length === 0)
    expect(clock.waiting()).toEqual([])
  })

  it('stop() clears the retry timers: the clock moving on sends nothing more', async () => {
    const clock = manualClock()
    const {app, queue, reports, stats} = await setUp(clock)
    app.statusFor = () => 500
    queue.enqueue(input(1, app.url))
    await waitFor(() => reports.length === 1)
    queue.stop()
    expect(clock.waiting()).toEqual([])
    clock.advance(600_000)
    expect(stats.attempts).toBe(1)
    expect(queue.pending()).toMatchObject([{eventId: 'evt_test_000001', attempts: 1, lastStatus: 500}])
  })
})
