/**
 * Snapshots under concurrency and kill -9: ten saves under one name at once never answer 5xx
 * (each has its own temporary file; the last complete save wins), and whatever a killed save,
 * restore or reset leaves beside the data file is gone after the next start.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, describe, expect, it} from 'vitest'

import {startSandbox} from '../../src/sandbox/index.js'
import {runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {startServe} from '../helpers/sandbox.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-snapshots-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const SERVER = fileURLToPath(new URL('../helpers/sandbox-child.mjs', import.meta.url))

/** A data file with `count` payments, written straight through the store (seconds, not minutes over HTTP). */
async function seeded(file: string, count: number): Promise<void> {
  const sb = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: file})
  const payments = sb.services.payments.collection('SANDBOX')
  for (let i = 0; i < count; i++) {
    const id = `svcpay_test_${randomBytes(12).toString('hex')}`
    payments.insert({
      id,
      payment: {
        id,
        status: 'SUCCESS',
        amount: 100 + i,
        currency: 'XAF',
        payment_method: 'mobile_money',
        environment: 'SANDBOX',
        created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
        internal_transaction_id: `txn_${randomBytes(10).toString('hex')}`,
        phone_number: '237670000001',
      },
      operator: 'MTN',
    } as never)
  }
  await sb.close()
}

/**
 * What the data file may have beside it: its WAL files, the snapshot directory and whole snapshots,
 * the commit record and the one temporary name its writes go through (the running sandbox's own,
 * a fixed name: the next write replaces what a kill left there).
 */
function leftovers(file: string): string[] {
  const base = file.split('/').pop()!
  const allowed = new Set([base, `${base}-wal`, `${base}-shm`, `${base}.snapshots`, `${base}.committed`, `${base}.committed.tmp`, `${base}.owner`])
  const stray = readdirSync(dir).filter((name) => name.startsWith(base) && !allowed.has(name) && !/\.lock$/.test(name))
  const snapshots = `${file}.snapshots`
  if (existsSync(snapshots)) stray.push(...readdirSync(snapshots).filter((name) => !/^[\w-]+\.sqlite$/.test(name)).map((name) => `snapshots/${name}`))
  return stray
}

interface Server {
  child: ChildProcess
  url: string
  adminToken: string
}

function startServer(file: string): Promise<Server> {
  const child = spawn(process.execPath, [SERVER, JSON.stringify({seed: 1, settleAfterMs: 60_000, dataFile: file})], {stdio: ['ignore', 'pipe', 'pipe']})
  let out = ''
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('\n')) resolve({child, ...JSON.parse(out.split('\n')[0]!)})
    })
    child.on('exit', (code) => reject(new Error(`data server exited ${code}: ${err}`)))
  })
}

const admin = (server: Server, method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json'},
    body: body === undefined ? undefined : JSON.stringify(body),
  })

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

describe('snapshots: concurrency and leftovers', () => {
  it('10 concurrent saves under one name: 0 × 5xx, one whole snapshot, no temporary file left', async () => {
    const file = join(dir, 'concurrent.sqlite')
    await seeded(file, 2000)
    const sb = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: file})
    try {
      const answers = await Promise.all(
        Array.from({length: 10}, () =>
          fetch(`${sb.adminUrl}/snapshots`, {
            method: 'POST',
            headers: {authorization: `Bearer ${sb.adminToken}`, 'content-type': 'application/json'},
            body: JSON.stringify({name: 'same'}),
          }).then(async (r) => ({status: r.status, body: await r.text()})),
        ),
      )
      expect(answers.filter((a) => a.status >= 500), JSON.stringify(answers)).toEqual([])
      expect(answers.every((a) => a.status === 201 || a.status === 409), JSON.stringify(answers)).toBe(true)
      expect(answers.some((a) => a.status === 201)).toBe(true)
      // Each save that answered 201 wrote a whole database (a shared temporary file gave 0 bytes).
      for (const a of answers.filter((x) => x.status === 201)) expect(JSON.parse(a.body).bytes).toBeGreaterThan(4096)
      const listed = (await (await fetch(`${sb.adminUrl}/snapshots`, {headers: {authorization: `Bearer ${sb.adminToken}`}})).json()) as any
      expect(listed.data.map((s: any) => s.name)).toEqual(['same'])
      expect(leftovers(file)).toEqual([])
      const restored = await fetch(`${sb.adminUrl}/snapshots/same/restore`, {method: 'POST', headers: {authorization: `Bearer ${sb.adminToken}`}})
      expect(restored.status).toBe(200)
      expect(((await (await fetch(`${sb.url}/v1/payments?limit=1`, {headers: {'x-api-key': sb.keys.sandbox}})).json()) as any).total).toBe(2000)
    } finally {
      await sb.close()
    }
  }, 60_000)

  it('10 concurrent `svc sandbox snapshot save same` against `sandbox serve --data`: every one exits 0', async () => {
    const file = join(dir, 'cli.sqlite')
    await seeded(file, 2000)
    const config = tempConfigDir()
    const served = await startServe(config.dir, ['--data', file, '--rate-limit', '0'])
    try {
      const runs = await Promise.all(Array.from({length: 10}, () => runCli(['sandbox', 'snapshot', 'save', 'same', '--json'], {configDir: config.dir, timeoutMs: 60_000})))
      expect(runs.map((r) => r.exitCode), runs.map((r) => r.stdout + r.stderr).join('\n')).toEqual(Array(10).fill(0))
      expect(leftovers(file)).toEqual([])
    } finally {
      await served.stop()
      config.cleanup()
    }
  }, 120_000)

  it('kill -9 during snapshot save, restore and reset × 20: 0 leftovers after the next start', async () => {
    const file = join(dir, 'killed.sqlite')
    await seeded(file, 20_000)
    let server = await startServer(file)
    expect((await admin(server, 'POST', '/_admin/snapshots', {name: 'base'})).status).toBe(201)
    let leftBehind = 0
    for (let i = 0; i < 20; i++) {
      // Save, restore and reset at once, killed a little later each time (0 to 95 ms).
      void admin(server, 'POST', '/_admin/snapshots', {name: `s${i % 3}`}).catch(() => {})
      void admin(server, 'POST', '/_admin/snapshots/base/restore').catch(() => {})
      if (i % 4 === 3) void admin(server, 'POST', '/_admin/reset', {}).catch(() => {})
      // The wait is the test: each kill lands a little later in the operations.
      await new Promise((resolve) => setTimeout(resolve, (i * 5) % 100))
      await killed(server.child)
      if (leftovers(file).length > 0) leftBehind++
      // The next start: whatever the killed process left is gone before it serves.
      server = await startServer(file)
      expect(leftovers(file), `after kill ${i + 1}`).toEqual([])
    }
    // The snapshot taken before the kills is still whole and restores.
    expect((await admin(server, 'POST', '/_admin/snapshots/base/restore')).status).toBe(200)
    await killed(server.child)
    // The kills did land mid-operation (otherwise this test would show nothing).
    expect(leftBehind).toBeGreaterThan(0)
  }, 240_000)

  it('a temporary file of a process still running is left alone', async () => {
    const file = join(dir, 'alive.sqlite')
    await seeded(file, 10)
    const snapshots = `${file}.snapshots`
    const {mkdirSync} = await import('node:fs')
    mkdirSync(snapshots, {recursive: true})
    // This test's own process is alive: its temporary file may be a save in progress.
    const ours = join(snapshots, `same.sqlite.${process.pid}.1.tmp`)
    writeFileSync(ours, 'partial')
    const sb = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: file})
    await sb.close()
    expect(existsSync(ours)).toBe(true)
    rmSync(ours)
  })
})
