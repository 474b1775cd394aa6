/**
 * The HTTP client of the CLI. Cheap to import: nothing network-related loads before the first
 * request, and the wire is chosen in transport.ts (node:http directly, undici 7 through a proxy).
 *
 * One request = pacer slot, then one attempt under its own deadline, repeated only as retry.ts
 * allows. Errors come out as the CLI's own (ApiError, NetworkError, or an `invalid_response`
 * SvcError for an unreadable 2xx), every trace line with the API key masked.
 */
import type {Dispatcher} from 'undici'
import {ApiError, ExitCode, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {Pacer, type HeaderBag, type SharedSlots} from './pacer.js'
import {deadline as deadlineOn, systemClock, type Clock} from '../../contract/clock.js'
import {errorFromResponse, headerValue, invalidResponseError, networkErrorFrom, reasonPhrase} from './response-errors.js'
import {DEFAULT_RETRY, retryDecision, withRetries, type OperationName, type RetryOptions} from './retry.js'
import {createRedactor, Tracer, traceRequestLine, type TraceSink} from './trace.js'
import {chooseTransport} from './transport.js'

export interface ClientOptions {
  baseUrl: string
  apiKey?: string
  /** `svc/<version> node/<version>`: see buildUserAgent. */
  userAgent: string
  /** Deadline of each attempt (headers and body), default 30 s. */
  timeoutMs?: number
  /** The --verbose sink (stderr in the CLI). */
  trace?: TraceSink
  retry?: Partial<RetryOptions>
  /** Client-side pacing: requests per rolling minute; default 100, 0 = off. */
  ratePerMinute?: number
  /**
   * Told before the client waits a second or more on its own: pacing under the rate limit, or
   * before a retry (a 429's Retry-After, a 5xx backoff). Not told of waits for the network.
   */
  onWait?: (wait: {ms: number; reason: 'pacing' | 'retry'; status?: number}) => void
  /** The key's pace shared with other svc processes (shared-pace.ts). */
  shared?: SharedSlots
  random?: () => number
  /** Where the client reads the time and waits (pacing, retries): the run's (ctx.clock), else the system's. */
  clock?: Clock
  /**
   * An undici dispatcher to carry every request (e.g. a MockAgent in a test). Default: undici's
   * EnvHttpProxyAgent when HTTP(S)_PROXY is set, node:http/https otherwise (transport.ts).
   */
  dispatcher?: Dispatcher
  /** Headers on every request (a request's own `headers` come after, the key and Idempotency-Key last). */
  headers?: Record<string, string>
}

export type QueryValue = string | number | boolean | null | undefined
export type Query = Record<string, QueryValue | QueryValue[]>

export interface RequestOptions {
  method: string
  /** `/v1/...` (appended to the base URL) or an absolute URL (upload_url, pdf_url). */
  path: string
  query?: Query
  /** Sent as JSON. */
  body?: unknown
  /** Sent as is (Content-Type from `headers`, default application/octet-stream). */
  rawBody?: Uint8Array | string
  headers?: Record<string, string>
  idempotencyKey?: string
  /** Overrides the client's per-attempt deadline. */
  timeoutMs?: number
  /** The caller's cancellation (Ctrl-C); never retried. */
  signal?: AbortSignal
  /** Send X-API-Key (default true). Never sent to another origin than the base URL's. */
  auth?: boolean
  responseType?: 'json' | 'buffer'
  /** The operation, when known (from discovery): sharpens the retry decision. */
  operation?: OperationName
  /** Lowers the number of retries for this request (never raises it above the policy). */
  maxRetries?: number
  /** Told as the request leaves (after any pacing wait), at each attempt and redirect. */
  onSend?: () => void
}

export interface ApiResponse<T> {
  status: number
  headers: HeaderBag
  data: T
  requestId?: string
  /** `Idempotent-Replayed: true`: the service replayed an earlier answer to the same key. */
  replayed: boolean
}

export interface ApiClient {
  readonly baseUrl: string
  request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>>
  /**
   * Now by the service's clock: the `Date` header of its latest answer (any status), moved on by
   * the time elapsed here since; undefined until the service has answered once.
   */
  serviceNow(): Date | undefined
  /** The clock this client reads and waits on (the run's, `ctx.clock`). */
  readonly clock: Clock
  /** Release sockets held by this client's own dispatcher. */
  close(): Promise<void>
}

/** `svc/<version> node/<version>`. */
export function buildUserAgent(cliVersion: string, nodeVersion: string = process.versions.node): string {
  return `svc/${cliVersion} node/${nodeVersion}`
}

/** The same as buildUserAgent. */
export const userAgent = buildUserAgent

const MAX_REDIRECTS = 5
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])


