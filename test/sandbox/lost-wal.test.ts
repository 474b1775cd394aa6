/**
 * A write-ahead log lost to damage: the database alone holds less than the sandbox had committed.
 * The sandbox keeps, beside its data file, how many transactions it committed; at the next start
 * data that is behind that count is reported (a notice, and a line from `svc sandbox serve`).
 * The crash state is made real: a reader holds the checkpoint back (as a `sqlite3` shell left open
 * would), the sandbox commits payments into the WAL, and the files are copied as they stand.
 */
import {copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {startSandbox} from '../../src/sandbox/index.js'
import {runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {waitFor} from '../helpers/receiver.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-lost-wal-'))
const config = tempConfigDir()
afterAll(() => {
  rmSync(dir, {recursive: true, force: true})
  config.cleanup()
})
const Database = createRequire(import.meta.url)('better-sqlite3')

/** Payments committed into the WAL but not checkpointed; the files copied to `copy` as a crash leaves them. */
async function crashState(name: string): Promise<{copy: string; ids: string[]}> {
  const file = join(dir, `${name}.sqlite`)
  const first = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: file, settleAfterMs: 60_000})
  const reader = new Database(file, {readonly: true})
  reader.exec('BEGIN')
  reader.prepare('SELECT count(*) FROM documents').get()
  const ids: string[] = []
  for (let i = 0; i < 5; i++) {
    const r = await fetch(`${first.url}/v1/payments`, {
      method: 'POST',
      headers: {'x-api-key': first.keys.sandbox, 'content-type': 'application/json'},
      body: JSON.stringify({amount: 1000 + i, phone_number: '237670000001', operator: 'MTN'}),
    })
    expect(r.status).toBe(201)
    ids.push(((await r.json()) as {id: string}).id)
  }
  // What the sandbox says it committed is on disk.
  const sidecar = `${file}.committed`
  await waitFor(() => existsSync(sidecar) && /"commits"/.test(readFileSync(sidecar, 'utf8')) && JSON.parse(readFileSync(sidecar, 'utf8')).commits >= 6, 5_000, 'the commit count')
  const copy = join(dir, `${name}-copy.sqlite`)
  for (const suffix of ['', '-wal', '.committed']) copyFileSync(`${file}${suffix}`, `${copy}${suffix}`)
  reader.exec('COMMIT')
  reader.close()
  await first.close()
  return {copy, ids}
}

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
