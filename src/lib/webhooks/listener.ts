/**
 * The local webhook listener behind `svc webhooks listen` (the `stripe listen` of this CLI, as its
 * own module independent of the command that starts it): the composition of a receiver, a delivery
 * queue and the event log, as the Stripe CLI's pkg/proxy composes its endpoint and its forwarding.
 *
 * - receiver.ts: the HTTP server that verifies, parses and hands over inbound deliveries, and the
 *   duplicate filter (same webhook-id: acknowledged, not forwarded again).
 * - `ingest(event)`: the same path for events that a poll source or the sandbox session produces.
 * - delivery-queue.ts: forwarding to each event's route (per-type URL or the default), re-signed
 *   with the local secret, with the user's extra headers, retried with backoff while the listener
 *   runs; `close()` returns what is still pending.
 * - With an event log: every event and attempt is logged, the duplicate filter is seeded from it,
 *   and the events left undelivered by a previous run are resumed.
 */
import type {EventLog, EventSource} from './event-log.js'
import {asWebhookEvent, isSettlementEvent, type EventType, type WebhookEvent} from '../../contract/events.js'
import {createForwarder, type Forwarder} from './forwarder.js'
import {routeFor, type ForwardRoutes} from './routes.js'
import type {ForwardReport, PendingDelivery, ReceivedReport, RejectedReport} from './reports.js'
import {systemClock, type Clock} from '../../contract/clock.js'
import {createDeliveryQueue, exponentialBackoff, type RetryPolicy} from './delivery-queue.js'
import {createDuplicateFilter, startReceiver} from './receiver.js'

export type {ForwardReport, PendingDelivery, ReceivedReport, RejectedReport} from './reports.js'

export interface ListenerOptions {
  /** The local secret every forwarded event is signed with. */
  localSecret: string
  routes: ForwardRoutes
  /** Only these types are forwarded; undefined: all. */
  events?: readonly EventType[]
  /** Extra headers on forwarded requests, lower-case names. */
  headers?: Record<string, string>
  /** Verify inbound deliveries with this secret (several during a rotation); none: accept unsigned. */
  inboundSecret?: string | readonly string[]
  /** Inbound timestamp tolerance, seconds (default 300). */
  toleranceSeconds?: number
  port?: number
  host?: string
  retry?: RetryPolicy
  /** Overrides `retry`: the delay before attempt `attempt + 1`, given `attempt` failed ones. */
  backoff?: (attempt: number) => number
  /** Where retry delays are measured and timed (default: the system clock). */
  clock?: Clock
  /** Per-attempt deadline, ms (default 10 s). */
  timeoutMs?: number
  /** Connections per app origin (default 32). */
  connections?: number
  eventLog?: EventLog
  /** Resume the log's undelivered events at start (default true when there is a log). */
  resume?: boolean
  /** How many webhook-ids the duplicate filter remembers (default 10,000). */
  dedupeWindow?: number
  /** Largest inbound body, bytes (default 1 MiB). */
  maxBodyBytes?: number
  onReceived?: (report: ReceivedReport) => void
  onForward?: (report: ForwardReport) => void
  onRejected?: (report: RejectedReport) => void
  /** Each event taken in (not a duplicate), with where it came from: the sandbox watch follows what its sandbox delivered. */
  onEvent?: (event: WebhookEvent, source: EventSource) => void
}

export interface ListenerStats {
  received: number
  duplicates: number
  rejected: number
  skipped: number
  delivered: number
  attempts: number
  failedAttempts: number
  resumed: number
}

export interface IngestResult {
  outcome: ReceivedReport['outcome']
}

export interface Listener {
  url: string
  port: number
  /** Push an event through the same dedupe, filter, log, forward and retry path as inbound ones. */
  ingest(event: WebhookEvent, source?: EventSource): IngestResult
  pending(): PendingDelivery[]
  /**
   * Change the inbound secret(s) while running: a receiver registered as a sandbox endpoint learns
   * its secret only once its URL (so its port) is known. Start it with a throwaway secret.
   */
  setInboundSecret(secret: string | readonly string[] | undefined): void
  readonly stats: Readonly<ListenerStats>
  /** Stop receiving and retrying; in-flight attempts get `graceMs` (default 2 s) to finish. */
  close(options?: {graceMs?: number}): Promise<{pending: PendingDelivery[]}>
}

