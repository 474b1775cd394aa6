/**
 * The listener's delivery queue: each accepted event goes to its URL through the forwarder; a
 * failed attempt (no answer, or non-2xx) is tried again with exponential backoff, without limit
 * while the queue runs: nothing is dropped, and what is still waiting is `pending()`. When the app
 * answers again after being unreachable, the events waiting only because it was unreachable are
 * sent at once rather than at their next backoff step.
 *
 * Time comes from an injected clock (`now` and one-shot timers), so a test can drive the retries
 * without waiting for them; the listener passes the system clock.
 */
import {systemClock, type Clock} from '../../contract/clock.js'
import type {EventLog} from './event-log.js'
import type {ForwardOutcome} from './forwarder.js'
import type {ForwardReport, PendingDelivery} from './reports.js'

export interface RetryPolicy {
  /** First delay, ms (default 500). */
  baseMs?: number
  /** Largest delay, ms (default 30 s). */
  maxMs?: number
  /** Growth per attempt (default 2). */
  factor?: number
  /** Random spread, as a fraction of the delay (default 0.1; 0 for tests). */
  jitter?: number
}

export function exponentialBackoff(policy: RetryPolicy = {}): (attempt: number) => number {
  const base = policy.baseMs ?? 500
  const max = policy.maxMs ?? 30_000
  const factor = policy.factor ?? 2
  const jitter = policy.jitter ?? 0.1
  return (attempt) => {
    const delay = Math.min(max, base * factor ** Math.max(0, attempt - 1))
    return Math.round(delay * (1 - jitter + Math.random() * 2 * jitter))
  }
}

/** The counters the queue moves (the listener's stats object, shared). */
export interface DeliveryStats {
  delivered: number
  attempts: number
  failedAttempts: number
}

export interface DeliveryInput {
  eventId: string
  webhookId: string
  type: string
  body: string
  url: string
  receivedAt: Date
  /** The event's environment, when it says one (the listener's lines show it). */
  environment?: string
}

export interface DeliveryQueueOptions {
  /** One signed POST; never throws (the forwarder's `send`). */
  send(url: string, webhookId: string, body: string): Promise<ForwardOutcome>
  /** The delay before attempt `attempt + 1`, given `attempt` failed ones. */
  backoff: (attempt: number) => number
  clock?: Clock
  eventLog?: EventLog
  stats: DeliveryStats
  onForward?: (report: ForwardReport) => void
}

export interface DeliveryQueue {
  enqueue(input: DeliveryInput): void
  /** An event with this id is still waiting or in flight. */
  has(eventId: string): boolean
  pending(): PendingDelivery[]
  /** Stop retrying: timers cleared; attempts in flight finish on their own. */
  stop(): void
  /** Resolve when the attempts in flight have finished, or after `graceMs`, whichever is first. */
  settle(graceMs: number): Promise<void>
  /** Resolve when every attempt in flight has finished. */
  drained(): Promise<void>
}

interface Delivery extends DeliveryInput {
  attempts: number
  timer?: unknown
  nextAttemptAt?: Date
  lastStatus?: number
  lastError?: string
  inFlight: boolean
}

export function createDeliveryQueue(options: DeliveryQueueOptions): DeliveryQueue {
  const clock = options.clock ?? systemClock
  const {backoff, stats} = options
  const log = options.eventLog
  const deliveries = new Map<string, Delivery>()
  const inFlight = new Set<Promise<void>>()
  // Deliveries waiting for a retry only because the app did not answer at all.
  const unreachable = new Set<Delivery>()
  let closed = false

  function enqueue(input: DeliveryInput): void {
    const delivery: Delivery = {...input, attempts: 0, inFlight: false}
    deliveries.set(delivery.eventId, delivery)
    attempt(delivery)
  }

  function attempt(delivery: Delivery): void {
    if (closed) return
    delivery.timer = undefined
    delivery.nextAttemptAt = undefined
    unreachable.delete(delivery)
    delivery.inFlight = true
    delivery.attempts++
    stats.attempts++
    const run = options.send(delivery.url, delivery.webhookId, delivery.body).then((outcome) => {
      delivery.inFlight = false
      const attemptNo = delivery.attempts
      log?.appendAttempt({
        event_id: delivery.eventId,
        at: outcome.at.toISOString(),
        url: outcome.url,
        attempt: attemptNo,
        ok: outcome.ok,
        status: outcome.status,
        error: outcome.error,
        latency_ms: Math.round(outcome.latencyMs * 100) / 100,
      })
      const report: ForwardReport = {
        at: outcome.at,
        eventId: delivery.eventId,
        type: delivery.type,
        url: outcome.url,
        attempt: attemptNo,
        ok: outcome.ok,
        status: outcome.status,
        error: outcome.error,
        latencyMs: outcome.latencyMs,
        ...(delivery.environment ? {environment: delivery.environment} : {}),
      }
      if (outcome.ok) {
        deliveries.delete(delivery.eventId)
        stats.delivered++
        options.onForward?.(report)
        wakeUnreachable(delivery.url)
        return
      }
      stats.failedAttempts++
      delivery.lastStatus = outcome.status
      delivery.lastError = outcome.error
      if (closed) {
        options.onForward?.(report)
        return
      }
      const delay = Math.max(0, backoff(attemptNo))
      report.retryInMs = delay
      schedule(delivery, delay)
      if (outcome.status === undefined) unreachable.add(delivery)
      options.onForward?.(report)
    })
    inFlight.add(run)
    void run.finally(() => inFlight.delete(run))
  }

  function schedule(delivery: Delivery, delay: number): void {
    delivery.nextAttemptAt = new Date(clock.now() + delay)
    delivery.timer = clock.setTimer(() => attempt(delivery), delay)
  }

  /** The app answered again: what waited only because it was unreachable goes now. */
  function wakeUnreachable(url: string): void {
    if (unreachable.size === 0) return
    const origin = new URL(url).origin
    for (const delivery of [...unreachable]) {
      if (delivery.inFlight || !delivery.timer || new URL(delivery.url).origin !== origin) continue
      clock.clearTimer(delivery.timer)
      attempt(delivery)
    }
  }

  function pending(): PendingDelivery[] {
    return [...deliveries.values()].map((d) => {
      const out: PendingDelivery = {
        eventId: d.eventId,
        webhookId: d.webhookId,
        type: d.type,
        url: d.url,
        attempts: d.attempts,
        receivedAt: d.receivedAt,
      }
      if (d.nextAttemptAt) out.nextAttemptAt = d.nextAttemptAt
      if (d.lastStatus !== undefined) out.lastStatus = d.lastStatus
      if (d.lastError !== undefined) out.lastError = d.lastError
      return out
    })
  }

  return {
    enqueue,
    has: (eventId) => deliveries.has(eventId),
    pending,
    stop() {
      closed = true
      for (const delivery of deliveries.values()) {
        if (delivery.timer) clock.clearTimer(delivery.timer)
        delivery.timer = undefined
      }
      unreachable.clear()
    },
    async settle(graceMs) {
      // A real timer: the grace is about shutting down, not about retries.
      let timer: NodeJS.Timeout | undefined
      const graceOver = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs)
      })
      await Promise.race([Promise.all([...inFlight]), graceOver])
      clearTimeout(timer)
    },
    async drained() {
      await Promise.all([...inFlight])
    },
  }
}
