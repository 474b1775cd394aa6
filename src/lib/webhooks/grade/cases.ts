/**
 * The battery of `svc webhooks test`: each case is one or more deliveries shaped exactly as the
 * service's (contract, "Events and their signature": the event as body, Standard Webhooks headers
 * with the event id as `webhook-id`), and what a correct handler answers: 2xx (accept) or 4xx
 * (refuse). Every payload is test data that cannot pass for a real event: SANDBOX environment,
 * `evt_test_…` / `svcpay_test_…` ids, the spec's test numbers.
 */
import {randomBytes} from 'node:crypto'

import {generateSecret, signPayload, type WebhookHeaders} from '../../../contract/signature.js'

export const CASE_NAMES = [
  'valid-success',
  'valid-failed',
  'raw-body',
  'duplicate',
  'unknown-type',
  'extra-fields',
  'rotation',
  'burst',
  'bad-signature',
  'wrong-secret',
  'missing-headers',
  'stale-timestamp',
  'future-timestamp',
  'tampered-body',
] as const
export type CaseName = (typeof CASE_NAMES)[number]

export type Expectation = 'accept' | 'refuse'

/** One POST: its headers and the exact bytes of its body. */
export interface Delivery {
  headers: Record<string, string>
  body: string
  /** The webhook-* header this delivery leaves out (missing-headers), for the report. */
  omitted?: keyof WebhookHeaders
}

export interface TestCase {
  name: CaseName
  expect: Expectation
  deliveries: Delivery[]
  /** Sent all at once (burst) rather than one after the other. */
  parallel: boolean
  /** The event id a developer can look for in the app (duplicate's note). */
  eventId: string
}

export const BURST_SIZE = 50
/** Beyond the contract's five-minute tolerance on either side, with room for clock skew. */
export const SKEW_SECONDS = 10 * 60
/** What identifies test traffic in the app's logs. */
export const USER_AGENT = 'svc-webhooks-test/1'

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'

function token(length: number): string {
  return [...randomBytes(length)].map((byte) => ALPHABET[byte % 62]).join('')
}

/** The test-data ids: unmistakably not real (`_test_`), fresh per run. */
export function testEventId(): string {
  return `evt_test_${token(24)}`
}

interface TestPayment {
  id: string
  status: 'SUCCESS' | 'FAILED'
  amount: number
  currency: 'XAF'
  payment_method: 'mobile_money'
  environment: 'SANDBOX'
  created_at: string
  internal_transaction_id: string
  phone_number: string
  failure_code?: string
}

/** A settled sandbox payment with the spec's test number for that outcome. */
function testPayment(status: 'SUCCESS' | 'FAILED', createdAt: string): TestPayment {
  const payment: TestPayment = {
    id: `svcpay_test_${token(24)}`,
    status,
    amount: 1000,
    currency: 'XAF',
    payment_method: 'mobile_money',
    environment: 'SANDBOX',
    created_at: createdAt,
    internal_transaction_id: `txn_test_${token(20)}`,
    phone_number: status === 'SUCCESS' ? '237670000001' : '237670000099',
  }
  if (status === 'FAILED') payment.failure_code = 'INSUFFICIENT_FUNDS'
  return payment
}

function testEvent(type: string, status: 'SUCCESS' | 'FAILED', now: Date) {
  const created = now.toISOString()
  return {id: testEventId(), type, created_at: created, environment: 'SANDBOX' as const, data: testPayment(status, created)}
}

function signed(secrets: string | string[], id: string, body: string, timestamp: number): Delivery {
  return {headers: {...signPayload(secrets, id, body, timestamp), 'content-type': 'application/json', 'user-agent': USER_AGENT}, body}
}

/**
 * The body of raw-body: the same event written with unusual spacing, line breaks, key order and a
 * `\u0041` escape. Its signature is over these exact bytes, so a handler that verifies
 * `JSON.stringify(JSON.parse(body))` (what many frameworks hand over) fails it.
 */
function unusualJson(event: ReturnType<typeof testEvent>): string {
  const p = event.data
  return (
    '{\n' +
    `  "type" : "${event.type}",\n` +
    `  "data" : { "status":"${p.status}" , "amount" : ${p.amount}, "currency": "X\\u0041F",\n` +
    `    "id": "${p.id}", "payment_method":"mobile_money", "environment":"SANDBOX",\n` +
    `    "created_at":"${p.created_at}", "internal_transaction_id" : "${p.internal_transaction_id}",\n` +
    `    "phone_number":"${p.phone_number}" },\n` +
    `  "environment" :"SANDBOX",   "created_at": "${event.created_at}",\n` +
    `  "id":"${event.id}"\n` +
    '}\n'
  )
}

