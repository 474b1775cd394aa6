/**
 * A 401 from the local sandbox for a key it no longer knows: an in-memory sandbox makes new keys
 * each time `svc sandbox serve` starts, and saves them in the profile it owns (`local`,
 * `local-PORT`…). When the key used is a sandbox key other than that one (from --api-key,
 * SVC_API_KEY or another profile) and the base URL is a running local sandbox's (the registry,
 * registry.ts), the hint says so and how to carry on.
 */
import type {Context} from '../context.js'
import type {SvcError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {formatDateTime} from '../time/date.js'
import {liveSandboxes} from './registry.js'

function origin(url: string): string | undefined {
  try {
    const parsed = new URL(url)
    const host = parsed.hostname === 'localhost' ? '127.0.0.1' : parsed.hostname
    return `${parsed.protocol}//${host}:${parsed.port}`
  } catch {
    return undefined
  }
}

export function restartedSandboxHint(ctx: Context, error: SvcError): string | undefined {
  if (error.status !== 401) return undefined
  let credentials
  try {
    credentials = ctx.credentials()
  } catch {
    return undefined
  }
  const wanted = origin(credentials.baseUrl)
  const state = liveSandboxes(ctx.configDir).find((entry) => origin(entry.base_url) === wanted)
  // With --data, keys outlive restarts: a 401 there is not this.
  if (!state || state.data_file !== null) return undefined
  if (!credentials.apiKey?.startsWith('svc_sk_test_')) return undefined
  const saved = ctx.config().profiles[state.profile]?.api_key
  if (!saved || saved === credentials.apiKey) return undefined
  const started = formatDateTime(state.started_at, getLocale())
  if (ctx.flags.apiKey) return t('local.hint.restartedOverride', {started, source: '--api-key', undo: t('local.hint.dropFlag')})
  if (ctx.env.SVC_API_KEY) return t('local.hint.restartedOverride', {started, source: 'SVC_API_KEY', undo: t('local.hint.unsetEnv')})
  return t('local.hint.restarted', {started, profile: credentials.profileName ?? '—'})
}
