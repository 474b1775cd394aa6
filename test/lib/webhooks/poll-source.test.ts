import {mkdtemp, rm, stat, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {
  type ListPayments,
  type PaymentLike,
  type PollSourceOptions,
  type WebhookEvent,
  createPollSource,
  settlementEventId,
} from '../../../src/lib/webhooks/index.js'
import {waitFor} from '../../helpers/receiver.js'
import {systemClock} from '../../../src/contract/clock.js'

/** An in-memory payments list, newest first, as the service pages it (a data source, not under test). */
class FakePayments {
  private rows: PaymentLike[] = []
  private clock = Date.parse('2025-06-01T10:00:00Z')
  calls = 0
  /** Called between page reads, to mimic payments created while the source pages. */
  onPage?: (offset: number) => void

  create(status = 'PENDING'): PaymentLike {
    this.clock += 1000
    const payment: PaymentLike = {
      id: `svcpay_test_${this.rows.length + 1}`,
      status,
      amount: 500,
      currency: 'XAF',
      payment_method: 'mobile_money',
      environment: 'SANDBOX',
      phone_number: '237670000001',
      created_at: new Date(this.clock).toISOString(),
    }
    if (status === 'FAILED') payment.failure_code = 'CUSTOMER_DECLINED'
    this.rows.push(payment)
    return payment
  }

  settle(payment: PaymentLike, status: 'SUCCESS' | 'FAILED'): void {
    payment.status = status
    if (status === 'FAILED') payment.failure_code = 'INSUFFICIENT_FUNDS'
  }

  list: ListPayments = async ({limit, offset, status}) => {
    this.calls++
    this.onPage?.(offset)
    const newestFirst = [...this.rows].reverse().filter((p) => !status || p.status === status)
    const data = newestFirst.slice(offset, offset + limit).map((p) => structuredClone(p))
    return {data, has_more: offset + limit < newestFirst.length}
  }
}

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

async function statePath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-poll-'))
  dirs.push(dir)
  return join(dir, 'state', 'poll.json')
}

function source(payments: FakePayments, path: string, events: WebhookEvent[], extra: Partial<PollSourceOptions> = {}) {
  return createPollSource({
    listPayments: payments.list,
    statePath: path,
    onEvent: (event) => {
      events.push(event)
    },
    ...extra,
  })
}

const ids = (events: WebhookEvent[]) => events.map((e) => (e.data as PaymentLike).id + ':' + e.type)

