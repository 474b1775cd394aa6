// The work of `svc webhooks replay`: one event of the local log sent again (EVENT_ID), or every
// event the app never accepted (--all-failed); --new-id sends under a fresh webhook-id.
import type {Context} from '../context.js'
import {InputError, OutcomeError} from '../errors.js'
import {t} from '../i18n/index.js'
import {openEventLog} from './event-log.js'
import {formatClock} from './format.js'
import {replayEvent, replayFailedEvents, type ReplayResult} from './replay.js'
import {forwardJson} from './report-json.js'
import {FORWARD_TO_FLAG, parseExtraHeaders, parseForwardTo, type ForwardRoutes} from './routes.js'
import {webhookScope} from './scope.js'

export interface ReplayFlags {
  'forward-to'?: string[]
  header?: string[]
  'all-failed'?: boolean
  'new-id'?: boolean
}

/**
 * Routes: `--forward-to` when given, else those `listen` last used for this profile. Headers:
 * `-H` when given, else those `listen` last used. The app's answers decide the exit code: 0 when
 * every replay got a 2xx, 1 otherwise (no retry: run it again).
 */
export async function webhooksReplay(ctx: Context, eventId: string | undefined, flags: ReplayFlags): Promise<void> {
  // EVENT_ID or --all-failed, exactly one: checked before anything is read or sent.
  if (Boolean(eventId) === Boolean(flags['all-failed'])) throw new InputError(t('webhooks.replay.oneOf'), {field: 'all-failed'})
  const {io} = ctx
  const scope = webhookScope(ctx)
  const saved = scope.savedRoutes()
  let routes: ForwardRoutes
  if (flags['forward-to']?.length) routes = parseForwardTo(flags['forward-to'])
  else if (saved) routes = saved.routes
  else throw new InputError(t('webhooks.replay.noRoutes'), {field: FORWARD_TO_FLAG})
  const headers = flags.header?.length ? parseExtraHeaders(flags.header) : (saved?.headers ?? {})
  const secret = await scope.localSecret()
  const newWebhookId = Boolean(flags['new-id'])
  const log = await openEventLog({dir: scope.dir})
  if (flags['all-failed']) {
    let results: ReplayResult[]
    try {
      results = await replayFailedEvents({log, routes, secret, headers, newWebhookId, clock: ctx.clock}, (result) => {
        if (!io.json) io.out(formatReplayLine(result, newWebhookId))
      })
    } finally {
      await log.close().catch(() => undefined)
    }
    return reportAllFailed(ctx, scope.name, results)
  }
  let result: ReplayResult
  try {
    result = await replayEvent({log, eventId: eventId!, routes, secret, headers, newWebhookId, clock: ctx.clock})
  } finally {
    await log.close().catch(() => undefined)
  }
  await io.result(replayJson(result), () => io.out(formatReplayLine(result, newWebhookId)))
  if (result.ok) return
  const reason = result.status === undefined ? (result.error ?? '') : `HTTP ${result.status}`
  const failure = new OutcomeError(t('webhooks.replay.failed', {id: result.eventId, url: result.url, reason}), {code: 'replay_failed'})
  throw io.afterResult(failure)
}

/** The per-event lines are already out (human); then the summary, or the --json document. */
async function reportAllFailed(ctx: Context, scopeName: string, results: ReplayResult[]): Promise<void> {
  const {io} = ctx
  const refused = results.filter((result) => !result.ok)
  const document = {
    kind: 'replay_all_failed',
    replayed: results.length,
    delivered: results.length - refused.length,
    failed: refused.length,
    events: results.map(replayJson),
  }
  await io.result(document, () => {
    if (results.length === 0) io.err(t('webhooks.replay.noneFailed', {scope: scopeName}))
    else if (refused.length === 0) io.err(t('webhooks.replay.allDelivered', {count: results.length}))
  })
  if (refused.length === 0) return
  throw io.afterResult(new OutcomeError(t('webhooks.replay.someRefused', {count: refused.length, total: results.length}), {code: 'replay_failed'}))
}

function replayJson(result: ReplayResult): Record<string, unknown> {
  const report = {...result, attempt: 1}
  return {...forwardJson(report), kind: 'replay', webhook_id: result.webhookId}
}

function formatReplayLine(result: ReplayResult, newWebhookId: boolean): string {
  const params = {time: formatClock(result.at), type: result.type, id: result.eventId, url: result.url, latency: result.latencyMs.toFixed(1)}
  const line =
    result.status === undefined
      ? t('webhooks.replay.unreachable', {...params, error: result.error ?? ''})
      : t('webhooks.replay.sent', {...params, status: result.status})
  return newWebhookId ? line + t('webhooks.replay.asWebhookId', {webhookId: result.webhookId}) : line
}
