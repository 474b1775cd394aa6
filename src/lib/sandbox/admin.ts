/**
 * The dashboard stand-ins: `svc sandbox keys|webhooks|allowlist|fees|balance|approve|decline|clock|…`
 * talk to the running local sandbox's admin surface (outside /v1, its own bearer token), found
 * through `sandbox.json` (written by `svc sandbox serve`). The trace hides the Authorization header.
 */
import {adminPath, splitRoute, type AdminAnswer, type AdminArgs, type AdminInput, type AdminRoute} from '../../contract/sandbox-admin-routes.js'
import type {ApiClient} from '../api/index.js'
import type {Context} from '../context.js'
import {ExitCode, InputError, NetworkError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {readSandboxState} from './state.js'

/**
 * A client of the admin surface: it calls only routes of the admin contract
 * (src/contract/sandbox-admin-routes.ts), with their parameters, query and body, and gets their answer.
 */
export interface AdminClient {
  call<R extends AdminRoute>(route: R, ...args: AdminArgs<R>): Promise<AdminAnswer<R>>
}

export function adminClientFor(client: ApiClient, token: string): AdminClient {
  return {
    async call<R extends AdminRoute>(route: R, ...args: AdminArgs<R>) {
      const input = (args[0] ?? {}) as AdminInput<R>
      const response = await client.request<AdminAnswer<R>>({
        method: splitRoute(route).method,
        path: adminPath(route, input.params),
        body: input.body,
        query: input.query as Record<string, string | number | undefined> | undefined,
        auth: false,
        headers: {Authorization: `Bearer ${token}`},
      })
      return response.data
    },
  }
}

/**
 * Where the running sandbox is: SVC_SANDBOX_URL (its base URL; the admin surface is under
 * `/_admin` on the same port) and SVC_SANDBOX_ADMIN_TOKEN first, so that a CI job can drive a
 * sandbox started in another container (`svc sandbox serve --admin-token …`); else what
 * `svc sandbox serve` saved in the config dir. Both variables or neither.
 */
export function findSandbox(ctx: Context): {base_url: string; admin_token: string} {
  const url = ctx.env.SVC_SANDBOX_URL?.trim()
  const token = ctx.env.SVC_SANDBOX_ADMIN_TOKEN?.trim()
  if (url || token) {
    if (!url) throw new InputError(t('local.env.missing', {missing: 'SVC_SANDBOX_URL', given: 'SVC_SANDBOX_ADMIN_TOKEN'}), {field: 'SVC_SANDBOX_URL'})
    if (!token) throw new InputError(t('local.env.missing', {missing: 'SVC_SANDBOX_ADMIN_TOKEN', given: 'SVC_SANDBOX_URL'}), {field: 'SVC_SANDBOX_ADMIN_TOKEN'})
    let parsed: URL | undefined
    try {
      parsed = new URL(url)
    } catch {
      parsed = undefined
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new InputError(t('local.env.url', {url}), {field: 'SVC_SANDBOX_URL'})
    // A base URL given with the admin path or a trailing slash still means the sandbox's base.
    return {base_url: url.replace(/\/+$/, '').replace(/\/_admin$/, ''), admin_token: token}
  }
  const state = readSandboxState(ctx.configDir)
  if (!state) throw new SvcError(t('local.notRunning'), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_not_running'})
  return state
}

/** The admin client of the running sandbox (findSandbox). */
export async function localAdmin(ctx: Context): Promise<AdminClient> {
  const state = findSandbox(ctx)
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
