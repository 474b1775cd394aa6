/**
 * One signed POST of an event to the developer's app: fresh Standard Webhooks headers (the
 * webhook-id kept, a new timestamp) made with the local secret, plus the user's extra headers.
 * Keep-alive pools per origin (undici, loaded lazily) keep the added latency to a fraction of a
 * millisecond. Used by the listener (with retries on top) and by `svc webhooks replay`.
 */
import type {Dispatcher, Pool} from 'undici'
import {systemClock, type Clock} from '../../contract/clock.js'
import {signPayload} from '../../contract/signature.js'

export const DEFAULT_FORWARD_TIMEOUT_MS = 10_000
const USER_AGENT = 'svc-webhooks-listener'

export interface ForwarderOptions {
  /** The local signing secret (`whsec_…`) the developer's app verifies with. */
  secret: string
  /** Extra headers for every request (`-H "K: V"`), lower-case names. */
  headers?: Record<string, string>
  timeoutMs?: number
  /** Connections per origin. */
  connections?: number
  /** The time deliveries are signed and stamped with (default the machine's). */
  clock?: Clock
}

export interface ForwardOutcome {
  url: string
  ok: boolean
  /** The app's HTTP status; absent when no answer came (refused, reset, timeout). */
  status?: number
  /** Why no answer came: `connection refused`, `timed out after 10 s`, … */
  error?: string
  latencyMs: number
  at: Date
}

export interface Forwarder {
  /** POST `body` to `url`, signed now; never throws. */
  send(url: string, webhookId: string, body: string): Promise<ForwardOutcome>
  /** Abort what is in flight and close the connections. */
  close(): Promise<void>
}

export async function createForwarder(options: ForwarderOptions): Promise<Forwarder> {
  // Lazily: undici costs ~90 ms to import, and only the webhooks commands need it.
  const {Pool: PoolClass} = await import('undici')
  const pools = new Map<string, Pool>()
  const timeoutMs = options.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS
  const extra = options.headers ?? {}
  const clock = options.clock ?? systemClock
  // Fail fast on a malformed secret rather than on the first event.
  signPayload(options.secret, 'msg_check', '', 0)

  const targets = new Map<string, URL>()
  function parse(url: string): URL {
    let target = targets.get(url)
    if (!target) {
      target = new URL(url)
      targets.set(url, target)
    }
    return target
  }

  function poolFor(url: URL): Pool {
    let pool = pools.get(url.origin)
    if (!pool) {
      pool = new PoolClass(url.origin, {
        connections: options.connections ?? 32,
        pipelining: 1,
        keepAliveTimeout: 4_000,
        connectTimeout: Math.min(timeoutMs, 5_000),
      })
      pools.set(url.origin, pool)
    }
    return pool
  }

  async function send(url: string, webhookId: string, body: string): Promise<ForwardOutcome> {
    const at = new Date(clock.now())
    const started = clock.monotonic()
    const target = parse(url)
    const headers: Record<string, string> = {
      ...extra,
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signPayload(options.secret, webhookId, body, Math.floor(at.getTime() / 1000)),
    }
    const request: Dispatcher.RequestOptions = {
      path: target.pathname + target.search,
      method: 'POST',
      headers,
      body,
      // undici's own deadlines (coarse, may fire up to ~1 s late): an AbortSignal per request
      // costs more than the whole forward at 500 events/s. close() destroys the pools instead.
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    }
    try {
      const response = await poolFor(target).request(request)
      // Read the answer whole so the connection goes back to the pool.
      await response.body.dump()
      const status = response.statusCode
      return {url, ok: status >= 200 && status < 300, status, latencyMs: clock.monotonic() - started, at}
    } catch (error) {
      return {url, ok: false, error: describeNetworkError(error, timeoutMs), latencyMs: clock.monotonic() - started, at}
    }
  }

  async function close(): Promise<void> {
    await Promise.all([...pools.values()].map((pool) => pool.destroy().catch(() => undefined)))
    pools.clear()
  }

  return {send, close}
}

/** A short reason for a request that got no answer. */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const err = error as {name?: string; code?: string; message?: string; cause?: {code?: string}}
  const code = err?.code ?? err?.cause?.code
  if (err?.name === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return `timed out after ${Math.round(timeoutMs / 100) / 10} s`
  }
  if (err?.name === 'AbortError' || code === 'UND_ERR_ABORTED') return 'aborted'
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found'
  return code ?? err?.message ?? String(error)
}
