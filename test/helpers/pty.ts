/**
 * Runs the built CLI in a real pseudo-terminal (@lydell/node-pty), so prompts, masking and
 * colours behave as for a person at a keyboard. `expect(text)` waits for text on the screen.
 */
import {spawn, type IPty} from '@lydell/node-pty'

import {BIN, baseEnv, countSpawn} from './cli.js'

export interface PtySession {
  /** Everything written to the terminal so far (stdout and stderr together, as a screen shows). */
  output(): string
  /** Resolves once `pattern` has appeared after `since` (default: anywhere in the output). */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<void>
  type(text: string): void
  exit: Promise<{exitCode: number; signal?: number}>
  kill(): void
}

// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-B]|\u001b[=>]/g

export function stripAnsi(text: string): string {
  return text.replace(ANSI_SEQUENCE, '')
}

export function runInPty(args: string[], options: {configDir: string; env?: Record<string, string>; cols?: number; rows?: number}): PtySession {
  const env: Record<string, string> = {...baseEnv(options.configDir), TERM: 'xterm-256color', ...options.env}
  // A person at a terminal: no CI variable at all.
  delete env.CI
  countSpawn('pty', args)
  const pty: IPty = spawn(process.execPath, [BIN, ...args], {cols: options.cols ?? 120, rows: options.rows ?? 40, env, name: 'xterm-256color'})
  let output = ''
  const waiters: (() => void)[] = []
  pty.onData((data) => {
    output += data
    for (const waiter of waiters.splice(0)) waiter()
  })
  const exit = new Promise<{exitCode: number; signal?: number}>((resolve) => pty.onExit(resolve))
  return {
    output: () => output,
    async waitFor(pattern, timeoutMs = 10_000) {
      const matches = () => (typeof pattern === 'string' ? stripAnsi(output).includes(pattern) : pattern.test(stripAnsi(output)))
      const deadline = Date.now() + timeoutMs
      while (!matches()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; screen:\n${stripAnsi(output)}`)
        await Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise((r) => setTimeout(r, 100))])
      }
    },
    type: (text) => pty.write(text),
    exit,
    kill: () => pty.kill(),
  }
}
