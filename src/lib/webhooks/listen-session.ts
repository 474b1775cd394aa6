/**
 * One run of `svc webhooks listen`: the listener (receiver, dedupe, forward, retry, event log) fed
 * by one source, and its clean-up.
 *
 * - `sandbox`: the local sandbox (`svc sandbox serve`) gets the receiver as a webhook endpoint of
 *   each environment listened to (both by default, `--env` narrows), through its admin surface, as
 *   `stripe listen` opens a session; its deliveries are verified with those endpoints' secrets; the
 *   endpoints are removed at stop (and at the next start, if a crash left them behind and their
 *   listener is gone).
 * - `inbound`: deliveries POSTed to the receiver (through the user's tunnel), verified with the
 *   profile's endpoint secret.
 * - `poll`: the payments list, followed by the poll source (position kept per profile), each
 *   settlement ingested as an event.
 */
import type {ApiClient, ListShape} from '../api/index.js'
import {ORIGIN_HEADER} from '../../contract/sandbox-inspector.js'
import type {AdminClient} from '../sandbox-admin/admin.js'
import {listPayments} from '../payments/flows.js'
import {openEventLog, type EventLog} from './event-log.js'
import type {PaymentLike, WebhookEvent} from '../../contract/events.js'
import {
  startListener,
  type ForwardReport,
  type Listener,
  type PendingDelivery,
  type ReceivedReport,
  type RejectedReport,
} from './listener.js'
import type {RetryPolicy} from './delivery-queue.js'
import type {Clock} from '../../contract/clock.js'
import {createPollSource, type PollSource} from './poll-source.js'
import type {ListenRouting} from './routes.js'
import type {WebhookScope} from './scope.js'
import {generateSecret} from '../../contract/signature.js'
import {watchSandbox, type Gap, type LostReason, type Mark, type SandboxLink, type SandboxWatch, type WatchLine} from './sandbox-watch.js'

/** What talks to the local sandbox: its admin surface (listen's requests marked as svc's own) and the public API with the profile's key. */
export interface SandboxConnection {
  admin: AdminClient
  adminUrl: string
  /** The sandbox's base URL and admin token: the watch line is a stream, read with fetch. */
  baseUrl: string
  adminToken: string
  /** The key's environment. */
  environment: 'SANDBOX' | 'LIVE'
  /** The environments whose events it forwards: an endpoint registered for each, the first watched. */
  environments: Array<'SANDBOX' | 'LIVE'>
  /** The public API with the profile's key: a sandbox is back only once it accepts it. */
  client?: ApiClient
  /** Which run of the sandbox (the registry's PID and start), and whether its data outlives it. */
  instance: {id: string; persistent: boolean}
}

/** What marks a request as listen's (svc's own: the journal tells it from the app's). */
const LISTEN_HEADERS: Record<string, string> = {[ORIGIN_HEADER]: 'listen'}

export type ListenSource =
  | ({kind: 'sandbox'; reconnect?: () => Promise<SandboxConnection>} & SandboxConnection)
  | {kind: 'inbound'; secret: string}
  | {kind: 'poll'; client: ApiClient; listShape?: ListShape; intervalMs: number}

export interface ListenSessionOptions {
  scope: WebhookScope
  source: ListenSource
  routing: ListenRouting
  localSecret: string
  port?: number
  retry?: RetryPolicy
  /** The run's clock: the deliveries' retries, the sandbox watch and the poll source read it. */
  clock?: Clock
  onForward(report: ForwardReport): void
  onReceived(report: ReceivedReport): void
  onRejected(report: RejectedReport): void
  onPollError(error: unknown): void
  /** The sandbox went away or lost this listener's endpoint (sandbox source, with `reconnect`). */
  onSandboxLost?(info: {since: Date; reason: Gap['reason']; url: string}): void
  /** Registered again after a loss; the gap's events recovered. */
  onSandboxBack?(gap: Gap, endpointId: string): void
}

export interface ListenSession {
  listener: Listener
  /** The endpoint registered with the local sandbox (sandbox source). */
  endpointId?: string
  /** Times the sandbox was out of reach (sandbox source): closed gaps, and the one still open. */
  gaps(): {closed: Gap[]; open?: {since: Date; reason: Gap['reason']}}
  /** Stop the source, remove the endpoint, close the listener: what is still pending. */
  stop(): Promise<PendingDelivery[]>
  /** After `stop()`: the endpoints it registered that it could not remove, and where (sandbox source). */
  leftBehind(): {url: string; ids: string[]} | undefined
}

