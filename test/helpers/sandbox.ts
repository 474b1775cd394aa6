/**
 * The one way tests start a local sandbox.
 *
 * - `startTestSandbox(options)`: in-process on 127.0.0.1:0 (no rate limit, seeded, payments settle
 *   after 200 ms unless told), with the environment a CLI child process needs to talk to it, calls
 *   of its public and admin APIs to set up and inspect state, and `close()`. With
 *   `options.clock` (a test clock, test/helpers/clock.ts), sandbox time runs on it, and the runs
 *   of `cli()` take it too: one time the test sets and moves for both.
 * - `startServe(configDir)`: `svc sandbox serve --json` as a real child process, as a developer
 *   runs it in another terminal: for the tests of `sandbox serve` itself and of its process.
 * - `serveInProcess(configDir)`: what serve does (the same code: its sandbox, profiles, registry
 *   entry and --json document), in this process: for the tests of the commands that find a served
 *   sandbox through the state it leaves in the config dir, where the serve process is not the
 *   subject (its start costs a child's start-up). `stop()` closes it as Ctrl-C does.
 */
import type {ChildProcess} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Readable, Writable} from 'node:stream'

import type {ServeFlags} from '../../src/lib/sandbox-admin/serve.js'

import {startSandbox, type Sandbox, type StartOptions} from '../../src/sandbox/index.js'
import {baseEnv, runCli, type CliOptions, type CliResult} from './cli.js'
import {TestClock} from './clock.js'

export type {Sandbox, StartOptions}

export interface TestSandbox {
  sb: Sandbox
  /** SVC_API_KEY / SVC_BASE_URL for a CLI run against this sandbox (sandbox key by default). */
  env(key?: 'sandbox' | 'live'): Record<string, string>
  /**
   * A CLI runner against this sandbox, with `configDir` and no client-side rate limit: a child
   * process (`runCli`), or `runInProcess` for the tests of flags, validation and formatting.
   */
  cli(configDir: string, key?: 'sandbox' | 'live', run?: typeof runCli): (args: string[], extra?: Partial<CliOptions>) => Promise<CliResult>
  /** Admin call (Bearer token) to inspect or drive the sandbox's state. */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<T>
  /** A public-API GET with the sandbox key: to check what the server holds. */
  get<T = any>(path: string, key?: string): Promise<T>
  close(): Promise<void>
}

export async function startTestSandbox(options: StartOptions = {}): Promise<TestSandbox> {
  const sb = await startSandbox({port: 0, rateLimit: 0, settleAfterMs: 200, seed: 7, ...options})
  const clock = options.clock instanceof TestClock ? options.clock : undefined
  const env = (key: 'sandbox' | 'live' = 'sandbox') => ({SVC_API_KEY: sb.keys[key], SVC_BASE_URL: sb.url})
  return {
    sb,
    env,
    cli: (configDir, key = 'sandbox', run = runCli) => (args, extra = {}) =>
      run(args, {configDir, clock, ...extra, env: {...env(key), SVC_RATE_LIMIT: '0', ...extra.env}}),
    async admin(method, path, body) {
      const response = await fetch(`${sb.adminUrl}${path}`, {
        method,
        headers: {authorization: `Bearer ${sb.adminToken}`, ...(body === undefined ? {} : {'content-type': 'application/json'})},
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return (await response.json()) as any
    },
    async get(path, key = sb.keys.sandbox) {
      const response = await fetch(`${sb.url}${path}`, {headers: {'x-api-key': key}})
      return (await response.json()) as any
    },
    close: () => sb.close(),
  }
}

export interface ServedSandbox {
  /** The JSON document serve printed: base_url, sandbox_key, live_key, admin_url, … */
  info: any
  /** Sends SIGINT and resolves with how the process ended. */
  stop(): Promise<CliResult>
  /** Sends this signal (e.g. SIGKILL: a crash) and resolves with how the process ended. */
  kill(signal: NodeJS.Signals): Promise<CliResult>
}

export async function startServe(configDir: string, args: string[] = [], env: Record<string, string> = {}): Promise<ServedSandbox> {
  let child!: ChildProcess
  let started!: (info: unknown) => void
  const ready = new Promise<unknown>((resolve) => (started = resolve))
  let out = ''
  // Port 0 (any free port) unless the test names one (a restart on the same port).
  const port = args.includes('--port') ? [] : ['--port', '0']
  const ended = runCli(['sandbox', 'serve', ...port, ...args, '--json'], {
    configDir,
    env,
    timeoutMs: 120_000,
    onSpawn(spawned) {
      child = spawned
      spawned.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        try {
          const document = JSON.parse(out)
          // An error envelope (--json) is a serve that failed: it ends, and `ended` says how.
          if (!document.error) started(document)
        } catch {
          // Not the whole document yet.
        }
      })
    },
  })
  // A serve that dies before printing (e.g. a broken build) fails the test instead of hanging it.
  const info = await Promise.race([ready, ended.then((r) => Promise.reject(new Error(`serve exited ${r.exitCode}: ${r.stderr}${r.stdout}`)))])
  return {
    info,
    stop() {
      child.kill('SIGINT')
      return ended
    },
    kill(signal) {
      child.kill(signal)
      return ended
    },
  }
}

