/**
 * The HTTP layer: node:http, one port, path prefixes. For each request it matches a route, applies
 * the rate limit (every `/v1` response carries the RateLimit headers), authenticates (API key and
 * its environment, revocation, IP allowlist, scope; or the admin token), checks environment-bearing
 * ids, validates query and body with the route's schemas and runs the handler.
 */
import {timingSafeEqual} from 'node:crypto'
import type {IncomingMessage, ServerResponse} from 'node:http'
import {t} from './i18n/index.js'
import type {Allowlist, ApiKeyRecord, KeyRing} from './auth.js'
import {ApiError, validationError} from './errors.js'
import {idEnvironment} from './ids.js'
import type {RateLimiter} from './rate-limit.js'
import type {HandlerResult, Method, RequestContext, RouteDefinition, Router} from './router.js'
import {validate} from './schema.js'

export interface HttpDependencies {
  router: Router
  keys: KeyRing
  allowlist: Allowlist
  limiter: RateLimiter
  adminToken: string
  /** The sandbox clock: every answer's `Date` header reads it, as a real service's reads its own. */
  now?: () => number
}

const DEFAULT_MAX_BODY = 1024 * 1024
const JSON_TYPE = 'application/json; charset=utf-8'

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number>): void {
  const text = JSON.stringify(body)
  headers['content-type'] = JSON_TYPE
  headers['content-length'] = Buffer.byteLength(text)
  res.writeHead(status, headers)
  res.end(text)
}

function sendResult(res: ServerResponse, result: HandlerResult, headers: Record<string, string | number>): void {
  Object.assign(headers, result.headers)
  if (result.raw !== undefined) {
    const bytes = typeof result.raw === 'string' ? Buffer.from(result.raw) : result.raw
    headers['content-type'] = result.contentType ?? 'application/octet-stream'
    headers['content-length'] = bytes.length
    res.writeHead(result.status, headers)
    res.end(bytes)
    return
  }
  if (result.body === undefined) {
    res.writeHead(result.status, headers)
    res.end()
    return
  }
  sendJson(res, result.status, result.body, headers)
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new ApiError(413, 'payload_too_large', t('sandbox.error.tooLarge', {limit})))
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function createRequestHandler(deps: HttpDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  const {router, keys, allowlist, limiter, adminToken} = deps

  async function handle(req: IncomingMessage, res: ServerResponse, headers: Record<string, string | number>): Promise<void> {
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
      key = keys.identify(secret)
      if (limiter.enabled) {
        // Per key; requests without a usable key are counted per source address.
        const decision = limiter.hit(key && !key.revoked ? `key:${key.id}` : `ip:${ip}`)
        headers['ratelimit-limit'] = decision.limit
        headers['ratelimit-remaining'] = decision.remaining
        headers['ratelimit-reset'] = decision.resetSeconds
        if (!decision.allowed) {
          headers['retry-after'] = decision.resetSeconds
          throw new ApiError(429, 'rate_limited', t('sandbox.error.rateLimited', {limit: decision.limit, seconds: decision.resetSeconds}))
        }
      }
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
      if (!token || !sameSecret(token, adminToken)) throw new ApiError(401, 'unauthorized', t('sandbox.admin.unauthorized'))
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
        if (belongs && belongs !== key.environment)
          throw new ApiError(401, 'unauthorized', t('sandbox.auth.wrongEnvironment', {id: params[name], environment: key.environment}))
        if (!belongs) throw new ApiError(404, 'not_found', t('sandbox.error.notFound', {what: name, id: params[name]}))
      }
    }

    if (route.query) {
      const query = Object.fromEntries(new URLSearchParams(queryAt === -1 ? '' : rawUrl.slice(queryAt + 1)))
      const checked = validate(route.query, query, {coerce: true})
      if (checked.errors.length > 0) throw validationError(checked.errors)
      ctx.query = checked.value as Record<string, unknown>
    }

    if (route.body !== undefined) ctx.body = await parseBody(req, route)

    sendResult(res, await route.handler(ctx), headers)
  }

  return (req, res) => {
    // The service's clock, not the machine's: clients (reports, the walkthrough) age invoices by it,
    // so `svc sandbox clock advance` moves them too.
    const headers: Record<string, string | number> = deps.now ? {date: new Date(deps.now()).toUTCString()} : {}
    handle(req, res, headers).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy()
        return
      }
      if (error instanceof ApiError) {
        Object.assign(headers, error.headers)
        sendJson(res, error.status, error.body(), headers)
        return
      }
      sendJson(res, 500, {message: t('sandbox.error.internal', {reason: (error as Error)?.message ?? String(error)}), code: 'internal_error'}, headers)
    })
  }
}

async function parseBody(req: IncomingMessage, route: RouteDefinition): Promise<unknown> {
  const bytes = await readBody(req, route.maxBodyBytes ?? DEFAULT_MAX_BODY)
  if (route.body === 'raw') return bytes
  const schema = route.body!
  let value: unknown
  if (bytes.length === 0 || bytes.toString('utf8').trim() === '') {
    if (!route.bodyOptional) throw validationError([{field: 'body', message: t('sandbox.validation.bodyMissing')}])
    value = {}
  } else {
    try {
      value = JSON.parse(bytes.toString('utf8'))
    } catch (error) {
      throw validationError([{field: 'body', message: t('sandbox.validation.invalidJson', {reason: (error as Error).message})}])
    }
  }
  const checked = validate(schema, value)
  if (checked.errors.length > 0) throw validationError(checked.errors)
  return checked.value
}
