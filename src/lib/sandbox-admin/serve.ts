/**
 * `svc sandbox serve`: the local sandbox in the foreground. It prints what a developer needs
 * (base URL, keys and webhook secrets whole: handing them over is its job), saves a profile and
 * enters itself in the config directory's registry of running sandboxes (registry.ts), and runs
 * until Ctrl-C. The first running sandbox owns the profile `local`; another one saves its own
 * (`local-PORT`, or `--profile-name`) and says so, so that no serve repoints a profile a live
 * sandbox owns. With `--data` it holds the file first (data-lock.ts): one sandbox per data file.
 */
import type {Clock} from '../../contract/clock.js'
import type {Context} from '../context.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {saveProfile, validateProfileName} from '../config/profiles.js'
import {readConfig} from '../config/store.js'
import {parseDuration} from '../time/duration.js'
import {currentOwner} from '../config/process-owner.js'
import {holdDataFile, type DataFileHold} from './data-lock.js'
import type {Sandbox} from '../../sandbox/index.js'
import {liveSandboxes, LOCAL_PROFILE, unregisterSandbox, updateRegistry, type SandboxEntry} from './registry.js'
import {REFERENCE_BASE} from '../../contract/sandbox-inspector.js'

export interface ServeFlags {
  port: number
  host: string
  'settle-after': string
  seed?: number
  'rate-limit': number
  data?: string
  'admin-token'?: string
  'profile-name'?: string
  /** One line per request on stderr (the request journal). */
  log?: boolean
  /** Open the inspector in the browser. */
  open?: boolean
}

export interface RunningSandbox {
  /** What serve printed (with --json, this object): its URLs, keys, admin token, profile, PID. */
  info: ServeInfo
  close(): Promise<void>
}

