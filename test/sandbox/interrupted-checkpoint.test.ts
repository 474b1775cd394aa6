/**
 * A checkpoint cut short by a kill: SQLite copies the WAL's pages into the database file in page
 * order, the first page (whose header says how many pages the database has) first, so a kill part
 * way leaves a file shorter than its header says while the WAL still holds every page. That is not
 * damage: SQLite finishes the copy from the WAL. Found by the durability test (SIGKILL at random
 * moments): the sandbox refused to start, calling such a file damaged.
 */
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {startSandbox} from '../../src/sandbox/index.js'
import {walCrashState} from './wal-crash.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-checkpoint-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

/** The newest image of page 1 in a WAL file (its frames: 24-byte header, then the page). */
function lastFirstPage(wal: Buffer): Buffer | undefined {
  const pageSize = wal.readUInt32BE(8)
  let found: Buffer | undefined
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at) === 1) found = wal.subarray(at + 24, at + 24 + pageSize)
  }
  return found
}

describe('a checkpoint cut short', () => {
  it('a file shorter than its header says, the pages in its WAL: the sandbox opens it with all its data', async () => {
    const {copy, ids} = await walCrashState(dir, 'cut', 150)
    // The checkpoint's first write: page 1 as the WAL has it, nothing after it.
    const page1 = lastFirstPage(readFileSync(`${copy}-wal`))!
    expect(page1).toBeDefined()
    const fd = openSync(copy, 'r+')
    writeSync(fd, page1, 0, page1.length, 0)
    closeSync(fd)
    const pages = page1.readUInt32BE(28)
    const pageSize = page1.readUInt16BE(16)
    // The state a kill leaves: the header counts more pages than the file holds.
    expect(statSync(copy).size).toBeLessThan(pages * pageSize)

    const sb = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: copy})
    try {
      const list = (await (await fetch(`${sb.url}/v1/payments?limit=100`, {headers: {'x-api-key': sb.keys.sandbox}})).json()) as any
      expect(list.total).toBe(ids.length)
      expect(sb.notices.filter((n) => n.code === 'data_behind')).toEqual([])
    } finally {
      await sb.close()
    }
  }, 60_000)

  it('a file cut short with no WAL to finish it is still refused as damaged', async () => {
    const file = join(dir, 'short.sqlite')
    const first = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: file})
    for (let i = 0; i < 150; i++) {
      await fetch(`${first.url}/v1/payments`, {
        method: 'POST',
        headers: {'x-api-key': first.keys.sandbox, 'content-type': 'application/json'},
        body: JSON.stringify({amount: 1000 + i, phone_number: '237670000001', operator: 'MTN'}),
      })
    }
    await first.close()
    const whole = readFileSync(file)
    writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)))
    await expect(startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: file})).rejects.toThrow(/damaged/)
  }, 60_000)
})

describe('a page damaged past the file header', () => {
  // What a kill in the middle of a checkpoint leaves once the WAL is lost too (the damaged WAL of
  // test/sandbox/commit-record-crash.test.ts): a file whose header and length are sound, some of
  // whose pages are of two moments. Found while the sandbox starts: refused as damaged, naming the
  // file, never SQLite's bare error.
  // Each table the start reads: the documents (read as each domain registers: the keys' index
  // first), the settings, the extras, the scheduled tasks (read once every domain is in place).
  it.each(['documents', 'settings', 'extras', 'tasks'])('the %s table unreadable: the start is refused as damaged, naming the file', async (table) => {
    const file = join(dir, `torn-${table}.sqlite`)
    const first = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: file, settleAfterMs: 60_000})
    await fetch(`${first.url}/v1/payments`, {
      method: 'POST',
      headers: {'x-api-key': first.keys.sandbox, 'content-type': 'application/json'},
      body: JSON.stringify({amount: 1000, phone_number: '237670000001', operator: 'MTN'}),
    })
    await first.close()
    const {default: Database} = await import('better-sqlite3')
    const db = new Database(file, {readonly: true})
    const root = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(table) as number
    const pageSize = db.pragma('page_size', {simple: true}) as number
    db.close()
    const fd = openSync(file, 'r+')
    writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (root - 1) * pageSize)
    closeSync(fd)
    await expect(startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: file})).rejects.toMatchObject({code: 'data_file_damaged', message: expect.stringContaining(file)})
  }, 60_000)
})
