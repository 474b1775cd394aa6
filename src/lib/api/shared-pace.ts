/**
 * One pace for every svc process using the same key: the service's rate limit is per key, so two
 * imports (or an import and a report) on one key must share its 100 requests a minute rather than
 * each take them all and collect 429s. A small per-key budget file in the cache directory (the
 * start times of the requests in the rolling window), read and written under a lock directory
 * (mkdir is atomic; a lock older than a few seconds is a crashed holder's and is broken).
 * Nothing here is a secret: the file is named by a hash of the key and base URL and holds times.
 * Any file-system failure falls back to the process's own pacing: sharing is a courtesy, never a
 * reason for a command to fail.
 */
import {createHash} from 'node:crypto'
import {mkdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {systemClock} from '../../contract/clock.js'

export interface SharedBudget {
  /** Take a slot at `now` (0), or say how long to wait before asking again (ms). */
  take(now: number): number
  /** The slot taken at `takenAt` counts from `at` (its answer): the service counted it on arrival, in between. */
  answered(takenAt: number, at: number): void
}

/** A lock older than this is a crashed holder's: broken. Holders keep it for a millisecond or so. */
const STALE_LOCK_MS = 3000
/** The service counts a request when it arrives, a little after the slot was taken here. */
const ARRIVAL_MARGIN_MS = 1000

const pause = new Int32Array(new SharedArrayBuffer(4))
function sleepSync(ms: number): void {
  Atomics.wait(pause, 0, 0, ms)
}

function withLock<T>(lock: string, work: () => T): T | undefined {
  for (let attempt = 0; attempt < 2000; attempt++) {
    try {
      mkdirSync(lock, {mode: 0o700})
      try {
        return work()
      } finally {
        try {
          rmdirSync(lock)
        } catch {
          // already broken by another process as stale: nothing to release
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined
      try {
        // Its age against its file time: the machine's clock, whatever the callers' says.
        if (systemClock.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmdirSync(lock)
      } catch {
        // gone in the meantime
      }
      sleepSync(1)
    }
  }
  return undefined
}

/**
 * The budget of one key at one service, shared through `dir` (the config dir's cache). Returns
 * undefined when pacing is off (rate 0).
 */
export function sharedBudget(options: {dir: string; apiKey: string; baseUrl: string; ratePerMinute: number; windowMs?: number}): SharedBudget | undefined {
  if (options.ratePerMinute <= 0) return undefined
  const id = createHash('sha256').update(`${options.baseUrl}\n${options.apiKey}`).digest('hex').slice(0, 24)
  const file = join(options.dir, `${id}.json`)
  const lock = join(options.dir, `${id}.lock`)
  const window = (options.windowMs ?? 60_000) + ARRIVAL_MARGIN_MS
  const rate = options.ratePerMinute
  let ready = false
  return {
    take(now) {
      try {
        if (!ready) {
          mkdirSync(options.dir, {recursive: true, mode: 0o700})
          ready = true
        }
      } catch {
        return 0
      }
      const wait = withLock(lock, () => {
        let stamps: number[] = []
        try {
          const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
          if (Array.isArray(parsed)) stamps = parsed.filter((n): n is number => typeof n === 'number' && n > now - window && n <= now + window)
        } catch {
          // no budget yet, or a file cut short by a kill: start afresh
        }
        stamps.sort((a, b) => a - b)
        if (stamps.length >= rate) return Math.max(1, stamps[stamps.length - rate]! + window - now)
        stamps.push(now)
        const temporary = `${file}.${process.pid}.tmp`
        writeFileSync(temporary, JSON.stringify(stamps), {mode: 0o600})
        renameSync(temporary, file)
        return 0
      })
      return wait ?? 0
    },
    answered(takenAt, at) {
      if (!ready || at <= takenAt) return
      withLock(lock, () => {
        let stamps: unknown
        try {
          stamps = JSON.parse(readFileSync(file, 'utf8'))
        } catch {
          return
        }
        if (!Array.isArray(stamps)) return
        const index = stamps.indexOf(takenAt)
        if (index < 0) return
        stamps[index] = at
        const temporary = `${file}.${process.pid}.tmp`
        writeFileSync(temporary, JSON.stringify(stamps), {mode: 0o600})
        renameSync(temporary, file)
      })
    },
  }
}
