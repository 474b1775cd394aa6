/**
 * The run's streams with every line written to stderr prefixed (`svc exec: …`): a command that runs
 * another program on the same terminal (`svc sandbox exec -- npm test`) keeps its own lines apart
 * from that program's, which writes straight to the descriptors and stays unprefixed. stdin and
 * stdout are the run's own.
 */
import {ProcessStreams, type StreamsLike} from './process-streams.js'

export function prefixedStreams(inner: StreamsLike, prefix: string): StreamsLike {
  // IO writes whole lines (one or several, each ending with a newline).
  const prefixLines = (text: string) => text.replace(/^(?=.)/gm, prefix)
  const write = (text: string) => {
    if (inner instanceof ProcessStreams) inner.write('stderr', prefixLines(text))
    else inner.stderr.write(prefixLines(text))
  }
  const stderr = {
    write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
      write(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined
      callback?.()
      return true
    },
    get isTTY() {
      return inner instanceof ProcessStreams ? inner.isTerminal('stderr') : Boolean(inner.stderr.isTTY)
    },
    get columns() {
      return (inner.stderr as {columns?: number}).columns
    },
  }
  return {
    get stdin() {
      return inner.stdin
    },
    get stdout() {
      return inner.stdout
    },
    stderr: stderr as unknown as StreamsLike['stderr'],
  }
}
