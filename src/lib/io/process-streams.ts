/**
 * The process's own stdin, stdout and stderr, as IO sees them, without paying for them at
 * start-up. Node builds `process.stdout` (and the others) on first access: a stream over a file,
 * a pipe or a terminal, which loads the stream modules and costs 1–2.5 ms each (stdin over
 * /dev/null the most). A command such as `svc profiles list` prints a few lines and never reads
 * stdin, so here:
 * - a line goes to its descriptor with one `writeSync`, which is what Node's stream does anyway
 *   for files, terminals and (on Linux) pipes; the stream object is created only for what needs
 *   a stream (a spinner, a prompt, bytes written with a callback), and once it exists every later
 *   line goes through it, so nothing can overtake what it still holds (bin/run.cjs watches which
 *   streams exist; run any other way, svc writes through the streams);
 * - whether a descriptor is a terminal is read with fstat first: only a character device that is
 *   not /dev/null can be one, and only then is `tty.isatty` asked (node:tty loads node:net);
 * - a write that would block (a descriptor set non-blocking, as a pipe from a Node parent is, met
 *   full: EAGAIN) goes through the stream from then on, which queues it; a reader gone away
 *   (EPIPE: `svc … | head -1`) silently ends the output to that descriptor, not the command, as
 *   oclif's own listener does for stdout.
 * docs/startup.md has the measured figures.
 */
import {fstatSync, statSync, writeSync} from 'node:fs'

export interface StreamsLike {
  stdin: NodeJS.ReadStream | (NodeJS.ReadableStream & {isTTY?: boolean})
  stdout: NodeJS.WriteStream | (NodeJS.WritableStream & {isTTY?: boolean; columns?: number})
  stderr: NodeJS.WriteStream | (NodeJS.WritableStream & {isTTY?: boolean; columns?: number})
}

type Name = 'stdin' | 'stdout' | 'stderr'
const FD: Record<Name, number> = {stdin: 0, stdout: 1, stderr: 2}

/**
 * The streams no one has made yet, kept by bin/run.cjs (watchStdio), which sees the process start.
 * Without it (svc's code run in another program, a test runner) every write goes through the
 * streams, as anything else there writes.
 */
function unmade(name: Name): boolean {
  return Boolean((process as unknown as Record<symbol, Set<string> | undefined>)[Symbol.for('svc.stdio.unmade')]?.has(name))
}

/** Descriptors whose reader went away (EPIPE): for the whole process, as the descriptor is. */
const closed = new Set<Name>()
/** Streams this module made (a full pipe handed over to them) and watches for EPIPE. */
const watched = new Set<Name>()

export class ProcessStreams implements StreamsLike {
  private readonly terminals = new Map<Name, boolean>()

  get stdin(): NodeJS.ReadStream {
    return process.stdin
  }

  get stdout(): NodeJS.WriteStream {
    return process.stdout
  }

  get stderr(): NodeJS.WriteStream {
    return process.stderr
  }

  /** Whether the stream exists yet (e.g. stdin cannot be in raw mode if no one ever made it). */
  has(name: Name): boolean {
    return !unmade(name)
  }

  /** Whether the descriptor is a terminal, asked without making the stream. */
  isTerminal(name: Name): boolean {
    let answer = this.terminals.get(name)
    if (answer === undefined) {
      answer = unmade(name) ? isTerminalFd(FD[name]) : Boolean(this[name].isTTY)
      this.terminals.set(name, answer)
    }
    return answer
  }

  /** `text` on stdout or stderr, whole, in order with everything written before it. */
  write(name: 'stdout' | 'stderr', text: string): void {
    if (closed.has(name)) return
    // Windows: a console takes UTF-16 through its stream (libuv's tty), not UTF-8 bytes written to it.
    if (!unmade(name) || process.platform === 'win32') {
      this[name].write(text)
      return
    }
    const bytes = Buffer.from(text, 'utf8')
    let at = 0
    try {
      while (at < bytes.length) at += writeSync(FD[name], bytes, at, bytes.length - at)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EPIPE') closed.add(name)
      else if (code === 'EAGAIN') handOver(this[name], name).write(bytes.subarray(at))
      else throw error
    }
  }
}

/** A stream made for a full pipe: the EPIPE it reports later ends its output quietly, as writeSync's does. */
function handOver(stream: NodeJS.WriteStream, name: 'stdout' | 'stderr'): NodeJS.WriteStream {
  if (!watched.has(name)) {
    watched.add(name)
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error
      closed.add(name)
    })
  }
  return stream
}

function isTerminalFd(fd: number): boolean {
  if (process.platform === 'win32') return process.getBuiltinModule('node:tty').isatty(fd)
  try {
    const stat = fstatSync(fd)
    if (!stat.isCharacterDevice()) return false
    // Where benchmarks, cron and `>/dev/null` send output: a character device, never a terminal.
    if (stat.rdev === statSync('/dev/null').rdev) return false
  } catch {
    return false
  }
  return process.getBuiltinModule('node:tty').isatty(fd)
}
