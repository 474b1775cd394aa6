/**
 * `svc login`: the profile name, where the key comes from (flag, stdin, password prompt), the
 * check against the service before anything is saved, and the save.
 */
import {ApiError, InputError} from '../errors.js'
import {describeKeyProblem, saveProfile, validateKey, validateProfileName, type ProfileView} from '../config/profiles.js'
import {isPlaceholderBaseUrl} from '../config/defaults.js'
import {normaliseBaseUrl, resolveBaseUrl} from '../config/resolve.js'
import {t, type Locale} from '../i18n/index.js'
import type {Context} from '../context.js'
import {missingValue} from '../io/prompt.js'
import {keyEnvironment} from '../../contract/keys.js'
import {ORIGIN_HEADER} from '../../contract/sandbox-inspector.js'

export async function readKeyFromStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer))
  const key = Buffer.concat(chunks).toString('utf8').trim()
  if (!key) throw new InputError(t('core.login.stdinEmpty'), {field: 'api-key-stdin'})
  return key
}

/**
 * The service's address: --base-url, SVC_BASE_URL, or on a terminal a prompt (with the profile's
 * saved address as the default, when it has one); the profile's address otherwise. The built-in
 * placeholder is never used: without an address, login says so before any request.
 */
export async function obtainBaseUrl(ctx: Context, flag: string | undefined, saved: string | undefined): Promise<string> {
  const given = flag ?? (ctx.env.SVC_BASE_URL || undefined)
  if (given === undefined && ctx.io.interactive) {
    const usable = saved && !isPlaceholderBaseUrl(saved) ? saved : undefined
    const answer = await ctx.prompter().input(t('core.login.promptBaseUrl'), {
      default: usable,
      validate: (value) => {
        try {
          return isPlaceholderBaseUrl(normaliseBaseUrl(value.trim())) ? t('core.baseUrl.missing') : true
        } catch (error) {
          return (error as Error).message
        }
      },
    })
    return normaliseBaseUrl(answer.trim())
  }
  const url = resolveBaseUrl({baseUrl: given}, ctx.env, saved ? {base_url: saved} : undefined)
  if (isPlaceholderBaseUrl(url)) throw new InputError(t('core.baseUrl.missing'), {field: 'base-url', code: 'no_base_url'})
  return url
}

/** The key to log in with: --api-key, --api-key-stdin, or a password prompt on a TTY. */
export async function obtainKey(ctx: Context, options: {fromStdin: boolean}): Promise<string> {
  if (ctx.flags.apiKey) return validateKey(ctx.flags.apiKey).key
  if (options.fromStdin) return validateKey(await readKeyFromStdin(ctx.io.streams.stdin)).key
  if (!ctx.io.interactive) throw missingValue(t('core.login.promptKey'), '--api-key-stdin')
  const key = await ctx.prompter().password(t('core.login.promptKey'), {
    validate: (value) => (keyEnvironment(value.trim()) ? true : describeKeyProblem(value.trim())),
  })
  return validateKey(key).key
}

/**
 * Checks the key with one cheap read. A 403 for a missing scope still proves the key (a
 * read-only invoices key, say), so it is accepted with a warning; 401 and other errors refuse.
 * Marked as svc's own request (ORIGIN_HEADER: a probe), not the app's, in the sandbox's journal.
 */
export async function checkKey(ctx: Context, baseUrl: string, apiKey: string, source?: string): Promise<{warning?: string}> {
  const client = await ctx.clientFor(apiKey, baseUrl)
  try {
    await client.request({method: 'GET', path: '/v1/payments', query: {limit: 1}, headers: {[ORIGIN_HEADER]: 'probe'}})
    return {}
  } catch (error) {
    if (error instanceof ApiError && error.status === 403 && error.code === 'insufficient_scope') {
      return {warning: error.message}
    }
    if (error instanceof ApiError && error.status === 401) {
      // The refusal names the address that refused it and what chose that address (another sandbox's key, a profile's old address).
      const where = source ? `${baseUrl} (${source})` : baseUrl
      throw new ApiError(t('core.login.keyUnknownAt', {where, message: error.message}), {status: 401, code: error.code, requestId: error.requestId, hint: error.hint})
    }
    throw error
  }
}

/** What chose login's address, as a person reads it: the flag, the variable, or the profile's saved address (a typed one: nothing). */
function baseUrlSource(ctx: Context, flag: string | undefined, profile: string, saved: string | undefined): string | undefined {
  if (flag) return '--base-url'
  if (ctx.env.SVC_BASE_URL) return 'SVC_BASE_URL'
  if (saved && !ctx.io.interactive) return t('core.login.savedAddress', {name: profile})
  return undefined
}

export interface LoginOptions {
  fromStdin: boolean
  baseUrl?: string
  lang?: Locale
}

/** The whole of `svc login`: name, key, check, save. Returns what was saved (key masked). */
export async function login(ctx: Context, options: LoginOptions): Promise<ProfileView> {
  const {io} = ctx
  const config = ctx.config()
  const name = validateProfileName(
    ctx.flags.profile ??
      (io.interactive && !ctx.flags.apiKey
        ? await ctx.prompter().input(t('core.login.promptProfile'), {default: config.current ?? 'default'})
        : 'default'),
  )
  const baseUrl = await obtainBaseUrl(ctx, options.baseUrl, config.profiles[name]?.base_url)
  const key = await obtainKey(ctx, {fromStdin: options.fromStdin})
  const source = baseUrlSource(ctx, options.baseUrl, name, config.profiles[name]?.base_url)
  const {warning} = await io.withSpinner(t('core.login.checking', {url: baseUrl}), () => checkKey(ctx, baseUrl, key, source))
  if (warning) io.warn(warning)
  return saveProfile(ctx.configDir, name, {api_key: key, base_url: baseUrl, ...(options.lang ? {lang: options.lang} : {})}, {makeCurrent: 'always', clock: ctx.clock})
}
