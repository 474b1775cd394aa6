/** A one-line progress bar on stderr, redrawn at most every 100 ms; only when interactive. */
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
  const draw = () => {
    const width = Math.max(10, Math.min(40, io.columns - 40))
    const filled = Math.round((done / total) * width)
    stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${label(done, total, failed)}\u001b[K`)
  }
  draw()
  return {
    tick(isFailure) {
      done += 1
      if (isFailure) failed += 1
      const now = Date.now()
      if (now - last >= 100 || done === total) {
        last = now
        draw()
      }
    },
    done() {
      draw()
      stream.write('\n')
    },
  }
}
