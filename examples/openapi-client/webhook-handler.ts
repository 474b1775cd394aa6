/**
 * A webhook handler typed from the generated description: `Event` is the union of the bodies of
 * every event the service sends (OpenAPI `webhooks`), so `switch (event.type)` narrows
 * `event.data`, and a new event type stops this file compiling until it is handled.
 *
 * Verification follows Standard Webhooks with Node's crypto only: HMAC-SHA256 of
 * `${webhook-id}.${webhook-timestamp}.${raw body}`, keyed with the base64 part of `whsec_…`,
 * compared with each `v1,<base64>` in `webhook-signature`; timestamps more than five minutes
 * away are refused. Dedupe on `webhook-id`: delivery is at least once.
 */
import {createHmac, timingSafeEqual} from 'node:crypto'
import type {IncomingHttpHeaders} from 'node:http'

import type {webhooks} from './api.js'

/** Every event, one member per type: the request body of each entry of `webhooks`. */
export type Event = webhooks[keyof webhooks]['post']['requestBody']['content']['application/json']

const TOLERANCE_SECONDS = 5 * 60

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** The event if its signature verifies, otherwise undefined (answer 400: it is retried). */
export function verifyEvent(secret: string, headers: IncomingHttpHeaders, rawBody: string, nowMs = Date.now()): Event | undefined {
  const id = header(headers, 'webhook-id')
  const timestamp = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return undefined
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return undefined
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest()
  const verified = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',')
    if (version !== 'v1' || !value) return false
    const given = Buffer.from(value, 'base64')
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
  return verified ? (JSON.parse(rawBody) as Event) : undefined
}

/** What the app does with each event: the compiler knows `data` is the Payment, and its status. */
export function handleEvent(event: Event): string {
  switch (event.type) {
    case 'payment.success': {
      const paid: 'SUCCESS' = event.data.status
      return `${event.data.id} ${paid}: ${event.data.amount} XAF from ${event.data.phone_number}`
    }
    case 'payment.failed':
      return `${event.data.id} ${event.data.status}: ${event.data.failure_code}`
    default: {
      const unhandled: never = event
      return unhandled
    }
  }
}
