/**
 * The commit record beside a data file (`FILE.committed`, src/sandbox/commit-record.ts) under
 * SIGKILL: written to a temporary file and renamed over the old one, a kill at any moment leaves
 * the old record or the new one, never an empty or a partial one. An empty record is what let a
 * damaged write-ahead log start silently with part of the data: there was nothing to compare. So
 * after each kill, a copy of the files with its WAL damaged is started: it holds every payment
 * acknowledged, or says that its data is behind, or (killed in the middle of a checkpoint: pages
 * of two moments that only the WAL put right) refuses to start, naming the file as damaged.
 *
 * Why 20 kills: with the record written in place (truncated first), 8 to 12 of the 20 left it
 * empty; with it written after the answers, only 0 to 3 of 20 copies started short without a word
 * (a kill must land between an answer and the record's write, just after a checkpoint): fewer
 * rounds would mostly miss that one. What makes a round cheaper instead: the sandbox started by
 * plain node from the build (test/helpers/sandbox-child.mjs), clients on node:http (half fetch's
 * CPU: the same 8 requests in flight, and more creates per round), the copy started in-process.
 */
import {closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {startSandbox} from '../../src/sandbox/index.js'
import {durabilityRun} from './durability-run.js'

describe('the commit record under SIGKILL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-commit-record-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))

  it('is whole after each of 20 kills under write load, its count never goes back, and a WAL damaged then never starts silently with part of the data', async () => {
    const file = join(dir, 'sandbox.db')
    const bad: string[] = []
    const silent: string[] = []
    let last = 0
    let damaged = 0
    let refused = 0
    const result = await durabilityRun({
      dataFile: file,
      rounds: 20,
      workers: 8,
      // Each kill 150 to 400 ms into the load: before, at or after the checkpointer's first runs
      // (every 250 ms), with tens to hundreds of commits (each rewriting the record) in every window.
      maxRunMs: 400,
      async afterKill(round, acknowledged) {
        const text = existsSync(`${file}.committed`) ? readFileSync(`${file}.committed`, 'utf8') : '(none)'
        let commits: number | undefined
        try {
          commits = (JSON.parse(text) as {commits?: number}).commits
        } catch {
          commits = undefined
        }
        if (!Number.isInteger(commits) || commits! < last) bad.push(`round ${round}: ${JSON.stringify(text)}`)
        else last = commits!
        // The files as the kill left them, copied, the copy's WAL damaged: the copy starts with every
        // payment acknowledged so far, or says its data is behind what was committed.
        const copy = join(dir, `copy-${round}.db`)
        for (const suffix of ['', '-wal', '.committed']) if (existsSync(`${file}${suffix}`)) copyFileSync(`${file}${suffix}`, `${copy}${suffix}`)
        if (existsSync(`${copy}-wal`) && statSync(`${copy}-wal`).size > 64) {
          // Its header (the first 64 bytes) overwritten: SQLite then ignores the whole log.
          const fd = openSync(`${copy}-wal`, 'r+')
          writeSync(fd, Buffer.alloc(64, 0x5a), 0, 64, 0)
          closeSync(fd)
          damaged++
        }
        const sb = await startSandbox({port: 0, rateLimit: 0, seed: 1, dataFile: copy}).catch((error: unknown) => {
          // A kill in the middle of a checkpoint leaves pages of two moments, which the WAL, once
          // damaged, no longer puts right: refusing to start, naming the file as damaged, says so.
          if ((error as {code?: unknown})?.code !== 'data_file_damaged') throw error
          refused++
          return undefined
        })
        if (!sb) {
          for (const suffix of ['', '-wal', '-shm', '.committed']) rmSync(`${copy}${suffix}`, {force: true})
          return
        }
        try {
          const held = ((await (await fetch(`${sb.url}/v1/payments?limit=1`, {headers: {'x-api-key': sb.keys.sandbox}})).json()) as {total: number}).total
          const said = sb.notices.some((notice) => notice.code === 'data_behind')
          if (held < acknowledged.length && !said) silent.push(`round ${round}: ${held} of ${acknowledged.length} payments, nothing said`)
        } finally {
          await sb.close()
          for (const suffix of ['', '-wal', '-shm', '.committed']) rmSync(`${copy}${suffix}`, {force: true})
        }
      },
    })
    expect(result.acknowledged).toBeGreaterThan(20)
    expect(bad).toEqual([])
    expect(silent).toEqual([])
    expect(result.lost).toEqual([])
    // The damage landed: most kills leave a WAL behind (the checkpointer runs now and then), and
    // most copies started (a refusal says nothing of how much they hold).
    expect(damaged).toBeGreaterThan(0)
    expect(refused).toBeLessThan(10)
    // No temporary file is left to pile up.
    expect(readdirSync(dir).filter((name) => name.includes('.committed') && name !== 'sandbox.db.committed').length).toBeLessThanOrEqual(1)
  }, 400_000)
})
