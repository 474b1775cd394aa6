/**
 * An admin route registered by its name in the admin contract (src/contract/sandbox-admin-routes.ts):
 * the handler receives the route's path parameters, query and body as the contract types them, and
 * must answer what the contract says, so that the sandbox and the CLI's stand-ins cannot drift apart.
 */
import {
  splitRoute,
  type AdminAnswer,
  type AdminBody,
  type AdminParams,
  type AdminQuery,
  type AdminRoute,
} from '../../contract/sandbox-admin-routes.js'
import type {HandlerResult, RequestContext, RouteDefinition, Router} from '../router.js'

export interface AdminRequest<R extends AdminRoute> extends Omit<RequestContext, 'params' | 'query' | 'body'> {
  params: AdminParams<R>
  /** Validated and coerced (defaults filled in). */
  query: AdminQuery<R>
  body: AdminBody<R>
}

export type AdminResult<R extends AdminRoute> = Omit<HandlerResult, 'body'> & {body?: AdminAnswer<R>}

export interface AdminRouteDefinition<R extends AdminRoute> extends Omit<RouteDefinition, 'method' | 'path' | 'auth' | 'responses' | 'handler'> {
  /** Default: auth 'admin'. */
  auth?: RouteDefinition['auth']
  /** Default: 200 OK. */
  responses?: RouteDefinition['responses']
  handler: (req: AdminRequest<R>) => AdminResult<R> | Promise<AdminResult<R>>
}

export function addAdminRoute<R extends AdminRoute>(router: Router, route: R, definition: AdminRouteDefinition<R>): void {
  const {method, path} = splitRoute(route)
  router.add({
    auth: 'admin',
    responses: {200: {description: 'OK'}},
    ...definition,
    method,
    path,
    handler: definition.handler as unknown as RouteDefinition['handler'],
  })
}
