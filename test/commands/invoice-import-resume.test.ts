/**
 * `svc invoice import`: a re-run resumes from its results file in seconds (rows recorded as done
 * are skipped without a request; a changed row is not; --recheck asks the service), and the plan
 * before the work (--dry-run: requests and time at the rate limit; a long run says its estimate).
 */
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {parseCsv} from '../../src/lib/invoices/csv.js'
import {skippingClock} from '../helpers/clock.js'
import {startFaultProxy} from '../helpers/fault-proxy.js'
import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {allInvoices, importCsv} from './invoice-helpers.js'

// A config dir (test/helpers/fixtures.ts) and a work dir per test, and a sandbox of its own per test
// (payments settle at once; the tests count every invoice it holds); `svc`: the CLI in-process on them.
const it = test.extend<{work: string; sb: TestSandbox; svc: ReturnType<TestSandbox['cli']>}>({
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const work = mkdtempSync(join(tmpdir(), 'svc-resume-'))
    try {
      await use(work)
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  },
  // eslint-disable-next-line no-empty-pattern
  sb: async ({}, use) => {
    const sb = await startTestSandbox({settleAfterMs: 0})
    try {
      await use(sb)
    } finally {
      await sb.close()
    }
  },
  svc: async ({sb, temp}, use) => use(sb.cli(temp.dir, 'sandbox', runInProcess)),
})

function results(path: string) {
  const [header, ...rows] = parseCsv(readFileSync(path, 'utf8'))
  return rows.map((r) => Object.fromEntries(header!.fields.map((name, i) => [name, r.fields[i]])))
}

describe('invoice import: resume from the results file', () => {
  it('a finished 150-row import run again sends no request and takes seconds; a changed row is sent; --recheck asks the service', async ({sb, work, svc}) => {
    const proxy = await startFaultProxy(sb.sb.url, [])
    try {
      const file = join(work, 'batch.csv')
      writeFileSync(file, importCsv(150, 'Resume'))
      const first = await svc(['invoice', 'import', file, '--publish'], {timeoutMs: 60_000})
      expect(first.exitCode, first.stderr).toBe(0)
      expect(await allInvoices(sb)).toHaveLength(150)

      // Again, through a proxy that counts requests, at the service's real pace (100/min).
      const started = Date.now()
      const again = await svc(['invoice', 'import', file, '--publish'], {env: {SVC_BASE_URL: proxy.url, SVC_RATE_LIMIT: '100'}, timeoutMs: 60_000})
      const elapsed = Date.now() - started
      expect(again.exitCode, again.stderr).toBe(0)
      expect(proxy.seen).toEqual([])
      // Under 3 s on a quiet machine (bench/import); 10 s leaves room for a loaded one.
      expect(elapsed).toBeLessThan(10_000)
      expect(again.stderr).toMatch(/Skipping 150 rows already done/)
      const rows = results(file.replace(/\.csv$/, '.results.csv'))
      expect(rows).toHaveLength(150)
      expect(rows.every((r) => r.invoice_id!.startsWith('inv_') && r.published === 'true')).toBe(true)

      // Row 3 edited (another price): it is another invoice, sent; the other 149 are skipped.
      writeFileSync(file, importCsv(150, 'Resume').replace('"Resume 3",2026-12-31,"Bread:103:2', '"Resume 3",2026-12-31,"Bread:999:2'))
      const edited = await svc(['invoice', 'import', file, '--publish'], {env: {SVC_BASE_URL: proxy.url}, timeoutMs: 60_000})
      expect(edited.exitCode, edited.stderr).toBe(0)
      expect(proxy.seen.filter((r) => r === 'POST /v1/invoices')).toHaveLength(1)
      expect(edited.stderr).toMatch(/Skipping 149 rows/)
      expect(await allInvoices(sb)).toHaveLength(151)

      // --recheck: every row asks the service (replayed by its key), nothing created twice.
      const before = proxy.seen.length
      const recheck = await svc(['invoice', 'import', file, '--publish', '--recheck'], {env: {SVC_BASE_URL: proxy.url}, timeoutMs: 60_000})
      expect(recheck.exitCode, recheck.stderr).toBe(0)
      expect(proxy.seen.slice(before).filter((r) => r === 'POST /v1/invoices')).toHaveLength(150)
      expect(await allInvoices(sb)).toHaveLength(151)
    } finally {
      await proxy.close()
    }
  }, 120_000)

  it('rows created as drafts are not done for a run that publishes: they are published, not created again', async ({sb, work, svc}) => {
    const file = join(work, 'drafts.csv')
    writeFileSync(file, importCsv(3, 'Draft'))
    expect((await svc(['invoice', 'import', file])).exitCode).toBe(0)
    const published = await svc(['invoice', 'import', file, '--publish'])
    expect(published.exitCode, published.stderr).toBe(0)
    expect(published.stderr).not.toMatch(/Skipping/)
    const invoices = await allInvoices(sb)
    expect(invoices).toHaveLength(3)
    expect(invoices.every((i) => i.status === 'UNPAID')).toBe(true)
    // And now that they are published, a re-run with --publish skips them all.
    const skipped = await svc(['invoice', 'import', file, '--publish'])
    expect(skipped.stderr).toMatch(/Skipping 3 rows/)
  }, 60_000)
})

describe('invoice import: the plan before the work', () => {
  it('--dry-run prints the requests and the time at the rate limit; a long run says its estimate when it starts', async ({sb, temp, work, svc}) => {
    const file = join(work, 'plan.csv')
    writeFileSync(file, importCsv(150, 'Plan'))
    const plan = await svc(['invoice', 'import', file, '--publish', '--dry-run', '--rate', '100'])
    expect(plan.exitCode, plan.stderr).toBe(0)
    expect(plan.stderr).toMatch(/150 invoices, 300 requests: about 3 min at 100\/min/)
    const big = join(work, 'big.csv')
    writeFileSync(big, importCsv(20_000, 'Big'))
    const bigPlan = await svc(['invoice', 'import', big, '--dry-run', '--publish', '--rate', '100', '--lang', 'fr'], {timeoutMs: 60_000})
    expect(bigPlan.stderr).toMatch(/20000 factures, 40000 requêtes : environ 6 h 40 min à 100\/min/)
    const json = await svc(['invoice', 'import', file, '--dry-run', '--rate', '100', '--json'])
    expect(JSON.parse(json.stdout).plan).toMatchObject({invoices: 150, requests: 150, rate_per_minute: 100, seconds: 90})

    // A real run over a minute says so as it starts (3 rows at 2 a minute): in-process on a skipping
    // clock (test/helpers/clock.ts), whose minute of pacing takes no real time.
    const slow = join(work, 'slow.csv')
    writeFileSync(slow, importCsv(3, 'Slow'))
    const clock = skippingClock()
    const start = clock.now()
    const run = await svc(['invoice', 'import', slow, '--rate', '2'], {clock})
    expect(run.exitCode, run.stderr).toBe(0)
    // The estimate said as the run starts, before its summary.
    expect(run.stderr.indexOf('about 2 min')).toBeGreaterThan(-1)
    expect(run.stderr.indexOf('about 2 min')).toBeLessThan(run.stderr.indexOf('3 created'))
    // Paced at 2 a minute on the run's clock: the third create a minute after the first.
    expect(clock.now() - start).toBeGreaterThanOrEqual(60_000)
    expect(run.stderr).toMatch(/3 requests: about 2 min at 2\/min/)
    expect(await allInvoices(sb).then((l) => l.filter((i) => String(i.customer_name).startsWith('Slow')).length)).toBe(3)
  }, 90_000)
})
