/**
 * The commit record beside a data file (`FILE.committed`, src/sandbox/commit-record.ts) under
 * SIGKILL: written to a temporary file and renamed over the old one, a kill at any moment leaves
 * the old record or the new one, never an empty or a partial one. An empty record is what let a
 * damaged write-ahead log start silently with part of the data: there was nothing to compare.
 */
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {durabilityRun} from './durability-run.js'

describe('the commit record under SIGKILL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-commit-record-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))

  it('is whole after each of 20 kills under write load, and its count never goes back', async () => {
    const file = join(dir, 'sandbox.db')
    const bad: string[] = []
    let last = 0
    const result = await durabilityRun({
      dataFile: file,
      rounds: 20,
      workers: 8,
      maxRunMs: 600,
      afterKill(round) {
        const text = existsSync(`${file}.committed`) ? readFileSync(`${file}.committed`, 'utf8') : '(none)'
        let commits: number | undefined
        try {
          commits = (JSON.parse(text) as {commits?: number}).commits
        } catch {
          commits = undefined
        }
        if (!Number.isInteger(commits) || commits! < last) bad.push(`round ${round}: ${JSON.stringify(text)}`)
        else last = commits!
      },
    })
    expect(result.acknowledged).toBeGreaterThan(20)
    expect(bad).toEqual([])
    expect(result.lost).toEqual([])
    // No temporary file is left to pile up.
    expect(readdirSync(dir).filter((name) => name.includes('.committed') && name !== 'sandbox.db.committed').length).toBeLessThanOrEqual(1)
  }, 300_000)
})
