import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {durabilityRun} from './durability-run.js'

describe('durability of --data (docs/sandbox.md, "Durability")', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-durability-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))

  it('every create answered 201 is found after SIGKILL at random moments, over 5 rounds', async () => {
    const result = await durabilityRun({dataFile: join(dir, 'sandbox.db'), rounds: 5})
    expect(result.acknowledged).toBeGreaterThan(20)
    expect({lost: result.lost.length, of: result.acknowledged}).toEqual({lost: 0, of: result.acknowledged})
  }, 120_000)
})
