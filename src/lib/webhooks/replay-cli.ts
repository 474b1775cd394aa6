// The work of `svc webhooks replay`: one event of the local log sent again, the app's answer shown.
import type {Context} from '../context.js'
import {InputError, OutcomeError} from '../errors.js'
import {t} from '../i18n/index.js'
import {openEventLog} from './event-log.js'
import {formatClock} from './format.js'
import type {ForwardReport} from './reports.js'
import {replayEvent} from './replay.js'
import {forwardJson} from './report-json.js'
import {FORWARD_TO_FLAG, parseExtraHeaders, parseForwardTo, type ForwardRoutes} from './routes.js'
import {webhookScope} from './scope.js'

export interface ReplayFlags {
  'forward-to'?: string[]
  header?: string[]
}

/**
 * Routes: `--forward-to` when given, else those `listen` last used for this profile. Headers:
 * `-H` when given, else those `listen` last used. The app's answer decides the exit code: 0 for
 * 2xx, 1 otherwise (no retry: run it again).
 */
export async function webhooksReplay(ctx: Context, eventId: string, flags: ReplayFlags): Promise<void> {
  const {io} = ctx
  const scope = webhookScope(ctx)
  const saved = scope.savedRoutes()
  let routes: ForwardRoutes
  if (flags['forward-to']?.length) routes = parseForwardTo(flags['forward-to'])
  else if (saved) routes = saved.routes
  else throw new InputError(t('webhooks.replay.noRoutes'), {field: FORWARD_TO_FLAG})
  const headers = flags.header?.length ? parseExtraHeaders(flags.header) : (saved?.headers ?? {})
  const secret = await scope.localSecret()
  const log = await openEventLog({dir: scope.dir})
  let result
  try {
    result = await replayEvent({log, eventId, routes, secret, headers})
  } finally {
    await log.close().catch(() => undefined)
  }
  const report: ForwardReport = {
    at: result.at,
    eventId: result.eventId,
    type: result.type,
    url: result.url,
    attempt: 1,
    ok: result.ok,
    status: result.status,
    error: result.error,
    latencyMs: result.latencyMs,
  }
  await io.result({...forwardJson(report), kind: 'replay'}, () => io.out(formatReplayLine(report)))
  if (result.ok) return
  const reason = result.status === undefined ? (result.error ?? '') : `HTTP ${result.status}`
  const failure = new OutcomeError(t('webhooks.replay.failed', {id: result.eventId, url: result.url, reason}), {code: 'replay_failed'})
  throw io.afterResult(failure)
}

function formatReplayLine(report: ForwardReport): string {
  const params = {time: formatClock(report.at), type: report.type, id: report.eventId, url: report.url, latency: report.latencyMs.toFixed(1)}
  if (report.status === undefined) return t('webhooks.replay.unreachable', {...params, error: report.error ?? ''})
  return t('webhooks.replay.sent', {...params, status: report.status})
}

