/**
 * The dashboard stand-ins: `svc sandbox keys|webhooks|allowlist|fees|balance|approve|decline|clock|…`
 * talk to the running local sandbox's admin surface (outside /v1, its own bearer token), found
 * by running.ts's rule. The trace hides the Authorization header.
 */
import {adminPath, splitRoute, type AdminAnswer, type AdminArgs, type AdminInput, type AdminRoute} from '../../contract/sandbox-admin-routes.js'
import type {ApiClient} from '../api/index.js'
import type {Context} from '../context.js'
import {ExitCode, NetworkError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {requireRunningSandbox} from './running.js'

/**
 * A client of the admin surface: it calls only routes of the admin contract
 * (src/contract/sandbox-admin-routes.ts), with their parameters, query and body, and gets their answer.
 */
export interface AdminClient {
  call<R extends AdminRoute>(route: R, ...args: AdminArgs<R>): Promise<AdminAnswer<R>>
}

/** `headers`: added to every request (listen marks its own as svc's). */
export function adminClientFor(client: ApiClient, token: string, headers: Record<string, string> = {}): AdminClient {
  return {
    async call<R extends AdminRoute>(route: R, ...args: AdminArgs<R>) {
      const input = (args[0] ?? {}) as AdminInput<R>
      const response = await client.request<AdminAnswer<R>>({
        method: splitRoute(route).method,
        path: adminPath(route, input.params),
        body: input.body,
        query: input.query as Record<string, string | number | undefined> | undefined,
        auth: false,
        headers: {...headers, Authorization: `Bearer ${token}`},
      })
      return response.data
    },
  }
}

/** The admin client of the running sandbox (running.ts's rule; exit 7 when none runs). */
export async function localAdmin(ctx: Context): Promise<AdminClient> {
  const state = requireRunningSandbox(ctx)
  // No key (the admin token goes in its own header), no pacing, no retry: a local server.
  const client = await ctx.clientFor(undefined, state.base_url, {ratePerMinute: 0, retry: {maxRetries: 0}, timeoutMs: 60_000})
  const admin = adminClientFor(client, state.admin_token)
  return {
    async call(route, ...args) {
      try {
        return await admin.call(route, ...args)
      } catch (error) {
        if (error instanceof NetworkError) {
          throw new SvcError(t('local.unreachable', {url: state.base_url}), {
            exitCode: ExitCode.UNAVAILABLE,
            code: 'sandbox_unreachable',
            cause: error,
          })
        }
        throw error
      }
    },
  }
}