export interface ServeInfo {
  base_url: string
  admin_url: string
  admin_token: string
  sandbox_key: string
  live_key: string
  profile: string
  pid: number
  data_file: string | null
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

/** A profile name given with --profile-name: plain, and not one a running sandbox owns. */
function chosenProfile(ctx: Context, name: string | undefined): string | undefined {
  if (name === undefined) return undefined
  try {
    validateProfileName(name)
  } catch {
    throw new InputError(t('local.serve.profileName', {name}), {field: 'profile-name'})
  }
  const owner = liveSandboxes(ctx.configDir).find((entry) => (entry.profile === name || liveProfileOf(entry.profile) === name) && entry.pid !== process.pid)
  if (owner) throw profileTaken(name, owner)
  return name
}

function profileTaken(name: string, owner: SandboxEntry): InputError {
  return new InputError(t('local.serve.profileTaken', {profile: name, url: owner.base_url, pid: owner.pid}), {field: 'profile-name', code: 'profile_in_use'})
}

/** The LIVE profile saved beside a sandbox's profile: `local-live`, `local-8788-live`, `NAME-live`. */
export function liveProfileOf(profile: string): string {
  return `${profile}-live`
}

/** The profile a new sandbox saves: the one asked for, else `local` when no live sandbox owns it, else `local-PORT`. */
function profileFor(live: SandboxEntry[], asked: string | undefined, port: string): string {
  // A running sandbox owns its profile and the LIVE one beside it.
  const owned = new Set(live.flatMap((entry) => [entry.profile, liveProfileOf(entry.profile)]))
  if (asked) return asked
  if (!owned.has(LOCAL_PROFILE)) return LOCAL_PROFILE
  let name = `${LOCAL_PROFILE}-${port}`
  for (let n = 2; owned.has(name); n++) name = `${LOCAL_PROFILE}-${port}-${n}`
  return name
}

/** The flags every start of a local sandbox checks first (serve, exec), before anything is held or started. */
export function serveSettings(flags: Pick<ServeFlags, 'settle-after' | 'rate-limit' | 'admin-token'>): {settleAfterMs: number; token: string | undefined} {
  const settleAfterMs = parseDuration(flags['settle-after'], 'settle-after')
  if (flags['rate-limit'] < 0) throw new InputError(t('local.serve.rateLimit'), {field: 'rate-limit'})
  return {settleAfterMs, token: checkAdminToken(flags['admin-token'])}
}

export async function serveSandbox(ctx: Context, flags: ServeFlags): Promise<RunningSandbox> {
  const {settleAfterMs, token} = serveSettings(flags)
  const asked = chosenProfile(ctx, flags['profile-name'])
  // Before the database is opened: a second process on the file would lose the first's updates.
  const hold: DataFileHold | undefined = flags.data ? await holdDataFile(flags.data, ctx.clock) : undefined
  try {
    return await serveHolding(ctx, flags, {settleAfterMs, token, asked, hold})
  } catch (error) {
    hold?.release()
    throw error
  }
}

async function serveHolding(
  ctx: Context,
  flags: ServeFlags,
  {settleAfterMs, token, asked, hold}: {settleAfterMs: number; token: string | undefined; asked: string | undefined; hold: DataFileHold | undefined},
): Promise<RunningSandbox> {
  // A person's first PDF or cover image should not wait for the document worker to boot.
  const sandbox = await startLocalSandbox(flags, {settleAfterMs, token, hold, warmDocuments: true, clock: ctx.clock})
  for (const notice of sandbox.notices) {
    if (notice.code === 'json_imported') ctx.io.err(t('local.serve.imported', {file: notice.file, count: notice.count, backup: notice.backup}))
    else ctx.io.warn(t('local.serve.dataBehind', {file: notice.file, committed: notice.committed, found: notice.found, at: notice.at}))
  }
  let entry: SandboxEntry
  let localOwner: SandboxEntry | undefined
  try {
    // Under the registry's lock: two serves starting at once never both take `local`.
    entry = await updateRegistry(ctx.configDir, (live) => {
      const owner = asked ? live.find((e) => e.profile === asked && e.pid !== process.pid) : undefined
      if (asked && owner) throw profileTaken(asked, owner)
      localOwner = live.find((e) => e.profile === LOCAL_PROFILE)
      const mine = entryOf(sandbox, hold, profileFor(live, asked, new URL(sandbox.url).port), ctx.clock)
      return {sandboxes: [...live, mine], result: mine}
    })
  } catch (error) {
    await sandbox.close()
    throw error
  }
  const profile = entry.profile
  const liveProfile = liveProfileOf(profile)
  // A profile that pointed at a stopped sandbox at another address now points here: said, so that
  // nobody takes this sandbox for that one (a listener bound to that address keeps waiting for it).
  const before = readConfig(ctx.configDir).profiles[profile]
  if (before?.local_sandbox && before.base_url && before.base_url !== sandbox.url) {
    const data = before.local_sandbox.data_file ? t('local.serve.tookProfileData', {file: before.local_sandbox.data_file}) : t('local.serve.tookProfileMemory')
    ctx.io.err(t('local.serve.tookProfile', {profile, url: before.base_url, data}))
  }
  await saveProfile(ctx.configDir, profile, {api_key: sandbox.keys.sandbox, base_url: sandbox.url, local_sandbox: {data_file: entry.data_file}}, {makeCurrent: 'if-none', clock: ctx.clock})
  // The LIVE key beside it (the customer's phone rings for LIVE payments), never made current:
  // a LIVE profile is chosen by name only.
  await saveProfile(ctx.configDir, liveProfile, {api_key: sandbox.keys.live, base_url: sandbox.url, local_sandbox: {data_file: entry.data_file, profile}}, {makeCurrent: 'never', clock: ctx.clock})
  if (!asked && profile !== LOCAL_PROFILE && localOwner) {
    ctx.io.err(t('local.serve.ownProfile', {profile, url: localOwner.base_url, pid: localOwner.pid}))
  }
  const inspectorUrl = sandbox.inspectorLink()
  const info = {
    base_url: sandbox.url,
    inspector_url: inspectorUrl,
    reference_url: `${sandbox.url}${REFERENCE_BASE}/`,
    pay_url: sandbox.payUrl,
    admin_url: sandbox.adminUrl,
    admin_token: sandbox.adminToken,
    sandbox_key: sandbox.keys.sandbox,
    live_key: sandbox.keys.live,
    webhook_secrets: sandbox.webhookSecrets,
    profile,
    live_profile: liveProfile,
    pid: process.pid,
    data_file: entry.data_file,
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
    ctx.io.out(`${t('local.serve.inspector')} ${inspectorUrl}`)
    ctx.io.out(`${t('local.serve.reference')} ${sandbox.url}${REFERENCE_BASE}/`)
    ctx.io.err(t('local.serve.ready', {profile, liveProfile}))
  })
  if (flags.open) {
    // A link of its own: the one printed stays good for another browser (each logs in once).
    const {openInBrowser} = await import('./open-browser.js')
    await openInBrowser(ctx, sandbox.inspectorLink())
  }
  // Bound beyond loopback: say what other machines can now reach (on stderr, --json or not).
  if (bindsBeyondLoopback(flags.host)) {
    ctx.io.err(t('local.serve.exposed', {host: flags.host, base: sandbox.url, pay: sandbox.payUrl, admin: sandbox.adminUrl}))
  }
  if (flags.log) {
    const {requestLine} = await import('./journal.js')
    // The app's requests, as `svc sandbox requests` shows them by default (svc's own: `requests --all`).
    sandbox.journal.subscribe((request) => {
      if (request.origin === 'app') ctx.io.err(requestLine(request))
    })
  }
  return {
    info,
    async close() {
      // Only what this sandbox owned: its entry (its profile stays, to start it again); other sandboxes keep theirs.
      await unregisterSandbox(ctx.configDir, entry).catch(() => undefined)
      await sandbox.close()
      hold?.release()
    },
  }
}

