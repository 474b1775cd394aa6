import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {parseCsv} from '../../src/lib/invoices/csv.js'
import {skippingClock} from '../helpers/clock.js'
import {rateLimited, startFaultProxy} from '../helpers/fault-proxy.js'
import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox} from '../helpers/sandbox.js'
import {allInvoices, importCsv} from './invoice-helpers.js'

// A config dir (test/helpers/fixtures.ts) and a work dir per test; each test starts a sandbox of
// its own (it counts every invoice the sandbox holds, and the first paces it differently).
const it = test.extend<{work: string}>({
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const work = mkdtempSync(join(tmpdir(), 'svc-import-'))
    try {
      await use(work)
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  },
})

function results(path: string) {
  const [header, ...rows] = parseCsv(readFileSync(path, 'utf8'))
  return rows.map((r) => Object.fromEntries(header!.fields.map((name, i) => [name, r.fields[i]])))
}

describe('svc invoice import', () => {
  it('250 rows, paced to the limit, with 429s on the way: none reaches the user, no duplicate, every row in the results', async ({temp, work}) => {
    // The waits (the 429s' Retry-After) on a clock that jumps through them, which the sandbox's
    // rate window runs on too (test/helpers/clock.ts): they are announced, and take no real time.
    const clock = skippingClock()
    const sb = await startTestSandbox({settleAfterMs: 0, rateLimit: 300, clock})
    const proxy = await startFaultProxy(sb.sb.url, [{method: 'POST', path: /^\/v1\/invoices$/, fault: rateLimited(1), every: 40, times: Infinity}])
    try {
      const file = join(work, 'many.csv')
      writeFileSync(file, importCsv(250))
      const started = Date.now()
      const r = await sb.cli(temp.dir, 'sandbox', runInProcess)(['invoice', 'import', file], {env: {SVC_BASE_URL: proxy.url, SVC_RATE_LIMIT: '300'}, timeoutMs: 60_000})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(Date.now() - started).toBeLessThan(40_000)
      expect(proxy.injected()).toBeGreaterThanOrEqual(6)
      // The waits are announced ("Rate limit: waiting 2 s…", issue 19 point 6), but no 429 reaches the user as an error.
      expect(r.stderr.split('\n').filter((line) => !/waiting \d+ s|retrying in \d+ s/.test(line)).join('\n')).not.toMatch(/429|rate.limit|Too many/i)
      expect(r.stderr).toMatch(/250 rows: 250 created, 0 already created by an earlier run, 0 published, 0 already published, 0 failed/)
      expect(r.stdout).toBe('')
      const invoices = await allInvoices(sb)
      expect(invoices).toHaveLength(250)
      expect(new Set(invoices.map((i) => i.external_reference)).size).toBe(250)
      const rows = results(file.replace(/\.csv$/, '.results.csv'))
      expect(rows).toHaveLength(250)
      expect(rows.map((x) => Number(x.row))).toEqual(Array.from({length: 250}, (_, i) => i + 1))
      expect(rows.every((x) => x.status === 'created' && x.invoice_id!.startsWith('inv_test_') && x.checkout_url!.includes('type=sandbox'))).toBe(true)
      expect(new Set(rows.map((x) => x.invoice_id)).size).toBe(250)
    } finally {
      await proxy.close()
      await sb.close()
    }
  }, 60_000)

  it('killed halfway (SIGKILL) and run again: creates exactly the missing rows', async ({temp, work}) => {
    const sb = await startTestSandbox({settleAfterMs: 0})
    try {
      const file = join(work, 'crash.csv')
      writeFileSync(file, importCsv(300, 'Crash'))
      const resultsFile = file.replace(/\.csv$/, '.results.csv')
      // A child process: killed (SIGKILL) once it has recorded 40 rows; the run after it, in-process.
      const first = await sb.cli(temp.dir)(['invoice', 'import', file, '--concurrency', '1'], {
        timeoutMs: 60_000,
        onSpawn: (child) => {
          const timer = setInterval(() => {
            const lines = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8').split('\n').length : 0
            if (lines > 40) {
              clearInterval(timer)
              child.kill('SIGKILL')
            }
          }, 5)
          child.on('exit', () => clearInterval(timer))
        },
      })
      expect(first.signal).toBe('SIGKILL')
      const before = await allInvoices(sb)
      expect(before.length).toBeGreaterThanOrEqual(39)
      expect(before.length).toBeLessThan(300)

      const second = await sb.cli(temp.dir, 'sandbox', runInProcess)(['invoice', 'import', file, '--json'])
      expect(second.exitCode, second.stdout).toBe(0)
      const report = JSON.parse(second.stdout)
      // The rows the results file records are skipped without a request; those created but not yet
      // recorded when the kill came are replayed by their keys (existing); the rest are created.
      expect(report.summary.skipped).toBeGreaterThanOrEqual(38)
      expect(report.summary).toMatchObject({rows: 300, created: 300 - before.length, existing: before.length - report.summary.skipped, failed: 0})
      const after = await allInvoices(sb)
      expect(after).toHaveLength(300)
      expect(new Set(after.map((i) => i.external_reference)).size).toBe(300)
      // The rows created by the killed run keep their ids.
      const byRef = new Map(before.map((i) => [i.external_reference, i.id]))
      for (const row of report.results) {
        const ref = `REF-${row.row}`
        if (byRef.has(ref)) expect(row).toMatchObject(row.skipped ? {invoice_id: byRef.get(ref)} : {status: 'existing', invoice_id: byRef.get(ref)})
        else expect(row.status).toBe('created')
      }
    } finally {
      await sb.close()
    }
  }, 60_000)

  it('lists every bad row with its line and creates nothing; --skip-invalid creates the rest; JSON lines with --publish', async ({temp, work}) => {
    const sb = await startTestSandbox({settleAfterMs: 0})
    try {
      const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
      const file = join(work, 'mixed.csv')
      writeFileSync(
        file,
        '\uFEFFcustomer_name,due_date,items,discount_percent,notes\r\n' +
          'Good One,2026-12-31,Bread:500:3,,"multi\r\nline ""note"""\r\n' +
          'Bad Date,2026-02-30,Bread:500:3,,\r\n' +
          'Too Small,2026-12-31,Bread:50:1,,\r\n' +
          'Good Two,2026-12-31,"Cable 2:1 HDMI:1500:2; Tea:300:1",10,\r\n' +
          'Bad Discount,2026-12-31,Bread:500:3,150,\r\n',
      )
      const refused = await svc(['invoice', 'import', file])
      expect(refused.exitCode).toBe(2)
      expect(refused.stderr).toMatch(/3 of 5 rows are invalid; nothing was created/)
      // A row's error names its CSV column, not the flag of `invoice create` (issue 19, point 5).
      expect(refused.stderr).toMatch(/line 4: .*due_date/)
      expect(refused.stderr).toMatch(/line 5: .*100 XAF/)
      expect(refused.stderr).toMatch(/line 7: .*discount_percent/)
      expect(refused.stderr).not.toMatch(/--due-date|--discount/)
      const json = await svc(['invoice', 'import', file, '--json'])
      expect(json.exitCode).toBe(2)
      expect(JSON.parse(json.stdout).error.rows.map((r: {line: number}) => r.line)).toEqual([4, 5, 7])
      expect(await allInvoices(sb)).toEqual([])

      const skip = await svc(['invoice', 'import', file, '--skip-invalid', '--results', join(work, 'out.json')])
      expect(skip.exitCode, skip.stderr).toBe(0)
      const out = JSON.parse(readFileSync(join(work, 'out.json'), 'utf8'))
      expect(out.map((r: {status: string}) => r.status)).toEqual(['created', 'invalid', 'invalid', 'created', 'invalid'])
      const invoices = await allInvoices(sb)
      expect(invoices.map((i) => i.customer_name).sort()).toEqual(['Good One', 'Good Two'])
      expect(invoices.find((i) => i.customer_name === 'Good One')!.notes).toBe('multi\r\nline "note"')
      expect(invoices.find((i) => i.customer_name === 'Good Two')!.total_amount).toBe(Math.round(3300 * 0.9))

      const lines = join(work, 'more.jsonl')
      writeFileSync(
        lines,
        [
          JSON.stringify({customer_name: 'Jay', customer_email: 'jay@example.com', due_date: '2026-12-31', items: [{name: 'Fish', price: 1200, quantity: 1}]}),
          '',
          JSON.stringify({customer_name: 'Kim', customer_email: 'kim@example.com', due_date: '2026-12-31', items: [{name: 'Rice', price: 800, quantity: 2}]}),
        ].join('\n'),
      )
      const pub = await svc(['invoice', 'import', lines, '--publish', '--channel', 'EMAIL', '--json'])
      expect(pub.exitCode, pub.stdout).toBe(0)
      const report = JSON.parse(pub.stdout)
      expect(report.summary).toMatchObject({rows: 2, created: 2, published: 2, failed: 0})
      expect(report.results.map((r: {line: number}) => r.line)).toEqual([1, 3])
      expect(report.results.every((r: {invoice_status: string}) => r.invoice_status === 'UNPAID')).toBe(true)
      expect(existsSync(`${lines}.results.csv`)).toBe(true)
    } finally {
      await sb.close()
    }
  }, 60_000)
})
