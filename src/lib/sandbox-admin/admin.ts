/**
 * The dashboard stand-ins: `svc sandbox keys|webhooks|allowlist|fees|balance|approve|decline|clock|…`
 * talk to the running local sandbox's admin surface (outside /v1, its own bearer token), found
 * by running.ts's rule. The trace hides the Authorization header.
 */
import {ORIGIN_HEADER, type SvcOrigin} from '../../contract/sandbox-inspector.js'
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

/** `origin`: which part of svc calls (the journal keeps svc's own requests out of the app's view). */
export function adminClientFor(client: ApiClient, token: string, origin: SvcOrigin = 'stand-in'): AdminClient {
  return {
    async call<R extends AdminRoute>(route: R, ...args: AdminArgs<R>) {
      const input = (args[0] ?? {}) as AdminInput<R>
      const response = await client.request<AdminAnswer<R>>({
        method: splitRoute(route).method,
        path: adminPath(route, input.params),
        body: input.body,
        query: input.query as Record<string, string | number | undefined> | undefined,
        auth: false,
        headers: {Authorization: `Bearer ${token}`, [ORIGIN_HEADER]: origin},
      })
      return response.data
    },
  }
}

/** The admin client of the running sandbox (running.ts's rule; exit 7 when none runs), for `origin`. */
export async function localAdmin(ctx: Context, origin: SvcOrigin = 'stand-in'): Promise<AdminClient> {
  const state = requireRunningSandbox(ctx)
  // No key (the admin token goes in its own header), no pacing, no retry: a local server.
  const client = await ctx.clientFor(undefined, state.base_url, {ratePerMinute: 0, retry: {maxRetries: 0}, timeoutMs: 60_000})
  const admin = adminClientFor(client, state.admin_token, origin)
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
