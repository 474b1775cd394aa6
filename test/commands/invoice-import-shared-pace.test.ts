/**
 * Two svc processes on one key share its pace: two imports started together against a sandbox
 * limited to 100 requests a minute per key get no 429 between them (each alone would take the
 * whole 100). Bounded: 2 × 60 rows, so the run crosses one window (about a minute).
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {startFaultProxy} from '../helpers/fault-proxy.js'
import {test} from '../helpers/fixtures.js'
import {startTestSandbox} from '../helpers/sandbox.js'
import {importCsv} from './invoice-helpers.js'

// A config dir (test/helpers/fixtures.ts) and a work dir per test; the test starts its own sandbox
// (limited to 100 requests a minute per key). The two imports are child processes: two processes
// sharing the key's pace is what is tested.
const it = test.extend<{work: string}>({
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const work = mkdtempSync(join(tmpdir(), 'svc-shared-'))
    try {
      await use(work)
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  },
})

describe('svc processes on one key share its pace', () => {
  it('two concurrent imports on one key at 100/min: 0 × 429, every row created once', async ({temp, work}) => {
    const sb = await startTestSandbox({settleAfterMs: 0, rateLimit: 100})
    const proxy = await startFaultProxy(sb.sb.url, [])
    try {
      const svc = sb.cli(temp.dir)
      const a = join(work, 'a.csv')
      const b = join(work, 'b.csv')
      writeFileSync(a, importCsv(60, 'Left'))
      writeFileSync(b, importCsv(60, 'Right'))
      const env = {SVC_BASE_URL: proxy.url, SVC_RATE_LIMIT: '100'}
      const started = Date.now()
      const [left, right] = await Promise.all([svc(['invoice', 'import', a], {env, timeoutMs: 150_000}), svc(['invoice', 'import', b], {env, timeoutMs: 150_000})])
      expect(left.exitCode, left.stderr).toBe(0)
      expect(right.exitCode, right.stderr).toBe(0)
      expect(proxy.answered.filter((s) => s === 429)).toEqual([])
      expect(proxy.answered.length).toBeGreaterThan(100)
      // The second window was waited for (the shared budget), not raced.
      expect(Date.now() - started).toBeGreaterThan(55_000)
      // (Read from the summaries: a listing now would itself meet the key's full window.)
      expect(left.stderr).toMatch(/60 rows: 60 created/)
      expect(right.stderr).toMatch(/60 rows: 60 created/)
    } finally {
      await proxy.close()
      await sb.close()
    }
  }, 180_000)
})
