/**
 * One run of `svc webhooks listen`: the listener (receiver, dedupe, forward, retry, event log) fed
 * by one source, and its clean-up.
 *
 * - `sandbox`: the local sandbox (`svc sandbox serve`) gets the receiver as a webhook endpoint of
 *   the key's environment, through its admin surface, as `stripe listen` opens a session; its
 *   deliveries are verified with that endpoint's secret; the endpoint is removed at stop (and at
 *   the next start, if a crash left it behind and its listener is gone).
 * - `inbound`: deliveries POSTed to the receiver (through the user's tunnel), verified with the
 *   profile's endpoint secret.
 * - `poll`: the payments list, followed by the poll source (position kept per profile), each
 *   settlement ingested as an event.
 */
import type {ApiClient, ListShape} from '../api/index.js'
import type {AdminClient} from '../sandbox/admin.js'
import {listPayments} from '../payments/flows.js'
import {openEventLog, type EventLog} from './event-log.js'
import type {PaymentLike} from '../../contract/events.js'
import {
  startListener,
  type ForwardReport,
  type Listener,
  type PendingDelivery,
  type ReceivedReport,
  type RejectedReport,
} from './listener.js'
import type {RetryPolicy} from './delivery-queue.js'
import {createPollSource, type PollSource} from './poll-source.js'
import type {ListenRouting} from './routes.js'
import type {WebhookScope} from './scope.js'
import {generateSecret} from '../../contract/signature.js'

export type ListenSource =
  | {kind: 'sandbox'; admin: AdminClient; adminUrl: string; environment: 'SANDBOX' | 'LIVE'}
  | {kind: 'inbound'; secret: string}
  | {kind: 'poll'; client: ApiClient; listShape?: ListShape; intervalMs: number}

export interface ListenSessionOptions {
  scope: WebhookScope
  source: ListenSource
  routing: ListenRouting
  localSecret: string
  port?: number
  retry?: RetryPolicy
  onForward(report: ForwardReport): void
  onReceived(report: ReceivedReport): void
  onRejected(report: RejectedReport): void
  onPollError(error: unknown): void
}

export interface ListenSession {
  listener: Listener
  /** The endpoint registered with the local sandbox (sandbox source). */
  endpointId?: string
  /** Stop the source, remove the endpoint, close the listener: what is still pending. */
  stop(): Promise<PendingDelivery[]>
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
      eventLog: log,
      onForward: options.onForward,
      onReceived: options.onReceived,
      onRejected: options.onRejected,
    })
  } catch (error) {
    await log.close()
    throw error
  }

  let endpointId: string | undefined
  let poll: PollSource | undefined
  try {
    if (source.kind === 'sandbox') {
      const endpoint = await source.admin.request<{id: string; secret: string}>('POST', '/webhook-endpoints', {
        url: `${listener.url}/`,
        environment: source.environment,
      })
      endpointId = endpoint.id
      listener.setInboundSecret(endpoint.secret)
      scope.saveSession({endpoint_id: endpoint.id, admin_url: source.adminUrl, pid: process.pid})
    } else if (source.kind === 'poll') {
      poll = createPollSource({
        statePath: scope.pollStatePath(),
        intervalMs: source.intervalMs,
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
  return {
    listener,
    endpointId,
    stop() {
      stopping ??= (async () => {
        await poll?.stop()
        if (source.kind === 'sandbox' && endpointId) {
          await source.admin.request('DELETE', `/webhook-endpoints/${encodeURIComponent(endpointId)}`).catch(() => undefined)
          scope.saveSession(undefined)
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
  await source.admin.request('DELETE', `/webhook-endpoints/${encodeURIComponent(saved.endpoint_id)}`).catch(() => undefined)
  scope.saveSession(undefined)
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
