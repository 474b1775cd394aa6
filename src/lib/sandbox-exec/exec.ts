/**
 * `svc sandbox exec [serve flags] [--fixtures FILE …] [--forward-to URL] [--journal-on-failure
 * [FILE]] -- CMD ARGS…`: a local sandbox for the length of one command, as `firebase
 * emulators:exec` (start, seed, forward, run, stop, one exit code).
 *
 * The sandbox runs in exec's own process, not in a child: one Node start instead of two (the
 * start-up is what a CI job pays on every run), and nothing to reap: whatever ends exec (CMD's end,
 * a signal, even SIGKILL) ends its sandbox with it, its port, its worker threads and its data
 * file's hold. It is ephemeral: it saves no profile (the user's `local` stays as it is); it is in
 * the config directory's registry while it runs (`svc sandbox list` shows it, `svc sandbox stop
 * --all` stops it), an entry without a profile, removed when it stops (and dead, so skipped, if
 * exec is killed).
 *
 * The order: every flag and fixtures file checked before anything starts; the sandbox started (and
 * entered in the registry); the fixtures run in order, their answers (`{step: response}`, all files
 * in one object) written to SVC_FIXTURES_FILE; forwarding started (webhooks listen's session, signed
 * with SVC_WEBHOOK_SECRET); then CMD, with the settings of sandbox-admin/settings.ts in its
 * environment. When CMD ends: the journal if it failed and --journal-on-failure, then forwarding,
 * the registry entry, the sandbox and the temporary directory, in that order. A signal (SIGINT,
 * SIGTERM) goes to CMD, and the same clean-up follows its end; before CMD has started, the start is
 * abandoned and cleaned up the same way (exit 130/143).
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {constants, tmpdir} from 'node:os'
import {join, resolve} from 'node:path'

import type {Sandbox} from '../../sandbox/index.js'
import {createContext, type Context} from '../context.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {generateSecret} from '../../contract/signature.js'
import {adminClientFor} from '../sandbox-admin/admin.js'
import type {DataFileHold} from '../sandbox-admin/data-lock.js'
import {unregisterSandbox, updateRegistry, type SandboxEntry} from '../sandbox-admin/registry.js'
import {entryOf, serveSettings, startLocalSandbox, type ServeFlags} from '../sandbox-admin/serve.js'
import {environmentWith, sandboxSettings, type SandboxSettings} from '../sandbox-admin/settings.js'
import {parseListenRouting, type ListenRouting} from '../webhooks/routes.js'
import type {ListenSession} from '../webhooks/listen-session.js'

export type ExecFlags = Pick<ServeFlags, 'port' | 'host' | 'settle-after' | 'seed' | 'rate-limit' | 'data' | 'admin-token' | 'log'> & {
  fixtures?: string[]
  'forward-to'?: string[]
  /** Where the journal goes when CMD fails: a file, or `-` for stderr. */
  'journal-on-failure'?: string
}

export interface ExecRun {
  /** CMD's exit code (128 + the signal's number when a signal ended it), once all exec started has stopped. */
  done: Promise<number>
  /** A signal for exec: passed on to CMD while it runs; before it runs, the start is abandoned. */
  signal(signal: NodeJS.Signals): void
}

/** The journal's lines when CMD fails: the newest this many. */
const JOURNAL_LIMIT = 1000

class Abandoned extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(signal)
  }
}

const signalCode = (signal: NodeJS.Signals): number => 128 + (constants.signals[signal] ?? 0)