export async function startListenSession(options: ListenSessionOptions): Promise<ListenSession> {
  const {scope, source, routing} = options
  if (source.kind === 'sandbox') await removeStaleEndpoint(scope, source)
  const log: EventLog = await openEventLog({dir: scope.dir})
  let listener: Listener
  try {
    listener = await startListener({
      localSecret: options.localSecret,
      routes: routing.routes,
      events: routing.events,
      headers: routing.headers,
      // Sandbox: refuse everything until the endpoint's own secret is known.
      inboundSecret: source.kind === 'inbound' ? source.secret : source.kind === 'sandbox' ? generateSecret() : undefined,
      port: options.port,
      retry: options.retry,
      clock: options.clock,
      eventLog: log,
      onForward: options.onForward,
      onReceived: options.onReceived,
      onEvent: (event, from) => {
        if (from === 'inbound') onSandboxEvent?.(event)
      },
      onRejected: options.onRejected,
    })
  } catch (error) {
    await log.close()
    throw error
  }

  let endpointId: string | undefined
  /** Every endpoint registered, one per environment (endpointId is the first's). */
  let endpointIds: string[] = []
  let poll: PollSource | undefined
  let watch: SandboxWatch | undefined
  // The sandbox's deliveries move the watch's mark (set once the watch runs).
  let onSandboxEvent: ((event: WebhookEvent) => void) | undefined
  // The sandbox connection in use (a new one after a restart: its admin token changes).
  let adminNow: SandboxConnection = source.kind === 'sandbox' ? source : ({} as SandboxConnection)
  try {
    if (source.kind === 'sandbox') {
      const receiverUrl = `${listener.url}/`
      const l = listener
      // Each environment's endpoint; the listener verifies with any of their secrets.
      const registered = (endpoints: Array<{id: string; secret: string}>) => {
        endpointIds = endpoints.map((e) => e.id)
        endpointId = endpointIds[0]
        l.setInboundSecret(endpoints.map((e) => e.secret))
        scope.saveSession({endpoint_id: endpointIds[0]!, endpoint_ids: endpointIds, admin_url: adminNow.adminUrl, pid: process.pid})
      }
      registered(await registerEach(source, receiverUrl))
      if (source.reconnect) {
        const reconnect = source.reconnect
        // Each environment's newest event now: after a restart, only what came after it (or after
        // the last one received) is forwarded, never an event from before the listener started.
        const marks: Record<string, Mark> = {}
        for (const environment of source.environments) {
          const newest = await source.admin.call('GET /_admin/events', {query: {environment, limit: 1}})
          const first = newest.data[0] as {id?: string; created_at?: string} | undefined
          marks[environment] = first ? {id: first.id, created_at: first.created_at} : {}
        }
        watch = await watchSandbox({
          endpointId: endpointIds[0]!,
          link: sandboxLink(source, receiverUrl, registered),
          marks,
          connect: async () => {
            const fresh = await reconnect()
            adminNow = fresh
            return sandboxLink(fresh, receiverUrl, registered)
          },
          // sandboxLink's register hands every environment's endpoint to `registered`.
          onRegistered: () => undefined,
          ingest: (event) => l.ingest(event, 'poll').outcome !== 'duplicate',
          onLost: (info) => options.onSandboxLost?.(info),
          onBack: (gap) => options.onSandboxBack?.(gap, endpointId ?? ''),
          clock: options.clock,
        })
        const w = watch
        onSandboxEvent = (event) => w.received(event)
      }
    } else if (source.kind === 'poll') {
      poll = createPollSource({
        statePath: scope.pollStatePath(),
        intervalMs: source.intervalMs,
        clock: options.clock,
        listPayments: async ({limit, offset, status}) => {
          const page = await listPayments(source.client, {limit, offset, status, listShape: source.listShape})
          return {data: page.items as PaymentLike[], has_more: page.hasMore}
        },
        onEvent: async (event) => {
          listener.ingest(event, 'poll')
          // On disk before the poll position moves past it.
          await log.flush()
        },
        onError: options.onPollError,
      })
      poll.start()
    }
  } catch (error) {
    await listener.close({graceMs: 0})
    await log.close()
    throw error
  }

  let stopping: Promise<PendingDelivery[]> | undefined
  let left: {url: string; ids: string[]} | undefined
  return {
    listener,
    endpointId,
    gaps: () => watch?.gaps() ?? {closed: []},
    leftBehind: () => left,
    stop() {
      stopping ??= (async () => {
        await poll?.stop()
        await watch?.stop()
        if (source.kind === 'sandbox' && endpointIds.length > 0) {
          // Removed where its sandbox answers (one already gone counts as removed); the others named.
          const failed: string[] = []
          for (const id of endpointIds) {
            await adminNow.admin.call('DELETE /_admin/webhook-endpoints/{endpointId}', {params: {endpointId: id}}).catch((error: {status?: number}) => {
              if (error.status !== 404) failed.push(id)
            })
          }
          if (failed.length > 0) left = {url: adminNow.baseUrl, ids: failed}
          else scope.saveSession(undefined)
        }
        const {pending} = await listener.close({graceMs: 1000})
        await log.close().catch(() => undefined)
        return pending
      })()
      return stopping
    },
  }
}

