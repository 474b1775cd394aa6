/**
 * The dashboard stand-ins: `svc sandbox keys|webhooks|allowlist|fees|balance|approve|decline|clock|…`
 * talk to the running local sandbox's admin surface (outside /v1, its own bearer token), found
 * by running.ts's rule. The trace hides the Authorization header.
 */
import type {ApiClient} from '../api/index.js'
import type {Context} from '../context.js'
import {ExitCode, NetworkError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {requireRunningSandbox} from './running.js'

export interface AdminClient {
  request<T = unknown>(method: string, path: string, body?: unknown, query?: Record<string, string | number | undefined>): Promise<T>
}

export function adminClientFor(client: ApiClient, token: string): AdminClient {
  return {
    async request<T>(method: string, path: string, body?: unknown, query?: Record<string, string | number | undefined>) {
      const response = await client.request<T>({
        method,
        path: `/_admin${path}`,
        body,
        query,
        auth: false,
        headers: {Authorization: `Bearer ${token}`},
      })
      return response.data
    },
  }
}

/** The admin client of the running sandbox (running.ts's rule; exit 7 when none runs). */
export async function localAdmin(ctx: Context): Promise<AdminClient> {
  const state = requireRunningSandbox(ctx)
  const {createClient, userAgent} = await import('../api/index.js')
  const client = createClient({
    baseUrl: state.base_url,
    userAgent: userAgent(ctx.version),
    ratePerMinute: 0,
    retry: {maxRetries: 0},
    timeoutMs: 60_000,
    trace: ctx.flags.verbose ? (line: string) => ctx.io.err(line) : undefined,
  })
  const admin = adminClientFor(client, state.admin_token)
  return {
    async request(method, path, body, query) {
      try {
        return await admin.request(method, path, body, query)
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