export function startExec(ctx: Context, flags: ExecFlags, command: readonly string[]): ExecRun {
  let child: ChildProcess | undefined
  let abandoned: NodeJS.Signals | undefined
  let abandon: (error: Abandoned) => void = () => {}
  const signalled = new Promise<never>((_, reject) => (abandon = reject))
  signalled.catch(() => undefined)
  const done = runExec(ctx, flags, command, {
    started: (c) => (child = c),
    check: () => {
      if (abandoned) throw new Abandoned(abandoned)
    },
    guard: (step) => {
      // What the step still does after a signal (a fixtures request under way) fails once the sandbox is closed.
      step.catch(() => undefined)
      return Promise.race([step, signalled])
    },
  })
  return {
    done,
    signal(signal) {
      if (child && child.exitCode === null && child.signalCode === null) child.kill(signal)
      else if (!child && !abandoned) {
        abandoned = signal
        abandon(new Abandoned(signal))
      }
    },
  }
}

/** Everything checked before anything starts: a bad flag or fixtures file starts no sandbox. */
async function checkFlags(ctx: Context, flags: ExecFlags, command: readonly string[]) {
  if (command.length === 0 || !command[0]) throw new InputError(t('exec.noCommand'), {field: 'command'})
  const settings = serveSettings(flags)
  const routing = flags['forward-to']?.length ? parseListenRouting({forwardTo: flags['forward-to']}) : undefined
  const journal = flags['journal-on-failure']
  const journalFile = journal === undefined || journal === '-' || journal === '' ? undefined : resolve(journal)
  // Each file's own checks (schema, names, references' order) before the sandbox starts; the
  // checks against the service's description run once it answers.
  const files = (flags.fixtures ?? []).map((file) => resolve(file))
  if (files.length > 0) {
    const [{loadFixtureFile, FixturesInvalidError}] = await Promise.all([import('../fixtures/file.js')])
    const owner = new Map<string, string>()
    for (const file of files) {
      const {file: loaded, problems} = loadFixtureFile(file)
      if (problems.length > 0) throw new FixturesInvalidError(file, problems)
      for (const step of loaded.steps) {
        const first = owner.get(step.name)
        if (first !== undefined) throw new InputError(t('exec.fixturesSameStep', {step: step.name, first, second: file}), {field: 'fixtures'})
        owner.set(step.name, file)
      }
    }
  }
  return {settings, routing, journalFile, files}
}

interface Hooks {
  started(child: ChildProcess): void
  /** Throws when a signal asked exec to stop before CMD started. */
  check(): void
  /** A step of the start, given up (Abandoned) as soon as a signal comes. */
  guard<T>(step: Promise<T>): Promise<T>
}

