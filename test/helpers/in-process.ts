/**
 * The CLI run in-process, for the tests of flags, validation and formatting: the command class
 * (from src/, through vite) run with oclif's `Command.run` on the project's config, its stdout and
 * stderr captured, as @oclif/test's `captureOutput` does (stack-notes.md: `runCommand` loads
 * commands outside vite; the class run with `{root}` works). Same arguments and result as `runCli`,
 * so a test moves between the two by changing one name; a test that needs a real process (signals,
 * start-up, the built bundle, a TTY, a second process) keeps `runCli`; stdin is `options.input`.
 *
 * Each run gets the same clean environment a child would (`baseEnv` plus the test's), English as
 * the starting language, and streams of its own that are not terminals, all handed to the command
 * as its context (`SvcCommand.runWith`: streams, environment), not patched into the process. What
 * is still the process's is put back after the run: the exit code, the SIGINT and SIGTERM
 * listeners the command added, the language, and TZ (Node reads it from process.env only) when
 * the test sets one. Runs are serialised: they share the process.
 */
import {existsSync} from 'node:fs'
import {Readable, Writable} from 'node:stream'
import {fileURLToPath} from 'node:url'

import {Config, type Command} from '@oclif/core'

import type {CommandContextOptions} from '../../src/lib/command.js'
import {setLocale} from '../../src/lib/i18n/index.js'
import {baseEnv, type CliOptions, type CliResult} from './cli.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const COMMANDS = fileURLToPath(new URL('../../src/commands/', import.meta.url))

let config: Promise<Config> | undefined
let queue: Promise<unknown> = Promise.resolve()

/** The command a full argv names (`['pay', 'create', '--amount', …]` → `pay create`), and its own argv. */
function split(args: string[]): {id: string; file: string; argv: string[]} {
  for (let n = Math.min(args.length, 3); n > 0; n--) {
    const words = args.slice(0, n)
    if (words.some((w) => w.startsWith('-'))) continue
    // A command file, or the index.ts of a topic that is also a command (`sandbox requests`).
    for (const file of [`${COMMANDS}${words.join('/')}.ts`, `${COMMANDS}${words.join('/')}/index.ts`]) {
      if (existsSync(file)) return {id: words.join(' '), file, argv: args.slice(n)}
    }
  }
  throw new Error(`runInProcess: no command in ${JSON.stringify(args)} (use runCli for help, --version, unknown commands)`)
}

export function runInProcess(args: string[], options: CliOptions): Promise<CliResult> {
  if (options.onSpawn) throw new Error('runInProcess: the child process needs runCli')
  const run = queue.then(() => runOnce(args, options))
  queue = run.catch(() => undefined)
  return run
}

async function runOnce(args: string[], options: CliOptions): Promise<CliResult> {
  const {id, file, argv} = split(args)
  const loaded = (await import(/* @vite-ignore */ file)) as {default: typeof Command}
  // SvcCommand's static `runWith` on the concrete class (the type is the abstract base).
  const CommandClass = loaded.default as unknown as {id: string; runWith(argv: string[], config: Config, options: CommandContextOptions): Promise<unknown>}
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
  // No TTY, as for runCli's children, even when vitest runs in a terminal; stdin holds the test's
  // input (`options.input`), then ends.
  const streams = {
    stdin: Object.assign(Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]), {isTTY: false}),
    stdout: capture((text) => (stdout += text)),
    stderr: capture((text) => (stderr += text)),
  }
  const savedExitCode = process.exitCode
  const savedTz = process.env.TZ
  const signals = ['SIGINT', 'SIGTERM'] as const
  const signalListeners = signals.map((signal) => process.listeners(signal))
  process.exitCode = undefined
  if (env.TZ !== undefined) process.env.TZ = env.TZ
  setLocale('en')
  let exitCode: number
  try {
    await CommandClass.runWith(argv, oclifConfig, {env, streams})
    exitCode = typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0)
  } finally {
    if (savedTz === undefined) delete process.env.TZ
    else process.env.TZ = savedTz
    process.exitCode = savedExitCode
    signals.forEach((signal, i) => {
      for (const listener of process.listeners(signal)) {
        if (!signalListeners[i]!.includes(listener)) process.off(signal, listener)
      }
    })
    setLocale('en')
  }
  return {stdout, stderr, exitCode, signal: null}
}

/** A stream that is not a terminal and keeps what is written to it. */
function capture(append: (text: string) => void): Writable & {isTTY: false} {
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      append(typeof chunk === 'string' ? chunk : chunk.toString('utf8'))
      done()
    },
  })
  return Object.assign(stream, {isTTY: false as const})
}
