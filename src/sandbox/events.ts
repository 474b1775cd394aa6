/**
 * Events and their webhook deliveries.
 *
 * An event (`{id: 'evt_…', type, created_at, environment, data}`) goes to every webhook endpoint of
 * its own environment and never the other. Each delivery is signed per Standard Webhooks with the
 * endpoint's secret (and the previous one during a rotation), POSTed with global fetch and a 15 s
 * timeout, and retried on the contract's schedule on the sandbox clock, then marked failed. Every
 * attempt is logged.
 *
 * `webhook-id` is the event id, the same on every attempt and every endpoint, so receivers can
 * dedupe. `webhook-timestamp` is real time, not sandbox time: receivers check it against their own
 * clock with a five-minute tolerance, and a sandbox clock advanced by days would fail them all.
 */
import {deadline} from '../contract/clock.js'
import type {EventType} from '../contract/events.js'
import {generateSecret, signPayload} from '../contract/signature.js'
import type {Scheduler, ScheduledTask} from './clock.js'
import type {SandboxTime} from './clock.js'
import {t} from './i18n/index.js'
import {newPlainId} from './ids.js'
import {DEFAULT_DELIVERY_DELAY_MS, DEFAULT_REORDER_DELAY_MS, type Fault} from './scenarios.js'
import type {Collection, Store} from './store.js'
import type {Environment, JsonValue} from './types.js'

/** Delays before each retry (docs/service.md, "Events and signatures"): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const
export const DELIVERY_TIMEOUT_MS = 15_000
/** How long the previous secret keeps signing after a rotation, by default. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

export interface WebhookEndpoint {
  id: string
  url: string
  environment: Environment
  secret: string
  previous_secret?: string
  previous_secret_expires_at?: string
  created_at: string
}

export interface SandboxEvent<T = unknown> {
  id: string
  type: string
  created_at: string
  environment: Environment
  data: T
}

export interface DeliveryAttempt {
  attempt: number
  at: string
  ok: boolean
  status_code?: number
  error?: string
  duration_ms: number
}

export interface Delivery {
  id: string
  event_id: string
  event_type: string
  endpoint_id: string
  url: string
  environment: Environment
  status: 'pending' | 'succeeded' | 'failed'
  attempts: DeliveryAttempt[]
  next_attempt_at?: string
  created_at: string
  /** A delivery fault injected into it (`svc sandbox faults set --deliveries …`): `flt_1 duplicate`. */
  fault?: string
}

/** Where delivery faults come from (scenarios.ts) and where their injection is told. */
export interface DeliveryFaults {
  faults: {deliveryFault(): Fault | undefined}
  log: (line: string) => void
}

type Listener = (event: SandboxEvent) => void

export class EventBus {
  private readonly endpoints: Collection<WebhookEndpoint>
  private listeners: Listener[] = []
  /** Aborts deliveries in flight when the sandbox closes. */
  private readonly closing = new AbortController()

  constructor(
    private readonly store: Store,
    private readonly clock: SandboxTime,
    private readonly scheduler: Scheduler,
    private readonly injected?: DeliveryFaults,
  ) {
    this.endpoints = store.business.collection<WebhookEndpoint>('webhook_endpoints')
    store.defineCollection<SandboxEvent>('environment', 'events', {type: (event) => event.type})
    store.defineCollection<Delivery>('environment', 'deliveries', {status: (d) => d.status, event_id: (d) => d.event_id})
    scheduler.define('webhook.deliver', (payload: {environment: Environment; delivery_id: string}, task) =>
      this.attempt(payload.environment, payload.delivery_id, task),
    )
  }

  private events(environment: Environment): Collection<SandboxEvent> {
    return this.store.env(environment).collection<SandboxEvent>('events')
  }

  private deliveries(environment: Environment): Collection<Delivery> {
    return this.store.env(environment).collection<Delivery>('deliveries')
  }