async function runExec(ctx: Context, flags: ExecFlags, command: readonly string[], hooks: Hooks): Promise<number> {
  const started = ctx.clock.monotonic()
  const {settings: serve, routing, journalFile, files} = await checkFlags(ctx, flags, command)
  const say = (key: Parameters<typeof t>[0], vars?: Record<string, string | number>) => ctx.io.err(t(key, vars))
  const stops: Array<() => Promise<void> | void> = []
  const stopAll = async () => {
    for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => undefined)
  }
  try {
    hooks.check()
    let hold: DataFileHold | undefined
    if (flags.data) {
      const {holdDataFile} = await import('../sandbox-admin/data-lock.js')
      hold = await holdDataFile(flags.data, ctx.clock)
      stops.push(() => hold?.release())
    }
    const starting = startLocalSandbox(flags, {settleAfterMs: serve.settleAfterMs, token: serve.token, hold, warmDocuments: false, clock: ctx.clock})
    // Closed even when a signal came while it started.
    stops.push(async () => (await starting.catch(() => undefined))?.close())
    const sandbox: Sandbox = await hooks.guard(starting)
    for (const notice of sandbox.notices) {
      if (notice.code === 'json_imported') say('local.serve.imported', {file: notice.file, count: notice.count, backup: notice.backup})
      else ctx.io.warn(t('local.serve.dataBehind', {file: notice.file, committed: notice.committed, found: notice.found, at: notice.at}))
    }
    const entry = await register(ctx, sandbox, hold)
    stops.push(() => unregisterSandbox(ctx.configDir, entry))
    if (flags.log) {
      const {requestLine} = await import('../sandbox-admin/journal.js')
      sandbox.journal.subscribe((request) => ctx.io.err(requestLine(request)))
    }
    const work = mkdtempSync(join(tmpdir(), 'svc-exec-'))
    stops.push(() => rmSync(work, {recursive: true, force: true}))
    const settings: SandboxSettings = sandboxSettings(sandbox, generateSecret())
    if (files.length > 0) settings.SVC_FIXTURES_FILE = join(work, 'fixtures.json')
    const env = environmentWith(ctx.env, settings)
    say('exec.sandbox', {url: sandbox.url, ms: Math.round(ctx.clock.monotonic() - started)})
    hooks.check()

    if (files.length > 0) {
      await hooks.guard(seed(ctx, env, files, settings.SVC_FIXTURES_FILE!, hooks))
      hooks.check()
    }
    const admin = adminClientFor(await ctx.clientFor(undefined, sandbox.url, {ratePerMinute: 0, retry: {maxRetries: 0}, timeoutMs: 60_000}), sandbox.adminToken)
    if (routing) {
      const forwarding = forward(ctx, sandbox, admin, routing, settings.SVC_WEBHOOK_SECRET, join(work, 'webhooks'))
      stops.push(async () => {
        const session = await forwarding.catch(() => undefined)
        const pending = (await session?.stop()) ?? []
        if (pending.length > 0) {
          const {formatPendingSummary} = await import('../webhooks/format.js')
          ctx.io.err(formatPendingSummary(pending))
        }
      })
      await hooks.guard(forwarding)
      hooks.check()
    }

    say('exec.running', {command: command.join(' '), ms: Math.round(ctx.clock.monotonic() - started)})
    const code = await runCommand(ctx, command, env, hooks)
    if (code !== 0 && flags['journal-on-failure'] !== undefined) await printJournal(ctx, admin, journalFile)
    say('exec.exited', {code})
    return code
  } catch (error) {
    if (error instanceof Abandoned) {
      say('exec.abandoned', {signal: error.signal})
      return signalCode(error.signal)
    }
    throw error
  } finally {
    await stopAll()
  }
}

/** The registry entry of an ephemeral sandbox: no profile, marked as exec's. */
function register(ctx: Context, sandbox: Sandbox, hold: DataFileHold | undefined): Promise<SandboxEntry> {
  return updateRegistry(ctx.configDir, (live) => {
    const mine: SandboxEntry = {...entryOf(sandbox, hold, '', ctx.clock), exec: true}
    return {sandboxes: [...live, mine], result: mine}
  })
}

/**
 * Each fixtures file in order, with the settings CMD gets (so through the same key and address an
 * svc command inside CMD would use), every file checked against the service before the first step
 * is sent; the answers of all files, one object, written to `out` (0600).
 */
async function seed(ctx: Context, env: NodeJS.ProcessEnv, files: string[], out: string, hooks: Hooks): Promise<void> {
  const {prepareFixtures, runPreparedFixtures} = await import('../fixtures/run.js')
  const inner = createContext({
    flags: {verbose: ctx.flags.verbose, color: ctx.flags.color},
    version: ctx.version,
    env,
    streams: ctx.io.streams,
    locale: getLocale(),
    clock: ctx.clock,
  })
  const prepared = []
  for (const path of files) prepared.push({path, ...(await prepareFixtures(inner, path, {}))})
  const answers: Record<string, unknown> = {}
  for (const one of prepared) {
    hooks.check()
    const started = ctx.clock.monotonic()
    const got = await runPreparedFixtures(inner, one)
    Object.assign(answers, Object.fromEntries(got))
    ctx.io.err(t('exec.seeded', {file: one.path, count: got.size, ms: Math.round(ctx.clock.monotonic() - started)}))
  }
  writeFileSync(out, `${JSON.stringify(answers, null, 2)}\n`, {mode: 0o600})
}

/**
 * The sandbox's events, both environments (SVC_API_KEY's and SVC_LIVE_API_KEY's), re-signed with
 * `secret`, to the routes given: a webhooks listen session per environment (each registers its own
 * endpoint with the sandbox), stopped together.
 */