/**
 * The sandbox started with the flags of serve (and exec), its failures said as the user's input to
 * change where they are (a busy port, a damaged data file), not as unexpected errors.
 */
export async function startLocalSandbox(
  flags: Pick<ServeFlags, 'port' | 'host' | 'seed' | 'rate-limit'>,
  options: {settleAfterMs: number; token: string | undefined; hold: DataFileHold | undefined; warmDocuments: boolean; clock: Clock},
): Promise<Sandbox> {
  const {startSandbox} = await import('../../sandbox/index.js')
  return startSandbox({
    port: flags.port,
    host: flags.host,
    settleAfterMs: options.settleAfterMs,
    seed: flags.seed,
    rateLimit: flags['rate-limit'],
    dataFile: options.hold?.file,
    adminToken: options.token,
    clock: options.clock,
    warmDocuments: options.warmDocuments,
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
    // The data file: no space (exit 7, as a 507 is), damaged, a directory, read-only (exit 2);
    // the message names the file and what to do.
    if (error.code === 'insufficient_storage') {
      throw new SvcError(error.message, {exitCode: ExitCode.UNAVAILABLE, code: 'insufficient_storage', field: 'data'})
    }
    if (error.code === 'data_file_damaged' || error.code === 'data_file_directory' || error.code === 'data_file_read_only') {
      throw new SvcError(error.message, {exitCode: ExitCode.USAGE, code: error.code, field: 'data'})
    }
    throw error
  })
}

/** This process's registry entry for a sandbox it started: its addresses, token, PID, data file and profile. */
export function entryOf(sandbox: Pick<Sandbox, 'url' | 'adminUrl' | 'adminToken' | 'payUrl'>, hold: DataFileHold | undefined, profile: string, clock: Clock): SandboxEntry {
  return {
    base_url: sandbox.url,
    admin_url: sandbox.adminUrl,
    admin_token: sandbox.adminToken,
    pay_url: sandbox.payUrl,
    ...currentOwner(),
    started_at: new Date(clock.now()).toISOString(),
    data_file: hold?.file ?? null,
    profile,
  }
}
