/**
 * The work of `svc webhooks listen|replay|verify|trigger`, one function per command: flags in,
 * validated before anything starts, rendered out. Commands only hand over their flags.
 */
import type {Context} from '../context.js'
import {ExitCode, InputError, OutcomeError, SvcError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {normaliseBaseUrl} from '../config/resolve.js'
import {readSandboxState} from '../sandbox/state.js'
import {maskSecret} from '../../contract/keys.js'
import {parseDuration} from '../time/duration.js'
import {openEventLog} from './event-log.js'
import {EVENT_TYPES, type EventType} from '../../contract/events.js'
import {formatClock, formatDuration, formatForwardReport, formatPendingSummary, formatReceivedReport, formatRejectedReport} from './format.js'
import type {ListenSession, ListenSource} from './listen-session.js'
import type {ForwardReport, PendingDelivery, ReceivedReport, RejectedReport} from './listener.js'
import {replayEvent} from './replay.js'
import {FORWARD_TO_FLAG, parseExtraHeaders, parseForwardTo, parseListenRouting, type ForwardRoutes, type ListenRouting} from './routes.js'
import {webhookScope, type SavedRoutes, type WebhookScope} from './scope.js'
import {secretKey} from '../../contract/signature.js'
import {readPayload, verifyDelivery} from './verify-input.js'

// ---------------------------------------------------------------------------------------------
// listen

export interface ListenFlags {
  'forward-to'?: string[]
  events?: string[]
  header?: string[]
  port?: number
  'print-secret': boolean
  source: 'auto' | 'inbound' | 'poll'
  'endpoint-secret-stdin': boolean
  'poll-interval': string
}

export interface ListenHandle {
  /** Resolves when the listener stops by itself (it does not, short of an error). */
  done: Promise<void>
  /** Ctrl-C: stop, and report what is still pending (stderr; a `stopped` line with --json). */
  interrupt(): Promise<void>
}

export async function webhooksListen(ctx: Context, flags: ListenFlags, stdin: AsyncIterable<Buffer | string> = process.stdin): Promise<ListenHandle | undefined> {
  const {io} = ctx
  const scope = webhookScope(ctx)
  if (flags['print-secret']) {
    const secret = await scope.localSecret()
    if (io.json) io.outJson({local_secret: secret})
    else io.out(secret)
    return undefined
  }

  let givenEndpointSecret: string | undefined
  if (flags['endpoint-secret-stdin']) {
    givenEndpointSecret = await readEndpointSecret(stdin)
    await scope.saveEndpointSecret(givenEndpointSecret)
    if (!io.json) io.err(t('webhooks.listen.endpointSecretSaved', {scope: scope.name, secret: maskSecret(givenEndpointSecret)}))
    if (!flags['forward-to']?.length) {
      if (io.json) io.outJson({endpoint_secret: maskSecret(givenEndpointSecret), saved: true})
      return undefined
    }
  }

  const routing = parseListenRouting({forwardTo: flags['forward-to'] ?? [], events: flags.events, headers: flags.header})
  const pollIntervalMs = parseDuration(flags['poll-interval'], 'poll-interval', {min: 250})
  const source = await resolveSource(ctx, scope, flags.source, givenEndpointSecret, pollIntervalMs)
  const localSecret = await scope.localSecret()
  const paint = await io.paint()

  const line = (json: Record<string, unknown>, human: string | undefined, toStdout: boolean) => {
    if (io.json) io.outJsonLine(json)
    else if (human !== undefined) (toStdout ? io.out(human) : io.err(human))
  }
  const {startListenSession} = await import('./listen-session.js')
  const session: ListenSession = await startListenSession({
    scope,
    source,
    routing,
    localSecret,
    port: flags.port,
    onForward: (report) => {
      const text = formatForwardReport(report)
      line(forwardJson(report), report.ok ? text : paint.yellow(text), true)
    },
    onReceived: (report) => {
      if (report.outcome === 'accepted' || report.outcome === 'resumed') return
      line(receivedJson(report), formatReceivedReport(report), false)
    },
    onRejected: (report) => line(rejectedJson(report), paint.red(formatRejectedReport(report)), false),
    onPollError: (error) => {
      const message = ctx.redact((error as Error).message)
      io.warn(t('webhooks.poll.failed', {message, interval: formatDuration(pollIntervalMs)}))
    },
  })
  scope.saveRoutes({routes: routing.routes, events: routing.events, headers: routing.headers} satisfies SavedRoutes)

  announce(ctx, scope, session, source, routing, localSecret, pollIntervalMs)

  let settle: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    settle = resolve
  })
  return {
    done,
    async interrupt() {
      const pending = await session.stop()
      io.err(formatPendingSummary(pending))
      if (io.json) io.outJsonLine({kind: 'stopped', pending: pending.map(pendingJson)})
      settle()
    },
  }
}

