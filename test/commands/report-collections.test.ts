/**
 * svc report collections against the in-process sandbox: payments to the spec's test numbers
 * (fixed outcomes) over three days of sandbox time, settled by moving the clock, plus two left
 * PENDING (one on a number no operator can be inferred from). The sandbox and the command runs
 * share a test clock pinned at 08:00 UTC (test/helpers/clock.ts): three days later it is still far
 * from a midnight, whatever the hour the suite runs at.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {addDays} from '../../src/lib/reports/days.js'
import {ANSI, runCli} from '../helpers/cli.js'
import {testClock} from '../helpers/clock.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {runInProcess} from '../helpers/in-process.js'
import {stripAnsi} from '../helpers/pty.js'

const DAY_MS = 24 * 60 * 60 * 1000
const SETTLE_MS = 10 * 60 * 1000
/** Where the machine's clock stands for the sandbox and the command runs. */
const clock = testClock('2026-03-10T08:00:00Z')

let sandbox: TestSandbox
let temp: ReturnType<typeof tempConfigDir>
let first: string
let range: string[]

type Outcome = 'SUCCESS' | 'FAILED' | 'PENDING'
interface Made {
  id: string
  day: string
  amount: number
  operator: 'MTN' | 'ORANGE' | 'other'
  status: Outcome
}
const made: Made[] = []

// Formatting of the figures: the command class in-process (same arguments, same result as a child).
const cli = (args: string[]) =>
  runInProcess(['report', 'collections', '--since', first, '--until', addDays(first, 3), ...args], {configDir: temp.dir, env: {...sandbox.env(), TZ: 'UTC'}, clock})

async function pay(phone: string, operator: 'MTN' | 'ORANGE', amount: number, status: Outcome, inferred: Made['operator'] = operator): Promise<void> {
  const response = await fetch(`${sandbox.sb.url}/v1/payments`, {
    method: 'POST',
    headers: {'x-api-key': sandbox.sb.keys.sandbox, 'content-type': 'application/json'},
    body: JSON.stringify({amount, phone_number: phone, operator, payment_method: 'mobile_money'}),
  })
  const payment = (await response.json()) as {id: string; created_at: string}
  expect(response.status).toBe(201)
  made.push({id: payment.id, day: payment.created_at.slice(0, 10), amount, operator: inferred, status})
}

const advance = (ms: number) => sandbox.admin('POST', '/clock/advance', {ms})

beforeAll(async () => {
  sandbox = await startTestSandbox({settleAfterMs: SETTLE_MS, clock})
  temp = tempConfigDir()
  first = (await sandbox.admin('GET', '/clock')).now.slice(0, 10)
  range = [0, 1, 2, 3].map((d) => addDays(first, d))
  // Day 0
  await pay('237670000001', 'MTN', 5000, 'SUCCESS')
  await pay('237690000001', 'ORANGE', 3000, 'SUCCESS')
  await pay('237670000099', 'MTN', 2000, 'FAILED')
  await advance(DAY_MS)
  // Day 1: 237650000001 is an ORANGE test number although 650 is an MTN prefix.
  await pay('237650000001', 'ORANGE', 1000, 'SUCCESS')
  await pay('237680000099', 'MTN', 700, 'FAILED')
  await pay('237690000099', 'ORANGE', 400, 'FAILED')
  await advance(DAY_MS)
  // Day 2: one settled, two left PENDING (a Nexttel prefix: no operator can be inferred).
  await pay('237670000002', 'MTN', 2500, 'SUCCESS')
  await advance(SETTLE_MS + 1000)
  await pay('237680000001', 'MTN', 1200, 'PENDING')
  await pay('237661234567', 'MTN', 900, 'PENDING', 'other')
  const listed = (await sandbox.get('/v1/payments?limit=100')).data as Array<{id: string; status: string}>
  for (const m of made) expect(listed.find((p) => p.id === m.id)?.status, m.id).toBe(m.status)
})
afterAll(async () => {
  await sandbox.close()
  temp.cleanup()
})

/** The figures of these payments, from the table above (status and amount known in advance). */
function figures(of: Made[]) {
  const by = (s: string) => {
    const list = of.filter((m) => m.status === s)
    return {count: list.length, amount: list.reduce((a, m) => a + m.amount, 0)}
  }
  const success = by('SUCCESS').count
  const failed = by('FAILED').count
  return {
    count: of.length,
    amount: of.reduce((a, m) => a + m.amount, 0),
    by_status: {SUCCESS: by('SUCCESS'), FAILED: by('FAILED'), PENDING: by('PENDING'), UNSPECIFIED: {count: 0, amount: 0}},
    success_rate: success + failed === 0 ? null : Math.round((success / (success + failed)) * 10_000) / 10_000,
  }
}

const dailySuccess = (of: Made[]) => range.map((d) => of.filter((m) => m.day === d && m.status === 'SUCCESS').reduce((a, m) => a + m.amount, 0))

