/**
 * An admin route registered by its name in the admin contract (src/contract/sandbox-admin-routes.ts):
 * the handler receives the route's path parameters, query and body as the contract types them, and
 * must answer what the contract says, so that the sandbox and the CLI's stand-ins cannot drift apart.
 * A route's body schema is the contract's (src/contract/sandbox-admin-bodies.ts): given to the router
 * here, never written again by the handler, whose body is typed from it (as a `/v1` handler's body
 * is from its schema).
 */
import {ADMIN_BODIES, OPTIONAL_BODIES} from '../../contract/sandbox-admin-bodies.js'
import {
  splitRoute,
  type AdminAnswer,
  type AdminBody,
  type AdminParams,
  type AdminQuery,
  type AdminRoute,
} from '../../contract/sandbox-admin-routes.js'
import type {HandlerResult, RequestContext, RouteDefinition, Router} from '../router.js'
import type {Schema} from '../schema.js'

export interface AdminRequest<R extends AdminRoute> extends Omit<RequestContext, 'params' | 'query' | 'body'> {
  params: AdminParams<R>
  /** Validated and coerced (defaults filled in). */
  query: AdminQuery<R>
  /** Validated against the route's schema in the contract (defaults filled in). */
  body: AdminBody<R>
}

export type AdminResult<R extends AdminRoute> = Omit<HandlerResult, 'body'> & {body?: AdminAnswer<R>}

export interface AdminRouteDefinition<R extends AdminRoute>
  extends Omit<RouteDefinition, 'method' | 'path' | 'auth' | 'responses' | 'handler' | 'body' | 'bodyOptional'> {
  /** Default: auth 'admin'. */
  auth?: RouteDefinition['auth']
  /** Default: 200 OK. */
  responses?: RouteDefinition['responses']
  handler: (req: AdminRequest<R>) => AdminResult<R> | Promise<AdminResult<R>>
}

/** The contract's body schemas, as the sandbox's schemas: each `x-pattern-message` must be a key of its catalogue. */
const BODIES: Readonly<Record<keyof typeof ADMIN_BODIES, Schema>> = ADMIN_BODIES
const OPTIONAL: ReadonlySet<string> = new Set(OPTIONAL_BODIES)

export function addAdminRoute<R extends AdminRoute>(router: Router, route: R, definition: AdminRouteDefinition<R>): void {
  const {method, path} = splitRoute(route)
  const body = (BODIES as Partial<Record<AdminRoute, Schema>>)[route]
  router.add({
    auth: 'admin',
    responses: {200: {description: 'OK'}},
    ...definition,
    ...(body ? {body, bodyOptional: OPTIONAL.has(route)} : {}),
    method,
    path,
    handler: definition.handler as unknown as RouteDefinition['handler'],
  })
}
