/**
 * `svc login`: where the key comes from (flag, stdin, password prompt), and the check against the
 * service before anything is saved.
 */
import {ApiError, InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import type {Context} from '../context.js'
import {missingValue} from '../io/prompt.js'
import {keyEnvironment} from '../secrets.js'
import {validateKey} from './profiles.js'

export async function readKeyFromStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer))
  const key = Buffer.concat(chunks).toString('utf8').trim()
  if (!key) throw new InputError(t('core.login.stdinEmpty'), {field: 'api-key-stdin'})
  return key
}

/** The key to log in with: --api-key, --api-key-stdin, or a password prompt on a TTY. */
export async function obtainKey(ctx: Context, options: {fromStdin: boolean}): Promise<string> {
  if (ctx.flags.apiKey) return validateKey(ctx.flags.apiKey).key
  if (options.fromStdin) return validateKey(await readKeyFromStdin(ctx.io.streams.stdin)).key
  if (!ctx.io.interactive) throw missingValue(t('core.login.promptKey'), '--api-key-stdin')
  const key = await ctx.prompter().password(t('core.login.promptKey'), {
    validate: (value) => (keyEnvironment(value.trim()) ? true : t('core.key.badPrefix')),
  })
  return validateKey(key).key
}

/**
 * Checks the key with one cheap read. A 403 for a missing scope still proves the key (a
 * read-only invoices key, say), so it is accepted with a warning; 401 and other errors refuse.
 */
export async function checkKey(ctx: Context, baseUrl: string, apiKey: string): Promise<{warning?: string}> {
  const {createClient, userAgent} = await import('../api/index.js')
  const {clientSettingsFromEnv} = await import('../context.js')
  const client = createClient({
    baseUrl,
    apiKey,
    userAgent: userAgent(ctx.version),
    trace: ctx.flags.verbose ? (line: string) => ctx.io.err(line) : undefined,
    // SVC_TIMEOUT, SVC_RATE_LIMIT, SVC_MAX_RETRIES apply here too (a slow service must not hold login 30 s).
    ...clientSettingsFromEnv(ctx.env),
  })
  try {
    await client.request({method: 'GET', path: '/v1/payments', query: {limit: 1}})
    return {}
  } catch (error) {
    if (error instanceof ApiError && error.status === 403 && error.code === 'insufficient_scope') {
      return {warning: error.message}
    }
    throw error
  }
}
