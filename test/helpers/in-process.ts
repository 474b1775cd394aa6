/**
 * The CLI run in-process, for the tests of flags, validation and formatting: the command class
 * (from src/, through vite) run with oclif's `Command.run` on the project's config, its stdout and
 * stderr captured, as @oclif/test's `captureOutput` does (its `runCommand` loads the
 * commands outside vite, from dist/; the class run with the project's config works). Same arguments and result as `runCli`,
 * so a test moves between the two by changing one name; a test that needs a real process (signals,
 * start-up, the built bundle, a TTY, a second process) keeps `runCli`; stdin is `options.input`
 * (or a stream the test writes to as the run goes, `options.stdin`: `svc mcp`'s protocol).
 *
 * Each run gets the same clean environment a child would (`baseEnv` plus the test's), English as
 * the starting language, and streams of its own that are not terminals, all handed to the command
 * as its context (`SvcCommand.runWith`: streams, environment), not patched into the process. What
 * is still the process's is put back once no run is left: the exit code, the signal listeners the
 * commands added, and TZ (Node reads it from process.env only). Runs may overlap (each has its own
 * language, streams and exit code), except a run that sets TZ: it runs alone. `options.clock` (a
 * test clock, test/helpers/clock.ts) is the run's clock: the test sets and moves its time.
 */
import {existsSync} from 'node:fs'
import {clearLine, clearScreenDown, cursorTo, moveCursor} from 'node:readline'
import {Readable, Writable} from 'node:stream'
import {fileURLToPath} from 'node:url'

import {Config, type Command} from '@oclif/core'

import {SvcCommand, type CommandContextOptions} from '../../src/lib/command.js'
import {baseEnv, type CliOptions, type CliResult} from './cli.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const COMMANDS = fileURLToPath(new URL('../../src/commands/', import.meta.url))

let config: Promise<Config> | undefined
/** The last run that had the process to itself (it set TZ), and the runs started since. */
let alone: Promise<unknown> = Promise.resolve()
let since: Promise<unknown>[] = []
/** What the process had before the first of the runs now going, put back after the last. */
let going = 0
let saved: {exitCode: typeof process.exitCode; listeners: Record<'SIGINT' | 'SIGTERM', Function[]>} | undefined

/**
 * The global flags a user may write before the command words (`svc --profile local pay list`,
 * as the README writes it; bin/run.cjs moves them behind the command for oclif): the base command's
 * own flags, and whether each takes a value.
 */
const GLOBAL_FLAGS = new Map<string, boolean>(
  Object.entries(SvcCommand.baseFlags as Record<string, {type: string; char?: string}>).flatMap(([name, flag]) => [
    [`--${name}`, flag.type === 'option'],
    ...(flag.type === 'boolean' ? [[`--no-${name}`, false] as [string, boolean]] : []),
    ...(flag.char ? [[`-${flag.char}`, flag.type === 'option'] as [string, boolean]] : []),
  ]),
)

/** The leading global flags of an argv, and where the command words start. */
function leadingGlobals(args: string[]): {flags: string[]; from: number} {
  let i = 0
  while (i < args.length && GLOBAL_FLAGS.has(args[i]!.split('=')[0]!)) {
    const takesValue = GLOBAL_FLAGS.get(args[i]!.split('=')[0]!) && !args[i]!.includes('=')
    i += takesValue ? 2 : 1
  }
  return {flags: args.slice(0, i), from: i}
}

/**
 * The command a full argv names (`['pay', 'create', '--amount', …]` → `pay create`), and its own
 * argv (leading global flags moved behind the command words, as bin/run.cjs does).
 */
function split(all: string[]): {id: string; file: string; argv: string[]} {
  const {flags, from} = leadingGlobals(all)
  const args = all.slice(from)
  for (let n = Math.min(args.length, 3); n > 0; n--) {
    const words = args.slice(0, n)
    if (words.some((w) => w.startsWith('-'))) continue
    // A command file, or the index.ts of a topic that is also a command (`sandbox requests`).
    for (const file of [`${COMMANDS}${words.join('/')}.ts`, `${COMMANDS}${words.join('/')}/index.ts`]) {
      if (!existsSync(file)) continue
      const rest = args.slice(n)
      const dashdash = rest.indexOf('--')
      return {id: words.join(' '), file, argv: dashdash === -1 ? [...rest, ...flags] : [...rest.slice(0, dashdash), ...flags, ...rest.slice(dashdash)]}
    }
  }
  throw new Error(`runInProcess: no command in ${JSON.stringify(all)} (use runCli for help, --version, unknown commands)`)
}

