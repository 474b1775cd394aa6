/**
 * A snapshot holds the sandbox's data, not its credentials: restoring one saved before the current
 * start (`serve --data` mints new keys each start and saves them in its profile) keeps that start's
 * key and the keys created since, and says what it restored.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterEach, describe, expect, it} from 'vitest'

import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {serveInProcess, type InProcessServe} from '../helpers/sandbox.js'

const cleanups: Array<() => Promise<unknown> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('keys outlive restores', {timeout: 120_000}, () => {
  it('a snapshot saved before this start: the start’s key, and a key created since, still work; the data is the snapshot’s; the restore says what it restored', async () => {
    const temp = tempConfigDir()
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-snapshot-keys-'))
    cleanups.push(() => {
      temp.cleanup()
      rmSync(dataDir, {recursive: true, force: true})
    })
    const file = join(dataDir, 'shop.db')
    const cli = (args: string[], env: Record<string, string> = {}) => runInProcess(args, {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0', ...env}})
    const pay = async (amount: number) => {
      const r = await cli(['pay', 'create', '--amount', String(amount), '--phone', '237670000001', '--operator', 'MTN', '--json'])
      expect(r.exitCode, r.stderr).toBe(0)
      return JSON.parse(r.stdout).id as string
    }

    // `serve --data` in this process (its own code: profile, registry entry, the file's hold), stopped
    // and started again as a developer restarts it; the serve process itself is not the subject.
    let served: InProcessServe | undefined = await serveInProcess(temp.dir, {data: file})
    cleanups.push(() => served?.stop())
    const before = await pay(1500)
    const saved = await cli(['sandbox', 'snapshot', 'save', 'before'])
    expect(saved.exitCode, saved.stderr).toBe(0)
    const first = served
    served = undefined
    await first.stop()

    served = await serveInProcess(temp.dir, {data: file})
    const after = await pay(2500)
    const created = await cli(['sandbox', 'keys', 'create', '--env', 'sandbox', '--json'])
    expect(created.exitCode, created.stderr).toBe(0)
    const newKey = JSON.parse(created.stdout).secret as string

    const restored = await cli(['sandbox', 'snapshot', 'restore', 'before'])
    expect(restored.exitCode, restored.stderr).toBe(0)
    // The current start's key (the profile `local`) still works, and sees the snapshot's data.
    const listed = await cli(['pay', 'list', '--json'])
    expect(listed.exitCode, listed.stderr).toBe(0)
    const ids = (JSON.parse(listed.stdout) as Array<{id: string}>).map((p) => p.id)
    expect(ids).toContain(before)
    expect(ids).not.toContain(after)
    // A key created after the snapshot too.
    const withNew = await cli(['pay', 'list', '--json'], {SVC_API_KEY: newKey})
    expect(withNew.exitCode, withNew.stderr).toBe(0)
    // It says what it restored, and that the keys stay as they are.
    expect(restored.stderr).toMatch(/1 payment/i)
    expect(restored.stderr).toMatch(/API keys/)

    const json = await cli(['sandbox', 'snapshot', 'restore', 'before', '--json'])
    expect(json.exitCode, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({name: 'before', restored: true, counts: expect.objectContaining({payments: 1}), kept: ['api_keys']})
  })
})
