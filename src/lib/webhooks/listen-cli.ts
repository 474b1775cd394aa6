/**
 * The work of `svc webhooks listen`: flags in, validated before anything starts (routes, poll
 * interval, the source and its secret), the session started, its reports rendered out as they come.
 */
import type {Context} from '../context.js'
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {normaliseBaseUrl} from '../config/resolve.js'
import {findRunningSandbox} from '../sandbox-admin/running.js'
import {maskSecret} from '../../contract/keys.js'
import {parseDuration} from '../time/duration.js'
import {EVENT_TYPES} from '../../contract/events.js'
import {ORIGIN_HEADER} from '../../contract/sandbox-inspector.js'
import {formatDuration, formatForwardReport, formatPendingSummary, formatReceivedReport, formatRejectedReport} from './format.js'
import type {ListenSession, ListenSource, SandboxConnection} from './listen-session.js'
import type {PendingDelivery} from './listener.js'
import type {ListShape} from '../api/index.js'
import {clockTime} from '../payments/flows.js'
import {forwardJson, pendingJson, receivedJson, rejectedJson} from './report-json.js'
import {parseListenRouting, type ForwardRoutes, type ListenRouting} from './routes.js'
import {webhookScope, type SavedRoutes, type WebhookScope} from './scope.js'
import {secretKey} from '../../contract/signature.js'

export interface ListenFlags {
  'forward-to'?: string[]
  events?: string[]
  header?: string[]
  port?: number
  'print-secret': boolean
  source: 'auto' | 'inbound' | 'poll'
  'endpoint-secret-stdin': boolean
  'poll-interval': string
  /** Only this environment's events (a local sandbox forwards both by default). */
  env?: 'sandbox' | 'live'
}

export interface ListenHandle {
  /** Resolves when the listener stops by itself (it does not, short of an error). */
  done: Promise<void>
  /** Ctrl-C: stop, and report what is still pending (stderr; a `stopped` line with --json). */
  interrupt(): Promise<void>
}

