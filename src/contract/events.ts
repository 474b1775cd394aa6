/**
 * The event shape of the service contract ("Events and their signature"):
 * `{id: 'evt_…', type, created_at, environment, data: Payment}`.
 *
 * The one list of event types. Everything else derives from it: the sandbox's events, the
 * listener's `--events` and `--forward-to TYPE=URL`, `svc webhooks trigger`'s argument. A new type
 * is a line in EVENT_TYPES and one in EVENTS; the compiler then points at the places that truly
 * differ (what `trigger` does to cause one, who emits it).
 */
import {createHash} from 'node:crypto'

export const EVENT_TYPES = ['payment.success', 'payment.failed'] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** A settlement: `data` is the Payment, and `status` the final status that gives this event. */
export interface SettlementEvent {
  data: 'payment'
  status: 'SUCCESS' | 'FAILED'
}

/** What each event type is about. */
export const EVENTS: Record<EventType, SettlementEvent> = {
  'payment.success': {data: 'payment', status: 'SUCCESS'},
  'payment.failed': {data: 'payment', status: 'FAILED'},
}

/** A payment settlement's event (its `data` is the Payment). */
export function isSettlementEvent(type: string): boolean {
  return isEventType(type) && EVENTS[type].data === 'payment'
}

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value)
}

/** The fields of a Payment this library relies on; the rest travels untouched. */
export interface PaymentLike {
  id: string
  status: string
  created_at?: string
  environment?: string
  [field: string]: unknown
}

export interface WebhookEvent {
  id: string
  type: string
  created_at: string
  environment?: string
  data: unknown
  [field: string]: unknown
}

/** The event a settlement gives: SUCCESS → payment.success, FAILED → payment.failed; otherwise none. */
export function eventTypeForStatus(status: SettlementEvent['status']): EventType
export function eventTypeForStatus(status: string): EventType | undefined
export function eventTypeForStatus(status: string): EventType | undefined {
  return EVENT_TYPES.find((type) => EVENTS[type].data === 'payment' && EVENTS[type].status === status)
}

/**
 * A deterministic event id for a payment's settlement, so that seeing the same settlement twice
 * (a restart, a re-read page) gives the same id and receivers dedupe it.
 */
export function settlementEventId(paymentId: string, status: string): string {
  return 'evt_' + createHash('sha256').update(`${paymentId}:${status}`).digest('hex').slice(0, 24)
}

/** The event for a settled payment, or undefined when the payment has not settled. */
export function settlementEvent(payment: PaymentLike, createdAt: Date): WebhookEvent | undefined {
  const type = eventTypeForStatus(payment.status)
  if (!type) return undefined
  return {
    id: settlementEventId(payment.id, payment.status),
    type,
    created_at: createdAt.toISOString(),
    environment: payment.environment,
    data: payment,
  }
}

/** A parsed inbound body that looks like an event (an object with string `id` and `type`). */
export function asWebhookEvent(value: unknown): WebhookEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const record = value as Record<string, unknown>
  if (typeof record.id !== 'string' || record.id.length === 0 || typeof record.type !== 'string') return undefined
  return record as WebhookEvent
}
