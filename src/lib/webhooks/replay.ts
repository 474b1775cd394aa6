/**
 * `svc webhooks replay EVENT_ID`: send a logged event to the local app again, signed afresh with
 * the local secret (same webhook-id, new timestamp), through the same routes as the listener.
 */
import {ExitCode, InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import type {EventLog} from './event-log.js'
import {asWebhookEvent} from '../../contract/events.js'
import {createForwarder, type ForwardOutcome} from './forwarder.js'
import {FORWARD_TO_FLAG, routeFor, type ForwardRoutes} from './routes.js'

export interface ReplayOptions {
  log: EventLog
  eventId: string
  routes: ForwardRoutes
  /** The local signing secret. */
  secret: string
  headers?: Record<string, string>
  timeoutMs?: number
}

export interface ReplayResult extends ForwardOutcome {
  eventId: string
  type: string
}

/** One attempt, logged; throws a not-found error (exit 4) for an unknown id. */
export async function replayEvent(options: ReplayOptions): Promise<ReplayResult> {
  const entry = await options.log.findEvent(options.eventId)
  const event = entry ? asWebhookEvent(entry.payload) : undefined
  if (!entry || !event) {
    throw new SvcError(t('webhooks.replay.notFound', {id: options.eventId, path: options.log.path}), {
      exitCode: ExitCode.NOT_FOUND,
      code: 'not_found',
    })
  }
  const url = routeFor(options.routes, event.type)
  if (!url) throw new InputError(t('webhooks.replay.noRoute', {type: event.type}), {field: FORWARD_TO_FLAG})
  const forwarder = await createForwarder({secret: options.secret, headers: options.headers, timeoutMs: options.timeoutMs})
  try {
    const outcome = await forwarder.send(url, event.id, JSON.stringify(event))
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
    return {...outcome, eventId: event.id, type: event.type}
  } finally {
    await forwarder.close()
  }
}
