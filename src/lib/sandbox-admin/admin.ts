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
import {createHash} from 'node:crypto'

import {maskSecret} from '../../contract/keys.js'
import {requireRunningSandbox, sandboxBinding, type RunningSandbox} from './running.js'

/**
 * A client of the admin surface: it calls only routes of the admin contract
 * (src/contract/sandbox-admin-routes.ts), with their parameters, query and body, and gets their answer.
 */
export interface AdminClient {
  call<R extends AdminRoute>(route: R, ...args: AdminArgs<R>): Promise<AdminAnswer<R>>
}

/**
 * `headers`: added to every request: svc's own are marked with the part of svc that sends them
 * (`svc-origin`, the journal's origin), a stand-in command's by default.
 */
export function adminClientFor(client: ApiClient, token: string, headers: Record<string, string> = {[ORIGIN_HEADER]: 'stand-in'}): AdminClient {
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

const checked = new WeakSet<Context>()

/**
 * "With that key": a command bound to a key (given with --api-key or SVC_API_KEY, or a profile
 * that this sandbox did not save) acts on this sandbox only when it knows the key, asked by its
 * digest. The profile the sandbox saved holds its own key: nothing to ask. Once per invocation.
 */
async function checkKeyHere(ctx: Context, state: RunningSandbox, admin: AdminClient): Promise<void> {
  if (checked.has(ctx) || !sandboxBinding(ctx)) return
  checked.add(ctx)
  const creds = ctx.credentials()
  const fromFlags = Boolean(ctx.flags.apiKey || ctx.env.SVC_API_KEY)
  if (!creds.apiKey || (!fromFlags && state.entry && creds.profileName === state.entry.profile)) return
  let known: boolean
  try {
    known = (await admin.call('GET /_admin/keys/known', {query: {sha256: createHash('sha256').update(creds.apiKey).digest('hex')}})).known
  } catch (error) {
    if (error instanceof NetworkError) throw new SvcError(t('local.unreachable', {url: state.base_url}), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_unreachable', cause: error})
    throw error
  }
  if (!known) {
    const source = ctx.flags.apiKey ? '--api-key' : ctx.env.SVC_API_KEY ? 'SVC_API_KEY' : `--profile ${creds.profileName ?? ''}`
    throw new SvcError(t('local.keyUnknownHere', {url: state.base_url, key: maskSecret(creds.apiKey), source}), {exitCode: ExitCode.AUTH, code: 'key_unknown_here'})
  }
}

/** The admin client of the running sandbox (running.ts's rule; exit 7 when none runs), for `origin`. */
export async function localAdmin(ctx: Context, origin: SvcOrigin = 'stand-in'): Promise<AdminClient> {
  const state = requireRunningSandbox(ctx)
  // No key (the admin token goes in its own header), no pacing, no retry: a local server.
  const client = await ctx.clientFor(undefined, state.base_url, {ratePerMinute: 0, retry: {maxRetries: 0}, timeoutMs: 60_000})
  const admin = adminClientFor(client, state.admin_token, {[ORIGIN_HEADER]: origin})
  await checkKeyHere(ctx, state, admin)
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
