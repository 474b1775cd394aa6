/**
 * Two svc runs on one key share its pace: two imports started together against a sandbox limited
 * to 100 requests a minute per key get no 429 between them (each alone would take the whole 100).
 * Bounded: 2 × 60 rows, so the run crosses one window (about a minute of the clock's time).
 *
 * Each run has its own context, client and pacer, as two processes do: what they share is only
 * the budget file in the config dir's cache (src/lib/api/shared-pace.ts), the same file two
 * processes share. They run in-process on a clock that jumps through their waits, which the
 * sandbox's rate window runs on too (test/helpers/clock.ts): the minute takes no real time.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {skippingClock} from '../helpers/clock.js'
import {startFaultProxy} from '../helpers/fault-proxy.js'
import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox} from '../helpers/sandbox.js'
import {importCsv} from './invoice-helpers.js'

// A config dir (test/helpers/fixtures.ts) and a work dir per test; the test starts its own sandbox
// (limited to 100 requests a minute per key).
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
    const clock = skippingClock()
    const sb = await startTestSandbox({settleAfterMs: 0, rateLimit: 100, clock})
    const proxy = await startFaultProxy(sb.sb.url, [])
    try {
      const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
      const a = join(work, 'a.csv')
      const b = join(work, 'b.csv')
      writeFileSync(a, importCsv(60, 'Left'))
      writeFileSync(b, importCsv(60, 'Right'))
      const env = {SVC_BASE_URL: proxy.url, SVC_RATE_LIMIT: '100'}
      const started = clock.now()
      const [left, right] = await Promise.all([svc(['invoice', 'import', a], {env}), svc(['invoice', 'import', b], {env})])
      expect(left.exitCode, left.stderr).toBe(0)
      expect(right.exitCode, right.stderr).toBe(0)
      expect(proxy.answered.filter((s) => s === 429)).toEqual([])
      expect(proxy.answered.length).toBeGreaterThan(100)
      // The second window was waited for (the shared budget), not raced.
      expect(clock.now() - started).toBeGreaterThan(55_000)
      // (Read from the summaries: a listing now would itself meet the key's full window.)
      expect(left.stderr).toMatch(/60 rows: 60 created/)
      expect(right.stderr).toMatch(/60 rows: 60 created/)
    } finally {
      await proxy.close()
      await sb.close()
    }
  })
})
