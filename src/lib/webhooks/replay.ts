/**
 * `svc webhooks replay EVENT_ID` and `replay --all-failed`: send logged events to the local app
 * again, signed afresh with the local secret (a new timestamp; the same webhook-id, or a fresh one
 * with `newWebhookId` for an app that dedupes), through the same routes as the listener.
 */
import {randomBytes} from 'node:crypto'

import type {Clock} from '../../contract/clock.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import type {EventHistory, EventLog} from './event-log.js'
import {asWebhookEvent} from '../../contract/events.js'
import {createForwarder, type ForwardOutcome, type Forwarder} from './forwarder.js'
import {FORWARD_TO_FLAG, routeFor, type ForwardRoutes} from './routes.js'

export interface ReplayOptions {
  log: EventLog
  eventId: string
  routes: ForwardRoutes
  /** The local signing secret. */
  secret: string
  headers?: Record<string, string>
  timeoutMs?: number
  /** Send under a fresh webhook-id (the event itself unchanged), so that an app that dedupes acts on it. */
  newWebhookId?: boolean
  /** The time replays are signed with (the run's). */
  clock?: Clock
}

export interface ReplayResult extends ForwardOutcome {
  eventId: string
  type: string
  /** The webhook-id the replay was sent with: the event's id, or a fresh one. */
  webhookId: string
}

/** A fresh webhook-id that still names the event it replays, for the app's logs. */
export function freshWebhookId(eventId: string): string {
  return `${eventId}_replay_${randomBytes(6).toString('hex')}`
}

/** One attempt, logged; throws a not-found error (exit 4) for an unknown id. */
export async function replayEvent(options: ReplayOptions): Promise<ReplayResult> {
  const entry = await options.log.findEvent(options.eventId)
  if (!entry || !asWebhookEvent(entry.payload)) {
    throw new SvcError(t('webhooks.replay.notFound', {id: options.eventId, path: options.log.path}), {
      exitCode: ExitCode.NOT_FOUND,
      code: 'not_found',
    })
  }
  routeOf(entry, options.routes)
  const forwarder = await createForwarder({secret: options.secret, headers: options.headers, timeoutMs: options.timeoutMs, clock: options.clock})
  try {
    return await replayEntry(forwarder, entry, options)
  } finally {
    await forwarder.close()
  }
}

/**
 * Every event the app never accepted (attempted, no 2xx: `svc webhooks events --status failed`),
 * oldest first, one after the other; each attempt logged. Events without a route are refused up
 * front (exit 2), before anything is sent.
 */
export async function replayFailedEvents(
  options: Omit<ReplayOptions, 'eventId'>,
  onResult: (result: ReplayResult) => void = () => {},
): Promise<ReplayResult[]> {
  const failed = (await options.log.history()).filter((entry) => !entry.delivered && !entry.skipped && entry.attempts.length > 0)
  const replayable = failed.filter((entry) => asWebhookEvent(entry.payload))
  for (const entry of replayable) routeOf(entry, options.routes)
  if (replayable.length === 0) return []
  const forwarder = await createForwarder({secret: options.secret, headers: options.headers, timeoutMs: options.timeoutMs, clock: options.clock})
  const results: ReplayResult[] = []
  try {
    for (const entry of replayable) {
      const result = await replayEntry(forwarder, entry, options)
      results.push(result)
      onResult(result)
    }
  } finally {
    await forwarder.close()
  }
  return results
}

function routeOf(entry: EventHistory, routes: ForwardRoutes): string {
  const event = asWebhookEvent(entry.payload)!
  const url = routeFor(routes, event.type)
  if (!url) throw new InputError(t('webhooks.replay.noRoute', {type: event.type}), {field: FORWARD_TO_FLAG})
  return url
}

async function replayEntry(forwarder: Forwarder, entry: EventHistory, options: Omit<ReplayOptions, 'eventId'>): Promise<ReplayResult> {
  const event = asWebhookEvent(entry.payload)!
  const url = routeOf(entry, options.routes)
  const webhookId = options.newWebhookId ? freshWebhookId(event.id) : event.id
  const outcome = await forwarder.send(url, webhookId, JSON.stringify(event))
  options.log.appendAttempt({
    event_id: event.id,
    at: outcome.at.toISOString(),
    url,
    attempt: entry.attempts.length + 1,
    ok: outcome.ok,
    status: outcome.status,
    error: outcome.error,
    latency_ms: Math.round(outcome.latencyMs * 100) / 100,
  })
  await options.log.flush()
  return {...outcome, eventId: event.id, type: event.type, webhookId}
}