describe('createPollSource', () => {
  it('starts from the list as it is, then turns each new settlement into one contract-shaped event', async () => {
    const payments = new FakePayments()
    payments.create('SUCCESS')
    payments.create('FAILED')
    const waiting = payments.create('PENDING')
    const path = await statePath()
    const events: WebhookEvent[] = []
    const poll = source(payments, path, events)

    expect((await poll.pollOnce()).emitted).toEqual([])
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    const fresh = payments.create('PENDING')
    expect((await poll.pollOnce()).emitted).toEqual([])

    payments.settle(waiting, 'SUCCESS')
    payments.settle(fresh, 'FAILED')
    const result = await poll.pollOnce()
    expect(ids(result.emitted)).toEqual(['svcpay_test_3:payment.success', 'svcpay_test_4:payment.failed'])
    const failed = events[1]
    expect(failed).toMatchObject({
      id: settlementEventId('svcpay_test_4', 'FAILED'),
      type: 'payment.failed',
      environment: 'SANDBOX',
      data: {id: 'svcpay_test_4', status: 'FAILED', failure_code: 'INSUFFICIENT_FUNDS'},
    })
    expect(failed.id).toMatch(/^evt_[0-9a-f]{24}$/)
    expect(Number.isNaN(Date.parse(failed.created_at))).toBe(false)

    // Polling again finds nothing new; a payment created and settled between polls is one event.
    expect((await poll.pollOnce()).emitted).toEqual([])
    payments.create('SUCCESS')
    expect(ids((await poll.pollOnce()).emitted)).toEqual(['svcpay_test_5:payment.success'])
    expect(ids(events)).toHaveLength(3)
  })

  it('restarted between settlements, neither misses one nor emits one twice', async () => {
    const payments = new FakePayments()
    const path = await statePath()
    const first: WebhookEvent[] = []
    const a = source(payments, path, first)
    await a.pollOnce()
    const p1 = payments.create()
    const p2 = payments.create()
    payments.create('SUCCESS') // p3
    await a.pollOnce()
    payments.settle(p1, 'SUCCESS')
    await a.pollOnce()
    expect(ids(first)).toEqual(['svcpay_test_3:payment.success', 'svcpay_test_1:payment.success'])
    await a.stop()

    // Stopped: p2 settles, p4 is created and settles, p5 is created and stays pending.
    payments.settle(p2, 'FAILED')
    payments.create('FAILED')
    const p5 = payments.create()

    const second: WebhookEvent[] = []
    const b = source(payments, path, second)
    await b.pollOnce()
    expect(ids(second).sort()).toEqual(['svcpay_test_2:payment.failed', 'svcpay_test_4:payment.failed'])
    expect((await b.pollOnce()).emitted).toEqual([])

    // Another restart, then p5 settles.
    const third: WebhookEvent[] = []
    const c = source(payments, path, third)
    expect((await c.pollOnce()).emitted).toEqual([])
    payments.settle(p5, 'SUCCESS')
    expect(ids((await c.pollOnce()).emitted)).toEqual(['svcpay_test_5:payment.success'])

    const all = [...first, ...second, ...third].map((e) => e.id)
    expect(new Set(all).size).toBe(all.length)
    expect(all).toHaveLength(5)
  })

  it('pages back far enough: a burst bigger than a page, a pending payment deep in the list, payments arriving mid-scan', async () => {
    const payments = new FakePayments()
    const old = payments.create()
    const path = await statePath()
    const events: WebhookEvent[] = []
    const poll = source(payments, path, events, {pageSize: 3})
    await poll.pollOnce()
    for (let n = 0; n < 10; n++) payments.create('SUCCESS')
    payments.settle(old, 'FAILED')
    let added = 0
    payments.onPage = (offset) => {
      // New payments shift the offsets while the source pages.
      if (offset > 0 && added < 2) {
        added++
        payments.create('SUCCESS')
      }
    }
    await poll.pollOnce()
    payments.onPage = undefined
    await poll.pollOnce()
    const got = ids(events)
    expect(new Set(got).size).toBe(got.length)
    expect(got).toContain('svcpay_test_1:payment.failed')
    expect(got).toHaveLength(13)
  })

  it('retries an event whose hand-over failed, and refuses an unreadable state file', async () => {
    const payments = new FakePayments()
    const path = await statePath()
    const events: WebhookEvent[] = []
    let failNext = true
    const poll = createPollSource({
      listPayments: payments.list,
      statePath: path,
      onEvent: (event) => {
        if (failNext) {
          failNext = false
          throw new Error('listener busy')
        }
        events.push(event)
      },
    })
    await poll.pollOnce()
    payments.create('SUCCESS')
    await expect(poll.pollOnce()).rejects.toThrow('listener busy')
    expect(events).toEqual([])
    await poll.pollOnce()
    expect(ids(events)).toEqual(['svcpay_test_1:payment.success'])

    await writeFile(path, '{not json')
    const broken = createPollSource({listPayments: payments.list, statePath: path, onEvent: () => undefined})
    await expect(broken.pollOnce()).rejects.toMatchObject({code: 'state_unreadable'})
  })

  it('gives up on a payment that stays unsettled longer than watchForMs', async () => {
    const payments = new FakePayments()
    const path = await statePath()
    let clock = Date.parse('2025-06-01T10:00:00Z')
    const events: WebhookEvent[] = []
    const stuck = payments.create()
    const poll = source(payments, path, events, {watchForMs: 60_000, clock: {...systemClock, now: () => clock}})
    expect((await poll.pollOnce()).watching).toBe(1)
    payments.create('FAILED')
    clock += 30_000
    expect(ids((await poll.pollOnce()).emitted)).toEqual(['svcpay_test_2:payment.failed'])
    clock += 60_000
    expect((await poll.pollOnce()).watching).toBe(0)
    // Given up: its late settlement is older than the watermark and no longer watched.
    payments.create('SUCCESS')
    payments.settle(stuck, 'SUCCESS')
    expect(ids((await poll.pollOnce()).emitted)).toEqual(['svcpay_test_3:payment.success'])
  })

  it('polls on its interval until stopped, and reports list errors without stopping', async () => {
    const payments = new FakePayments()
    const path = await statePath()
    const events: WebhookEvent[] = []
    const errors: unknown[] = []
    let failures = 1
    const flaky: ListPayments = async (query) => {
      if (failures > 0) {
        failures--
        throw new Error('429 rate_limited')
      }
      return payments.list(query)
    }
    const poll = createPollSource({
      listPayments: flaky,
      statePath: path,
      intervalMs: 15,
      onEvent: (event) => {
        events.push(event)
      },
      onError: (error) => errors.push(error),
    })
    poll.start()
    await waitFor(() => payments.calls >= 2)
    payments.create('SUCCESS')
    await waitFor(() => events.length === 1)
    await poll.stop()
    const calls = payments.calls
    // The wait is the test: no call after stop, over four of the 15 ms intervals.
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(payments.calls).toBe(calls)
    expect(errors).toHaveLength(1)
  })
})
