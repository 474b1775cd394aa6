/**
 * One context per invocation (gh's Factory): IO, config, credentials, prompter and the API client,
 * built in one place and handed to the code in src/lib. Everything heavy is created on first use.
 */
import {join} from 'node:path'

import type {Dispatcher} from 'undici'

import {ExitCode, InputError, SvcError} from './errors.js'
import {setHintFlags, setLocale, t, type Locale} from './i18n/index.js'
import {resolveLocale} from './i18n/locale.js'
import {createPrompter, type Prompter} from './io/prompt.js'
import {ProcessStreams} from './io/process-streams.js'
import {colorEnabled, IO, isInteractive, tableWidth, type StreamsLike} from './io/terminal.js'
import {resolveBaseUrl, resolveCredentials, selectedProfileName, type Credentials} from './config/resolve.js'
import {shellQuote} from './io/shell.js'
import {isPlaceholderBaseUrl} from './config/defaults.js'
import {configDir, configExposure, readConfig, type ConfigData} from './config/store.js'
import {systemClock, type Clock} from '../contract/clock.js'
import {maskSecret} from '../contract/keys.js'
import {parseDuration} from './time/duration.js'
import {quoteInput} from './io/quote.js'
import type {ApiClient, ServiceDescription} from './api/index.js'

export interface GlobalFlags {
  profile?: string
  apiKey?: string
  baseUrl?: string
  json?: boolean
  color?: boolean
  yes?: boolean
  verbose?: boolean
  lang?: string
  /** Tables show every column in full, whatever the width (docs/conventions.md, "Tables"). */
  wide?: boolean
}

/** A wait of a second or more by the client: under the rate limit, or before a retry (with the status that caused it). */
export interface ClientWait {
  ms: number
  reason: 'pacing' | 'retry'
  status?: number
}

export interface Context {
  readonly io: IO
  readonly env: NodeJS.ProcessEnv
  readonly flags: GlobalFlags
  readonly configDir: string
  readonly locale: Locale
  readonly version: string
  /** The command line after `svc`, as invoked: what a retry hint gives back to paste. */
  readonly argv: readonly string[]
  /** The config file as it is now (read once, on first use). */
  config(): ConfigData
  /** Key, base URL, environment and profile, by the precedence of README.md, "Environment". */
  credentials(): Credentials
  /** The key, or an error telling how to give one. */
  requireKey(): string
  prompter(): Prompter
  /** The API client for these credentials (created once). */
  client(options?: {auth?: boolean}): Promise<ApiClient>
  /**
   * A new API client for another key and base URL (e.g. `svc login` checking a key before saving
   * it, the local sandbox's admin surface): every client of a run is built here, with the run's
   * user agent, trace, waits, clock and the environment's settings, `overrides` last.
   */
  clientFor(apiKey: string | undefined, baseUrl: string, overrides?: ClientOverrides): Promise<ApiClient>
  /** The run's clock (time and timers): the system's unless injected; every client and watch of the run takes it. */
  readonly clock: Clock
  /**
   * The service's operations and list envelopes, read from its /v1/openapi.json (cached per base
   * URL in the config dir) and falling back to svc's choices (docs/service.md).
   */
  service(): Promise<ServiceDescription>
  confirmLive(action: string): Promise<void>
  /**
   * Take the clients' waits (pacing, retries) instead of the line they print on stderr: a progress
   * bar shows them on its own status line. Returns the function that gives them back.
   */
  onWait(listener: (wait: ClientWait) => void): () => void
  /** `text` with every secret this invocation knows replaced by its masked form. */
  redact(text: string): string
}

/** What a client of the run may set apart from the others (the admin surface: no pacing, no retry). */
export interface ClientOverrides {
  ratePerMinute?: number
  retry?: {maxRetries?: number}
  timeoutMs?: number
  /** Headers on every request of this client (a request's own come after). */
  headers?: Record<string, string>
}

export interface ContextOptions {
  flags: GlobalFlags
  version: string
  /** Default process.env. */
  env?: NodeJS.ProcessEnv
  /** Default the process's stdin, stdout and stderr. */
  streams?: StreamsLike
  /** Default the system clock (src/contract/clock.ts). */
  clock?: Clock
  /** The language of messages, instead of the one --lang, SVC_LANG, the profile and LANG say. */
  locale?: Locale
  /**
   * What carries every request of the run's API clients (an undici dispatcher: a test's recording
   * agent, an embedding program's pool). Default: the client's own transport (api/transport.ts).
   */
  dispatcher?: Dispatcher
  /** The command line after `svc`, as invoked (retry hints repeat it). Default process.argv's. */
  argv?: readonly string[]
}