async function readEndpointSecret(stdin: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  const secret = Buffer.concat(chunks).toString('utf8').trim()
  if (!secret) throw new InputError(t('webhooks.listen.endpointSecretEmpty'), {field: 'endpoint-secret-stdin'})
  if (!secretKey(secret)) throw new InputError(t('webhooks.listen.endpointSecretMalformed'), {field: 'endpoint-secret-stdin'})
  return secret
}

/** The local sandbox is the one `svc sandbox serve` runs at the credentials' base URL. */
function localSandboxFor(ctx: Context): ReturnType<typeof readSandboxState> {
  const state = readSandboxState(ctx.configDir)
  if (!state) return undefined
  try {
    return normaliseBaseUrl(state.base_url) === ctx.credentials().baseUrl ? state : undefined
  } catch {
    return undefined
  }
}

async function resolveSource(
  ctx: Context,
  scope: WebhookScope,
  mode: ListenFlags['source'],
  givenSecret: string | undefined,
  pollIntervalMs: number,
): Promise<ListenSource> {
  const endpointSecret = givenSecret ?? scope.endpointSecret()
  const local = mode === 'auto' ? localSandboxFor(ctx) : undefined
  if (local) {
    const {localAdmin} = await import('../sandbox/admin.js')
    return {kind: 'sandbox', admin: await localAdmin(ctx), adminUrl: local.admin_url, environment: ctx.credentials().environment ?? 'SANDBOX'}
  }
  if (mode === 'inbound' || (mode === 'auto' && endpointSecret)) {
    if (!endpointSecret) {
      throw new InputError(t('webhooks.listen.inboundNoSecret', {scope: scope.name}), {
        field: 'endpoint-secret-stdin',
        code: 'endpoint_secret_missing',
      })
    }
    return {kind: 'inbound', secret: endpointSecret}
  }
  const client = await ctx.client()
  const listShape = (await ctx.service()).lists.payments
  return {kind: 'poll', client, listShape, intervalMs: pollIntervalMs}
}

function routeTargets(routes: ForwardRoutes): Record<string, string> {
  const out: Record<string, string> = {}
  if (routes.defaultUrl) out.default = routes.defaultUrl
  for (const type of EVENT_TYPES) if (routes.byType[type]) out[type] = routes.byType[type]!
  return out
}

