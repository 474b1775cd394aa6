/**
 * `svc sandbox serve --data FILE` on a full disk and on damaged files, as a user meets them:
 * - a write refused for lack of space answers 507 `insufficient_storage` saying so (the CLI: exit
 *   7 with that message), and the sandbox keeps serving once space is back;
 * - a start whose first write fails exits non-zero before printing any key;
 * - a damaged database (truncated, garbled header), a directory, a read-only file system: exit 2
 *   naming the file and what to do.
 * The full disk is a small tmpfs when this process may mount one (root), else a file-size limit
 * (`ulimit -f`) on the sandbox's process.
 */
import {spawn, spawnSync} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {startSandbox} from '../../src/sandbox/index.js'
import {BIN, baseEnv, runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {startServe} from '../helpers/sandbox.js'
import {runInProcess} from '../helpers/in-process.js'

const work = mkdtempSync(join(tmpdir(), 'svc-disk-'))
const config = tempConfigDir()
const mounts: string[] = []
afterAll(() => {
  for (const dir of mounts) spawnSync('umount', ['-l', dir])
  rmSync(work, {recursive: true, force: true})
  config.cleanup()
})

/** A tmpfs of `size` under `work`, or undefined when this process cannot mount one. */
function tmpfs(size: string, always = false): string | undefined {
  // SVC_TEST_NO_MOUNT=1: the file-size-limit variant, as where mounting is not allowed.
  if (process.getuid?.() !== 0 || (process.env.SVC_TEST_NO_MOUNT && !always)) return undefined
  const dir = mkdtempSync(join(work, 'tmpfs-'))
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir])
  if (r.status !== 0) return undefined
  mounts.push(dir)
  return dir
}

/** Fills the file system of `dir` to the last byte; returns the filler's path. */
function fill(dir: string): string {
  const filler = join(dir, 'filler')
  const fd = openSync(filler, 'a')
  const chunk = Buffer.alloc(64 * 1024, 1)
  try {
    for (let size = chunk.length; size >= 1; size = Math.floor(size / 2)) {
      for (;;) {
        try {
          writeSync(fd, chunk, 0, size)
        } catch {
          break
        }
      }
    }
  } finally {
    closeSync(fd)
  }
  return filler
}

const KEY = /(sk|svc)_(test|live|sandbox)_[A-Za-z0-9]/

const serveOnce = (file: string, env: Record<string, string> = {}) =>
  runCli(['sandbox', 'serve', '--port', '0', '--data', file], {configDir: config.dir, env, timeoutMs: 30_000})

/** A real sandbox database with a few payments, closed (checkpointed). */
async function database(file: string): Promise<void> {
  const sb = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: file, settleAfterMs: 0})
  for (let i = 0; i < 30; i++) {
    await fetch(`${sb.url}/v1/payments`, {
      method: 'POST',
      headers: {'x-api-key': sb.keys.sandbox, 'content-type': 'application/json'},
      body: JSON.stringify({amount: 1000 + i, phone_number: '237670000001', operator: 'MTN'}),
    })
  }
  await sb.close()
}

/** Payments, one after another, until one is not created (at most 3,000). */
async function writeUntilRefused(url: string, key: string): Promise<Response | undefined> {
  for (let i = 0; i < 3000; i++) {
    const r = await fetch(`${url}/v1/payments`, {
      method: 'POST',
      headers: {'x-api-key': key, 'content-type': 'application/json'},
      body: JSON.stringify({amount: 1000 + i, phone_number: '237670000001', operator: 'MTN'}),
    })
    if (r.status !== 201) return r
    await r.arrayBuffer()
  }
  return undefined
}

function expectNamesTheWayOut(stderr: string, file: string): void {
  expect(stderr).toContain(file)
  expect(stderr).toMatch(/snapshot restore/)
  expect(stderr).toMatch(/move .* aside|Move .* aside/)
  expect(stderr).toContain(`sqlite3 ${file} .recover`)
  expect(stderr).not.toMatch(/Unexpected error/)
}

