/**
 * "The running sandbox": the one rule every command that talks to a local sandbox's admin surface
 * uses to find it (the `svc sandbox …` stand-ins, `webhooks listen` and `webhooks trigger`, the
 * walkthrough), and the words for a sandbox that is not running. Use `requireRunningSandbox`
 * rather than reading the registry: a second rule would send two commands to two different sandboxes.
 *
 * The rule:
 * 1. SVC_SANDBOX_URL and SVC_SANDBOX_ADMIN_TOKEN (both or neither): a sandbox started elsewhere (a
 *    CI service container, `serve --admin-token`).
 * 2. Bound: a command given `--profile`/`SVC_PROFILE`, `--api-key`/`SVC_API_KEY` or
 *    `--base-url`/`SVC_BASE_URL`, or whose current profile is a local sandbox's (saved by `serve`,
 *    or at a loopback address), acts only on the sandbox running at the credentials' base URL.
 *    None runs there: exit 7 naming the address and the command that starts it. Nothing else is
 *    tried.
 * 3. Unbound (no such flag, and no current profile or a remote one): the one sandbox running from
 *    this config directory, named on stderr. None: exit 7; several: exit 2 asking for `--profile`.
 */
import type {Context} from '../context.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {namedProfile, normaliseBaseUrl} from '../config/resolve.js'
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

function sameUrl(a: string, b: string | undefined): boolean {
  if (!b) return false
  try {
    return normaliseBaseUrl(a) === normaliseBaseUrl(b)
  } catch {
    return false
  }
}

/** A loopback address (127.x, ::1, localhost): where a local sandbox runs. */
export function isLocalAddress(url: string | undefined): boolean {
  if (!url) return false
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
    return host === 'localhost' || host === '::1' || host.startsWith('127.')
  } catch {
    return false
  }
}

/**
 * How the command chose its sandbox: `flags` (a profile, key or base URL given), `profile` (the
 * current profile is a local sandbox's), or undefined (nothing chose one).
 */
export function sandboxBinding(ctx: Context): 'flags' | 'profile' | undefined {
  const {flags, env} = ctx
  if (namedProfile(flags, env) !== undefined || flags.apiKey || env.SVC_API_KEY || flags.baseUrl || env.SVC_BASE_URL) return 'flags'
  let current
  try {
    const config = ctx.config()
    current = config.current ? config.profiles[config.current] : undefined
  } catch {
    return undefined
  }
  if (current && (current.local_sandbox || isLocalAddress(current.base_url))) return 'profile'
  return undefined
}

function asRunning(entry: SandboxEntry): RunningSandbox {
  return {base_url: entry.base_url, admin_url: entry.admin_url, admin_token: entry.admin_token, entry}
}

/**
 * The sandbox at the credentials' base URL and nothing else (SVC_SANDBOX_URL when it is that
 * address), or undefined when none runs there. For the callers that go elsewhere when the
 * address is not a local sandbox (the walkthrough tours its own; `webhooks trigger` asks nothing).
 */
export function findRunningSandbox(ctx: Context): RunningSandbox | undefined {
  let wanted: string
  try {
    wanted = ctx.credentials().baseUrl
  } catch {
    return undefined // A bad flag is the command's to report.
  }
  return sandboxAt(ctx, wanted)
}

/** The sandbox running at `baseUrl` (SVC_SANDBOX_URL when it is that address, else the registry), or undefined: no other. */
export function sandboxAt(ctx: Context, baseUrl: string): RunningSandbox | undefined {
  const env = fromEnvironment(ctx)
  if (env) return sameUrl(env.base_url, baseUrl) ? env : undefined
  const entry = liveSandboxes(ctx.configDir).find((e) => sameUrl(e.base_url, baseUrl))
  return entry ? asRunning(entry) : undefined
}

/** Per invocation: the rule is applied (and the unbound choice said) once. */
const chosen = new WeakMap<Context, RunningSandbox>()

/** The running sandbox by the rule above, or exit 7 (none where the command points) / 2 (several, none chosen). */
export function requireRunningSandbox(ctx: Context): RunningSandbox {
  const known = chosen.get(ctx)
  if (known) return known
  const found = chooseSandbox(ctx)
  chosen.set(ctx, found)
  return found
}

function chooseSandbox(ctx: Context): RunningSandbox {
  const env = fromEnvironment(ctx)
  const binding = sandboxBinding(ctx)
  if (env && !binding) return env
  if (binding) {
    // A bad flag (an unknown profile, a malformed key) is said as such, before anything else.
    const wanted = ctx.credentials().baseUrl
    const there = sandboxAt(ctx, wanted)
    if (there) return there
    throw stoppedSandboxError(ctx) ?? notRunningAt(wanted, addressSource(ctx))
  }
  const live = liveSandboxes(ctx.configDir)
  if (live.length === 0) throw new SvcError(t('local.notRunning'), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_not_running'})
  if (live.length > 1) {
    const list = live.map((e) => t('local.choice', {profile: e.profile || '—', url: e.base_url})).join(', ')
    throw new InputError(t('local.several', {list, profile: live.find((e) => e.profile)?.profile ?? 'local'}), {field: 'profile', code: 'sandbox_ambiguous'})
  }
  ctx.io.err(t('local.usingOnly', {url: live[0].base_url, profile: live[0].profile || '—'}))
  return asRunning(live[0])
}

/** No sandbox at the address the command was given (not one `serve` saved a profile for), named with what gave it. */
function notRunningAt(url: string, source: string): SvcError {
  return new SvcError(t('local.notRunningAt', {url, source, command: startCommand(url)}), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_not_running'})
}

/** What gave the run its base URL, as a person reads it: the flag, the variable, the profile (named or current), or the default. */
function addressSource(ctx: Context): string {
  if (ctx.flags.baseUrl) return '--base-url'
  if (ctx.env.SVC_BASE_URL) return 'SVC_BASE_URL'
  const profile = ctx.credentials().baseUrlProfile
  if (profile === undefined) return t('local.source.default')
  if (ctx.flags.profile) return `--profile ${profile}`
  if (namedProfile({}, ctx.env) !== undefined) return `SVC_PROFILE (${profile})`
  return t('local.source.current', {name: profile})
}

/** `svc sandbox serve --port N [--host H]` for an address. */
function startCommand(baseUrl: string): string {
  const url = new URL(baseUrl)
  const parts = ['svc sandbox serve', '--port', url.port || '80']
  if (url.hostname !== '127.0.0.1') parts.push('--host', url.hostname.replace(/^\[|\]$/g, ''))
  return parts.join(' ')
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
  const parts = [startCommand(credentials.baseUrl)]
  if (saved.data_file) parts.push('--data', shellWord(saved.data_file))
  // A LIVE profile (`local-live`) is started again with the sandbox's own profile.
  const owner = saved.profile ?? credentials.profileName
  if (owner !== LOCAL_PROFILE) parts.push('--profile-name', owner)
  return {url: credentials.baseUrl, profile: credentials.profileName, command: parts.join(' ')}
}

/** A path as one shell word: quoted only when it needs to be. */
function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}