export interface InProcessServe {
  /** The JSON document serve prints with --json: base_url, sandbox_key, live_key, admin_url, … */
  info: any
  /** What serve wrote on stderr so far (its notices). */
  stderr(): string
  /** Closes it as Ctrl-C does: its registry entry removed, its profile kept. */
  stop(): Promise<void>
}

/**
 * `svc sandbox serve --port 0 --json` in this process (see above); `flags` as serve's (its
 * defaults otherwise: payments settle after 2 s, 100 requests a minute).
 */
export async function serveInProcess(configDir: string, flags: Partial<ServeFlags> = {}): Promise<InProcessServe> {
  const {createContext} = await import('../../src/lib/context.js')
  const {serveSandbox} = await import('../../src/lib/sandbox-admin/serve.js')
  const collect = () => {
    let text = ''
    const stream = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        text += chunk.toString()
        done()
      },
    })
    return {stream, text: () => text}
  }
  const out = collect()
  const err = collect()
  const ctx = createContext({flags: {json: true}, version: '0.0.0', env: baseEnv(configDir), streams: {stdin: Readable.from([]), stdout: out.stream, stderr: err.stream}})
  const running = await serveSandbox(ctx, {port: 0, host: '127.0.0.1', 'settle-after': '2s', 'rate-limit': 100, ...flags})
  return {info: JSON.parse(out.text()), stderr: err.text, stop: () => running.close()}
}

/** A payment on a served sandbox with its own key, over its public API (201 or it throws); its id. */
export async function payOn(served: ServedSandbox, amount: number, phone = '237670000001'): Promise<string> {
  const response = await fetch(`${served.info.base_url}/v1/payments`, {
    method: 'POST',
    headers: {'x-api-key': served.info.sandbox_key, 'content-type': 'application/json'},
    body: JSON.stringify({amount, phone_number: phone, operator: 'MTN'}),
  })
  if (response.status !== 201) throw new Error(`payment on ${served.info.base_url}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as {id: string}).id
}

/**
 * What a running `svc sandbox serve` leaves in a config dir (its entry in `sandboxes.json`), for
 * an in-process sandbox: the commands then take it for "the running sandbox". The entry names
 * this test process, which is alive while the test runs.
 */
export function markRunningSandbox(configDir: string, sb: Sandbox, profile = 'local'): void {
  mkdirSync(configDir, {recursive: true, mode: 0o700})
  const entry = {
    base_url: sb.url,
    admin_url: sb.adminUrl,
    admin_token: sb.adminToken,
    pay_url: sb.payUrl,
    pid: process.pid,
    started_at: new Date().toISOString(),
    data_file: null,
    profile,
  }
  writeFileSync(join(configDir, 'sandboxes.json'), JSON.stringify({version: 1, sandboxes: [entry]}), {mode: 0o600})
}
