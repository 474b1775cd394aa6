/**
 * `svc sandbox serve --detach [--json]`: for scripts that need separate steps (start, seed, run,
 * stop). The sandbox is an ordinary `svc sandbox serve` (same flags, same profile and registry
 * entry, Ctrl-C's clean stop on SIGTERM) started as a child in a session of its own, so that it
 * outlives this process, the shell and the terminal; its stderr goes to a log in the config
 * directory (`sandboxes/sandbox-PID.log`, 0600), its stdout nowhere. Once it answers it tells this
 * process over an IPC channel (what serve would have printed), which is then closed: this process
 * prints the settings `svc sandbox exec` would put in a command's environment (`export KEY=value` lines,
 * or an object with --json) and returns. `svc sandbox stop` stops it (sandbox-admin/stop.ts).
 *
 * SVC_WEBHOOK_SECRET is the saved profile's local secret: what `svc --profile local webhooks
 * listen --forward-to …` signs with, created now if the profile had none.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync} from 'node:fs'
import {join} from 'node:path'

import {ensureConfigDir} from '../config/store.js'
import {createContext, type Context} from '../context.js'
import {ExitCode, Failure, SvcError, type ExitCodeValue} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import type {ServeInfo} from '../sandbox-admin/serve.js'
import {sandboxSettings, settingsLines} from '../sandbox-admin/settings.js'
import {detachedLogPath} from '../sandbox-admin/stop.js'

/** Set in the background serve's environment: report to the parent once ready. */
const DETACHED = 'SVC_SANDBOX_DETACHED'
const READY = 'svc-sandbox-ready'
/** A first start on a busy machine, a large --data file opened: generous. */
const READY_WAIT_MS = 120_000

export interface Detaching {
  done: Promise<void>
  /** Ctrl-C while waiting: the background sandbox is stopped too. */
  abort(): void
}

/** How to run this svc again: the launcher (and Node's flags), or a single executable alone. */
function self(): {file: string; args: string[]} {
  if (process.argv[1] === undefined || process.argv[1] === process.execPath) return {file: process.execPath, args: []}
  return {file: process.execPath, args: [...process.execArgv, process.argv[1]]}
}

/** serve's own arguments, without what only this parent reads (--detach, and --json/--jq, its output's form). */
function childArgs(argv: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--detach' || arg === '--json' || arg.startsWith('--jq=')) continue
    if (arg === '--jq') {
      i++
      continue
    }
    out.push(arg)
  }
  return out
}

export function startDetached(ctx: Context, argv: readonly string[]): Detaching {
  let child: ChildProcess | undefined
  const done = (async () => {
    ensureConfigDir(ctx.configDir)
    mkdirSync(join(ctx.configDir, 'sandboxes'), {recursive: true, mode: 0o700})
    const pending = join(ctx.configDir, 'sandboxes', `starting-${process.pid}.log`)
    const fd = openSync(pending, 'w', 0o600)
    const {file, args} = self()
    try {
      child = spawn(file, [...args, 'sandbox', 'serve', ...childArgs(argv)], {
        detached: true,
        stdio: ['ignore', 'ignore', fd, 'ipc'],
        env: {...ctx.env, [DETACHED]: '1'},
      })
    } finally {
      closeSync(fd)
    }
    const log = child.pid === undefined ? pending : detachedLogPath(ctx.configDir, child.pid)
    if (log !== pending) renameSync(pending, log)
    const info = await ready(ctx, child, log)
    child.disconnect()
    child.unref()
    const secret = await localSecretOf(ctx, info.profile)
    const settings = sandboxSettings({url: info.base_url, adminToken: info.admin_token, keys: {sandbox: info.sandbox_key, live: info.live_key}}, secret)
    await ctx.io.result(settings, () => ctx.io.out(settingsLines(settings)))
    ctx.io.err(t('exec.detached', {pid: info.pid, profile: info.profile, log}))
  })()
  return {
    done,
    abort() {
      if (child && child.exitCode === null) child.kill('SIGTERM')
    },
  }
}

function ready(ctx: Context, child: ChildProcess, log: string): Promise<ServeInfo> {
  return new Promise<ServeInfo>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM')
      reject(new SvcError(t('exec.detachTimeout', {seconds: READY_WAIT_MS / 1000, log}), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_not_ready'}))
    }, READY_WAIT_MS)
    child.on('message', (message: {kind?: string; info?: ServeInfo}) => {
      if (message?.kind !== READY || !message.info) return
      clearTimeout(timer)
      resolve(message.info)
    })
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      // serve's own message (a busy port, a data file in use) is in its log: shown whole, then the log goes.
      let said = ''
      try {
        said = readFileSync(log, 'utf8').trimEnd()
      } catch {
        said = ''
      }
      rmSync(log, {force: true})
      const exit = (code ?? ExitCode.FAILURE) as ExitCodeValue
      ctx.io.err([t('exec.detachFailed', {code: exit}), said].filter(Boolean).join('\n'))
      reject(new Failure(exit))
    })
  })
}

/** The local secret of the profile the sandbox saved (created and saved if it has none). */
async function localSecretOf(ctx: Context, profile: string): Promise<string> {
  const env = {...ctx.env}
  for (const name of ['SVC_API_KEY', 'SVC_BASE_URL', 'SVC_PROFILE']) delete env[name]
  const inner = createContext({flags: {profile}, version: ctx.version, env, streams: ctx.io.streams, locale: getLocale(), clock: ctx.clock})
  const {webhookScope} = await import('../webhooks/scope.js')
  return webhookScope(inner).localSecret()
}

/** In the background serve, once it answers: tell the parent (serve --detach) and close the channel. */
export function reportToParent(env: NodeJS.ProcessEnv, info: ServeInfo): void {
  if (env[DETACHED] !== '1' || typeof process.send !== 'function') return
  process.send({kind: READY, info}, () => process.disconnect?.())
}