/** In-process only: the run's streams are a terminal this many columns wide (stdin, stdout and stderr). */
export interface InProcessOptions extends CliOptions {
  terminal?: {columns: number}
  /**
   * In-process only: the run's stdin is this stream (what the test writes to it, as it writes it,
   * until it ends it), instead of `input`: a command that talks over stdin, such as `svc mcp`.
   */
  stdin?: Readable
  /** In-process only: each write of the run to stdout or stderr, as it comes. */
  onOutput?(stream: 'stdout' | 'stderr', text: string): void
}

/**
 * With `terminal`: `screen` is what the terminal received, stdout and stderr in the order written
 * (absent otherwise: the result is then the same as runCli's).
 */
export interface InProcessResult extends CliResult {
  screen?: string
}

export function runInProcess(args: string[], options: InProcessOptions): Promise<InProcessResult> {
  if (options.onSpawn) throw new Error('runInProcess: the child process needs runCli')
  if (options.env?.TZ !== undefined) {
    const run = Promise.all([alone, ...since]).then(() => runOnce(args, options))
    alone = run.catch(() => undefined)
    since = []
    return run
  }
  const run = alone.then(() => runOnce(args, options))
  since.push(run.catch(() => undefined))
  return run
}

async function runOnce(args: string[], options: InProcessOptions): Promise<InProcessResult> {
  const {id, file, argv} = split(args)
  const loaded = (await import(/* @vite-ignore */ file)) as {default: typeof Command}
  // SvcCommand's static `runWith` on the concrete class (the type is the abstract base).
  const CommandClass = loaded.default as unknown as {id: string; runWith(argv: string[], config: Config, options: CommandContextOptions): Promise<number>}
  CommandClass.id = id
  config ??= Config.load(ROOT)
  const oclifConfig = await config

  const env: Record<string, string> = {...baseEnv(options.configDir)}
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }

  let stdout = ''
  let stderr = ''
  let screen = ''
  // No TTY, as for runCli's children, even when vitest runs in a terminal, unless the test asks for
  // one (`terminal`: a person at a terminal, as runInPty's child has, without a process); stdin
  // holds the test's input (`options.input`), then ends.
  const terminal = options.terminal
  // A terminal's streams also move the cursor and clear lines (tty.WriteStream's methods, which a
  // spinner such as ora's calls): the same escape sequences, written to the stream.
  const tty = terminal
    ? {
        isTTY: true as const,
        columns: terminal.columns,
        rows: 40,
        cursorTo(this: Writable, x: number, y?: number | (() => void), callback?: () => void) {
          return typeof y === 'function' ? cursorTo(this, x, undefined, y) : cursorTo(this, x, y, callback)
        },
        moveCursor(this: Writable, dx: number, dy: number, callback?: () => void) {
          return moveCursor(this, dx, dy, callback)
        },
        clearLine(this: Writable, dir: -1 | 0 | 1, callback?: () => void) {
          return clearLine(this, dir, callback)
        },
        clearScreenDown(this: Writable, callback?: () => void) {
          return clearScreenDown(this, callback)
        },
      }
    : {isTTY: false as const}
  // What a stream receives: its own text, the screen (both in the order written), the test's listener.
  function output(name: 'stdout' | 'stderr') {
    return Object.assign(
      capture((text) => {
        if (name === 'stdout') stdout += text
        else stderr += text
        screen += text
        options.onOutput?.(name, text)
      }),
      tty,
    )
  }
  const streams = {
    stdin: Object.assign(options.stdin ?? Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]), {isTTY: tty.isTTY}),
    stdout: output('stdout'),
    stderr: output('stderr'),
  }
  // A person at a terminal: no CI variable (runInPty's children have none either).
  if (terminal) delete env.CI
  if (going++ === 0) saved = {exitCode: process.exitCode, listeners: {SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM')}}
  process.exitCode = undefined
  const savedTz = process.env.TZ
  if (env.TZ !== undefined) process.env.TZ = env.TZ
  let exitCode: number
  try {
    exitCode = await CommandClass.runWith(argv, oclifConfig, {env, streams, clock: options.clock?.forRuns()})
  } finally {
    if (env.TZ !== undefined) {
      if (savedTz === undefined) delete process.env.TZ
      else process.env.TZ = savedTz
    }
    if (--going === 0 && saved) {
      process.exitCode = saved.exitCode
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        for (const listener of process.listeners(signal)) {
          if (!saved.listeners[signal].includes(listener)) process.off(signal, listener as () => void)
        }
      }
    }
  }
  return {stdout, stderr, exitCode, signal: null, ...(terminal ? {screen} : {})}
}

/** A stream that keeps what is written to it (not a terminal unless the run asks for one). */
function capture(append: (text: string) => void): Writable & {isTTY: false} {
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      append(typeof chunk === 'string' ? chunk : chunk.toString('utf8'))
      done()
    },
  })
  return Object.assign(stream, {isTTY: false as const})
}