function announce(
  ctx: Context,
  scope: WebhookScope,
  session: ListenSession,
  source: ListenSource,
  routing: ListenRouting,
  localSecret: string,
  pollIntervalMs: number,
): void {
  const {io} = ctx
  const creds = ctx.credentials()
  const receiver = session.listener.url
  if (io.json) {
    io.outJsonLine({
      kind: 'ready',
      source: source.kind,
      receiver_url: receiver,
      endpoint_id: session.endpointId ?? null,
      forward_to: routeTargets(routing.routes),
      events: routing.events ?? null,
      local_secret: localSecret,
      scope: scope.name,
    })
  }
  const paint = io.paintSync()
  io.err(paint.bold(t('webhooks.listen.ready', {url: receiver})))
  if (source.kind === 'sandbox') {
    io.err(t('webhooks.listen.source.sandbox', {base: creds.baseUrl, environment: source.environment, id: session.endpointId ?? ''}))
  } else if (source.kind === 'inbound') {
    io.err(t('webhooks.listen.source.inbound', {scope: scope.name, port: session.listener.port}))
  } else {
    io.err(t('webhooks.listen.source.poll', {base: creds.baseUrl, interval: formatDuration(pollIntervalMs)}))
  }
  if (routing.routes.defaultUrl) io.err(t('webhooks.listen.forwardingTo', {url: routing.routes.defaultUrl}))
  for (const type of EVENT_TYPES) {
    const url = routing.routes.byType[type]
    if (url) io.err(t('webhooks.listen.forwardingType', {type, url}))
  }
  if (routing.events) io.err(t('webhooks.listen.eventsOnly', {events: routing.events.join(', ')}))
  if (Object.keys(routing.headers).length > 0) io.err(t('webhooks.listen.extraHeaders', {names: Object.keys(routing.headers).join(', ')}))
  if (session.listener.stats.resumed > 0) io.err(t('webhooks.listen.resumed', {count: session.listener.stats.resumed}))
  io.err(t('webhooks.listen.secret', {secret: paint.cyan(localSecret)}))
  io.err(t('webhooks.listen.stopHint'))
}

function forwardJson(report: ForwardReport): Record<string, unknown> {
  const out: Record<string, unknown> = {
    kind: 'forward',
    at: report.at.toISOString(),
    event_id: report.eventId,
    type: report.type,
    url: report.url,
    attempt: report.attempt,
    ok: report.ok,
    status: report.status ?? null,
    latency_ms: Math.round(report.latencyMs * 100) / 100,
  }
  if (report.error) out.error = report.error
  if (report.retryInMs !== undefined) out.retry_in_ms = report.retryInMs
  return out
}

function receivedJson(report: ReceivedReport): Record<string, unknown> {
  return {kind: 'received', at: report.at.toISOString(), event_id: report.eventId, type: report.type, source: report.source, outcome: report.outcome}
}

function rejectedJson(report: RejectedReport): Record<string, unknown> {
  const out: Record<string, unknown> = {kind: 'rejected', at: report.at.toISOString(), reason: report.reason, message: report.message}
  if (report.header) out.header = report.header
  if (report.skewSeconds !== undefined) out.skew_seconds = report.skewSeconds
  if (report.webhookId) out.webhook_id = report.webhookId
  return out
}

function pendingJson(pending: PendingDelivery): Record<string, unknown> {
  return {
    event_id: pending.eventId,
    type: pending.type,
    url: pending.url,
    attempts: pending.attempts,
    last_status: pending.lastStatus ?? null,
    last_error: pending.lastError ?? null,
  }
}

// ---------------------------------------------------------------------------------------------
// replay

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
  if (io.json) io.outJson({...forwardJson(report), kind: 'replay'})
  else io.out(formatReplayLine(report))
  if (result.ok) return
  const reason = result.status === undefined ? (result.error ?? '') : `HTTP ${result.status}`
  if (io.json) {
    process.exitCode = ExitCode.FAILURE
    return
  }
  throw new OutcomeError(t('webhooks.replay.failed', {id: result.eventId, url: result.url, reason}), {code: 'replay_failed'})
}

function formatReplayLine(report: ForwardReport): string {
  const params = {time: formatClock(report.at), type: report.type, id: report.eventId, url: report.url, latency: report.latencyMs.toFixed(1)}
  if (report.status === undefined) return t('webhooks.replay.unreachable', {...params, error: report.error ?? ''})
  return t('webhooks.replay.sent', {...params, status: report.status})
}

// ---------------------------------------------------------------------------------------------
// verify

export interface VerifyFlags {
  secret: string
  payload: string
  header?: string[]
  tolerance: string
}

