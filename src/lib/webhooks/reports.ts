// What the listener tells its caller as events come and go: an event received, a forward
// attempt, a delivery refused, a delivery still pending. Plain data, shown by format.ts.
import type {VerifyFailure, WebhookHeaders} from '../../contract/signature.js'
import type {EventSource} from './event-log.js'

export interface ReceivedReport {
  at: Date
  eventId: string
  webhookId: string
  type: string
  source: EventSource
  outcome: 'accepted' | 'duplicate' | 'filtered' | 'no_route' | 'resumed'
  /** The event's environment (SANDBOX, LIVE) when it says one. */
  environment?: string
}

export interface ForwardReport {
  at: Date
  eventId: string
  type: string
  url: string
  attempt: number
  ok: boolean
  status?: number
  error?: string
  latencyMs: number
  /** When it failed: the delay before the next attempt. */
  retryInMs?: number
  /** The event's environment (SANDBOX, LIVE) when it says one. */
  environment?: string
}

export interface RejectedReport {
  at: Date
  reason: VerifyFailure | 'bad_body' | 'too_large'
  message: string
  header?: keyof WebhookHeaders
  skewSeconds?: number
  webhookId?: string
  remoteAddress?: string
}

export interface PendingDelivery {
  eventId: string
  webhookId: string
  type: string
  url: string
  attempts: number
  receivedAt: Date
  nextAttemptAt?: Date
  lastStatus?: number
  lastError?: string
}