function parseBaseUrl(baseUrl: string): URL {
  try {
    const url = new URL(baseUrl)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {
    // falls through to the error below
  }
  throw new SvcError(t('api.error.badUrl', {url: baseUrl}), {exitCode: ExitCode.USAGE, code: 'invalid_base_url'})
}

function appendQuery(url: URL, query: Query | undefined): void {
  if (!query) return
  for (const [name, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === undefined || one === null) continue
      url.searchParams.append(name, String(one))
    }
  }
}

export function createClient(options: ClientOptions): ApiClient {
  const base = parseBaseUrl(options.baseUrl)
  const basePath = base.pathname.replace(/\/+$/, '')
  const apiKey = options.apiKey
  const timeoutMs = options.timeoutMs ?? 30_000
  const retryOptions: RetryOptions = {...DEFAULT_RETRY, ...options.retry}
  const clock = options.clock ?? systemClock
  const now = () => clock.now()
  const random = options.random ?? Math.random
  const pacer = new Pacer({ratePerMinute: options.ratePerMinute ?? 100, clock, onWait: (ms) => options.onWait?.({ms, reason: 'pacing'}), shared: options.shared})
  const redact = createRedactor(apiKey)
  const tracer = new Tracer(options.trace, redact)
  const transport = chooseTransport(options.dispatcher)

  let serviceOffsetMs: number | undefined
  function observeServiceDate(headers: HeaderBag): void {
    const stamp = Date.parse(headerValue(headers, 'date') ?? '')
    // The header has whole seconds: its second has begun and not ended, so the latest instant
    // it can mean is the one to take (a report "until now" must include what was just made).
    if (Number.isFinite(stamp)) serviceOffsetMs = stamp + 999 - now()
  }

  function resolve(path: string, query: Query | undefined): URL {
    let url: URL
    if (/^https?:\/\//i.test(path)) {
      try {
        url = new URL(path)
      } catch {
        throw new SvcError(t('api.error.badUrl', {url: redact(path)}), {exitCode: ExitCode.USAGE, code: 'invalid_url'})
      }
    } else {
      url = new URL(basePath + (path.startsWith('/') ? path : `/${path}`), base.origin)
    }
    appendQuery(url, query)
    return url
  }

  /** The path the retry policy judges: relative to the base URL when on its origin. */
  function policyPath(url: URL): string {
    if (url.origin === base.origin && basePath && url.pathname.startsWith(basePath)) return url.pathname.slice(basePath.length) || '/'
    return url.pathname
  }

  async function attemptOnce<T>(
    request: RequestOptions,
    method: string,
    startUrl: URL,
    attempt: number,
    maxAttempts: number,
  ): Promise<ApiResponse<T>> {
    const slot = await pacer.acquireSlot(request.signal)
    const waited = slot.waited
    if (waited > 0) tracer.line(t('api.trace.pacing', {delay: waited}))
    const deadlineMs = request.timeoutMs ?? timeoutMs
    const deadline = deadlineOn(clock, deadlineMs).signal
    const signal = request.signal ? AbortSignal.any([deadline, request.signal]) : deadline
    const responseType = request.responseType ?? 'json'
    let url = startUrl
    let currentMethod = method
    for (let redirects = 0; ; redirects++) {
      const headers = buildHeaders(request, url, responseType, currentMethod)
      const body = currentMethod === 'GET' || currentMethod === 'HEAD' ? undefined : encodeBody(request)
      tracer.line(traceRequestLine(currentMethod, url.href, attempt, maxAttempts))
      tracer.headers('>', headers)
      const started = now()
      request.onSend?.()
      let status: number
      let responseHeaders: HeaderBag
      let raw: Buffer
      try {
        const exchange = await transport.send(url, {method: currentMethod, headers, body, signal}).finally(() => slot.answered())
        status = exchange.status
        responseHeaders = exchange.headers
        raw = exchange.body
      } catch (error) {
        if (request.signal?.aborted) {
          tracer.line(t('api.trace.failed', {ms: now() - started, reason: 'interrupted'}))
          throw new SvcError(redact(t('api.error.aborted', {method: currentMethod, url: url.href})), {
            exitCode: ExitCode.INTERRUPTED,
            code: 'interrupted',
            cause: error,
          })
        }
        const networkError = networkErrorFrom(error, {
          method: currentMethod,
          url: url.href,
          timeoutMs: deadlineMs,
          timedOut: deadline.aborted,
          redact,
        })
        tracer.line(t('api.trace.failed', {ms: now() - started, reason: networkError.code}))
        throw networkError
      }
      tracer.line(t('api.trace.response', {status, reason: reasonPhrase(status), ms: now() - started, bytes: raw.length}))
      tracer.headers('<', responseHeaders)
      pacer.observe(responseHeaders)
      observeServiceDate(responseHeaders)
      const facts = {method: currentMethod, url: url.href, status, headers: responseHeaders, body: raw, now: now(), redact}

      const location = headerValue(responseHeaders, 'location')
      if (REDIRECT_STATUSES.has(status) && location && (currentMethod === 'GET' || currentMethod === 'HEAD')) {
        if (redirects >= MAX_REDIRECTS) {
          throw new SvcError(redact(t('api.error.tooManyRedirects', {method, url: startUrl.href, max: MAX_REDIRECTS})), {
            exitCode: ExitCode.FAILURE,
            code: 'too_many_redirects',
            status,
          })
        }
        // Resolved again each hop, so the key follows only to the base URL's own origin.
        url = new URL(location, url)
        tracer.line(t('api.trace.redirect', {url: url.href}))
        continue
      }
      if (status < 200 || status > 299) throw errorFromResponse(facts)

      let data: unknown
      if (responseType === 'buffer') {
        data = raw
      } else if (raw.length === 0 || currentMethod === 'HEAD' || status === 204) {
        data = undefined
      } else {
        try {
          data = JSON.parse(raw.toString('utf8'))
        } catch {
          throw invalidResponseError(facts)
        }
      }
      const bodyRequestId =
        typeof data === 'object' && data !== null && typeof (data as Record<string, unknown>).request_id === 'string'
          ? ((data as Record<string, unknown>).request_id as string)
          : undefined
      return {
        status,
        headers: responseHeaders,
        data: data as T,
        requestId: headerValue(responseHeaders, 'x-request-id') ?? bodyRequestId,
        replayed: headerValue(responseHeaders, 'idempotent-replayed')?.toLowerCase() === 'true',
      }
    }
  }

  function buildHeaders(request: RequestOptions, url: URL, responseType: 'json' | 'buffer', method: string): Record<string, string> {
    const headers: Record<string, string> = {
      'User-Agent': options.userAgent,
      Accept: responseType === 'json' ? 'application/json' : '*/*',
    }
    if (method !== 'GET' && method !== 'HEAD') {
      if (request.rawBody !== undefined) headers['Content-Type'] = 'application/octet-stream'
      else if (request.body !== undefined) headers['Content-Type'] = 'application/json'
    }
    const sameOrigin = url.origin === base.origin
    for (const [name, value] of [...Object.entries(options.headers ?? {}), ...Object.entries(request.headers ?? {})]) {
      // A caller-supplied key obeys the same origin rule as ours.
      if (name.toLowerCase() === 'x-api-key' && !sameOrigin) continue
      const existing = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase())
      if (existing) delete headers[existing]
      headers[name] = value
    }
    if ((request.auth ?? true) && apiKey && sameOrigin) headers['X-API-Key'] = apiKey
    if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey
    return headers
  }

  function encodeBody(request: RequestOptions): string | Uint8Array | undefined {
    if (request.rawBody !== undefined) return request.rawBody
    if (request.body === undefined) return undefined
    return JSON.stringify(request.body)
  }

  return {
    baseUrl: base.href.replace(/\/+$/, ''),
    clock,

    async request<T = unknown>(request: RequestOptions): Promise<ApiResponse<T>> {
      const method = request.method.toUpperCase()
      const url = resolve(request.path, request.query)
      const decision = retryDecision({method, path: policyPath(url), operation: request.operation, idempotencyKey: request.idempotencyKey})
      const maxRetries = Math.min(retryOptions.maxRetries, request.maxRetries ?? Number.POSITIVE_INFINITY)
      const runOptions = {...retryOptions, maxRetries}
      const maxAttempts = decision.retryable ? maxRetries + 1 : 1
      const run = withRetries((attempt) => attemptOnce<T>(request, method, url, attempt, maxAttempts), {
        decision,
        options: runOptions,
        clock,
        random,
        signal: request.signal,
        onRetry: ({retry, maxRetries: max, delayMs, error}) => {
          tracer.line(t('api.trace.retry', {n: retry, max, delay: delayMs, reason: describeFailure(error)}))
          if (delayMs >= 1000) options.onWait?.({ms: delayMs, reason: 'retry', status: error instanceof ApiError ? error.status : undefined})
        },
        onNoRetry: ({reason}) => tracer.line(t('api.trace.noRetry', {reason})),
      })
      try {
        return await run
      } catch (error) {
        // Ctrl-C while waiting (pacer, backoff) surfaces as the signal's reason: make it ours.
        if (request.signal?.aborted && !(error instanceof SvcError)) {
          throw new SvcError(redact(t('api.error.aborted', {method, url: url.href})), {
            exitCode: ExitCode.INTERRUPTED,
            code: 'interrupted',
            cause: error,
          })
        }
        throw error
      }
    },

    serviceNow(): Date | undefined {
      return serviceOffsetMs === undefined ? undefined : new Date(now() + serviceOffsetMs)
    },

    async close(): Promise<void> {
      await transport.close()
    },
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof SvcError) {
    if (error.status !== undefined) return `${error.status} ${reasonPhrase(error.status)}`.trim()
    return error.code
  }
  return error instanceof Error ? error.message : String(error)
}