describe('sandbox serve --data on a full disk', () => {
  it('a write refused for lack of space: 507 insufficient_storage, the CLI exits 7 saying so; writes work again once space is back', async () => {
    const disk = tmpfs('8m')
    if (!disk) {
      // No mount here: the sandbox's process gets a file-size limit instead, and writes until refused.
      const file = join(work, 'limited.sqlite')
      const child = spawn('sh', ['-c', `ulimit -f 2048 && exec "${process.execPath}" "${BIN}" sandbox serve --port 0 --rate-limit 0 --data "${file}" --json`], {
        env: baseEnv(config.dir),
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      const info = await new Promise<any>((resolve) => child.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        try {
          resolve(JSON.parse(out))
        } catch {}
      }))
      try {
        const refused = await writeUntilRefused(info.base_url, info.sandbox_key)
        expect(refused?.status).toBe(507)
        expect(((await refused!.json()) as any).code).toBe('insufficient_storage')
      } finally {
        child.kill('SIGKILL')
      }
      return
    }
    const file = join(disk, 'sandbox.sqlite')
    const served = await startServe(config.dir, ['--data', file, '--rate-limit', '0'])
    try {
      const filler = fill(disk)
      const env = {SVC_API_KEY: served.info.sandbox_key, SVC_BASE_URL: served.info.base_url, SVC_RATE_LIMIT: '0'}
      // Enough writes to need new pages whatever SQLite had in reserve.
      const refused = await writeUntilRefused(served.info.base_url, served.info.sandbox_key)
      expect(refused?.status).toBe(507)
      const body = (await refused!.json()) as any
      expect(body.code).toBe('insufficient_storage')
      expect(body.message).toMatch(/no space left/i)
      // A person's write on the full disk (whatever a refused write freed is taken again first; an
      // invoice of 20 lines needs more room than a payment).
      const items = Array.from({length: 20}, (_, i) => ['--item', `Bread loaf number ${i} of the morning batch:500:3`]).flat()
      let cli = {exitCode: 0 as number | null, stderr: ''}
      for (let i = 0; i < 10 && cli.exitCode === 0; i++) {
        fill(disk)
        await writeUntilRefused(served.info.base_url, served.info.sandbox_key)
        cli = await runInProcess(['invoice', 'create', '--customer-name', 'Awa Bakery', '--due-date', '2099-12-31', ...items], {configDir: config.dir, env})
      }
      expect(cli.exitCode).toBe(7)
      expect(cli.stderr).toMatch(/no space left/i)
      // Space back: the same sandbox writes again.
      rmSync(filler)
      const again = await runInProcess(['invoice', 'create', '--customer-name', 'Awa Bakery', '--due-date', '2099-12-31', '--item', 'Bread:500:3', '--json'], {configDir: config.dir, env})
      expect(again.exitCode, again.stderr).toBe(0)
    } finally {
      await served.stop()
    }
  }, 60_000)

  it('a start whose first write fails exits non-zero before printing any key', async () => {
    const disk = tmpfs('1m')
    const file = disk ? join(disk, 'sandbox.sqlite') : join(work, 'first-write.sqlite')
    if (disk) fill(disk)
    const r = disk
      ? await serveOnce(file)
      : await new Promise<{exitCode: number | null; stdout: string; stderr: string}>((resolve) => {
          const child = spawn('sh', ['-c', `ulimit -f 0 && exec "${process.execPath}" "${BIN}" sandbox serve --port 0 --data "${file}"`], {env: baseEnv(config.dir)})
          let stdout = ''
          let stderr = ''
          child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
          child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
          child.on('close', (exitCode) => resolve({exitCode, stdout, stderr}))
        })
    expect(r.exitCode, r.stderr + r.stdout).not.toBe(0)
    expect(r.exitCode, r.stderr + r.stdout).not.toBeNull()
    expect(r.stdout).not.toMatch(KEY)
    expect(r.stderr).not.toMatch(KEY)
    expect(r.stderr, `exit ${r.exitCode}, stdout: ${r.stdout}`).toContain(file)
    expect(r.stderr).toMatch(/no space left|file-size limit/i)
  }, 30_000)
})

describe('sandbox serve --data on damaged files: exit 2, naming the file and the way out', () => {
  it('a truncated database', async () => {
    const file = join(work, 'truncated.sqlite')
    await database(file)
    truncateSync(file, Math.floor(statSync(file).size / 2))
    const r = await serveOnce(file)
    expect(r.exitCode).toBe(2)
    expect(r.stdout).not.toMatch(KEY)
    expectNamesTheWayOut(r.stderr, file)
  }, 30_000)

  it('a garbled header', async () => {
    const file = join(work, 'garbled.sqlite')
    await database(file)
    const bytes = readFileSync(file)
    bytes.fill(0x5a, 0, 100)
    writeFileSync(file, bytes)
    const r = await serveOnce(file)
    expect(r.exitCode).toBe(2)
    expectNamesTheWayOut(r.stderr, file)
  }, 30_000)

  it('a directory', async () => {
    const dir = join(work, 'a-directory')
    mkdirSync(dir)
    const r = await serveOnce(dir)
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(dir)
    expect(r.stderr).toMatch(/is a directory/)
    expect(r.stderr).not.toMatch(/Unexpected error/)
  }, 30_000)

  it('a read-only file system', async () => {
    // Root writes through file modes: a read-only mount when root, file modes otherwise.
    const disk = process.getuid?.() === 0 ? tmpfs('4m', true) : undefined
    let file: string
    if (disk) {
      file = join(disk, 'ro.sqlite')
      await database(file)
      expect(spawnSync('mount', ['-o', 'remount,ro', disk]).status).toBe(0)
    } else {
      const dir = join(work, 'read-only')
      mkdirSync(dir)
      file = join(dir, 'ro.sqlite')
      await database(file)
      chmodSync(file, 0o400)
      chmodSync(dir, 0o500)
    }
    const r = await serveOnce(file)
    expect(r.exitCode).toBe(2)
    expect(r.stdout).not.toMatch(KEY)
    expect(r.stderr).toContain(file)
    expect(r.stderr).toMatch(/read-only|cannot be written/i)
    expect(r.stderr).not.toMatch(/Unexpected error/)
  }, 30_000)
})
