/**
 * The single executable for the tests that run it (test/binary/): built by
 * scripts/binary/build.mjs once, then reused for as long as it carries the current dist/,
 * dependencies, Node and launcher (the stamp `<binary>.build` the build writes:
 * scripts/binary/stamp.mjs); run as a child process, a sandbox served by it.
 */
import {type ChildProcess, spawn, spawnSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {expect} from 'vitest'

// @ts-expect-error: a build script, plain JavaScript without types
import {binaryStamp} from '../../scripts/binary/stamp.mjs'
import {pdfFileText} from './documents.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The binary at `out` (under the repository), built with `options` first when missing or stale. */
export function builtBinary(out: string, options: string[] = []): string {
  const stamp = `${out}.build`
  if (!existsSync(out) || !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== binaryStamp(root)) {
    const r = spawnSync(process.execPath, [join(root, 'scripts/binary/build.mjs'), '--no-build', ...options, '--out', relative(root, out)], {
      cwd: root,
      encoding: 'utf8',
      timeout: 170_000,
    })
    expect(r.status, r.stderr).toBe(0)
  }
  return out
}

export interface BinaryResult {
  stdout: string
  stderr: string
  exitCode: number | null
}

/** `binary` run with `args` in `env` alone (killed after 60 s). */
export function runBinary(binary: string, args: string[], env: Record<string, string>): Promise<BinaryResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {env, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (exitCode) => {
      clearTimeout(timer)
      resolve({stdout, stderr, exitCode})
    })
  })
}

/** What `svc sandbox serve --json` printed once it is ready. */
export function served(serve: ChildProcess): Promise<any> {
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    serve.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      try {
        resolve(JSON.parse(out))
      } catch {
        // not the whole document yet
      }
    })
    serve.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    serve.on('close', (code) => reject(new Error(`serve exited ${code}: ${err}`)))
  })
}

/** Ctrl-C, and the process gone. */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('close', () => resolve())
    child.kill('SIGINT')
  })
}

/**
 * `binary sandbox serve`, then an invoice created, published and fetched as a PDF into `file`
 * through the same binary (the sandbox's document worker renders it): the PDF's text.
 */
export async function invoicePdfThroughServe(binary: string, env: Record<string, string>, file: string): Promise<string> {
  const serve = spawn(binary, ['sandbox', 'serve', '--port', '0', '--json'], {env, stdio: ['ignore', 'pipe', 'pipe']})
  try {
    const info = await served(serve)
    const api = {...env, SVC_BASE_URL: info.base_url, SVC_API_KEY: info.sandbox_key}
    const invoice = await runBinary(binary, ['invoice', 'create', '--customer-name', 'Quincaillerie Mbarga', '--item', 'Clou:25:40', '--due-date', '2099-12-31', '--publish', '--jq', '.id'], api)
    expect(invoice.exitCode, invoice.stderr).toBe(0)
    const pdf = await runBinary(binary, ['invoice', 'pdf', invoice.stdout.trim(), '--output', file], api)
    expect(pdf.exitCode, pdf.stderr).toBe(0)
    return pdfFileText(file)
  } finally {
    await stop(serve)
  }
}
