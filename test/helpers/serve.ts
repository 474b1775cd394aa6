/**
 * `svc sandbox serve --json` as a real child process, as a developer runs it in another
 * terminal: resolves with what it printed once it is ready; `stop()` sends Ctrl-C (SIGINT).
 */
import type {ChildProcess} from 'node:child_process'

import {runCli, type CliResult} from './cli.js'

export interface ServedSandbox {
  /** The JSON document serve printed: base_url, sandbox_key, live_key, admin_url, … */
  info: any
  /** Sends SIGINT and resolves with how the process ended. */
  stop(): Promise<CliResult>
}

export async function startServe(configDir: string, args: string[] = [], env: Record<string, string> = {}): Promise<ServedSandbox> {
  let child!: ChildProcess
  let started!: (info: unknown) => void
  const ready = new Promise<unknown>((resolve) => (started = resolve))
  let out = ''
  const ended = runCli(['sandbox', 'serve', '--port', '0', ...args, '--json'], {
    configDir,
    env,
    timeoutMs: 120_000,
    onSpawn(spawned) {
      child = spawned
      spawned.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        try {
          started(JSON.parse(out))
        } catch {
          // Not the whole document yet.
        }
      })
    },
  })
  // A serve that dies before printing (e.g. a broken build) fails the test instead of hanging it.
  const info = await Promise.race([ready, ended.then((r) => Promise.reject(new Error(`serve exited ${r.exitCode}: ${r.stderr}`)))])
  return {
    info,
    stop() {
      child.kill('SIGINT')
      return ended
    },
  }
}