export async function webhooksListen(ctx: Context, flags: ListenFlags, stdin: AsyncIterable<Buffer | string> = ctx.io.streams.stdin as AsyncIterable<Buffer | string>): Promise<ListenHandle | undefined> {
  const {io} = ctx
  const scope = webhookScope(ctx)
  if (flags['print-secret']) {
    const secret = await scope.localSecret()
    await io.result({local_secret: secret}, () => io.out(secret))
    return undefined
  }

  let givenEndpointSecret: string | undefined
  if (flags['endpoint-secret-stdin']) {
    givenEndpointSecret = await readEndpointSecret(stdin)
    await scope.saveEndpointSecret(givenEndpointSecret)
    io.note(t('webhooks.listen.endpointSecretSaved', {scope: scope.name, secret: maskSecret(givenEndpointSecret)}))
    if (!flags['forward-to']?.length) {
      if (io.json) io.outJson({endpoint_secret: maskSecret(givenEndpointSecret), saved: true})
      return undefined
    }
  }

  const routing = parseListenRouting({forwardTo: flags['forward-to'] ?? [], events: flags.events, headers: flags.header})
  const pollIntervalMs = parseDuration(flags['poll-interval'], 'poll-interval', {min: 250})
  const source = await resolveSource(ctx, scope, flags.source, givenEndpointSecret, pollIntervalMs, flags.env)
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
    clock: ctx.clock,
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
    onSandboxLost: ({since, reason}) => {
      if (io.json) io.outJsonLine({kind: 'sandbox_lost', since: since.toISOString(), reason})
      io.err(paint.yellow(t('webhooks.listen.sandboxLost', {time: clockTime(new Date()), since: clockTime(since), reason: t(`webhooks.listen.lostReason.${reason}`)})))
    },
    onSandboxBack: (gap, endpointId) => {
      if (io.json) io.outJsonLine({kind: 'sandbox_back', endpoint_id: endpointId, from: gap.from.toISOString(), to: gap.to.toISOString(), recovered: gap.recovered, covered_from: gap.coveredFrom.toISOString(), uncovered: gap.uncovered ?? null})
      const window = {from: clockTime(gap.from), to: clockTime(gap.to)}
      io.err(
        gap.uncovered === undefined
          ? t('webhooks.listen.sandboxBack', {time: clockTime(new Date()), id: endpointId, count: gap.recovered, ...window, coveredFrom: clockTime(gap.coveredFrom)})
          : paint.yellow(t('webhooks.listen.sandboxBackUncovered', {time: clockTime(new Date()), id: endpointId, reason: ctx.redact(gap.uncovered), ...window})),
      )
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
      const gaps = session.gaps()
      const pending = await session.stop()
      // Never "every event reached your app" over a time the listener was not connected.
      io.err(gaps.closed.length > 0 || gaps.open ? formatGapSummary(pending, gaps) : formatPendingSummary(pending))
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

/** listen's requests to the local sandbox name it (the journal's origin). */
const LISTEN_ORIGIN = {headers: {[ORIGIN_HEADER]: 'listen'}}

/** The local sandbox at the credentials' base URL, by running.ts's one rule. */
function localSandboxFor(ctx: Context): {base_url: string; admin_url: string} | undefined {
  return findRunningSandbox(ctx, {sameAsCredentials: true})
}

async function resolveSource(
  ctx: Context,
  scope: WebhookScope,
  mode: ListenFlags['source'],
  givenSecret: string | undefined,
  pollIntervalMs: number,
  only: ListenFlags['env'],
): Promise<ListenSource> {
  const endpointSecret = givenSecret ?? scope.endpointSecret()
  const local = mode === 'auto' ? localSandboxFor(ctx) : undefined
  // A local sandbox forwards both environments' events (--env narrows); any other source, the
  // key's only: an --env that is not the key's is refused rather than listened to in silence.
  const environments = only ? [only.toUpperCase() as 'SANDBOX' | 'LIVE'] : (['SANDBOX', 'LIVE'] as const).slice()
  const keyEnvironment = ctx.credentials().environment ?? 'SANDBOX'
  if (!local && only && only.toUpperCase() !== keyEnvironment) {
    throw new InputError(t('webhooks.listen.envNotLocal', {env: only, environment: keyEnvironment}), {field: 'env'})
  }
  if (local) {
    const {localAdmin} = await import('../sandbox-admin/admin.js')
    const creds = ctx.credentials()
    // Its own requests say so: the journal shows the app's traffic by default, not listen's.
    const client = creds.apiKey ? await ctx.clientFor(creds.apiKey, creds.baseUrl, LISTEN_ORIGIN) : undefined
    const listShape = client ? (await ctx.service()).lists.payments : undefined
    return {
      kind: 'sandbox',
      admin: await localAdmin(ctx, 'listen'),
      adminUrl: local.admin_url,
      environment: keyEnvironment,
      environments,
      client,
      listShape,
      reconnect: () => reconnectLocal(ctx, listShape, environments),
    }
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

/**
 * The local sandbox again, after it restarted: the profile and the sandbox's saved state read
 * afresh from disk (an in-memory sandbox comes back with new keys and a new admin token, and
 * saves them), so a listen on `--profile local` follows the new sandbox.
 */
async function reconnectLocal(ctx: Context, listShape: ListShape | undefined, environments: SandboxConnection['environments']): Promise<SandboxConnection> {
  const {readConfig} = await import('../config/store.js')
  const {resolveCredentials} = await import('../config/resolve.js')
  const [{localAdmin}, {requireRunningSandbox}] = await Promise.all([import('../sandbox-admin/admin.js'), import('../sandbox-admin/running.js')])
  const creds = resolveCredentials(ctx.flags, ctx.env, readConfig(ctx.configDir))
  const state = requireRunningSandbox(ctx)
  const client = creds.apiKey ? await ctx.clientFor(creds.apiKey, creds.baseUrl, LISTEN_ORIGIN) : undefined
  return {admin: await localAdmin(ctx, 'listen'), adminUrl: `${state.base_url}/_admin`, environment: creds.environment ?? 'SANDBOX', environments, client, listShape}
}

/** Ctrl-C after the sandbox was out of reach: what is pending, and the windows it was disconnected. */
function formatGapSummary(pending: readonly PendingDelivery[], gaps: ReturnType<ListenSession['gaps']>): string {
  const lines = [pending.length > 0 ? formatPendingSummary(pending) : t('webhooks.listen.nonePendingReceived')]
  for (const gap of gaps.closed) {
    const window = {from: clockTime(gap.from), to: clockTime(gap.to)}
    lines.push(
      gap.uncovered === undefined
        ? t('webhooks.listen.gapCovered', {...window, count: gap.recovered, coveredFrom: clockTime(gap.coveredFrom)})
        : t('webhooks.listen.gapUncovered', window),
    )
  }
  if (gaps.open) lines.push(t('webhooks.listen.gapOpen', {since: clockTime(gaps.open.since)}))
  return lines.join('\n')
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
    io.err(t('webhooks.listen.source.sandbox', {base: creds.baseUrl, environment: source.environments.join(t('webhooks.listen.and')), id: session.endpointId ?? ''}))
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