/** A previous listener of this profile that died without removing its sandbox endpoint. */
async function removeStaleEndpoint(scope: WebhookScope, source: Extract<ListenSource, {kind: 'sandbox'}>): Promise<void> {
  const saved = scope.savedSession()
  if (!saved || saved.admin_url !== source.adminUrl || isAlive(saved.pid)) return
  for (const id of saved.endpoint_ids ?? [saved.endpoint_id]) {
    await source.admin.call('DELETE /_admin/webhook-endpoints/{endpointId}', {params: {endpointId: id}}).catch(() => undefined)
  }
  scope.saveSession(undefined)
}

/** The receiver registered as an endpoint of each environment listened to. */
async function registerEach(connection: SandboxConnection, receiverUrl: string): Promise<Array<{id: string; secret: string}>> {
  const endpoints: Array<{id: string; secret: string}> = []
  for (const environment of connection.environments) {
    endpoints.push(await connection.admin.call('POST /_admin/webhook-endpoints', {body: {url: receiverUrl, environment}}))
  }
  return endpoints
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The watch's view of a sandbox connection: its line, is the receiver registered (its first
 * environment's endpoint), register it again (every environment's: `onRegistered` takes them all),
 * each environment's events.
 */
function sandboxLink(connection: SandboxConnection, receiverUrl: string, onRegistered: (endpoints: Array<{id: string; secret: string}>) => void): SandboxLink {
  const {admin} = connection
  return {
    url: connection.baseUrl,
    instance: connection.instance,
    environments: connection.environments,
    watch: (endpointId) => openWatchLine(connection, endpointId),
    async isRegistered(id) {
      const answer = await admin.call('GET /_admin/webhook-endpoints', {query: {environment: connection.environments[0]}})
      return (answer.data ?? []).some((endpoint) => endpoint.id === id && endpoint.url === receiverUrl)
    },
    async register() {
      const endpoints = await registerEach(connection, receiverUrl)
      onRegistered(endpoints)
      return endpoints[0]!
    },
    async listEvents({environment, limit, offset}) {
      const page = await admin.call('GET /_admin/events', {query: {environment: environment as 'SANDBOX' | 'LIVE', limit, offset}})
      // As the sandbox delivers them: the event without the dashboard's delivery list.
      const data = page.data.map((record) => {
        const {deliveries: _deliveries, ...event} = record as Record<string, unknown>
        return event as WebhookEvent
      })
      return {data, hasMore: Boolean(page.has_more)}
    },
  }
}

/**
 * The listener's line to its sandbox: a server-sent event stream that the sandbox ends with
 * `removed` when the endpoint goes, and that ends with the connection when the sandbox stops.
 */
async function openWatchLine(connection: SandboxConnection, endpointId: string): Promise<WatchLine> {
  const abort = new AbortController()
  const url = `${connection.baseUrl}/_admin/webhook-endpoints/${encodeURIComponent(endpointId)}/watch`
  const response = await fetch(url, {
    headers: {authorization: `Bearer ${connection.adminToken}`, accept: 'text/event-stream', ...LISTEN_HEADERS},
    signal: abort.signal,
  })
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined)
    throw Object.assign(new Error(`watch: ${response.status}`), {status: response.status})
  }
  const body = response.body
  const closed = (async (): Promise<LostReason> => {
    const decoder = new TextDecoder()
    let text = ''
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, {stream: true})
        if (/(^|\n)event: removed\n/.test(text)) return 'unregistered'
        // Only the last, unfinished block is kept.
        const end = text.lastIndexOf('\n\n')
        if (end !== -1) text = text.slice(end + 2)
      }
    } catch {
      // The connection broke: the sandbox stopped.
    }
    return 'unreachable'
  })()
  return {closed, close: () => abort.abort()}
}
