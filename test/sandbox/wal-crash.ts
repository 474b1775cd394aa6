/**
 * The crash state a kill leaves a `--data` sandbox in, made real: a reader holds the checkpoint
 * back (as a `sqlite3` shell left open would), the sandbox commits `count` payments into the WAL,
 * and the data file, its WAL and its commit count are copied as they stand. For the tests of what
 * the next start makes of such files (lost-wal.test.ts, interrupted-checkpoint.test.ts).
 */
import {copyFileSync, existsSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {expect} from 'vitest'

import {startSandbox} from '../../src/sandbox/index.js'
import {waitFor} from '../helpers/receiver.js'

const Database = createRequire(import.meta.url)('better-sqlite3')

/** Payments committed into the WAL but not checkpointed; the files copied to `copy`. */
export async function walCrashState(dir: string, name: string, count: number): Promise<{copy: string; ids: string[]}> {
  const file = join(dir, `${name}.sqlite`)
  const first = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: file, settleAfterMs: 60_000})
  const reader = new Database(file, {readonly: true})
  reader.exec('BEGIN')
  reader.prepare('SELECT count(*) FROM documents').get()
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
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
  const committed = () => existsSync(sidecar) && /"commits"/.test(readFileSync(sidecar, 'utf8')) && JSON.parse(readFileSync(sidecar, 'utf8')).commits > count
  await waitFor(committed, 5_000, 'the commit count')
  const copy = join(dir, `${name}-copy.sqlite`)
  for (const suffix of ['', '-wal', '.committed']) copyFileSync(`${file}${suffix}`, `${copy}${suffix}`)
  reader.exec('COMMIT')
  reader.close()
  await first.close()
  return {copy, ids}
}
