// The admin surface, as the page calls it: only routes the admin contract names
// (src/contract/sandbox-admin-routes.ts), with their parameters, query and body, answering their
// answer's type. `tsc -p src/sandbox/inspector/assets` refuses a route the contract does not name,
// and test/structure/inspector-routes.test.ts refuses a path written any other way.
import {
  adminPath,
  splitRoute,
  type AdminAnswer,
  type AdminArgs,
  type AdminInput,
  type AdminRoute,
} from '../../../contract/sandbox-admin-routes.js'
import {CSRF_HEADER, ORIGIN_HEADER} from '../../../contract/sandbox-inspector.js'
import {state} from './state.js'

/** An answer other than 2xx: its status and the sandbox's message. */
export class AdminFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

/** `?a=1&b=2` of the values given (nothing for undefined or ''), or ''. */
function queryString(params: object | undefined): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== '') q.set(k, String(v))
  const text = q.toString()
  return text ? `?${text}` : ''
}

/** The URL of a route (its parameters filled in, its query appended), for fetch or an EventSource. */
export function adminUrl<R extends AdminRoute>(route: R, ...args: AdminArgs<R>): string {
  const input = (args[0] ?? {}) as AdminInput<R>
  return `${adminPath(route, input.params)}${queryString(input.query as object | undefined)}`
}

/**
 * Call a route with the session cookie; each request carries the session's CSRF token and says it
 * is the inspector's (the request journal keeps svc's own requests out of the app's view).
 */
export async function api<R extends AdminRoute>(route: R, ...args: AdminArgs<R>): Promise<AdminAnswer<R>> {
  const input = (args[0] ?? {}) as AdminInput<R>
  const body = input.body as unknown
  const response = await fetch(adminUrl(route, ...args), {
    method: splitRoute(route).method,
    credentials: 'same-origin',
    headers: {[CSRF_HEADER]: state.csrf, [ORIGIN_HEADER]: 'inspector', ...(body === undefined ? {} : {'content-type': 'application/json'})},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  const data = text ? JSON.parse(text) : undefined
  if (!response.ok) throw new AdminFailure(data?.message ?? String(response.status), response.status)
  return data as AdminAnswer<R>
}