/**
 * Exit 0 when the delivery verifies, 1 when it does not (whatever the reason, a malformed secret
 * included: that is the delivery's verification failing). Exit 2 only for flags that cannot be
 * used: an unreadable payload, a malformed --header line, a bad --tolerance.
 */
export async function webhooksVerify(ctx: Context, flags: VerifyFlags, stdin: AsyncIterable<Buffer | string> = process.stdin): Promise<void> {
  const {io} = ctx
  const toleranceMs = parseDuration(flags.tolerance, 'tolerance')
  const payload = await readPayload(flags.payload, stdin)
  const report = verifyDelivery({
    secret: flags.secret,
    payload,
    headers: flags.header ?? [],
    toleranceSeconds: Math.floor(toleranceMs / 1000),
  })
  if (io.json) {
    io.outJson(report)
    if (!report.ok) process.exitCode = ExitCode.FAILURE
    return
  }
  if (report.ok) {
    io.out(report.message)
    return
  }
  throw new OutcomeError(report.message, {code: report.reason, hint: report.hint})
}

// ---------------------------------------------------------------------------------------------
// trigger

export interface TriggerFlags {
  operator?: 'MTN' | 'ORANGE'
  watch: boolean
}

const TRIGGER_AMOUNT = 1000

/**
 * A real sandbox payment with the spec's test number for the wanted outcome, so that the real
 * event follows. Sandbox keys only: on a LIVE key it would move real money (exit 2).
 */
export async function webhooksTrigger(ctx: Context, type: string, flags: TriggerFlags): Promise<void> {
  const {io} = ctx
  if (!(EVENT_TYPES as readonly string[]).includes(type)) {
    throw new InputError(t('webhooks.route.unknownType', {flag: 'EVENT', type, types: EVENT_TYPES.join(', ')}), {field: 'event'})
  }
  const eventType = type as EventType
  const key = ctx.requireKey()
  if (ctx.credentials().environment !== 'SANDBOX') {
    throw new InputError(t('webhooks.trigger.liveRefused', {key: maskSecret(key)}), {field: 'api-key', code: 'live_key'})
  }
  const outcome = eventType === 'payment.success' ? 'SUCCESS' : 'FAILED'
  const operator = flags.operator ?? 'MTN'
  const {TEST_NUMBERS} = await import('../../contract/test-numbers.js')
  const number = TEST_NUMBERS.find((row) => row.operator === operator && row.outcome === outcome)
  if (!number) throw new SvcError(t('webhooks.trigger.noTestNumber', {operator, outcome}), {exitCode: ExitCode.FAILURE, code: 'no_test_number'})

  const {createPayment, watchPayment} = await import('../payments/flows.js')
  const {formatXaf} = await import('../payments/amount.js')
  const client = await ctx.client()
  const spinner = await io.spinner(t('webhooks.trigger.sending', {type: eventType, phone: number.phone, operator}))
  let payment
  try {
    ;({payment} = await createPayment(
      client,
      {amount: TRIGGER_AMOUNT, phone: number.phone, operator},
      {listShape: async () => (await ctx.service()).lists.payments},
    ))
    if (flags.watch) {
      spinner.update(t('webhooks.trigger.waiting', {id: payment.id}))
      payment = await watchPayment(client, payment.id, {intervalMs: 250, timeoutMs: 5 * 60 * 1000})
    }
  } finally {
    spinner.stop()
  }
  if (io.json) io.outJson(payment)
  else {
    const {renderPayment} = await import('../payments/render.js')
    io.out(await renderPayment(io, payment))
  }
  if (io.json) return
  const params = {id: payment.id, type: eventType, phone: number.phone, operator, outcome, amount: formatXaf(TRIGGER_AMOUNT, getLocale())}
  io.err(t(payment.status === 'PENDING' || payment.status === 'UNSPECIFIED' ? 'webhooks.trigger.created' : 'webhooks.trigger.settled', {...params, status: payment.status}))
  io.err(t('webhooks.trigger.listenHint'))
}
