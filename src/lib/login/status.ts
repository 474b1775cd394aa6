/**
 * `svc status` (as `gh auth status`): what the next command would use (the profile, its
 * environment, base URL, masked key and language, and which of the flags, variables or the current
 * profile chose each), whether a local sandbox runs there (its PID and data file), and whether the
 * address answers. Exit 0 when it can be reached with that key, 3 when it refuses the key (or there
 * is none), 7 when it cannot be reached.
 */
import type {Context} from '../context.js'
import {ApiError, ExitCode, Failure} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {maskSecret} from '../../contract/keys.js'
import {namedProfile} from '../config/resolve.js'
import {ORIGIN_HEADER} from '../../contract/sandbox-inspector.js'

export interface StatusView {
  profile: string | null
  current: boolean
  /** What chose the key and base URL: flags, environment variables, or the profile. */
  chosen_by: Array<'--api-key' | 'SVC_API_KEY' | '--base-url' | 'SVC_BASE_URL' | '--profile' | 'SVC_PROFILE' | 'current profile'>
  environment: 'SANDBOX' | 'LIVE' | null
  base_url: string
  api_key: string | null
  language: string
  /** A local sandbox (`svc sandbox serve`) at the base URL, or one the profile was saved by. */
  local_sandbox: {running: boolean; pid: number | null; data_file: string | null; started_at: string | null} | null
  reachable: boolean
  key_accepted: boolean | null
  problem: string | null
}

export async function status(ctx: Context): Promise<void> {
  const {io} = ctx
  const creds = ctx.credentials()
  const config = ctx.config()
  const chosen: StatusView['chosen_by'] = []
  if (ctx.flags.apiKey) chosen.push('--api-key')
  else if (ctx.env.SVC_API_KEY) chosen.push('SVC_API_KEY')
  if (ctx.flags.baseUrl) chosen.push('--base-url')
  else if (ctx.env.SVC_BASE_URL) chosen.push('SVC_BASE_URL')
  // A profile is named only when it chose something: the key (the run's profile) or the base URL.
  if (creds.profileName || creds.baseUrlProfile) {
    if (ctx.flags.profile) chosen.push('--profile')
    else if (namedProfile({}, ctx.env)) chosen.push('SVC_PROFILE')
    else chosen.push('current profile')
  }

  const {liveSandboxes} = await import('../sandbox-admin/registry.js')
  const {normaliseBaseUrl} = await import('../config/resolve.js')
  const entry = liveSandboxes(ctx.configDir).find((e) => normaliseBaseUrl(e.base_url) === creds.baseUrl)
  const savedBy = creds.profile?.local_sandbox
  const local: StatusView['local_sandbox'] = entry
    ? {running: true, pid: entry.pid, data_file: entry.data_file, started_at: entry.started_at}
    : savedBy
      ? {running: false, pid: null, data_file: savedBy.data_file, started_at: null}
      : null

  const view: StatusView = {
    profile: creds.profileName ?? null,
    current: Boolean(creds.profileName && creds.profileName === config.current),
    chosen_by: chosen,
    environment: creds.environment ?? null,
    base_url: creds.baseUrl,
    api_key: creds.apiKey ? maskSecret(creds.apiKey) : null,
    language: getLocale(),
    local_sandbox: local,
    reachable: false,
    key_accepted: null,
    problem: null,
  }
  let exitCode: number = ExitCode.OK
  if (local && !local.running) {
    // The address of a stopped serve: nothing to ask.
    const {stoppedSandboxError} = await import('../sandbox-admin/running.js')
    view.problem = ctx.redact((stoppedSandboxError(ctx)?.message ?? t('local.notRunning')))
    exitCode = ExitCode.UNAVAILABLE
  } else {
    // One cheap read with the key (none: the address alone). Marked as svc's own request (a probe).
    const client = await ctx.clientFor(creds.apiKey, creds.baseUrl, {retry: {maxRetries: 0}, timeoutMs: 10_000})
    try {
      await client.request({method: 'GET', path: '/v1/payments', query: {limit: 1}, auth: Boolean(creds.apiKey), headers: {[ORIGIN_HEADER]: 'probe'}})
      view.reachable = true
      view.key_accepted = creds.apiKey ? true : null
    } catch (error) {
      if (error instanceof ApiError && error.status !== undefined && error.status < 500) {
        view.reachable = true
        if (error.status === 401 || error.status === 403) view.key_accepted = creds.apiKey ? false : null
      } else {
        view.problem = ctx.redact((error as Error).message)
        exitCode = ExitCode.UNAVAILABLE
      }
    }
    if (view.reachable && !creds.apiKey) {
      view.problem = t('core.noKey')
      exitCode = ExitCode.AUTH
    } else if (view.key_accepted === false) {
      view.problem = t('core.status.keyRefused')
      exitCode = ExitCode.AUTH
    }
  }

  // For a person: what gave the key and what gave the base URL, each named.
  const profileLabel = ctx.flags.profile ? `--profile ${ctx.flags.profile}` : namedProfile({}, ctx.env) ? `SVC_PROFILE (${namedProfile({}, ctx.env)})` : t('core.status.currentProfileNamed', {name: config.current ?? ''})
  const keyFrom = ctx.flags.apiKey ? '--api-key' : ctx.env.SVC_API_KEY ? 'SVC_API_KEY' : creds.apiKey ? profileLabel : t('core.none')
  const urlFrom = ctx.flags.baseUrl ? '--base-url' : ctx.env.SVC_BASE_URL ? 'SVC_BASE_URL' : creds.baseUrlProfile ? profileLabel : t('core.status.defaultUrl')
  await io.result(view, () => io.out(renderStatus(view, t('core.status.chosenKeyUrl', {key: keyFrom, url: urlFrom}))))
  if (exitCode !== ExitCode.OK) {
    // The report is out (stdout, --json included): the reason on stderr, then only the exit code.
    if (view.problem) io.err(view.problem)
    throw new Failure(exitCode as 3 | 7, {code: exitCode === ExitCode.AUTH ? 'key_not_accepted' : 'unreachable'})
  }
}

function renderStatus(view: StatusView, chosenBy: string): string {
  const none = t('core.none')
  const rows: [string, string][] = [
    [t('core.status.profile'), view.profile ? `${view.profile}${view.current ? ` ${t('core.status.currentMark')}` : ''}` : none],
    [t('core.status.chosenBy'), view.chosen_by.length > 0 ? chosenBy : t('core.status.defaults')],
    [t('core.table.environment'), view.environment ?? none],
    [t('core.table.baseUrl'), view.base_url],
    [t('core.table.key'), view.api_key ?? none],
    [t('core.table.lang'), view.language],
  ]
  if (view.local_sandbox) {
    const s = view.local_sandbox
    rows.push([
      t('core.status.sandbox'),
      s.running
        ? t('core.status.sandboxRunning', {pid: s.pid ?? '', data: s.data_file ?? t('core.status.inMemory')})
        : t('core.status.sandboxStopped', {data: s.data_file ?? t('core.status.inMemory')}),
    ])
  }
  rows.push([t('core.status.reachable'), view.reachable ? (view.key_accepted === false ? t('core.status.reachableKeyRefused') : t('core.yes')) : t('core.no')])
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')
}