/** How many POSTs a case makes (said before sending anywhere off this machine). */
export function deliveryCount(name: CaseName): number {
  if (name === 'burst') return BURST_SIZE
  if (name === 'missing-headers') return 3
  if (name === 'duplicate') return 2
  return 1
}

/** Every case, built for this secret and this moment (timestamps are taken now). */
export function buildCases(secret: string, only: readonly CaseName[], now: Date): TestCase[] {
  const ts = Math.floor(now.getTime() / 1000)
  const valid = (event: object & {id: string}, timestamp = ts) => signed(secret, event.id, JSON.stringify(event), timestamp)
  const make: Record<CaseName, () => Omit<TestCase, 'name'>> = {
    'valid-success': () => one('accept', testEvent('payment.success', 'SUCCESS', now), valid),
    'valid-failed': () => one('accept', testEvent('payment.failed', 'FAILED', now), valid),
    'raw-body': () => {
      const event = testEvent('payment.success', 'SUCCESS', now)
      return {expect: 'accept', parallel: false, eventId: event.id, deliveries: [signed(secret, event.id, unusualJson(event), ts)]}
    },
    duplicate: () => {
      // The same event delivered twice, as at-least-once delivery does: same webhook-id and body.
      const event = testEvent('payment.success', 'SUCCESS', now)
      return {expect: 'accept', parallel: false, eventId: event.id, deliveries: [valid(event), valid(event)]}
    },
    'unknown-type': () => one('accept', testEvent('payment.refunded', 'SUCCESS', now), valid),
    'extra-fields': () => {
      const event = testEvent('payment.success', 'SUCCESS', now)
      const extended = {
        ...event,
        api_version: '2099-01-01',
        data: {...event.data, operator_reference: `op_test_${token(12)}`, metadata: {order: 'test-order-1'}},
      }
      return one('accept', extended, valid)
    },
    rotation: () => {
      // During a secret rotation the service signs with the old and the new secret; the valid one
      // comes second, so a handler that reads only the first signature fails.
      const event = testEvent('payment.success', 'SUCCESS', now)
      return {expect: 'accept', parallel: false, eventId: event.id, deliveries: [signed([generateSecret(), secret], event.id, JSON.stringify(event), ts)]}
    },
    burst: () => {
      const events = Array.from({length: BURST_SIZE}, (_, i) =>
        i % 2 === 0 ? testEvent('payment.success', 'SUCCESS', now) : testEvent('payment.failed', 'FAILED', now),
      )
      return {expect: 'accept', parallel: true, eventId: events[0].id, deliveries: events.map((event) => valid(event))}
    },
    'bad-signature': () => {
      const event = testEvent('payment.success', 'SUCCESS', now)
      const delivery = valid(event)
      delivery.headers['webhook-signature'] = `v1,${randomBytes(32).toString('base64')}`
      return {expect: 'refuse', parallel: false, eventId: event.id, deliveries: [delivery]}
    },
    'wrong-secret': () => {
      const event = testEvent('payment.success', 'SUCCESS', now)
      return {expect: 'refuse', parallel: false, eventId: event.id, deliveries: [signed(generateSecret(), event.id, JSON.stringify(event), ts)]}
    },
    'missing-headers': () => {
      // One delivery per header left out: a handler that skips the check when the signature header
      // is absent accepts the second, one that reads the timestamp blindly crashes on the first.
      const event = testEvent('payment.success', 'SUCCESS', now)
      const headers = ['webhook-timestamp', 'webhook-signature', 'webhook-id'] as const
      const deliveries = headers.map((omitted) => {
        const delivery = valid(event)
        delete delivery.headers[omitted]
        return {...delivery, omitted}
      })
      return {expect: 'refuse', parallel: false, eventId: event.id, deliveries}
    },
    'stale-timestamp': () => one('refuse', testEvent('payment.success', 'SUCCESS', now), (event) => valid(event, ts - SKEW_SECONDS)),
    'future-timestamp': () => one('refuse', testEvent('payment.success', 'SUCCESS', now), (event) => valid(event, ts + SKEW_SECONDS)),
    'tampered-body': () => {
      // Signed for 1 000 XAF, delivered saying 1 000 000: the signature no longer matches the bytes.
      const event = testEvent('payment.success', 'SUCCESS', now)
      const delivery = valid(event)
      delivery.body = JSON.stringify({...event, data: {...event.data, amount: 1_000_000}})
      return {expect: 'refuse', parallel: false, eventId: event.id, deliveries: [delivery]}
    },
  }
  return only.map((name) => ({name, ...make[name]()}))
}

function one<E extends {id: string}>(expect: Expectation, event: E, deliver: (event: E) => Delivery): Omit<TestCase, 'name'> {
  return {expect, parallel: false, eventId: event.id, deliveries: [deliver(event)]}
}
