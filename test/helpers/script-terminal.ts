/**
 * A command of the built CLI under a real terminal of a given width, as a person at 80 or 120
 * columns sees it: util-linux `script` gives it a pseudo-terminal sized by `stty cols N rows 40`.
 * Returns the screen (stdout and stderr together) without ANSI sequences or carriage returns.
 */
import {execFile} from 'node:child_process'

import {BIN, baseEnv} from './cli.js'
import {stripAnsi} from './pty.js'

export function inTerminal(args: string[], cols: number, options: {configDir: string; env?: Record<string, string>}): Promise<{screen: string; exitCode: number}> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  return new Promise((resolve) => {
    execFile(
      'script',
      ['-qec', `stty cols ${cols} rows 40; ${quoted}`, '/dev/null'],
      {env: {...baseEnv(options.configDir), TERM: 'xterm-256color', ...options.env}, timeout: 30_000},
      (error, stdout) => resolve({screen: stripAnsi(stdout).replace(/\r/g, ''), exitCode: error ? Number((error as {code?: number}).code ?? 1) : 0}),
    )
  })
}
