/**
 * Runs a tool installed in the repository's node_modules (`node_modules/.bin/NAME`) as a child
 * process, offline, and resolves with how it ended: for the third-party checks of the OpenAPI
 * description (openapi-typescript, tsc, Redocly, Spectral), pinned in package.json.
 */
import {spawn} from 'node:child_process'
import {fileURLToPath} from 'node:url'

export const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url))

export interface ToolResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface ToolOptions {
  cwd?: string
  env?: Record<string, string>
  timeoutMs?: number
}

/** Run `node_modules/.bin/<bin>` (or any executable path) with `args`. Killed after `timeoutMs` (default 60 s). */
export function runTool(bin: string, args: string[], options: ToolOptions = {}): Promise<ToolResult> {
  const file = bin.includes('/') ? bin : `${NODE_MODULES}/.bin/${bin}`
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
    // No telemetry, no update check: these tools must not reach the network.
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    NO_UPDATE_NOTIFIER: '1',
    ...options.env,
  }
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({code, stdout, stderr})
    })
  })
}
