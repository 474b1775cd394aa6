/**
 * The local webhook listener behind `svc webhooks listen` (the `stripe listen` of this CLI, as its
 * own module independent of the command that starts it).
 *
 * - Inbound: a node:http receiver on 127.0.0.1 takes POSTed deliveries, verifies them with the
 *   inbound secret when one is given (401 and `onRejected` otherwise), acknowledges duplicates
 *   (same webhook-id) without forwarding them again.
 * - `ingest(event)`: the same path for events that a poll source or the sandbox session produces.
 * - Forwarding: each event goes to its route (per-type URL or the default), re-signed with the
 *   local secret, with the user's extra headers. A failed attempt (no answer, or non-2xx) is tried
 *   again with exponential backoff, without limit while the listener runs: nothing is dropped, and
 *   `close()` returns what is still pending. When the app answers again after being unreachable,
 *   the events waiting only because it was unreachable are sent at once rather than at their next
 *   backoff step.
 * - With an event log: every event and attempt is logged, the duplicate filter is seeded from it,
 *   and the events left undelivered by a previous run are resumed.
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {EventLog, EventSource} from './event-log.js'
import {asWebhookEvent, type EventType, type WebhookEvent} from '../../contract/events.js'
import {createForwarder, type Forwarder} from './forwarder.js'
import {t} from '../i18n/index.js'
import {routeFor, type ForwardRoutes} from './routes.js'
import {type VerifyFailure, type WebhookHeaders, verifyPayload} from '../../contract/signature.js'
import {describeVerifyFailure} from './verify-input.js'
import type {ForwardReport, PendingDelivery, ReceivedReport, RejectedReport} from './reports.js'

export type {ForwardReport, PendingDelivery, ReceivedReport, RejectedReport} from './reports.js'

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

interface Delivery {
  eventId: string
  webhookId: string
  type: string
  body: string
  url: string
  attempts: number
  receivedAt: Date
  timer?: NodeJS.Timeout
  nextAttemptAt?: Date
  lastStatus?: number
  lastError?: string
  inFlight: boolean
}

const DEFAULT_MAX_BODY = 1024 * 1024

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

export async function startListener(options: ListenerOptions): Promise<Listener> {
  const forwarder: Forwarder = await createForwarder({
    secret: options.localSecret,
    headers: options.headers,
    timeoutMs: options.timeoutMs,
    connections: options.connections,
  })
  const backoff = options.backoff ?? exponentialBackoff(options.retry)
  const secretList = (secret: ListenerOptions['inboundSecret']): string[] =>
    secret === undefined ? [] : typeof secret === 'string' ? [secret] : [...secret]
  let inboundSecrets = secretList(options.inboundSecret)
  const dedupeWindow = options.dedupeWindow ?? 10_000
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY
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
  const seen = new Set<string>()
  const deliveries = new Map<string, Delivery>()
  const inFlight = new Set<Promise<void>>()
  // Deliveries waiting for a retry only because the app did not answer at all.
  const unreachable = new Set<Delivery>()
  let closed = false

  function remember(id: string): void {
    seen.add(id)
    if (seen.size > dedupeWindow) seen.delete(seen.values().next().value as string)
  }

  function accept(event: WebhookEvent, body: string, webhookId: string, source: EventSource): IngestResult {
    const at = new Date()
    const report = (outcome: ReceivedReport['outcome']): IngestResult => {
      options.onReceived?.({at, eventId: event.id, webhookId, type: event.type, source, outcome})
      return {outcome}
    }
    if (seen.has(webhookId) || deliveries.has(event.id)) {
      stats.duplicates++
      return report('duplicate')
    }
    remember(webhookId)
    stats.received++
    log?.appendEvent({id: event.id, type: event.type, received_at: at.toISOString(), source, payload: event}, body)
    const routed = route(event.type)
    if (routed.skip) {
      stats.skipped++
      log?.appendSkip({event_id: event.id, at: at.toISOString(), reason: routed.skip})
      return report(routed.skip)
    }
    enqueue({eventId: event.id, webhookId, type: event.type, body, url: routed.url, receivedAt: at})
    return report('accepted')
  }

  function route(type: string): {url: string; skip?: undefined} | {skip: 'filtered' | 'no_route'} {
    if (options.events && !(options.events as readonly string[]).includes(type)) return {skip: 'filtered'}
    const url = routeFor(options.routes, type)
    return url ? {url} : {skip: 'no_route'}
  }

  function enqueue(input: Omit<Delivery, 'attempts' | 'inFlight'>): void {
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
    const run = forwarder.send(delivery.url, delivery.webhookId, delivery.body).then((outcome) => {
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
    delivery.nextAttemptAt = new Date(Date.now() + delay)
    delivery.timer = setTimeout(() => attempt(delivery), delay)
  }

  /** The app answered again: what waited only because it was unreachable goes now. */
  function wakeUnreachable(url: string): void {
    if (unreachable.size === 0) return
    const origin = new URL(url).origin
    for (const delivery of [...unreachable]) {
      if (delivery.inFlight || !delivery.timer || new URL(delivery.url).origin !== origin) continue
      clearTimeout(delivery.timer)
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

  function reject(response: ServerResponse, status: number, report: Omit<RejectedReport, 'at'>): void {
    stats.rejected++
    options.onRejected?.({at: new Date(), ...report})
    const code = status === 401 ? 'invalid_signature' : status === 413 ? 'too_large' : 'invalid_event'
    respond(response, status, {message: report.message, code, reason: report.reason})
  }

  function handle(request: IncomingMessage, response: ServerResponse): void {
    if (request.method !== 'POST') {
      if (request.method === 'GET' || request.method === 'HEAD') {
        respond(response, 200, {listening: true})
      } else {
        response.setHeader('allow', 'POST, GET')
        respond(response, 405, {message: t('webhooks.listen.methodNotAllowed'), code: 'method_not_allowed'})
      }
      request.resume()
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBody) tooLarge = true
      else chunks.push(chunk)
    })
    request.on('end', () => {
      const remoteAddress = request.socket.remoteAddress
      if (tooLarge) {
        reject(response, 413, {reason: 'too_large', message: t('webhooks.listen.tooLarge', {limit: maxBody}), remoteAddress})
        return
      }
      const body = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')
      const headers = request.headers as Record<string, string | string[] | undefined>
      const headerId = typeof headers['webhook-id'] === 'string' ? headers['webhook-id'] : undefined
      if (inboundSecrets.length > 0) {
        const failure = verifyInbound(headers, body)
        if (failure) {
          reject(response, 401, {
            reason: failure.reason,
            message: describeVerifyFailure(failure, {
              timestampValue: typeof headers['webhook-timestamp'] === 'string' ? headers['webhook-timestamp'] : undefined,
            }),
            header: failure.header,
            skewSeconds: failure.skewSeconds,
            webhookId: headerId,
            remoteAddress,
          })
          return
        }
      }
      let event: WebhookEvent | undefined
      try {
        event = asWebhookEvent(JSON.parse(body))
      } catch {
        event = undefined
      }
      if (!event) {
        reject(response, 400, {reason: 'bad_body', message: t('webhooks.listen.badBody'), webhookId: headerId, remoteAddress})
        return
      }
      const result = accept(event, body, headerId ?? event.id, 'inbound')
      respond(response, 200, result.outcome === 'duplicate' ? {received: true, duplicate: true} : {received: true})
    })
  }

  function verifyInbound(headers: Record<string, string | string[] | undefined>, body: string) {
    let first: Exclude<ReturnType<typeof verifyPayload>, {ok: true}> | undefined
    for (const secret of inboundSecrets) {
      const result = verifyPayload(secret, headers, body, {toleranceSeconds: options.toleranceSeconds})
      if (result.ok) return undefined
      first ??= result
    }
    return first
  }

  // Restore what a previous run knew: its ids (duplicates stay duplicates) and its undelivered events.
  const resumable: WebhookEvent[] = []
  if (log) {
    const history = await log.history()
    for (const entry of history.slice(-dedupeWindow)) remember(entry.id)
    if (options.resume !== false) {
      for (const entry of history) {
        const event = asWebhookEvent(entry.payload)
        if (event && !entry.delivered && !entry.skipped) resumable.push(event)
      }
    }
  }

  const server = createServer({keepAliveTimeout: 5_000}, handle)
  server.on('clientError', (_error, socket) => socket.destroy())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address

  for (const event of resumable) {
    const routed = route(event.type)
    if (routed.skip) continue
    stats.resumed++
    options.onReceived?.({
      at: new Date(),
      eventId: event.id,
      webhookId: event.id,
      type: event.type,
      source: 'ingest',
      outcome: 'resumed',
    })
    enqueue({
      eventId: event.id,
      webhookId: event.id,
      type: event.type,
      body: JSON.stringify(event),
      url: routed.url,
      receivedAt: new Date(),
    })
  }

  async function close(closeOptions: {graceMs?: number} = {}): Promise<{pending: PendingDelivery[]}> {
    if (!closed) {
      closed = true
      for (const delivery of deliveries.values()) {
        if (delivery.timer) clearTimeout(delivery.timer)
        delivery.timer = undefined
      }
      unreachable.clear()
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const grace = closeOptions.graceMs ?? 2_000
      let timer: NodeJS.Timeout | undefined
      const graceOver = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, grace)
      })
      await Promise.race([Promise.all([...inFlight]), graceOver])
      server.closeAllConnections()
      await forwarder.close()
      await Promise.all([...inFlight])
      clearTimeout(timer)
      await stopped
      await log?.flush()
    }
    return {pending: pending()}
  }

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    ingest: (event, source = 'ingest') => {
      if (closed) throw new Error('listener is closed')
      return accept(event, JSON.stringify(event), event.id, source)
    },
    pending,
    setInboundSecret: (secret) => {
      inboundSecrets = secretList(secret)
    },
    stats,
    close,
  }
}

function respond(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  response.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text)})
  response.end(text)
}
