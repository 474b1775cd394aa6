/**
 * Progress while a report reads its pages, on stderr: a spinner on a terminal; otherwise, only
 * for a long run (a CI log, a pipe), a line now and then so the job visibly moves. Nothing with
 * --json.
 */
import type {IO} from '../io/terminal.js'
import {systemClock, type Clock} from '../../contract/clock.js'

export interface ReportProgress {
  update(text: string): void
  stop(): void
}

export interface ProgressOptions {
  /** Non-interactive: first line after this long, then at most this often. */
  quietMs?: number
  /** Where the progress reads the time (default: the system clock). */
  clock?: Clock
}

export async function reportProgress(io: IO, first: string, options: ProgressOptions = {}): Promise<ReportProgress> {
  if (io.json) return {update() {}, stop() {}}
  if (io.interactive) {
    const spinner = await io.spinner(first)
    return {update: (text) => spinner.update(text), stop: () => spinner.stop()}
  }
  const quietMs = options.quietMs ?? 5000
  const clock = options.clock ?? systemClock
  const now = () => clock.now()
  let next = now() + quietMs
  return {
    update(text) {
      if (now() < next) return
      next = now() + quietMs
      io.err(text)
    },
    stop() {},
  }
}

/** Runs `work` with progress starting at `first`, and stops it however `work` ends (io.withSpinner's kin). */
export async function withReportProgress<T>(io: IO, first: string, work: (progress: ReportProgress) => Promise<T>, options: ProgressOptions = {}): Promise<T> {
  const progress = await reportProgress(io, first, options)
  try {
    return await work(progress)
  } finally {
    progress.stop()
  }
}
