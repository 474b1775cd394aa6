/**
 * A one-line progress bar on stderr, redrawn at most every 100 ms; only when interactive. A tick
 * inside the 100 ms is drawn by a trailing redraw, never dropped: rows finish in bursts (a batch
 * answered together, then a wait for the rate limit), and dropping the burst's ticks left the bar
 * on `1/40` for the whole wait.
 */
import type {IO} from '../io/terminal.js'

export interface Progress {
  tick(failed: boolean): void
  done(): void
}

export function progressBar(io: IO, total: number, label: (done: number, total: number, failed: number) => string): Progress {
  if (!io.interactive || io.json || total === 0) return {tick() {}, done() {}}
  const stream = io.streams.stderr
  let done = 0
  let failed = 0
  let last = 0
  let trailing: NodeJS.Timeout | undefined
  const draw = () => {
    if (trailing) clearTimeout(trailing)
    trailing = undefined
    last = Date.now()
    const width = Math.max(10, Math.min(40, io.columns - 40))
    const filled = Math.round((done / total) * width)
    stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${label(done, total, failed)}\u001b[K`)
  }
  draw()
  return {
    tick(isFailure) {
      done += 1
      if (isFailure) failed += 1
      const since = Date.now() - last
      if (since >= 100 || done === total) draw()
      else if (!trailing) {
        trailing = setTimeout(draw, 100 - since)
        trailing.unref()
      }
    },
    done() {
      draw()
      stream.write('\n')
    },
  }
}