export function createContext(options: ContextOptions): Context {
  const env = options.env ?? process.env
  const streams = options.streams ?? new ProcessStreams()
  const flags = options.flags
  const interactive = isInteractive(env, streams)
  const io = new IO(streams, {
    interactive,
    json: Boolean(flags.json),
    color: colorEnabled(flags.color, env, interactive),
    tableWidth: tableWidth(flags.wide, env, streams),
  })
  const dir = configDir(env)

  let config: ConfigData | undefined
  let credentials: Credentials | undefined
  let prompter: Prompter | undefined
  let client: Promise<ApiClient> | undefined
  let service: Promise<ServiceDescription> | undefined
  let waitListener: ((wait: ClientWait) => void) | undefined

  // Keys readable by other users: said once per invocation, on stderr (like ssh), in the user's
  // language: so not before the locale is known (the profile's language is read from the config).
  let localeKnown = false
  let exposureChecked = false
  const checkExposure = () => {
    if (exposureChecked || !localeKnown || !config) return
    exposureChecked = true
    const exposed = configExposure(dir)
    if (exposed) io.warn(exposed)
  }
  const readConfigOnce = () => {
    if (config) return config
    config = readConfig(dir)
    checkExposure()
    return config
  }
  const profileLang = () => {
    try {
      const data = readConfigOnce()
      const name = selectedProfileName(flags, env, data)
      return name ? data.profiles[name]?.lang : undefined
    } catch {
      return undefined
    }
  }
  const locale = options.locale ?? resolveLocale(flags.lang, env, flags.lang || env.SVC_LANG ? undefined : profileLang())
  const clock = options.clock ?? systemClock
  setLocale(locale)
  localeKnown = true
  let hint: string | undefined
  setHintFlags(() => (hint ??= hintFlags(flags, env, readConfigOnce)))
  checkExposure()

  const context: Context = {
    io,
    env,
    flags,
    configDir: dir,
    locale,
    version: options.version,
    argv: options.argv ?? process.argv.slice(2),
    config: readConfigOnce,
    credentials() {
      credentials ??= resolveCredentials(flags, env, readConfigOnce())
      return credentials
    },
    requireKey() {
      const key = context.credentials().apiKey
      if (!key) throw new SvcError(t('core.noKey'), {exitCode: ExitCode.AUTH, code: 'no_api_key'})
      return key
    },
    prompter() {
      prompter ??= createPrompter(io)
      return prompter
    },
    async client(clientOptions = {}) {
      client ??= (async () => {
        const creds = context.credentials()
        // The key first (exit 3 says how to give one), then the address.
        const apiKey = clientOptions.auth === false ? creds.apiKey : context.requireKey()
        if (isPlaceholderBaseUrl(creds.baseUrl)) throw new InputError(t('core.baseUrl.missing'), {field: 'base-url', code: 'no_base_url'})
        return context.clientFor(apiKey, creds.baseUrl)
      })()
      return client
    },
    clock,
    async clientFor(apiKey, baseUrl, overrides = {}) {
      const {createClient, userAgent} = await import('./api/index.js')
      const settings = {...clientSettingsFromEnv(env), ...overrides}
      // Every svc process on this key keeps one pace (the service's limit is per key).
      const shared =
        apiKey
          ? (await import('./api/shared-pace.js')).sharedBudget({dir: join(dir, 'cache', 'pace'), apiKey, baseUrl, ratePerMinute: settings.ratePerMinute ?? 100})
          : undefined
      return createClient({
        shared,
        baseUrl,
        apiKey,
        userAgent: userAgent(options.version),
        trace: flags.verbose ? (line: string) => io.err(line) : undefined,
        // A wait of a second or more is said on stderr (or in the spinner), never a silent pause.
        onWait: (wait) => {
          if (waitListener) waitListener(wait)
          else {
            // A 429 and a 5xx told apart: one asks to slow down, the other failed for a moment.
            const seconds = Math.ceil(wait.ms / 1000)
            if (wait.reason === 'pacing') io.status(t('api.wait.pacing', {seconds}))
            else if (wait.status === 429) io.status(t('api.wait.retry429', {seconds}))
            else if (wait.status !== undefined) io.status(t('api.wait.retryStatus', {status: wait.status, seconds}))
            else io.status(t('api.wait.retry', {seconds}))
          }
        },
        clock,
        ...(options.dispatcher ? {dispatcher: options.dispatcher} : {}),
        // SVC_TIMEOUT, SVC_RATE_LIMIT, SVC_MAX_RETRIES apply to every client, login's too.
        ...settings,
      })
    },
    async service() {
      service ??= (async () => {
        const {discoverService} = await import('./api/index.js')
        return discoverService(await context.client(), {cacheDir: join(dir, 'cache'), clock})
      })()
      return service
    },
    onWait(listener) {
      waitListener = listener
      return () => {
        if (waitListener === listener) waitListener = undefined
      }
    },
    async confirmLive(action) {
      if (context.credentials().environment !== 'LIVE' || flags.yes) return
      const key = maskSecret(context.credentials().apiKey)
      if (!io.interactive) {
        throw new InputError(t('core.live.refused', {action, key}), {field: 'yes', code: 'confirmation_required'})
      }
      const ok = await context.prompter().confirm(t('core.live.confirm', {key, action}))
      if (!ok) throw new SvcError(t('core.live.declined'), {exitCode: ExitCode.USAGE, code: 'cancelled'})
    },
    redact(text) {
      const secrets = [flags.apiKey, env.SVC_API_KEY, credentials?.apiKey, credentials?.profile?.endpoint_secret]
      let out = text
      for (const secret of secrets) if (secret && secret.length >= 8) out = out.split(secret).join(maskSecret(secret))
      return out
    },
  }
  return context
}