describe('svc report collections', () => {
  it('--json by day: totals, statuses, success rate, failure codes, every day of the range', async () => {
    const r = await cli(['--json'])
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toBe('')
    const report = JSON.parse(r.stdout)
    // The figures, written out once, whatever day each payment fell on.
    expect(report.totals).toEqual({
      count: 9,
      amount: 16700,
      by_status: {SUCCESS: {count: 4, amount: 11500}, FAILED: {count: 3, amount: 3100}, PENDING: {count: 2, amount: 2100}, UNSPECIFIED: {count: 0, amount: 0}},
      success_rate: 0.5714,
    })
    expect(report.failure_codes).toEqual([{code: 'CUSTOMER_DECLINED', count: 3, amount: 3100}])
    expect(report).toMatchObject({
      report: 'collections',
      by: 'day',
      currency: 'XAF',
      fees_deducted: false,
      operator_inferred: false,
      since: `${first}T00:00:00.000Z`,
      until: `${addDays(first, 4)}T00:00:00.000Z`,
      dates: range,
      daily_success_amount: dailySuccess(made),
    })
    expect(report.rows).toEqual(range.map((date) => ({date, ...figures(made.filter((m) => m.day === date))})))
  })

  it('--page-size 1 reads every page and gives the same figures', async () => {
    const [all, one] = await Promise.all([cli(['--json']), cli(['--json', '--page-size', '1'])])
    expect(one.exitCode).toBe(0)
    expect(JSON.parse(one.stdout)).toEqual(JSON.parse(all.stdout))
  })

  it('--by operator --json: MTN, ORANGE and other, inferred from the numbers', async () => {
    const r = await cli(['--by', 'operator', '--json', '--page-size', '3'])
    expect(r.exitCode).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report.operator_inferred).toBe(true)
    expect(report.rows).toEqual(
      (['MTN', 'ORANGE', 'other'] as const).map((operator) => {
        const of = made.filter((m) => m.operator === operator)
        return {operator, ...figures(of), daily_success_amount: dailySuccess(of)}
      }),
    )
    expect(report.rows.map((row: any) => [row.operator, row.count, row.amount, row.success_rate])).toEqual([
      ['MTN', 5, 11400, 0.5],
      ['ORANGE', 3, 4400, 0.6667],
      ['other', 1, 900, null],
    ])
  })

  it('--csv: a header row, a row per operator and a totals row', async () => {
    const r = await cli(['--by', 'operator', '--csv'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe(
      [
        'row_type,operator,count,amount,success_count,success_amount,failed_count,failed_amount,pending_count,pending_amount,unspecified_count,unspecified_amount,success_rate',
        'operator,MTN,5,11400,2,7500,2,2700,1,1200,0,0,0.5',
        'operator,ORANGE,3,4400,2,4000,1,400,0,0,0,0,0.6667',
        'operator,other,1,900,0,0,0,0,1,900,0,0,',
        'total,,9,16700,4,11500,3,3100,2,2100,0,0,0.5714',
        '',
      ].join('\r\n'),
    )
  })

  it('for people: headline, rate, sparkline, tables, failure codes, and that fees are not deducted', async () => {
    const r = await cli([])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).not.toMatch(ANSI)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe(`Collections from ${first} to ${range[3]}: 9 payments, 16 700 XAF asked for, 11 500 XAF collected.`)
    expect(lines[1]).toBe('Success rate: 57.1 % of the 7 payments with a final status (4 SUCCESS, 3 FAILED); not final yet: 2 PENDING, 0 UNSPECIFIED.')
    // Piped, no sparkline: a line of blocks says nothing in a file or an email (the table has the figures).
    expect(lines[2]).toBe('')
    expect(r.stdout).not.toMatch(/[▁▂▃▄▅▆▇█]/)
    // On a terminal, the sparkline of what came in per day.
    const onTerminal = await runInProcess(['report', 'collections', '--since', first, '--until', addDays(first, 3)], {
      configDir: temp.dir,
      env: {TERM: 'xterm-256color', ...sandbox.env(), TZ: 'UTC', NO_COLOR: '1'},
      terminal: {columns: 120},
      clock,
    })
    expect(onTerminal.exitCode).toBe(0)
    const screen = stripAnsi(onTerminal.screen!).split('\n')
    const at = screen.findIndex((line) => /^Collected per day \(SUCCESS; highest [\d ]+ XAF\):$/.test(line))
    expect(at, screen.join('\n')).toBeGreaterThan(0)
    expect(screen[at + 1]).toMatch(new RegExp(`^${first} [▁▂▃▄▅▆▇█]{4} ${range[3]}$`))
    expect(screen[at + 1]).toContain('▁ ') // the last day has no payment
    expect(r.stdout).toMatch(/DATE\s+PAYMENTS\s+AMOUNT\s+SUCCESS\s+FAILED\s+PENDING\s+UNSPECIFIED\s+SUCCESS RATE\s+COLLECTED/)
    expect(r.stdout).toMatch(/TOTAL\s+9\s+16 700 XAF\s+4\s+3\s+2\s+0\s+57\.1 %\s+11 500 XAF/)
    expect(r.stdout).toMatch(/CUSTOMER_DECLINED\s+3\s+3 100 XAF/)
    expect(r.stdout).toContain('fees are not an API field, so none are deducted')
    const byOperator = await cli(['--by', 'operator'])
    expect(byOperator.stdout).toMatch(/other\s+1\s+900 XAF/)
    expect(byOperator.stdout).toContain('The Payment object has no operator field')
  })

  it('--help says that fees are not deducted and that the operator is inferred', async () => {
    const r = await runCli(['report', 'collections', '--help'], {configDir: temp.dir})
    expect(r.stdout).toContain('fees are not an API field')
    expect(r.stdout).toContain('no operator field')
  })

  it('refuses --until before --since, a future --since and a bad --page-size with exit 2', async () => {
    const base = {configDir: temp.dir, env: {...sandbox.env(), TZ: 'UTC'}, clock}
    for (const args of [
      ['--since', '2026-01-10', '--until', '2026-01-09'],
      ['--since', '2999-01-01'],
      ['--page-size', '0'],
      ['--by', 'week'],
    ]) {
      const r = await runInProcess(['report', 'collections', ...args], base)
      expect(r.exitCode, args.join(' ')).toBe(2)
      expect(r.stdout, args.join(' ')).toBe('')
    }
  })
})
