/**
 * The work of `svc webhooks listen`: flags in, validated before anything starts (routes, poll
 * interval, the source and its secret), the session started, its reports rendered out as they come.
 */
import type {Context} from '../context.js'
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {normaliseBaseUrl} from '../config/resolve.js'
import type {RunningSandbox} from '../sandbox-admin/running.js'
import type {Credentials} from '../config/resolve.js'
import {keyEnvironment} from '../../contract/keys.js'
import {maskSecret} from '../../contract/keys.js'
import {parseDuration} from '../time/duration.js'
import {EVENT_TYPES} from '../../contract/events.js'
import {ORIGIN_HEADER} from '../../contract/sandbox-inspector.js'
import {formatDuration, formatForwardReport, formatPendingSummary, formatReceivedReport, formatRejectedReport} from './format.js'
import type {ListenSession, ListenSource, SandboxConnection} from './listen-session.js'
import type {PendingDelivery} from './listener.js'
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
  let lostUrl = ''
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
    onSandboxLost: ({since, reason, url}) => {
      lostUrl = url
      if (io.json) io.outJsonLine({kind: 'sandbox_lost', since: since.toISOString(), reason, url})
      io.err(paint.yellow(t('webhooks.listen.sandboxLost', {time: clockTime(since), url, reason: t(`webhooks.listen.lostReason.${reason}`)})))
    },
    onSandboxBack: (gap, endpointId) => {
      if (io.json) io.outJsonLine({kind: 'sandbox_back', endpoint_id: endpointId, from: gap.from.toISOString(), to: gap.to.toISOString(), recovered: gap.recovered, uncovered: gap.uncovered ?? null})
      const window = {from: clockTime(gap.from), to: clockTime(gap.to), url: lostUrl}
      io.err(
        gap.uncovered === undefined
          ? t('webhooks.listen.sandboxBack', {time: clockTime(new Date(ctx.clock.now())), id: endpointId, count: gap.recovered, ...window})
          : paint.yellow(t('webhooks.listen.sandboxBackUncovered', {time: clockTime(new Date(ctx.clock.now())), id: endpointId, reason: ctx.redact(gap.uncovered), ...window})),
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
      const url = source.kind === 'sandbox' ? source.baseUrl : ''
      io.err(gaps.closed.length > 0 || gaps.open ? formatGapSummary(pending, gaps, url) : formatPendingSummary(pending))
      const left = session.leftBehind()
      if (left) io.warn(t('webhooks.listen.endpointsLeft', {ids: left.ids.join(', '), url: left.url}))
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
const LISTEN_ORIGIN = {[ORIGIN_HEADER]: 'listen'}

/**
 * The local sandbox this listen is for, by running.ts's one rule: the sandbox running at the
 * credentials' address; bound to a profile `serve` saved, that sandbox or exit 7; with
 * no profile at all, the only running one. Undefined for a remote service (inbound or poll).
 */
async function localSandboxFor(ctx: Context): Promise<RunningSandbox | undefined> {
  const {findRunningSandbox, requireRunningSandbox, sandboxBinding} = await import('../sandbox-admin/running.js')
  const found = findRunningSandbox(ctx)
  if (found) return found
  const creds = ctx.credentials()
  // A profile `serve` saved, at its own address: its sandbox stopped is exit 7, never another source.
  // Any other address (a service, a mock of the user's) is listened to as a service.
  if (sandboxBinding(ctx)) return creds.profile?.local_sandbox && creds.profile.base_url === creds.baseUrl ? requireRunningSandbox(ctx) : undefined
  // Nothing chose a sandbox: the only running one, if any runs and no profile names a service.
  if (creds.profileName || creds.apiKey) return undefined
  const {liveSandboxes} = await import('../sandbox-admin/registry.js')
  return liveSandboxes(ctx.configDir).length > 0 || ctx.env.SVC_SANDBOX_URL ? requireRunningSandbox(ctx) : undefined
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
  const local = mode === 'auto' ? await localSandboxFor(ctx) : undefined
  // A local sandbox forwards both environments' events (--env narrows); any other source, the
  // key's only: an --env that is not the key's is refused rather than listened to in silence.
  const environments = only ? [only.toUpperCase() as 'SANDBOX' | 'LIVE'] : (['SANDBOX', 'LIVE'] as const).slice()
  const keyEnvironment = ctx.credentials().environment ?? 'SANDBOX'
  if (!local && only && only.toUpperCase() !== keyEnvironment) {
    throw new InputError(t('webhooks.listen.envNotLocal', {env: only, environment: keyEnvironment}), {field: 'env'})
  }
  if (local) {
    const bound = bindingOf(ctx, local)
    const connection = await connectTo(ctx, local, bound.apiKey, environments)
    return {kind: 'sandbox', ...connection, reconnect: () => reconnectLocal(ctx, environments, bound)}
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
 * What a listen is bound to, once, at its start: the address of the sandbox it found, the key it
 * resolved (the credentials', else the key of the profile that sandbox saved: a listen with no
 * profile at all), and the profile that key came from (none for a key given as a flag).
 */
interface Binding {
  url: string
  apiKey?: string
  profile?: string
  /** The sandbox's data file (null: in memory; undefined: not known, a sandbox named by SVC_SANDBOX_URL). */
  dataFile?: string | null
}

function bindingOf(ctx: Context, sandbox: RunningSandbox): Binding {
  let creds: Credentials | undefined
  try {
    creds = ctx.credentials()
  } catch {
    creds = undefined
  }
  if (creds?.apiKey) {
    const fromProfile = creds.profileName && creds.profile?.api_key === creds.apiKey ? creds.profileName : undefined
    return {url: sandbox.base_url, apiKey: creds.apiKey, profile: fromProfile, dataFile: sandbox.entry?.data_file}
  }
  const profile = sandbox.entry?.profile
  return {url: sandbox.base_url, apiKey: profile ? ctx.config().profiles[profile]?.api_key : undefined, profile, dataFile: sandbox.entry?.data_file}
}

/**
 * A connection to `sandbox`: its admin surface and the public API with the bound key (to check
 * that the sandbox accepts it). Every request marked as listen's own (ORIGIN_HEADER).
 */
async function connectTo(ctx: Context, sandbox: RunningSandbox, apiKey: string | undefined, environments: SandboxConnection['environments']): Promise<SandboxConnection> {
  const {adminClientFor} = await import('../sandbox-admin/admin.js')
  // Its own requests say so: the journal shows the app's traffic by default, not listen's.
  const local = {ratePerMinute: 0, retry: {maxRetries: 0}, headers: LISTEN_ORIGIN}
  const client = apiKey ? await ctx.clientFor(apiKey, sandbox.base_url, local) : undefined
  return {
    admin: adminClientFor(await ctx.clientFor(undefined, sandbox.base_url, local), sandbox.admin_token, LISTEN_ORIGIN),
    adminUrl: sandbox.admin_url,
    baseUrl: sandbox.base_url,
    adminToken: sandbox.admin_token,
    environment: (apiKey ? keyEnvironment(apiKey) : undefined) ?? 'SANDBOX',
    environments,
    client,
    instance: {id: sandbox.entry ? `${sandbox.entry.pid}:${sandbox.entry.started_at}` : sandbox.base_url, persistent: sandbox.entry ? sandbox.entry.data_file !== null : true},
  }
}

/**
 * The listener's own sandbox again, after it went away: the sandbox running at the address it
 * is bound to, and no other (another sandbox that took the profile's name at another address is
 * not its sandbox, and so is one at that address on another data file), and only once it answers the bound key. An in-memory sandbox started again at
 * that address saves new keys in the profile: the profile's key counts too while the profile still
 * points at that address. Until then this rejects, and the watch tries again.
 */
async function reconnectLocal(ctx: Context, environments: SandboxConnection['environments'], bound: Binding): Promise<SandboxConnection> {
  const [{readConfig}, {sandboxAt}] = await Promise.all([import('../config/store.js'), import('../sandbox-admin/running.js')])
  const sandbox = sandboxAt(ctx, bound.url)
  if (!sandbox) throw new Error(`no sandbox at ${bound.url}`)
  // Another data file (or memory for a file) at that address is another sandbox.
  const dataFile = sandbox.entry?.data_file
  if (bound.dataFile !== undefined && dataFile !== undefined && dataFile !== bound.dataFile) throw new Error(`another sandbox at ${bound.url}`)
  const profile = bound.profile ? readConfig(ctx.configDir).profiles[bound.profile] : undefined
  const apiKey = profile?.api_key && profile.base_url && normaliseBaseUrl(profile.base_url) === normaliseBaseUrl(bound.url) ? profile.api_key : bound.apiKey
  const connection = await connectTo(ctx, sandbox, apiKey, environments)
  // Its key: a 401 (another sandbox at that address, or one that does not know the key) is not "back".
  if (connection.client) await connection.client.request({method: 'GET', path: '/v1/payments', query: {limit: 1}})
  return connection
}

/** Ctrl-C after the sandbox was out of reach: what is pending, and the windows it was disconnected. */
function formatGapSummary(pending: readonly PendingDelivery[], gaps: ReturnType<ListenSession['gaps']>, url: string): string {
  const lines = [pending.length > 0 ? formatPendingSummary(pending) : t('webhooks.listen.nonePendingReceived')]
  for (const gap of gaps.closed) {
    const window = {from: clockTime(gap.from), to: clockTime(gap.to), url}
    lines.push(
      gap.uncovered === undefined
        ? t('webhooks.listen.gapCovered', {...window, count: gap.recovered})
        : t('webhooks.listen.gapUncovered', window),
    )
  }
  if (gaps.open) lines.push(t('webhooks.listen.gapOpen', {since: clockTime(gaps.open.since), url}))
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
    io.err(t('webhooks.listen.source.sandbox', {base: source.baseUrl, environment: source.environments.join(t('webhooks.listen.and')), id: session.endpointId ?? ''}))
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
