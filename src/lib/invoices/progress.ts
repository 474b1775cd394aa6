/**
 * A progress bar on stderr, only when interactive, with a status line of its own under it: what
 * the run is waiting for ("waiting 53 s for the rate limit", "the service answered 503: retrying
 * in 7 s"), counting down each second, and cleared when the wait is over. Nothing else is written
 * on the bar's line, so no note is ever glued to it. Redrawn at most every 100 ms; a tick inside
 * the 100 ms is drawn by a trailing redraw, never dropped (rows finish in bursts).
 *
 * Drawing: the cursor rests at the start of the bar's line; a draw writes the bar, and the status
 * line below it, then moves back up. `done()` leaves the bar and clears the status line.
 */
import {systemClock, type Clock} from '../../contract/clock.js'
import type {ClientWait} from '../context.js'
import {t} from '../i18n/index.js'
import type {IO} from '../io/terminal.js'

/** The status line for a client's wait, `seconds` left: pacing, a 429, another status, no answer. */
export function waitStatus(wait: ClientWait, seconds: number): string {
  if (wait.reason === 'pacing') return t('invoice.import.status.pacing', {seconds})
  if (wait.status === 429) return t('invoice.import.status.retry429', {seconds})
  if (wait.status !== undefined) return t('invoice.import.status.retryStatus', {status: wait.status, seconds})
  return t('invoice.import.status.retryNetwork', {seconds})
}

export interface Progress {
  /** False when nothing is drawn (not a terminal, --json): waits are then said as lines on stderr. */
  readonly active: boolean
  tick(failed: boolean): void
  /** Show `text(secondsLeft)` on the status line for `ms`, counting down. */
  wait(ms: number, text: (seconds: number) => string): void
  done(): void
}

export function progressBar(io: IO, total: number, label: (done: number, total: number, failed: number) => string, clock: Clock = systemClock): Progress {
  if (!io.interactive || io.json || total === 0) return {active: false, tick() {}, wait() {}, done() {}}
  const stream = io.streams.stderr
  let done = 0
  let failed = 0
  let last = 0
  // Timers on the run's clock, which a test moves: a countdown takes no real second there.
  let trailing: unknown
  let status: {until: number; text: (seconds: number) => string} | undefined
  let countdown: unknown
  const later = (callback: () => void, ms: number): unknown => {
    const timer = clock.setTimer(callback, ms)
    ;(timer as {unref?: () => void} | undefined)?.unref?.()
    return timer
  }
  // Each second while a status is shown; the draw that finds it over stops it.
  const tickCountdown = () => {
    countdown = undefined
    draw()
    if (status) countdown = later(tickCountdown, 1000)
  }
  let hadStatus = false
  const statusText = () => {
    if (!status) return ''
    const left = Math.ceil((status.until - clock.now()) / 1000)
    if (left <= 0) {
      status = undefined
      return ''
    }
    return io.forTerminal(status.text(left)).slice(0, Math.max(10, io.columns - 1))
  }
  const draw = () => {
    if (trailing !== undefined) clock.clearTimer(trailing)
    trailing = undefined
    last = clock.now()
    const width = Math.max(10, Math.min(40, io.columns - 40))
    const filled = Math.round((done / total) * width)
    const bar = `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${label(done, total, failed)}\u001b[K`
    const line = statusText()
    if (line || hadStatus) {
      // The status line under the bar (or its clearing), then back to the bar's line.
      stream.write(`${bar}\n${line}\u001b[K\u001b[1A\r`)
      hadStatus = line !== ''
    } else stream.write(bar)
    if (!status && countdown !== undefined) {
      clock.clearTimer(countdown)
      countdown = undefined
    }
  }
  draw()
  return {
    active: true,
    tick(isFailure) {
      done += 1
      if (isFailure) failed += 1
      const since = clock.now() - last
      if (since >= 100 || done === total) draw()
      else if (trailing === undefined) trailing = later(draw, 100 - since)
    },
    wait(ms, text) {
      const until = clock.now() + ms
      // Several requests in flight may wait: the status tells the longest.
      if (status && status.until > until) return
      status = {until, text}
      draw()
      if (countdown === undefined) countdown = later(tickCountdown, 1000)
    },
    done() {
      status = undefined
      draw()
      if (countdown !== undefined) clock.clearTimer(countdown)
      countdown = undefined
      stream.write(hadStatus ? '\n\u001b[K' : '\n')
      hadStatus = false
    },
  }
}
