/**
 * Runs the built CLI (`bin/run.cjs` over `dist/`) as a child process, as a user would: no TTY,
 * a clean environment, a temp SVC_CONFIG_DIR. `npm test` builds first.
 */
import {spawn} from 'node:child_process'
import {appendFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import type {TestClock} from './clock.js'

export const BIN = fileURLToPath(new URL('../../bin/run.cjs', import.meta.url))
/** Preloaded (`--import`) into a child started on a test clock (runCli's `clock`). */
export const CHILD_CLOCK = new URL('./child-clock.mjs', import.meta.url).href
const CHILD_TIME_WARP = new URL('./child-time-warp.mjs', import.meta.url).href
/** What a child started with `warp` takes as "change pace" (test/helpers/child-time-warp.mjs). */
const WARP_SIGNAL = 'SIGURG'

export interface CliResult {
  stdout: string
  stderr: string
  exitCode: number | null
  signal: NodeJS.Signals | null
}

export interface CliOptions {
  configDir: string
  env?: Record<string, string | undefined>
  input?: string
  timeoutMs?: number
  /** Called once the child has started (e.g. to kill it part-way). */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void
  /**
   * The run's clock (test/helpers/clock.ts): in-process, the run's `ctx.clock`; a child starts
   * with its time at that moment (pinned if the clock is), and no later move reaches it.
   */
  clock?: TestClock
  /**
   * A child whose time a test may speed up (test/helpers/child-time-warp.mjs): real time until
   * the test warps it (`warpTime`, `BackgroundCli.warp()`), then this many times faster, its timers
   * too, until the test sets it back.
   */
  warp?: number
}

/** The environment a test CLI run starts from: nothing of the developer's own settings. */
export function baseEnv(configDir: string): Record<string, string> {
  return {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', SVC_CONFIG_DIR: configDir, LANG: 'C.UTF-8'}
}

/**
 * With SVC_TEST_SPAWN_LOG=FILE, each CLI process a test starts (runCli, runInPty) adds a line to
 * FILE (`wc -l FILE` after a run: how many the suite spawned).
 */
export function countSpawn(kind: 'cli' | 'pty', args: string[]): void {
  const log = process.env.SVC_TEST_SPAWN_LOG
  // The first two words when they are command words; anything else (a key after --api-key…) is
  // not written: the log must hold no secret.
  if (log) appendFileSync(log, `${kind} ${args.slice(0, 2).map((arg) => (/^-{0,2}[a-z][a-z-]*$/.test(arg) ? arg : '…')).join(' ')}\n`)
}

export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  countSpawn('cli', args)
  const env: Record<string, string> = {...baseEnv(options.configDir)}
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  return new Promise((resolve, reject) => {
    if (options.clock) env.SVC_TEST_CLOCK = options.clock.forChild()
    if (options.warp) env.SVC_TEST_TIME_WARP = String(options.warp)
    const preload = [...(options.clock ? ['--import', CHILD_CLOCK] : []), ...(options.warp ? ['--import', CHILD_TIME_WARP] : [])]
    const child = spawn(process.execPath, [...preload, BIN, ...args], {env, stdio: ['pipe', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000)
    child.on('error', reject)
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer)
      resolve({stdout, stderr, exitCode, signal})
    })
    options.onSpawn?.(child)
    if (options.input !== undefined) child.stdin.end(options.input)
    else child.stdin.end()
  })
}

/** A CLI run left running (listen, a tail): its output so far, whether it has ended, its result. */
export interface BackgroundCli {
  result: Promise<CliResult>
  child(): import('node:child_process').ChildProcess
  stdout(): string
  stderr(): string
  exited(): boolean
  /** `warpTime` on this run (started with `warp`). */
  warp(fast?: boolean): Promise<() => number>
}

/**
 * Sets the pace of a child started with `warp` (test/helpers/child-time-warp.mjs): `fast`, `rate`
 * times real time, else real time again. Once the child says so: its time now, as a function (no
 * later than it is: counted from the moment the test read the child's word, at the new pace).
 */
export async function warpTime(child: import('node:child_process').ChildProcess, stderr: () => string, rate: number, fast = true): Promise<() => number> {
  const pace = fast ? rate : 1
  const from = stderr().length
  child.kill(WARP_SIGNAL)
  const said = new RegExp(`\\[time-warp\\] ${pace}x at (\\d+)\\n`)
  while (!said.test(stderr().slice(from))) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`warpTime: the child ended first:\n${stderr()}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const childAt = Number(said.exec(stderr().slice(from))![1])
  const seenAt = Date.now()
  return () => childAt + (Date.now() - seenAt) * pace
}

/** `runCli` in the background: what it prints is readable as it comes (e.g. to wait for "ready"). */
export function startCli(args: string[], options: CliOptions): BackgroundCli {
  let child!: import('node:child_process').ChildProcess
  let out = ''
  let err = ''
  let exited = false
  const result = runCli(args, {
    ...options,
    onSpawn(spawned) {
      child = spawned
      spawned.stdout!.on('data', (d: string) => (out += d))
      spawned.stderr!.on('data', (d: string) => (err += d))
      options.onSpawn?.(spawned)
    },
  })
  void result.then(() => (exited = true))
  return {
    result,
    child: () => child,
    stdout: () => out,
    stderr: () => err,
    exited: () => exited,
    warp(fast = true) {
      if (!options.warp) throw new Error('warp(): the run was not started with a warp')
      return warpTime(child, () => err, options.warp, fast)
    },
  }
}

/** ESC [ … : any ANSI escape sequence. */
export const ANSI = /\u001b\[/

/** How a child is started with a warp, and told to change pace (runInPty's `warp` uses them too). */
export const TIME_WARP = {preload: CHILD_TIME_WARP, signal: WARP_SIGNAL} as const
