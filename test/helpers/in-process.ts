/**
 * The CLI run in-process, for the tests of flags, validation and formatting: the command class
 * (from src/, through vite) run with oclif's `Command.run` on the project's config, its stdout and
 * stderr captured, as @oclif/test's `captureOutput` does (stack-notes.md: `runCommand` loads
 * commands outside vite; the class run with `{root}` works). Same arguments and result as `runCli`,
 * so a test moves between the two by changing one name; a test that needs a real process (signals,
 * stdin, start-up, the built bundle, a TTY, a second process) keeps `runCli`.
 *
 * Each run gets the same clean environment a child would (`baseEnv` plus the test's), English as
 * the starting language, and leaves nothing behind: process.env, the exit code and the SIGINT
 * listeners the command added are restored. Runs are serialised: they share the process.
 */
import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {Config, type Command} from '@oclif/core'

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
    const file = `${COMMANDS}${words.join('/')}.ts`
    if (existsSync(file)) return {id: words.join(' '), file, argv: args.slice(n)}
  }
  throw new Error(`runInProcess: no command in ${JSON.stringify(args)} (use runCli for help, --version, unknown commands)`)
}

export function runInProcess(args: string[], options: CliOptions): Promise<CliResult> {
  if (options.input !== undefined || options.onSpawn) throw new Error('runInProcess: stdin and the child process need runCli')
  const run = queue.then(() => runOnce(args, options))
  queue = run.catch(() => undefined)
  return run
}

async function runOnce(args: string[], options: CliOptions): Promise<CliResult> {
  const {id, file, argv} = split(args)
  const loaded = (await import(/* @vite-ignore */ file)) as {default: typeof Command}
  // oclif's static `run` on the concrete class (the type is the abstract base).
  const CommandClass = loaded.default as unknown as {id: string; run(argv: string[], config: Config): Promise<unknown>}
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
  const savedEnv = {...process.env}
  const savedExitCode = process.exitCode
  const savedWrites = {out: process.stdout.write, err: process.stderr.write}
  const sigintListeners = process.listeners('SIGINT')
  const capture =
    (append: (text: string) => void) =>
    (chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      const done = typeof encoding === 'function' ? encoding : callback
      if (typeof done === 'function') done()
      return true
    }
  replaceEnv(env)
  process.exitCode = undefined
  setLocale('en')
  // No TTY, as for runCli's children, even when vitest runs in a terminal.
  const ttys = [process.stdin, process.stdout, process.stderr].map((stream) => [stream, Object.getOwnPropertyDescriptor(stream, 'isTTY')] as const)
  for (const [stream] of ttys) Object.defineProperty(stream, 'isTTY', {value: false, configurable: true, writable: true})
  process.stdout.write = capture((text) => (stdout += text)) as typeof process.stdout.write
  process.stderr.write = capture((text) => (stderr += text)) as typeof process.stderr.write
  let exitCode: number
  try {
    await CommandClass.run(argv, oclifConfig)
    exitCode = typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0)
  } finally {
    process.stdout.write = savedWrites.out
    process.stderr.write = savedWrites.err
    replaceEnv(savedEnv)
    for (const [stream, descriptor] of ttys) {
      if (descriptor) Object.defineProperty(stream, 'isTTY', descriptor)
      else delete (stream as {isTTY?: boolean}).isTTY
    }
    process.exitCode = savedExitCode
    for (const listener of process.listeners('SIGINT')) {
      if (!sigintListeners.includes(listener)) process.off('SIGINT', listener)
    }
    setLocale('en')
  }
  return {stdout, stderr, exitCode, signal: null}
}

/** The same process.env object, its contents swapped: Node's own hooks (TZ) keep working. */
function replaceEnv(values: Record<string, string | undefined>): void {
  for (const name of Object.keys(process.env)) if (!(name in values)) delete process.env[name]
  for (const [name, value] of Object.entries(values)) if (value !== undefined) process.env[name] = value
}
