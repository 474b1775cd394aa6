/**
 * Routes are declared, not hand-parsed: each names its method, full path (`/v1/payments/{paymentId}/status`),
 * how it is authenticated, the scope it needs, the schemas of its path, query and body, and its
 * documented responses. The HTTP layer (server.ts) validates with those schemas and the OpenAPI
 * builder (openapi.ts) publishes the very same objects.
 *
 * Domains register their routes with `router.add(...)`. Part 2 adds `/v1/invoices…`,
 * `/v1/files/upload-url`, `/pay/…` pages (auth 'none', `raw` responses) and `/storage/…` uploads
 * (`body: 'raw'`).
 */
import type {IncomingMessage} from 'node:http'
import type {ApiKeyRecord} from './auth.js'
import type {FromSchema, Schema} from './schema.js'
import type {Environment, Scope} from './types.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * `key`: public API, needs X-API-Key (environment from its prefix), allowlist, scope.
 * `admin`: `Authorization: Bearer <adminToken>`; never published.
 * `none`: open (the OpenAPI document, checkout pages, signed URLs).
 */
export type AuthMode = 'key' | 'admin' | 'none'

export interface ResponseDoc {
  description: string
  schema?: Schema
  /** Default application/json. */
  contentType?: string
  headers?: Record<string, {description: string; schema: Schema}>
}

export interface ParamDoc {
  schema: Schema
  description?: string
  /** A value that works in a fresh sandbox (an example object's id: examples.ts), for "try it" tools. */
  example?: string
  /**
   * The object-id prefix this parameter carries (e.g. `svcpay`). The HTTP layer answers 401 for an
   * id of the other environment and 404 for a string that is no id of this kind.
   */
  idPrefix?: string
}

export interface HeaderDoc {
  schema: Schema
  description?: string
  required?: boolean
}

/** What a handler reads in `body`: the JSON its schema describes, the bytes for 'raw', nothing without a schema. */
export type BodyOf<B> = B extends 'raw' ? Buffer : [B] extends [undefined] ? unknown : FromSchema<B>

export interface RequestContext<Body = unknown> {
  req: IncomingMessage
  method: Method
  path: string
  params: Record<string, string>
  /** Validated (and coerced) query. */
  query: Record<string, any>
  /** Validated JSON body (defaults filled in), typed from the route's schema, or the raw bytes when `body: 'raw'`. */
  body: Body
  /** Lower-cased request headers. */
  headers: IncomingMessage['headers']
  /** Set for `auth: 'key'` routes. */
  environment: Environment
  key?: ApiKeyRecord
  ip: string
}

export interface HandlerResult {
  status: number
  /** Serialised as JSON unless `raw` is given. */
  body?: unknown
  raw?: Buffer | string
  contentType?: string
  headers?: Record<string, string>
  /** A response that goes on (server-sent events): called once the status and headers are written. */
  stream?: (res: import('node:http').ServerResponse) => void
}

export interface RouteDefinition<B extends Schema | 'raw' | undefined = Schema | 'raw' | undefined> {
  method: Method
  path: string
  auth: AuthMode
  scope?: Scope
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  params?: Record<string, ParamDoc>
  /** An object schema whose properties are the query parameters. */
  query?: Schema
  headers?: Record<string, HeaderDoc>
  /** A JSON body schema, or 'raw' for the bytes as sent (uploads). */
  body?: B
  /** Body is optional (e.g. publish with no options). Default: required when `body` is a schema. */
  bodyOptional?: boolean
  /** Count requests per source address against the rate limit (keyless routes a stranger can reach: checkout form, signed URLs). */
  limitByAddress?: boolean
  /** Answers with a stream that stays open (server-sent events) rather than one answer. */
  eventStream?: boolean
  /** Largest body accepted, bytes; default 1 MiB. */
  maxBodyBytes?: number
  /** Success responses by status; error statuses are listed in `errors` and share the Error schema. */
  responses: Record<number, ResponseDoc>
  errors?: number[]
  /** A method signature, so that a route of any body is a RouteDefinition. */
  handler(ctx: RequestContext<BodyOf<B>>): HandlerResult | Promise<HandlerResult>
}

export interface RouteMatch {
  route: RouteDefinition
  params: Record<string, string>
}

interface Compiled {
  route: RouteDefinition
  segments: string[]
  /** For each segment, the param name or undefined for a literal. */
  names: Array<string | undefined>
}

export class Router {
  private readonly list: RouteDefinition[] = []
  private readonly literal = new Map<string, RouteDefinition>()
  private readonly patterns: Compiled[] = []

  add<const B extends Schema | 'raw' | undefined = undefined>(typed: RouteDefinition<B>): void {
    // Kept as a route of any body: the handler was checked against its own schema above.
    const route = typed as unknown as RouteDefinition
    if (!route.path.startsWith('/')) throw new Error(`route path must start with /: ${route.path}`)
    const key = `${route.method} ${route.path}`
    if (this.list.some((r) => `${r.method} ${r.path}` === key)) throw new Error(`route defined twice: ${key}`)
    this.list.push(route)
    if (!route.path.includes('{')) {
      this.literal.set(key, route)
      return
    }
    const segments = route.path.split('/')
    this.patterns.push({
      route,
      segments,
      names: segments.map((segment) => (/^\{\w+\}$/.test(segment) ? segment.slice(1, -1) : undefined)),
    })
  }

  routes(): readonly RouteDefinition[] {
    return this.list
  }

  match(method: string, path: string): RouteMatch | undefined {
    const literal = this.literal.get(`${method} ${path}`)
    if (literal) return {route: literal, params: {}}
    const segments = path.split('/')
    for (const compiled of this.patterns) {
      if (compiled.route.method !== method || compiled.segments.length !== segments.length) continue
      const params: Record<string, string> = {}
      let ok = true
      for (let i = 0; i < segments.length; i++) {
        const name = compiled.names[i]
        if (name === undefined) {
          if (compiled.segments[i] !== segments[i]) {
            ok = false
            break
          }
        } else {
          if (segments[i] === '') {
            ok = false
            break
          }
          try {
            params[name] = decodeURIComponent(segments[i])
          } catch {
            ok = false
            break
          }
        }
      }
      if (ok) return {route: compiled.route, params}
    }
    return undefined
  }

  /** Methods that exist for `path` (for a 405 and its Allow header). */
  methodsFor(path: string): Method[] {
    const methods = new Set<Method>()
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) if (this.match(method, path)) methods.add(method)
    return [...methods]
  }
}
