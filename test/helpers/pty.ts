/**
 * Runs the built CLI in a real pseudo-terminal (@lydell/node-pty), so prompts, masking and
 * colours behave as for a person at a keyboard. `expect(text)` waits for text on the screen.
 * Started with `warp`, the child's time may be run faster once what the test waits for is on the
 * screen (`warp()`: test/helpers/child-time-warp.mjs, as runCli's `warp`).
 */
import {spawn, type IPty} from '@lydell/node-pty'

import {BIN, TIME_WARP, baseEnv, countSpawn} from './cli.js'

export interface PtySession {
  /** Everything written to the terminal so far (stdout and stderr together, as a screen shows). */
  output(): string
  /** Resolves once `pattern` has appeared after `since` (default: anywhere in the output). */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<void>
  type(text: string): void
  exit: Promise<{exitCode: number; signal?: number}>
  kill(): void
  /**
   * The child's time (its timers, Date.now) runs `warp` times faster from now on: a run started
   * with `warp`, once what the test needed at real pace is on the screen.
   */
  warp(): Promise<void>
}

// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-B]|\u001b[=>]/g

export function stripAnsi(text: string): string {
  return text.replace(ANSI_SEQUENCE, '')
}

export function runInPty(args: string[], options: {configDir: string; env?: Record<string, string>; cols?: number; rows?: number; warp?: number}): PtySession {
  const env: Record<string, string> = {...baseEnv(options.configDir), TERM: 'xterm-256color', ...options.env}
  // A person at a terminal: no CI variable at all.
  delete env.CI
  if (options.warp) env.SVC_TEST_TIME_WARP = String(options.warp)
  countSpawn('pty', args)
  const preload = options.warp ? ['--import', TIME_WARP.preload] : []
  const pty: IPty = spawn(process.execPath, [...preload, BIN, ...args], {cols: options.cols ?? 120, rows: options.rows ?? 40, env, name: 'xterm-256color'})
  let output = ''
  const waiters: (() => void)[] = []
  pty.onData((data) => {
    output += data
    for (const waiter of waiters.splice(0)) waiter()
  })
  const exit = new Promise<{exitCode: number; signal?: number}>((resolve) => pty.onExit(resolve))
  const waitFor = async (pattern: RegExp | string, timeoutMs = 10_000, from = 0) => {
    const matches = () => {
      const screen = stripAnsi(output.slice(from))
      return typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)
    }
    const deadline = Date.now() + timeoutMs
    while (!matches()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; screen:\n${stripAnsi(output)}`)
      await Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise((r) => setTimeout(r, 100))])
    }
  }
  return {
    output: () => output,
    waitFor: (pattern, timeoutMs) => waitFor(pattern, timeoutMs),
    async warp() {
      if (!options.warp) throw new Error('warp(): the run was not started with a warp')
      const from = output.length
      pty.kill(TIME_WARP.signal)
      await waitFor(`[time-warp] ${options.warp}x at`, 10_000, from)
    },
    type: (text) => pty.write(text),
    exit,
    kill: () => pty.kill(),
  }
}