/**
 * The client settings the environment gives (SVC_TIMEOUT, SVC_RATE_LIMIT, SVC_MAX_RETRIES): every
 * client the CLI makes for the service uses them, including the one `svc login` checks a key with.
 */
export function clientSettingsFromEnv(env: NodeJS.ProcessEnv): {
  ratePerMinute?: number
  timeoutMs?: number
  retry?: {maxRetries: number}
} {
  return {ratePerMinute: rateFromEnv(env), timeoutMs: timeoutFromEnv(env), retry: retriesFromEnv(env)}
}

/** `SVC_TIMEOUT` (a duration: 10s, 2m): the deadline of each request; 30 s otherwise. */
function timeoutFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.SVC_TIMEOUT
  if (raw === undefined || raw === '') return undefined
  try {
    return parseDuration(raw, 'SVC_TIMEOUT', {min: 1})
  } catch (error) {
    // The parser names a flag (`--SVC_TIMEOUT`); the person set a variable: name it as they wrote it.
    if (error instanceof InputError) throw new InputError(error.message.split('--SVC_TIMEOUT').join('SVC_TIMEOUT'), {field: 'SVC_TIMEOUT'})
    throw error
  }
}

/**
 * `SVC_MAX_RETRIES` (0–4): fewer retries than the policy's 4 (never more), e.g. for tests and
 * scripts that prefer to fail fast. Which requests may retry at all stays retry.ts's decision.
 */
function retriesFromEnv(env: NodeJS.ProcessEnv): {maxRetries: number} | undefined {
  const raw = env.SVC_MAX_RETRIES
  if (raw === undefined || raw === '') return undefined
  const value = Number(raw)
  if (!/^\d+$/.test(raw.trim()) || value > 4) {
    throw new InputError(t('core.env.invalid', {name: 'SVC_MAX_RETRIES', value: quoteInput(raw), accepted: t('core.env.retries')}), {field: 'SVC_MAX_RETRIES'})
  }
  return {maxRetries: value}
}

/** `SVC_RATE_LIMIT` (requests per minute, 0 = no pacing); the service's 100/min otherwise. */
function rateFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.SVC_RATE_LIMIT
  if (raw === undefined || raw === '') return undefined
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) {
    throw new InputError(t('core.env.invalid', {name: 'SVC_RATE_LIMIT', value: quoteInput(raw), accepted: t('core.env.rate')}), {field: 'SVC_RATE_LIMIT'})
  }
  return value
}

/**
 * The global flags a hint repeats (docs/conventions.md: a hint that works when pasted): `--profile NAME` as
 * given; a key given with `--api-key` as the profile that holds it (at the same base URL), else
 * `--api-key "$SVC_API_KEY"`, never the secret; `--base-url URL` as given. Variables (SVC_PROFILE,
 * SVC_API_KEY, SVC_BASE_URL) are still set in the shell the hint is pasted into: not repeated.
 */
export function hintFlags(flags: GlobalFlags, env: NodeJS.ProcessEnv, config: () => ConfigData): string {
  const parts: string[] = []
  let profiles: ConfigData['profiles'] = {}
  let selected: string | undefined
  try {
    profiles = config().profiles
    selected = selectedProfileName(flags, env, config())
  } catch {
    // An unreadable config: the key is named by the variable.
  }
  if (flags.apiKey) {
    let baseUrl: string | undefined
    try {
      baseUrl = resolveBaseUrl(flags, env, selected ? profiles[selected] : undefined)
    } catch {
      baseUrl = undefined
    }
    const holder = Object.entries(profiles).find(([, p]) => p.api_key === flags.apiKey && (flags.baseUrl || !p.base_url || p.base_url === baseUrl))?.[0]
    if (holder && (!flags.profile || flags.profile === holder)) parts.push('--profile', shellQuote(holder))
    else {
      if (flags.profile) parts.push('--profile', shellQuote(flags.profile))
      parts.push('--api-key "$SVC_API_KEY"')
    }
  } else if (flags.profile) parts.push('--profile', shellQuote(flags.profile))
  if (flags.baseUrl) parts.push('--base-url', shellQuote(flags.baseUrl))
  return parts.join(' ')
}
