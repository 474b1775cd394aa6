/**
 * The HTTP layer: node:http, one port, path prefixes. For each request it matches a route, applies
 * the rate limit (every `/v1` response carries the RateLimit headers), authenticates (API key and
 * its environment, revocation, IP allowlist, scope; or the admin token), checks environment-bearing
 * ids, validates query and body with the route's schemas and runs the handler.
 *
 * One error boundary around every request: whatever a handler throws becomes a 500 for that
 * request alone, with a generic message; the detail goes to the sandbox's log, never to the client.
 */
import {timingSafeEqual} from 'node:crypto'
import type {IncomingMessage, ServerResponse} from 'node:http'
import {sleep, systemClock, type Clock} from '../contract/clock.js'
import {t} from './i18n/index.js'
import type {Allowlist, ApiKeyRecord, KeyRing} from './auth.js'
import {MAX_JSON_BODY_BYTES} from '../contract/limits.js'
import {ApiError, validationError} from './errors.js'
import {hasIdShape, idEnvironment} from './ids.js'
import {readJson} from './json.js'
import type {Capture} from './journal.js'
import type {Fault} from './scenarios.js'
import {RateLimiter} from './rate-limit.js'
import type {HandlerResult, Method, RequestContext, RouteDefinition, Router} from './router.js'
import {validate} from './schema.js'
import {isNoSpace} from './storage-errors.js'

export interface HttpDependencies {
  router: Router
  keys: KeyRing
  allowlist: Allowlist
  limiter: RateLimiter
  adminToken: string
  /** The sandbox clock: every answer's `Date` header reads it, as a real service's reads its own. */
  now?: () => number
  /** The machine's clock (the sandbox clock's, `SandboxTime.machine`): the journal's stamps, the admin failures' window without `now`. */
  machine?: Clock
  /** Where the detail of an internal error goes (the sandbox's log), and every injected fault. */
  log: (line: string) => void
  /** Faults set through the admin surface (scenarios.ts): drawn per request before anything else runs. */
  faults?: {apiFault(method: string, path: string, routePath: string): Fault | undefined}
  /** The request journal (journal.ts): every answer is recorded there, unless the journal is off. */
  journal?: {record(capture: Capture): void}
  /**
   * The inspector's sessions (inspector/session.ts): a request with its cookie passes admin
   * authentication (a state-changing one only with its CSRF token); `replayKey` names the key a
   * replayed request goes out with (the key's secret is not kept).
   */
  inspector?: {
    admits(req: IncomingMessage, method: string): boolean
    replayKey(secret: string | undefined): ApiKeyRecord | undefined
  }
}

/** Wrong admin tokens one address may send in a rolling minute (of the sandbox clock) before 429s. */
export const ADMIN_FAILURES_PER_MINUTE = 10

/** What is known of a request by the time it is answered (journal.ts), or undefined when the journal is off. */
type Cap = Capture | undefined

/** An injected connection reset: the socket is destroyed, no answer at all. */
class InjectedReset extends Error {}

/** What a gateway in front of a service answers when the service behind it is down. */
const GATEWAY_PAGE =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n'

const ERROR_CODES: Record<string, string> = {'500': 'internal_error', '502': 'bad_gateway', '503': 'service_unavailable'}

/**
 * A body over the limit is still read (and thrown away) up to this much more, so that the 413
 * reaches a client that is still sending: closing on unread data resets the connection, and the
 * client sees no answer at all. Past it, the connection is closed after the answer.
 */
const DRAIN_BEYOND_LIMIT = 64 * 1024 * 1024
const JSON_TYPE = 'application/json; charset=utf-8'

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number>, cap: Cap): void {
  const text = JSON.stringify(body)
  headers['content-type'] = JSON_TYPE
  headers['content-length'] = Buffer.byteLength(text)
  res.writeHead(status, headers)
  res.end(text)
  if (cap) answered(cap, status, headers, text)
}

function sendResult(res: ServerResponse, result: HandlerResult, headers: Record<string, string | number>, cap: Cap): void {
  Object.assign(headers, result.headers)
  if (result.stream) {
    // A stream (server-sent events) is not journalled: it never ends as an answer does.
    res.writeHead(result.status, headers)
    result.stream(res)
    return
  }
  if (result.raw !== undefined) {
    const bytes = typeof result.raw === 'string' ? Buffer.from(result.raw) : result.raw
    headers['content-type'] = result.contentType ?? 'application/octet-stream'
    headers['content-length'] = bytes.length
    res.writeHead(result.status, headers)
    res.end(bytes)
    if (cap) answered(cap, result.status, headers, bytes)
    return
  }
  if (result.body === undefined) {
    res.writeHead(result.status, headers)
    res.end()
    if (cap) answered(cap, result.status, headers, undefined)
    return
  }
  sendJson(res, result.status, result.body, headers, cap)
}

