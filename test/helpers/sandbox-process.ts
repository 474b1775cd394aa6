/**
 * The sandbox as a child process (test/helpers/sandbox-child.mjs, the built library started by
 * plain node): for the tests that ask whether anything a client sends can stop it. `exited` tells
 * whether (and how) it died.
 */
import {spawn} from 'node:child_process'
import {fileURLToPath} from 'node:url'

export interface SandboxProcess {
  url: string
  keys: {sandbox: string; live: string}
  adminToken: string
  /** The process id (to read its memory from /proc). */
  pid: number
  /** How the process ended, once it has (undefined while it runs). */
  exited(): {code: number | null; signal: NodeJS.Signals | null} | undefined
  stderr(): string
  stop(): Promise<void>
}

export async function startSandboxProcess(options: Record<string, unknown> = {}): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./sandbox-child.mjs', import.meta.url)), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  let ended: {code: number | null; signal: NodeJS.Signals | null} | undefined
  const done = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      ended = {code, signal}
      resolve()
    }),
  )
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  let out = ''
  const info = await new Promise<any>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n')[0]
      if (out.includes('\n')) resolve(JSON.parse(line))
    })
    void done.then(() => reject(new Error(`sandbox exited before listening: ${stderr}`)))
  })
  return {
    ...info,
    pid: child.pid!,
    exited: () => ended,
    stderr: () => stderr,
    async stop() {
      if (!ended) child.kill('SIGTERM')
      await done
    },
  }
}
