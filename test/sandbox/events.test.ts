import {Webhook} from 'standardwebhooks'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {RETRY_SCHEDULE_MS} from '../../src/sandbox/events.js'
import {harness, type Harness} from './helpers.js'
import {startReceiver, type Receiver} from '../helpers/receiver.js'

const headersOf = (r: {headers: Record<string, unknown>}) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
})

describe('events and webhook deliveries', () => {
  let h: Harness | undefined
  const receivers: Receiver[] = []
  afterEach(async () => {
    await h?.close()
    h = undefined
    await Promise.all(receivers.splice(0).map((r) => r.close()))
  })
  const receiver = async () => {
    const r = await startReceiver({path: '/hooks'})
    receivers.push(r)
    return r
  }

  it.each([
    ['237670000001', 'MTN', 'payment.success', 'SUCCESS'],
    ['237690000099', 'ORANGE', 'payment.failed', 'FAILED'],
  ])('%s (%s) emits %s, signed per Standard Webhooks, verified independently', async (phone, operator, type, status) => {
    const sandboxHook = await receiver()
    const liveHook = await receiver()
    h = await harness({settleAfterMs: 1000, webhookEndpoints: [{url: sandboxHook.url, environment: 'SANDBOX'}, {url: liveHook.url, environment: 'LIVE'}]})
    expect(h.sb.webhookSecrets).toHaveLength(2)
    const [sandboxSecret] = h.sb.webhookSecrets
    expect(sandboxSecret.secret).toMatch(/^whsec_/)
    const payment = (await h.createPayment({amount: 2500, phone_number: phone, operator})).body
    await h.sb.clock.advance(1000)
    expect(sandboxHook.received).toHaveLength(1)
    const delivery = sandboxHook.received[0]
    const verified = new Webhook(sandboxSecret.secret).verify(delivery.body, headersOf(delivery)) as Record<string, any>
    expect(verified).toMatchObject({type, environment: 'SANDBOX', data: {...payment, status}})
    expect(verified.id).toMatch(/^evt_/)
    expect(verified.id).toBe(delivery.headers['webhook-id'])
    expect(Object.keys(verified).sort()).toEqual(['created_at', 'data', 'environment', 'id', 'type'])
    // As the document's webhooks section describes it: payload and webhook-* headers.
    h.spec.checkEvent(type, verified, delivery.headers)
    expect(() => h!.spec.checkEvent(type, {...verified, data: {...verified.data, status: 'PENDING'}}, delivery.headers)).toThrow(/does not match/)
    // Wrong secret: refused by the independent verifier.
    expect(() => new Webhook(h!.sb.webhookSecrets[1].secret).verify(delivery.body, headersOf(delivery))).toThrow()
    // A sandbox event never reaches a live endpoint.
    expect(liveHook.received).toHaveLength(0)
  })

  it('live events reach live endpoints only', async () => {
    const sandboxHook = await receiver()
    const liveHook = await receiver()
    h = await harness()
    const live = (await h.admin('POST', '/_admin/webhook-endpoints', {url: liveHook.url, environment: 'live'})).body
    await h.admin('POST', '/_admin/webhook-endpoints', {url: sandboxHook.url})
    const id = (await h.createPayment({amount: 700, phone_number: '237670000001', operator: 'MTN'}, h.sb.keys.live)).body.id
    await h.admin('POST', `/_admin/payments/${id}/approve`)
    await h.sb.clock.advance(0)
    expect(liveHook.received).toHaveLength(1)
    expect(sandboxHook.received).toHaveLength(0)
    const event = new Webhook(live.secret).verify(liveHook.received[0].body, headersOf(liveHook.received[0])) as Record<string, any>
    expect(event).toMatchObject({type: 'payment.success', environment: 'LIVE', data: {id, status: 'SUCCESS'}})
  })

  it('a failing receiver gets the event again on the contract schedule, same webhook-id, then it is marked failed', async () => {
    const hook = await receiver()
    hook.statusFor = () => 500
    h = await harness({settleAfterMs: 0, webhookEndpoints: [{url: hook.url}]})
    await h.createPayment({amount: 100, phone_number: '237650000001', operator: 'ORANGE'})
    await h.sb.clock.advance(0)
    expect(hook.received).toHaveLength(1)
    const [first] = (await h.admin('GET', '/_admin/deliveries')).body.data[0].attempts
    let due = Date.parse(first.at)
    // Just short of each retry time nothing happens; just past it, exactly one more attempt.
    for (const [index, delay] of RETRY_SCHEDULE_MS.entries()) {
      due += delay
      await h.sb.clock.advance(due - h.sb.clock.now() - 500)
      expect(hook.received).toHaveLength(index + 1)
      await h.sb.clock.advance(1000)
      expect(hook.received).toHaveLength(index + 2)
    }
    await h.sb.clock.advance(7 * 24 * 3600 * 1000)
    expect(hook.received).toHaveLength(8)
    expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
    const deliveries = (await h.admin('GET', '/_admin/deliveries')).body
    expect(deliveries.data).toHaveLength(1)
    expect(deliveries.data[0]).toMatchObject({status: 'failed', url: hook.url})
    expect(deliveries.data[0].attempts).toHaveLength(8)
    expect(deliveries.data[0].attempts.every((a: {status_code: number; ok: boolean}) => a.status_code === 500 && !a.ok)).toBe(true)
  })

  it('redelivers after the receiver recovers, and logs each attempt', async () => {
    const hook = await receiver()
    hook.statusFor = (_delivery, index) => (index + 1 < 3 ? 503 : 204)
    h = await harness({settleAfterMs: 2000, webhookEndpoints: [{url: hook.url}]})
    await h.createPayment({amount: 100, phone_number: '237670000099', operator: 'MTN'})
    await h.sb.clock.advance(2000 + 5000 + 300_000)
    expect(hook.received).toHaveLength(3)
    await h.sb.clock.advance(24 * 3600 * 1000)
    expect(hook.received).toHaveLength(3)
    const events = (await h.admin('GET', '/_admin/events')).body
    expect(events.total).toBe(1)
    const [delivery] = events.data[0].deliveries
    expect(delivery.status).toBe('succeeded')
    expect(delivery.attempts.map((a: {status_code: number}) => a.status_code)).toEqual([503, 503, 204])
    const single = (await h.admin('GET', `/_admin/events/${events.data[0].id}`)).body
    expect(single.type).toBe('payment.failed')
  })

  it('an unreachable receiver is logged as a network error and retried', async () => {
    const hook = await receiver()
    const url = hook.url
    await hook.close()
    h = await harness({settleAfterMs: 0, webhookEndpoints: [{url}]})
    await h.createPayment({amount: 100, phone_number: '237670000001', operator: 'MTN'})
    await h.sb.clock.advance(5000)
    const [delivery] = (await h.admin('GET', '/_admin/deliveries')).body.data
    expect(delivery.status).toBe('pending')
    expect(delivery.attempts).toHaveLength(2)
    expect(delivery.attempts[0].error).toBeTruthy()
    expect(delivery.next_attempt_at).toBeTruthy()
  })

  it('during a secret rotation deliveries carry both signatures; after the overlap only the new one', async () => {
    const hook = await receiver()
    h = await harness({settleAfterMs: 0})
    const endpoint = (await h.admin('POST', '/_admin/webhook-endpoints', {url: hook.url, environment: 'SANDBOX'})).body
    const rotated = (await h.admin('POST', `/_admin/webhook-endpoints/${endpoint.id}/rotate`, {overlap_ms: 60_000})).body
    expect(rotated.secret).not.toBe(endpoint.secret)
    expect(rotated.rotating).toBe(true)
    await h.createPayment({amount: 100, phone_number: '237670000001', operator: 'MTN'})
    // With settleAfterMs 0 the settlement may also start on the real timer: wait for in-flight work.
    await h.sb.clock.advance(0)
    await h.sb.clock.idle()
    const first = hook.received[0]
    expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(() => new Webhook(endpoint.secret).verify(first.body, headersOf(first))).not.toThrow()
    expect(() => new Webhook(rotated.secret).verify(first.body, headersOf(first))).not.toThrow()
    await h.sb.clock.advance(60_000)
    await h.createPayment({amount: 100, phone_number: '237670000001', operator: 'MTN'})
    await h.sb.clock.advance(0)
    await h.sb.clock.idle()
    const second = hook.received[1]
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(() => new Webhook(endpoint.secret).verify(second.body, headersOf(second))).toThrow()
    expect(() => new Webhook(rotated.secret).verify(second.body, headersOf(second))).not.toThrow()
  })

  it('endpoints can be listed (secrets masked) and removed; a removed endpoint gets nothing', async () => {
    const hook = await receiver()
    h = await harness({settleAfterMs: 0})
    const endpoint = (await h.admin('POST', '/_admin/webhook-endpoints', {url: hook.url})).body
    const list = (await h.admin('GET', '/_admin/webhook-endpoints')).body.data
    expect(list).toEqual([expect.objectContaining({id: endpoint.id, environment: 'SANDBOX', secret: `whsec_…${endpoint.secret.slice(-4)}`})])
    expect((await h.admin('POST', '/_admin/webhook-endpoints', {url: 'ftp://x'})).status).toBe(400)
    expect((await h.admin('DELETE', `/_admin/webhook-endpoints/${endpoint.id}`)).status).toBe(200)
    expect((await h.admin('DELETE', `/_admin/webhook-endpoints/${endpoint.id}`)).status).toBe(404)
    await h.createPayment({amount: 100, phone_number: '237670000001', operator: 'MTN'})
    await h.sb.clock.advance(10_000)
    expect(hook.received).toHaveLength(0)
    expect((await h.admin('GET', '/_admin/events')).body.total).toBe(1)
  })

  it('real-time delivery without advancing the clock', async () => {
    const hook = await receiver()
    h = await harness({settleAfterMs: 20, webhookEndpoints: [{url: hook.url}]})
    await h.createPayment({amount: 100, phone_number: '237670000001', operator: 'MTN'})
    await vi.waitFor(() => expect(hook.received).toHaveLength(1), {timeout: 10_000, interval: 20})
  })
})