  /** In-process subscribers (e.g. the walkthrough, part 2's outbox); called synchronously on emit. */
  subscribe(listener: Listener): () => void {
    this.listeners.push(listener)
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener)
    }
  }

  /**
   * Record an event and queue one delivery per endpoint of its environment. `data` is copied, so
   * later changes to the object do not rewrite history; a caller whose object is final from now on
   * (a settled payment) passes `{final: true}` to share it instead (memory: one copy, not two).
   */
  emit<T>(environment: Environment, type: EventType, data: T, options: {final?: boolean} = {}): SandboxEvent<T> {
    const now = this.clock.now()
    const event: SandboxEvent<T> = {
      id: newPlainId('evt'),
      type,
      created_at: this.clock.iso(now),
      environment,
      data: options.final ? data : structuredClone(data),
    }
    this.events(environment).insert(event)
    this.queueDeliveries(event, now)
    for (const listener of this.listeners) listener(event)
    return event
  }

  private queueDeliveries(event: SandboxEvent, now: number): Delivery[] {
    const {environment} = event
    const queued: Delivery[] = []
    for (const endpoint of this.endpoints.values()) {
      if (endpoint.environment !== environment) continue
      const delivery = this.deliveries(environment).insert({
        id: newPlainId('dlv'),
        event_id: event.id,
        event_type: event.type,
        endpoint_id: endpoint.id,
        url: endpoint.url,
        environment,
        status: 'pending',
        attempts: [],
        next_attempt_at: this.clock.iso(now),
        created_at: this.clock.iso(now),
      })
      this.scheduler.schedule(now, 'webhook.deliver', {environment, delivery_id: delivery.id})
      queued.push(delivery)
    }
    return queued
  }

  /** Deliver an event again (the dashboard's redeliver): a new delivery to each endpoint of its environment. */
  redeliver(environment: Environment, eventId: string): Delivery[] | undefined {
    const event = this.getEvent(environment, eventId)
    return event && this.queueDeliveries(event, this.clock.now())
  }

  getEvent(environment: Environment, id: string): SandboxEvent | undefined {
    return this.events(environment).get(id)
  }

  listEvents(environment: Environment, offset: number, limit: number, type?: string) {
    return this.events(environment).newestFirst(offset, limit, {type})
  }

  deliveriesOf(environment: Environment, eventId: string): Delivery[] {
    return this.deliveries(environment).find({event_id: eventId})
  }

  listDeliveries(environment: Environment, offset: number, limit: number, status?: Delivery['status']) {
    return this.deliveries(environment).newestFirst(offset, limit, {status})
  }

  // Endpoints -------------------------------------------------------------------------------

  addEndpoint(url: string, environment: Environment): WebhookEndpoint {
    return this.endpoints.insert({
      id: newPlainId('we'),
      url,
      environment,
      secret: generateSecret(),
      created_at: this.clock.iso(),
    })
  }

  listEndpoints(environment?: Environment): WebhookEndpoint[] {
    return this.endpoints.values().filter((endpoint) => !environment || endpoint.environment === environment)
  }

  getEndpoint(id: string): WebhookEndpoint | undefined {
    return this.endpoints.get(id)
  }

  removeEndpoint(id: string): boolean {
    return this.endpoints.delete(id)
  }

  /** New secret; the old one keeps signing (alongside) for `overlapMs` of sandbox time. */
  rotate(id: string, overlapMs: number = ROTATION_OVERLAP_MS): WebhookEndpoint | undefined {
    return this.endpoints.update(id, (endpoint) => {
      if (overlapMs > 0) {
        endpoint.previous_secret = endpoint.secret
        endpoint.previous_secret_expires_at = this.clock.iso(this.clock.now() + overlapMs)
      } else {
        delete endpoint.previous_secret
        delete endpoint.previous_secret_expires_at
      }
      endpoint.secret = generateSecret()
    })
  }

  /** The secrets a delivery is signed with now: the current one, plus the previous during a rotation. */
  signingSecrets(endpoint: WebhookEndpoint): string[] {
    const secrets = [endpoint.secret]
    if (endpoint.previous_secret && endpoint.previous_secret_expires_at && Date.parse(endpoint.previous_secret_expires_at) > this.clock.now())
      secrets.push(endpoint.previous_secret)
    return secrets
  }

  /** Abort every delivery in flight (on close); they are retried after a restart with dataFile. */
  shutdown(): void {
    this.closing.abort()
  }

  // Delivery ---------------------------------------------------------------------------------

  private async attempt(environment: Environment, deliveryId: string, task: ScheduledTask): Promise<void> {
    const delivery = this.deliveries(environment).get(deliveryId)
    if (!delivery || delivery.status !== 'pending') return
    const event = this.events(environment).get(delivery.event_id)
    const endpoint = this.endpoints.get(delivery.endpoint_id)
    const attempt: DeliveryAttempt = {attempt: delivery.attempts.length + 1, at: this.clock.iso(), ok: false, duration_ms: 0}
    if (!event || !endpoint) {
      attempt.error = endpoint ? 'event missing' : 'endpoint removed'
      this.deliveries(environment).update(deliveryId, (d) => {
        d.attempts.push(attempt)
        d.status = 'failed'
        delete d.next_attempt_at
      })
      return
    }
    // A delivery fault is drawn once per delivery, at its first attempt (a held one is not held again).
    const fault = delivery.attempts.length === 0 && !delivery.fault ? this.injected?.faults.deliveryFault() : undefined
    if (fault) {
      const kind = fault.deliveries!
      this.injected!.log(t('sandbox.fault.delivery', {id: fault.id, kind, event: event.id, type: event.type, url: endpoint.url}))
      if (kind === 'drop') {
        attempt.error = t('sandbox.fault.dropped', {id: fault.id})
        this.deliveries(environment).update(deliveryId, (d) => {
          d.fault = `${fault.id} drop`
          d.attempts.push(attempt)
          d.status = 'failed'
          delete d.next_attempt_at
        })
        return
      }
      if (kind === 'delay' || kind === 'reorder') {
        // Reorder: held long enough for the events after it to overtake it.
        const at = task.at + (fault.delay_ms ?? (kind === 'delay' ? DEFAULT_DELIVERY_DELAY_MS : DEFAULT_REORDER_DELAY_MS))
        this.deliveries(environment).update(deliveryId, (d) => {
          d.fault = `${fault.id} ${kind}`
          d.next_attempt_at = this.clock.iso(at)
        })
        this.scheduler.schedule(at, 'webhook.deliver', {environment, delivery_id: deliveryId} as JsonValue)
        return
      }
      this.deliveries(environment).update(deliveryId, (d) => {
        d.fault = `${fault.id} duplicate`
      })
    }
    const body = JSON.stringify(event)
    const started = this.clock.machine.monotonic()
    try {
      const headers = signPayload(this.signingSecrets(endpoint), event.id, body, Math.floor(this.clock.machine.now() / 1000))
      const send = () =>
        fetch(endpoint.url, {
          method: 'POST',
          headers: {...headers, 'content-type': 'application/json', 'user-agent': 'svc-sandbox-webhooks/1'},
          body,
          signal: AbortSignal.any([deadline(this.clock.machine, DELIVERY_TIMEOUT_MS).signal, this.closing.signal]),
          redirect: 'manual',
        })
      const response = await send()
      attempt.status_code = response.status
      attempt.ok = response.status >= 200 && response.status < 300
      // Drain the body so the connection is released.
      await response.arrayBuffer().catch(() => undefined)
      // The same request again, byte for byte (same webhook-id): the receiver must dedupe.
      if (fault) await (await send()).arrayBuffer().catch(() => undefined)
    } catch (error) {
      // Closing: leave the delivery as it was, so that a restart with dataFile retries it.
      if (this.closing.signal.aborted) return
      const err = error as Error & {cause?: {code?: string}}
      attempt.error = err.name === 'TimeoutError' ? `timeout after ${DELIVERY_TIMEOUT_MS} ms` : err.cause?.code ?? err.message
    }
    attempt.duration_ms = Math.round(this.clock.machine.monotonic() - started)
    const retryIndex = delivery.attempts.length // 0 after the first attempt
    this.deliveries(environment).update(deliveryId, (d) => {
      d.attempts.push(attempt)
      if (attempt.ok) {
        d.status = 'succeeded'
        delete d.next_attempt_at
      } else if (retryIndex < RETRY_SCHEDULE_MS.length) {
        // From the attempt's due time, so the schedule does not drift with the receiver's latency.
        const at = task.at + RETRY_SCHEDULE_MS[retryIndex]
        d.next_attempt_at = this.clock.iso(at)
        this.scheduler.schedule(at, 'webhook.deliver', {environment, delivery_id: deliveryId} as JsonValue)
      } else {
        d.status = 'failed'
        delete d.next_attempt_at
      }
    })
  }
}
