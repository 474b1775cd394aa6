/**
 * A lock between processes around a file's read-modify-write: a directory `<file>.lock` made with
 * mkdir, which is atomic on every local file system (the technique proper-lockfile uses, without
 * its dependencies). Held for milliseconds: a read, a change, an atomic write.
 *
 * A lock left by a process that died (SIGKILL, power cut) is taken over once it is older than
 * `staleMs`; the holder refreshes its time while it works, so a slow but live holder is never
 * taken for dead. A lock whose time is in the future (a clock set back, a copied directory) never
 * grows older: it is taken over once its time has not changed for `staleMs` while we waited, the
 * same wait (a live holder changes it every staleMs/3). A process that exits while holding it (an
 * exception, process.exit) removes it.
 */
import {mkdirSync, rmSync, statSync, utimesSync} from 'node:fs'

import {sleep, systemClock, type Clock} from '../../contract/clock.js'
import {ExitCode, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'

export interface LockOptions {
  /** Age after which a lock is taken for abandoned. */
  staleMs?: number
  /** How long to wait for another process's lock before giving up. */
  waitMs?: number
  /** Where the wait for another holder is measured and paced (default the machine's). */
  clock?: Clock
}

const held = new Set<string>()
let exitHookInstalled = false

function releaseAllOnExit(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const path of held) rmSync(path, {recursive: true, force: true})
  })
}

/** The lock's time as we last saw it, and since when (our clock) it has not changed. */
interface Seen {
  mtimeMs: number
  since: number
}

function tryAcquire(path: string, staleMs: number, seen: {last?: Seen}, clock: Clock): boolean {
  try {
    mkdirSync(path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  try {
    // A lock's age is read against its file time: the machine's clock, whatever the run's says;
    // how long we have seen its time unchanged is our wait, on the run's clock.
    const now = systemClock.now()
    const {mtimeMs} = statSync(path)
    if (seen.last?.mtimeMs !== mtimeMs) seen.last = {mtimeMs, since: clock.now()}
    const unchangedFor = clock.now() - seen.last.since
    if (now - mtimeMs > staleMs || (mtimeMs > now && unchangedFor > staleMs)) {
      rmSync(path, {recursive: true, force: true})
      seen.last = undefined
    }
  } catch {
    // Released between our mkdir and stat: try again.
  }
  return false
}

/** Run `work` while holding the lock of `file`; waits for another holder, up to `waitMs`. */
export async function withFileLock<T>(file: string, work: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const path = `${file}.lock`
  const staleMs = options.staleMs ?? 10_000
  // Long: a hundred processes writing at once on a loaded machine queue here for tens of seconds;
  // a holder that died is taken over after staleMs anyway.
  const clock = options.clock ?? systemClock
  const deadline = clock.now() + (options.waitMs ?? 120_000)
  const seen: {last?: Seen} = {}
  while (!tryAcquire(path, staleMs, seen, clock)) {
    if (clock.now() > deadline) {
      throw new SvcError(t('core.config.locked', {path}), {exitCode: ExitCode.FAILURE, code: 'config_locked'})
    }
    // Jittered, so that many waiting processes do not retry in step.
    await sleep(clock, 5 + Math.floor(Math.random() * 20))
  }
  held.add(path)
  releaseAllOnExit()
  const refresh = setInterval(() => {
    try {
      const now = new Date(systemClock.now())
      utimesSync(path, now, now)
    } catch {
      // Nothing to refresh.
    }
  }, Math.max(50, Math.floor(staleMs / 3)))
  refresh.unref()
  try {
    return await work()
  } finally {
    clearInterval(refresh)
    held.delete(path)
    rmSync(path, {recursive: true, force: true})
  }
}
