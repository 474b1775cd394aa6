/**
 * `svc sandbox serve`: the local sandbox in the foreground. It prints what a developer needs
 * (base URL, keys and webhook secrets whole: handing them over is its job), saves the `local`
 * profile and the admin address, and runs until Ctrl-C.
 */
import type {Context} from '../context.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {saveProfile} from '../config/profiles.js'
import {parseDuration} from '../time/duration.js'
import {clearSandboxState, LOCAL_PROFILE, writeSandboxState} from './state.js'

export interface ServeFlags {
  port: number
  host: string
  'settle-after': string
  seed?: number
  'rate-limit': number
  data?: string
  'admin-token'?: string
}

export interface RunningSandbox {
  close(): Promise<void>
}

/** A chosen admin token: printable, no spaces (it travels in an Authorization header), long enough to guard the surface. */
export function checkAdminToken(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (!/^[\x21-\x7e]{16,256}$/.test(value)) throw new InputError(t('local.serve.adminToken'), {field: 'admin-token'})
  return value
}

/** Whether an address to bind is reachable from other machines (anything but loopback). */
function bindsBeyondLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return !(bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) || bare === '::ffff:127.0.0.1')
}

export async function serveSandbox(ctx: Context, flags: ServeFlags): Promise<RunningSandbox> {
  const settleAfterMs = parseDuration(flags['settle-after'], 'settle-after')
  if (flags['rate-limit'] < 0) throw new InputError(t('local.serve.rateLimit'), {field: 'rate-limit'})
  const {startSandbox} = await import('../../sandbox/index.js')
  const sandbox = await startSandbox({
    port: flags.port,
    host: flags.host,
    settleAfterMs,
    seed: flags.seed,
    rateLimit: flags['rate-limit'],
    dataFile: flags.data,
    adminToken: checkAdminToken(flags['admin-token']),
    // A person's first PDF or cover image should not wait for the document worker to boot.
    warmDocuments: true,
  }).catch((error: NodeJS.ErrnoException & {reason?: string}) => {
    // A busy or forbidden port is the user's input to change, not an unexpected error.
    if (error.code === 'EADDRINUSE') throw new InputError(t('local.serve.portBusy', {host: flags.host, port: flags.port}), {field: 'port'})
    if (error.code === 'EACCES') throw new InputError(t('local.serve.portDenied', {host: flags.host, port: flags.port}), {field: 'port'})
    // better-sqlite3 is an optional dependency (a native module): without it, only --data is out of reach.
    if (error.code === 'storage_unavailable') {
      throw new SvcError(t('local.serve.noSqlite', {reason: error.reason ?? error.message}), {
        exitCode: ExitCode.FAILURE,
        code: 'storage_unavailable',
        field: 'data',
      })
    }
    throw error
  })
  for (const notice of sandbox.notices) ctx.io.err(t('local.serve.imported', {file: notice.file, count: notice.count, backup: notice.backup}))
  await saveProfile(ctx.configDir, LOCAL_PROFILE, {api_key: sandbox.keys.sandbox, base_url: sandbox.url}, {makeCurrent: 'if-none'})
  writeSandboxState(ctx.configDir, {
    base_url: sandbox.url,
    admin_url: sandbox.adminUrl,
    admin_token: sandbox.adminToken,
    pay_url: sandbox.payUrl,
    pid: process.pid,
    started_at: new Date().toISOString(),
  })
  const info = {
    base_url: sandbox.url,
    pay_url: sandbox.payUrl,
    admin_url: sandbox.adminUrl,
    admin_token: sandbox.adminToken,
    sandbox_key: sandbox.keys.sandbox,
    live_key: sandbox.keys.live,
    webhook_secrets: sandbox.webhookSecrets,
    profile: LOCAL_PROFILE,
    settle_after_ms: settleAfterMs,
    rate_limit: flags['rate-limit'],
    persistent: Boolean(flags.data),
    storage: flags.data ? 'sqlite' : 'memory',
  }
  await ctx.io.result(info, () => {
    const rows: [string, string][] = [
      [t('local.serve.baseUrl'), sandbox.url],
      [t('local.serve.sandboxKey'), sandbox.keys.sandbox],
      [t('local.serve.liveKey'), sandbox.keys.live],
      [t('local.serve.payUrl'), sandbox.payUrl],
      [t('local.serve.admin'), sandbox.adminUrl],
      ...sandbox.webhookSecrets.map((w): [string, string] => [t('local.serve.secret', {url: w.url}), w.secret]),
    ]
    const width = Math.max(...rows.map(([label]) => label.length))
    ctx.io.out(rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n'))
    ctx.io.err(t('local.serve.ready', {profile: LOCAL_PROFILE}))
  })
  // Bound beyond loopback: say what other machines can now reach (on stderr, --json or not).
  if (bindsBeyondLoopback(flags.host)) {
    ctx.io.err(t('local.serve.exposed', {host: flags.host, base: sandbox.url, pay: sandbox.payUrl, admin: sandbox.adminUrl}))
  }
  return {
    async close() {
      clearSandboxState(ctx.configDir, process.pid)
      await sandbox.close()
    },
  }
}
