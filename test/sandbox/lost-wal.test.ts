/**
 * A write-ahead log lost to damage: the database alone holds less than the sandbox had committed.
 * The sandbox keeps, beside its data file, how many transactions it committed; at the next start
 * data that is behind that count is reported (a notice, and a line from `svc sandbox serve`).
 * The crash state is made real: a reader holds the checkpoint back (as a `sqlite3` shell left open
 * would), the sandbox commits payments into the WAL, and the files are copied as they stand.
 */
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {startSandbox} from '../../src/sandbox/index.js'
import {runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {walCrashState} from './wal-crash.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-lost-wal-'))
const config = tempConfigDir()
afterAll(() => {
  rmSync(dir, {recursive: true, force: true})
  config.cleanup()
})

const crashState = (name: string) => walCrashState(dir, name, 5)

describe('a lost write-ahead log is reported at start', () => {
  it('an intact WAL: all the data, nothing reported', async () => {
    const {copy, ids} = await crashState('intact')
    const sb = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: copy})
    try {
      expect(sb.notices.filter((n) => n.code === 'data_behind')).toEqual([])
      const list = (await (await fetch(`${sb.url}/v1/payments?limit=100`, {headers: {'x-api-key': sb.keys.sandbox}})).json()) as any
      expect(list.total).toBe(ids.length)
    } finally {
      await sb.close()
    }
  }, 30_000)

  it('a garbled WAL: the data is behind what was committed, and serve says so', async () => {
    const {copy} = await crashState('garbled')
    const wal = readFileSync(`${copy}-wal`)
    wal.fill(0x5a, 0, 64)
    writeFileSync(`${copy}-wal`, wal)
    let stderr = ''
    const r = await runCli(['sandbox', 'serve', '--port', '0', '--data', copy, '--json'], {
      configDir: config.dir,
      timeoutMs: 30_000,
      onSpawn(child) {
        let out = ''
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString()
          if (out.trim().endsWith('}')) child.kill('SIGINT')
        })
        child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
      },
    })
    expect(r.stdout).toContain('base_url')
    expect(stderr, r.stderr + stderr + r.stdout).toContain(copy)
    expect(stderr).toMatch(/behind what the sandbox last committed/)
    expect(stderr).toMatch(/-wal/)
    // Said once: the count now follows the file as it is.
    const again = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: copy})
    try {
      expect(again.notices.filter((n) => n.code === 'data_behind')).toEqual([])
    } finally {
      await again.close()
    }
  }, 30_000)
})
