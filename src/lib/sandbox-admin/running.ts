/**
 * "The running sandbox": the one rule every command that talks to a local sandbox's admin surface
 * uses to find it (the `svc sandbox …` stand-ins, `webhooks listen` and `webhooks trigger`, the
 * walkthrough), and the words for a sandbox that is not running. Use `findRunningSandbox` rather
 * than reading the registry: a second rule would send two commands to two different sandboxes.
 *
 * The rule, first match wins:
 * 1. SVC_SANDBOX_URL and SVC_SANDBOX_ADMIN_TOKEN (both or neither): a sandbox started elsewhere (a
 *    CI service container, `serve --admin-token`).
 * 2. Among the sandboxes running from this config directory (registry.ts): the one at the base
 *    URL of the credentials in use (`--profile local-8788 sandbox balance` talks to that one).
 * 3. Unless `sameAsCredentials`: the one that owns the profile `local`, else the oldest.
 * With `sameAsCredentials` (listen, trigger, walkthrough: they also use the API key), only a
 * sandbox at the credentials' base URL counts.
 */
import type {Context} from '../context.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {normaliseBaseUrl} from '../config/resolve.js'
import {liveSandboxes, LOCAL_PROFILE, type SandboxEntry} from './registry.js'

export interface RunningSandbox {
  base_url: string
  admin_url: string
  admin_token: string
  /** Where it came from: the environment, or this config directory's registry (with its entry). */
  entry?: SandboxEntry
}

/** SVC_SANDBOX_URL / SVC_SANDBOX_ADMIN_TOKEN, checked; undefined when neither is set. */
function fromEnvironment(ctx: Context): RunningSandbox | undefined {
  const url = ctx.env.SVC_SANDBOX_URL?.trim()
  const token = ctx.env.SVC_SANDBOX_ADMIN_TOKEN?.trim()
  if (!url && !token) return undefined
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
  const base = url.replace(/\/+$/, '').replace(/\/_admin$/, '')
  return {base_url: base, admin_url: `${base}/_admin`, admin_token: token}
}

/** The credentials' base URL, normalised; undefined when they cannot be resolved (a bad flag is the command's to report). */
function credentialsBaseUrl(ctx: Context): string | undefined {
  try {
    return ctx.credentials().baseUrl
  } catch {
    return undefined
  }
}

function sameUrl(a: string, b: string | undefined): boolean {
  if (!b) return false
  try {
    return normaliseBaseUrl(a) === b
  } catch {
    return false
  }
}

/** The running sandbox by the rule above, or undefined when there is none. */
export function findRunningSandbox(ctx: Context, options: {sameAsCredentials?: boolean} = {}): RunningSandbox | undefined {
  const env = fromEnvironment(ctx)
  const wanted = credentialsBaseUrl(ctx)
  if (env) return !options.sameAsCredentials || sameUrl(env.base_url, wanted) ? env : undefined
  const live = liveSandboxes(ctx.configDir)
  const chosen =
    live.find((entry) => sameUrl(entry.base_url, wanted)) ??
    (options.sameAsCredentials ? undefined : (live.find((entry) => entry.profile === LOCAL_PROFILE) ?? live[0]))
  return chosen ? {base_url: chosen.base_url, admin_url: chosen.admin_url, admin_token: chosen.admin_token, entry: chosen} : undefined
}

/** The running sandbox, or exit 7 saying none runs and how to start one (naming the profile's own when it has one). */
export function requireRunningSandbox(ctx: Context): RunningSandbox {
  const found = findRunningSandbox(ctx)
  if (found) return found
  throw stoppedSandboxError(ctx) ?? new SvcError(t('local.notRunning'), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_not_running'})
}

/**
 * When the profile in use was saved by `svc sandbox serve` and no sandbox runs at its address:
 * the error that says so, with the command that starts it again (same port, same data file).
 * Undefined otherwise (another service, or a sandbox that runs).
 */
export function stoppedSandboxError(ctx: Context): SvcError | undefined {
  const stopped = stoppedSandbox(ctx)
  if (!stopped) return undefined
  return new SvcError(t('local.stopped', stopped), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_not_running'})
}

/** The profile's local sandbox when it is not running: its URL, the profile, and the command that starts it again. */
export function stoppedSandbox(ctx: Context): {url: string; profile: string; command: string} | undefined {
  let credentials: ReturnType<Context['credentials']>
  try {
    credentials = ctx.credentials()
  } catch {
    return undefined
  }
  const saved = credentials.profile?.local_sandbox
  if (!saved || !credentials.profileName) return undefined
  // Given another address (--base-url, SVC_BASE_URL), the profile's sandbox is not the one asked.
  if (!sameUrl(credentials.profile?.base_url ?? '', credentials.baseUrl)) return undefined
  if (liveSandboxes(ctx.configDir).some((entry) => sameUrl(entry.base_url, credentials.baseUrl))) return undefined
  const url = new URL(credentials.baseUrl)
  const parts = ['svc sandbox serve', '--port', url.port || '80']
  if (url.hostname !== '127.0.0.1') parts.push('--host', url.hostname.replace(/^\[|\]$/g, ''))
  if (saved.data_file) parts.push('--data', shellWord(saved.data_file))
  if (credentials.profileName !== LOCAL_PROFILE) parts.push('--profile-name', credentials.profileName)
  return {url: credentials.baseUrl, profile: credentials.profileName, command: parts.join(' ')}
}

/** A path as one shell word: quoted only when it needs to be. */
function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}