export async function startListener(options: ListenerOptions): Promise<Listener> {
  const forwarder: Forwarder = await createForwarder({
    secret: options.localSecret,
    headers: options.headers,
    timeoutMs: options.timeoutMs,
    connections: options.connections,
    clock: options.clock,
  })
  const clock = options.clock ?? systemClock
  const backoff = options.backoff ?? exponentialBackoff(options.retry)
  const dedupeWindow = options.dedupeWindow ?? 10_000
  const log = options.eventLog
  const stats: ListenerStats = {
    received: 0,
    duplicates: 0,
    rejected: 0,
    skipped: 0,
    delivered: 0,
    attempts: 0,
    failedAttempts: 0,
    resumed: 0,
  }
  const seen = createDuplicateFilter(dedupeWindow)
  const queue = createDeliveryQueue({
    send: (url, webhookId, body) => forwarder.send(url, webhookId, body),
    backoff,
    clock: options.clock,
    eventLog: log,
    stats,
    onForward: options.onForward,
  })
  let closed = false

  function accept(event: WebhookEvent, body: string, webhookId: string, source: EventSource): IngestResult {
    const at = new Date(clock.now())
    const report = (outcome: ReceivedReport['outcome']): IngestResult => {
      options.onReceived?.({at, eventId: event.id, webhookId, type: event.type, source, outcome, ...environmentOf(event)})
      return {outcome}
    }
    // The same settlement under another id (the sandbox's delivery, and the same one recovered
    // from the payments list after a restart) is the same event for the app.
    const settlement = settlementKey(event)
    if (seen.has(webhookId) || queue.has(event.id) || (settlement !== undefined && seen.has(settlement))) {
      stats.duplicates++
      return report('duplicate')
    }
    seen.remember(webhookId)
    if (settlement !== undefined) seen.remember(settlement)
    stats.received++
    options.onEvent?.(event, source)
    log?.appendEvent({id: event.id, type: event.type, received_at: at.toISOString(), source, payload: event}, body)
    const routed = route(event.type)
    if (routed.skip) {
      stats.skipped++
      log?.appendSkip({event_id: event.id, at: at.toISOString(), reason: routed.skip})
      return report(routed.skip)
    }
    queue.enqueue({eventId: event.id, webhookId, type: event.type, body, url: routed.url, receivedAt: at, ...environmentOf(event)})
    return report('accepted')
  }

  function route(type: string): {url: string; skip?: undefined} | {skip: 'filtered' | 'no_route'} {
    if (options.events && !(options.events as readonly string[]).includes(type)) return {skip: 'filtered'}
    const url = routeFor(options.routes, type)
    return url ? {url} : {skip: 'no_route'}
  }

  // Restore what a previous run knew: its ids (duplicates stay duplicates) and its undelivered events.
  const resumable: WebhookEvent[] = []
  if (log) {
    const history = await log.history()
    for (const entry of history.slice(-dedupeWindow)) {
      seen.remember(entry.id)
      const settlement = settlementKey(asWebhookEvent(entry.payload))
      if (settlement !== undefined) seen.remember(settlement)
    }
    if (options.resume !== false) {
      for (const entry of history) {
        const event = asWebhookEvent(entry.payload)
        if (event && !entry.delivered && !entry.skipped) resumable.push(event)
      }
    }
  }

  const receiver = await startReceiver({
    inboundSecret: options.inboundSecret,
    toleranceSeconds: options.toleranceSeconds,
    port: options.port,
    host: options.host,
    maxBodyBytes: options.maxBodyBytes,
    clock,
    handOver: (event, body, webhookId) => accept(event, body, webhookId, 'inbound'),
    onRejected: (report) => {
      stats.rejected++
      options.onRejected?.(report)
    },
  })

  for (const event of resumable) {
    const routed = route(event.type)
    if (routed.skip) continue
    stats.resumed++
    options.onReceived?.({
      at: new Date(clock.now()),
      eventId: event.id,
      webhookId: event.id,
      type: event.type,
      source: 'ingest',
      outcome: 'resumed',
      ...environmentOf(event),
    })
    queue.enqueue({
      eventId: event.id,
      webhookId: event.id,
      type: event.type,
      body: JSON.stringify(event),
      url: routed.url,
      receivedAt: new Date(clock.now()),
      ...environmentOf(event),
    })
  }

  async function close(closeOptions: {graceMs?: number} = {}): Promise<{pending: PendingDelivery[]}> {
    if (!closed) {
      closed = true
      queue.stop()
      const stopped = receiver.close()
      await queue.settle(closeOptions.graceMs ?? 2_000)
      receiver.closeAllConnections()
      await forwarder.close()
      await queue.drained()
      await stopped
      await log?.flush()
    }
    return {pending: queue.pending()}
  }

  return {
    url: receiver.url,
    port: receiver.port,
    ingest: (event, source = 'ingest') => {
      if (closed) throw new Error('listener is closed')
      return accept(event, JSON.stringify(event), event.id, source)
    },
    pending: () => queue.pending(),
    setInboundSecret: (secret) => receiver.setInboundSecret(secret),
    stats,
    close,
  }
}

/** `settlement:PAYMENT_ID:STATUS` for a payment.success / payment.failed event, else undefined. */
function settlementKey(event: WebhookEvent | undefined): string | undefined {
  if (!event || !isSettlementEvent(event.type)) return undefined
  const data = event.data as {id?: unknown; status?: unknown} | undefined
  return typeof data?.id === 'string' && typeof data.status === 'string' ? `settlement:${data.id}:${data.status}` : undefined
}

/** The event's environment, when it names one the service has (the listener's lines show it). */
function environmentOf(event: WebhookEvent): {environment?: string} {
  return event.environment === 'SANDBOX' || event.environment === 'LIVE' ? {environment: event.environment} : {}
}