async function forward(
  ctx: Context,
  sandbox: Sandbox,
  admin: ReturnType<typeof adminClientFor>,
  routing: ListenRouting,
  secret: string,
  dir: string,
): Promise<Pick<ListenSession, 'stop'>> {
  const [{startListenSession}, {ephemeralScope}, format] = await Promise.all([
    import('../webhooks/listen-session.js'),
    import('../webhooks/scope.js'),
    import('../webhooks/format.js'),
  ])
  const sessions: ListenSession[] = []
  const stop = async () => (await Promise.all(sessions.map((session) => session.stop()))).flat()
  try {
    for (const environment of ['SANDBOX', 'LIVE'] as const) {
      sessions.push(
        await startListenSession({
          scope: ephemeralScope(join(dir, environment.toLowerCase()), secret),
          source: {
            kind: 'sandbox',
            admin,
            adminUrl: sandbox.adminUrl,
            baseUrl: sandbox.url,
            adminToken: sandbox.adminToken,
            environment,
            environments: [environment],
            // In exec's own process: it lives and ends with this session (nothing to follow across restarts).
            instance: {id: sandbox.url, persistent: false},
          },
          routing,
          localSecret: secret,
          clock: ctx.clock,
          onForward: (report) => ctx.io.err(`${environment}  ${format.formatForwardReport(report)}`),
          onReceived: () => {},
          onRejected: (report) => ctx.io.err(format.formatRejectedReport(report)),
          onPollError: () => {},
        }),
      )
    }
  } catch (error) {
    await stop().catch(() => undefined)
    throw error
  }
  ctx.io.err(t('exec.forwarding', {urls: routing.routes.defaultUrl ?? Object.values(routing.routes.byType).join(', ')}))
  return {stop}
}

/** CMD on exec's own terminal and descriptors; its exit code, 128 + N for signal N, 127/126 when it cannot start. */
function runCommand(ctx: Context, command: readonly string[], env: NodeJS.ProcessEnv, hooks: Hooks): Promise<number> {
  return new Promise((resolvePromise) => {
    const child = spawn(command[0]!, command.slice(1), {stdio: 'inherit', env})
    hooks.started(child)
    child.once('error', (error: NodeJS.ErrnoException) => {
      const notFound = error.code === 'ENOENT'
      ctx.io.err(t(notFound ? 'exec.notFound' : 'exec.cannotRun', {command: command[0]!, reason: error.code ?? error.message}))
      resolvePromise(notFound ? 127 : 126)
    })
    child.once('exit', (code, signal) => resolvePromise(code ?? (signal ? signalCode(signal) : ExitCode.FAILURE)))
  })
}

/** The requests the sandbox answered, as `svc sandbox requests` shows them (newest first), on stderr or in `file`. */
async function printJournal(ctx: Context, admin: ReturnType<typeof adminClientFor>, file: string | undefined): Promise<void> {
  const {requestLine} = await import('../sandbox-admin/journal.js')
  let lines: string[]
  try {
    const body = await admin.call('GET /_admin/requests', {query: {limit: JOURNAL_LIMIT}})
    // The admin surface's own requests (forwarding's endpoint, this read) are exec's, not the app's.
    lines = body.data.filter((entry) => !entry.path.startsWith('/_admin')).map(requestLine)
  } catch (error) {
    ctx.io.warn(t('exec.journalUnread', {reason: ctx.redact(error instanceof SvcError ? error.message : String(error))}))
    return
  }
  if (file) {
    writeFileSync(file, lines.length > 0 ? `${lines.join('\n')}\n` : '', {mode: 0o600})
    ctx.io.err(t('exec.journalFile', {file, count: lines.length}))
    return
  }
  ctx.io.err(t('exec.journal', {count: lines.length}))
  if (lines.length > 0) ctx.io.err(lines.join('\n'))
}