/** The answer is out: what the journal keeps of it. */
function answered(cap: Capture, status: number, headers: Record<string, string | number>, body: string | Buffer | undefined): void {
  cap.status = status
  cap.responseHeaders = headers
  cap.responseBody = body
  cap.durationMs = cap.clock.monotonic() - cap.started
  cap.sink?.record(cap)
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new ApiError(413, 'payload_too_large', t('sandbox.error.tooLarge', {limit}), undefined, {connection: 'close'})
    const chunks: Buffer[] = []
    let size = 0
    let over = Number(req.headers['content-length']) > limit
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) over = true
      if (!over) chunks.push(chunk)
      else if (size > limit + DRAIN_BEYOND_LIMIT) {
        req.removeAllListeners('data')
        reject(tooLarge())
      }
    })
    req.on('end', () => (over ? reject(tooLarge()) : resolve(Buffer.concat(chunks))))
    req.on('error', reject)
  })
}

/**
 * Read and discard what is left of the request's body before answering: a server that answers and
 * closes while the client is still sending resets the connection, and the client never reads the
 * answer (a 401 to a large POST, a 404 to a GET with a body). Past DRAIN_BEYOND_LIMIT, it stops and
 * the connection is closed after the answer.
 */
function drain(req: IncomingMessage, headers: Record<string, string | number>): Promise<void> | undefined {
  // Nothing left to read (a body already read; a request that declares no body, such as a GET
  // whose handler answered before the parser marked it complete): no listeners, no promise.
  if (req.complete || req.readableEnded || req.destroyed) return undefined
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return undefined
  return new Promise((resolve) => {
    let size = 0
    const done = () => {
      req.off('data', count)
      resolve()
    }
    const count = (chunk: Buffer) => {
      size += chunk.length
      if (size > DRAIN_BEYOND_LIMIT) {
        headers.connection = 'close'
        done()
      }
    }
    req.on('data', count)
    req.once('end', done)
    req.once('error', done)
    req.once('close', done)
    req.resume()
  })
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function createRequestHandler(deps: HttpDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  const {router, keys, allowlist, limiter, adminToken, log} = deps
  // Failed admin authentication, per source address, whatever --rate-limit says: the admin token
  // cannot be guessed at network speed. While limited, every admin request from that address gets
  // 429, the right token's too (its answer must not tell a right guess apart).
  const machine = deps.machine ?? systemClock
  const adminFailures = new RateLimiter(ADMIN_FAILURES_PER_MINUTE, deps.now ?? (() => machine.now()))

  /** Count one request against `bucket`; a 429 when over (every limited response carries the RateLimit headers). */
  function limit(bucket: string, headers: Record<string, string | number>): void {
    const decision = limiter.hit(bucket)
    headers['ratelimit-limit'] = decision.limit
    headers['ratelimit-remaining'] = decision.remaining
    headers['ratelimit-reset'] = decision.resetSeconds
    if (!decision.allowed) {
      headers['retry-after'] = decision.resetSeconds
      throw new ApiError(429, 'rate_limited', t('sandbox.error.rateLimited', {limit: decision.limit, seconds: decision.resetSeconds}))
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, headers: Record<string, string | number>, cap: Cap): Promise<void> {
    const rawUrl = req.url ?? '/'
    const queryAt = rawUrl.indexOf('?')
    const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt)
    const method = (req.method ?? 'GET') as Method
    const ip = req.socket.remoteAddress ?? ''
    const isPublic = path === '/v1' || path.startsWith('/v1/')

    const keyHeader = req.headers['x-api-key']
    const secret = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader
    let key: ApiKeyRecord | undefined
    if (isPublic) {
      key = keys.identify(secret) ?? deps.inspector?.replayKey(secret)
      if (cap) cap.key = key
      // Per key; requests without a usable key are counted per source address.
      if (limiter.enabled) limit(key && !key.revoked ? `key:${key.id}` : `ip:${ip}`, headers)
    }

    const match = router.match(method, path)
    if (!match) {
      const allowed = router.methodsFor(path)
      if (allowed.length > 0) {
        headers.allow = allowed.join(', ')
        throw new ApiError(405, 'method_not_allowed', t('sandbox.error.methodNotAllowed', {method, path, allowed: allowed.join(', ')}))
      }
      throw new ApiError(404, 'not_found', t('sandbox.error.noRoute', {method, path}))
    }
    const {route, params} = match
    // Injected faults come first, as a gateway's would: a 503 on POST /v1/payments creates nothing.
    // Never on the admin surface, so that `faults clear` always gets through.
    const fault = route.auth === 'admin' ? undefined : deps.faults?.apiFault(method, path, route.path)
    if (fault) {
      log(t('sandbox.fault.api', {id: fault.id, what: [fault.latency_ms ? `${fault.latency_ms} ms` : '', fault.error ?? ''].filter(Boolean).join(' + '), method, path}))
      // The machine's clock: a test holding it moves the answer on instead of waiting for it.
      if (fault.latency_ms) await sleep(machine, fault.latency_ms)
      if (fault.error === 'reset') throw new InjectedReset()
      if (fault.error === 'html') {
        await drain(req, headers)
        sendResult(res, {status: 502, raw: GATEWAY_PAGE, contentType: 'text/html'}, headers, cap)
        return
      }
      if (fault.error === '429') {
        headers['retry-after'] = 1
        throw new ApiError(429, 'rate_limited', t('sandbox.fault.message', {id: fault.id, status: 429}))
      }
      if (fault.error) throw new ApiError(Number(fault.error), ERROR_CODES[fault.error], t('sandbox.fault.message', {id: fault.id, status: fault.error}))
    }
    // Keyless surfaces a stranger can reach (the checkout form, signed URLs): per source address.
    if (!isPublic && route.limitByAddress && limiter.enabled) limit(`ip:${ip}`, headers)
    const ctx: RequestContext = {
      req,
      method,
      path,
      params,
      query: {},
      body: undefined,
      headers: req.headers,
      environment: 'SANDBOX',
      ip,
    }

    if (route.auth === 'admin') {
      const authorization = req.headers.authorization ?? ''
      const token = authorization.startsWith('Bearer ') ? authorization.slice(7).trim() : ''
      const failures = adminFailures.check(`admin:${ip}`)
      if (!failures.allowed) {
        headers['retry-after'] = failures.resetSeconds
        throw new ApiError(429, 'rate_limited', t('sandbox.admin.tooManyFailures', {limit: failures.limit, seconds: failures.resetSeconds}))
      }
      if (token ? !sameSecret(token, adminToken) : !deps.inspector?.admits(req, method)) {
        adminFailures.hit(`admin:${ip}`)
        throw new ApiError(401, 'unauthorized', t('sandbox.admin.unauthorized'))
      }
      // The inspector's own reads (its pages, their live updates) are not the developer's traffic.
      if (!token && cap) cap.sink = undefined
    } else if (route.auth === 'key') {
      if (!secret) throw new ApiError(401, 'unauthorized', t('sandbox.auth.missing'))
      if (!key) throw new ApiError(401, 'unauthorized', t('sandbox.auth.invalid'))
      if (key.revoked) throw new ApiError(401, 'unauthorized', t('sandbox.auth.revoked'))
      if (!allowlist.allows(ip)) throw new ApiError(403, 'ip_not_allowed', t('sandbox.auth.ipNotAllowed', {ip}))
      if (route.scope && !key.scopes.includes(route.scope))
        throw new ApiError(403, 'insufficient_scope', t('sandbox.auth.scope', {scope: route.scope}))
      ctx.key = key
      ctx.environment = key.environment
      for (const [name, doc] of Object.entries(route.params ?? {})) {
        if (!doc.idPrefix) continue
        const belongs = idEnvironment(doc.idPrefix, params[name])
        // The other environment's only when the id has the shape of one (a typo is no such object).
        if (belongs && belongs !== key.environment && hasIdShape(doc.idPrefix, params[name]!))
          throw new ApiError(401, 'unauthorized', t('sandbox.auth.wrongEnvironment', {id: params[name], environment: key.environment}))
        // `invoiceId` is the route's name for it; the message names the object: `invoice`.
        if (belongs !== key.environment) throw new ApiError(404, 'not_found', t('sandbox.error.notFound', {what: name.replace(/Id$/, ''), id: params[name]}))
      }
    }

    if (route.query) {
      const query = Object.fromEntries(new URLSearchParams(queryAt === -1 ? '' : rawUrl.slice(queryAt + 1)))
      const checked = validate(route.query, query, {coerce: true})
      if (checked.errors.length > 0) throw validationError(checked.errors)
      ctx.query = checked.value as Record<string, unknown>
    }

    if (route.body !== undefined) ctx.body = await parseBody(req, route, cap)

    // A handler that answers at once (reads, creates in memory) is not awaited: one trip less
    // through the microtask queue per request.
    let result = route.handler(ctx)
    if (result instanceof Promise) result = await result
    const draining = drain(req, headers)
    if (draining) await draining
    sendResult(res, result, headers, cap)
  }

  // The Date header's text, made once a second (it has a resolution of one second).
  let dateSecond = Number.NaN
  let dateText = ''
  const httpDate = (now: number): string => {
    const second = Math.floor(now / 1000)
    if (second !== dateSecond) {
      dateSecond = second
      dateText = new Date(second * 1000).toUTCString()
    }
    return dateText
  }

  return (req, res) => {
    // The service's clock, not the machine's: clients (reports, the walkthrough) age invoices by it,
    // so `svc sandbox clock advance` moves them too.
    const headers: Record<string, string | number> = deps.now ? {date: httpDate(deps.now())} : {}
    const url = req.url ?? '/'
    // Reading the journal (and the inspector's pages) is not traffic worth journalling; nor are
    // svc's own probes: a stand-in asking whether this sandbox knows its key, listen's watch line.
    const cap: Cap =
      deps.journal && !url.startsWith('/_inspector') && !url.startsWith('/_admin/requests') && !isOwnProbe(url)
        ? {
            // Every field the capture gets is here from the start: one shape for all of them.
            at: machine.now(),
            started: machine.monotonic(),
            clock: machine,
            method: req.method ?? 'GET',
            url,
            ip: req.socket.remoteAddress ?? '',
            rawHeaders: req.rawHeaders,
            key: undefined,
            requestBody: undefined,
            requestBytes: undefined,
            status: 0,
            responseHeaders: headers,
            responseBody: undefined,
            durationMs: 0,
            sink: deps.journal,
          }
        : undefined
    handle(req, res, headers, cap)
      .catch(async (error: unknown) => {
        if (error instanceof InjectedReset) {
          req.socket.resetAndDestroy()
          return
        }
        if (res.headersSent) {
          res.destroy()
          return
        }
        // A body too large to drain is already answered with Connection: close.
        if (!(error instanceof ApiError && error.headers?.connection === 'close')) await drain(req, headers)
        if (error instanceof ApiError) {
          Object.assign(headers, error.headers)
          sendJson(res, error.status, error.body(), headers, cap)
          return
        }
        log(t('sandbox.error.log', {method: String(req.method), path: (req.url ?? '/').split('?')[0], detail: (error as Error)?.stack ?? String(error)}))
        // The data file's disk is full: the write was rolled back, nothing of it acknowledged.
        if (isNoSpace(error)) {
          sendJson(res, 507, {message: t('sandbox.storage.full'), code: 'insufficient_storage'}, headers, cap)
          return
        }
        sendJson(res, 500, {message: t('sandbox.error.internal'), code: 'internal_error'}, headers, cap)
      })
      // Even answering failed (a socket gone, a header Node refuses): this request alone ends.
      .catch(() => res.destroy())
  }
}

async function parseBody(req: IncomingMessage, route: RouteDefinition, cap: Cap): Promise<unknown> {
  const bytes = await readBody(req, route.maxBodyBytes ?? MAX_JSON_BODY_BYTES)
  // The journal copies its first JOURNAL_BODY_LIMIT bytes once answered.
  if (cap) cap.requestBody = bytes
  if (route.body === 'raw') return bytes
  const schema = route.body!
  let value: unknown
  if (bytes.length === 0 || bytes.toString('utf8').trim() === '') {
    if (!route.bodyOptional) throw validationError([{field: 'body', message: t('sandbox.validation.bodyMissing')}])
    value = {}
  } else {
    const read = readJson(bytes)
    if ('error' in read) throw validationError([{field: 'body', message: t(read.error.key, read.error.params)}])
    value = read.value
  }
  const checked = validate(schema, value)
  if (checked.errors.length > 0) throw validationError(checked.errors)
  return checked.value
}

/** `GET /_admin/keys/known?…` and `GET /_admin/webhook-endpoints/{id}/watch`: svc asking, not the app. */
function isOwnProbe(url: string): boolean {
  return url.startsWith('/_admin/keys/known') || (url.startsWith('/_admin/webhook-endpoints/') && url.split('?')[0].endsWith('/watch'))
}
