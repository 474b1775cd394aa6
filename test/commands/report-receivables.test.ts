/**
 * svc report receivables against the in-process sandbox: invoices created and published with due
 * dates in the future, one partly and one fully paid through the checkout form, then the sandbox
 * clock moved 100 days on, so that as of that day they fall in every ageing bucket.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {addDays} from '../../src/lib/reports/days.js'
import {ANSI} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {runInProcess} from '../helpers/in-process.js'
import {payAtCheckout} from './invoice-helpers.js'

const DAY_MS = 24 * 60 * 60 * 1000

let sandbox: TestSandbox
let temp: ReturnType<typeof tempConfigDir>
let asOf: string
let today: string

// Formatting of the figures: the command class in-process (same arguments, same result as a child).
const cli = (args: string[]) => runInProcess(['report', 'receivables', ...args], {configDir: temp.dir, env: {...sandbox.env(), TZ: 'UTC'}})

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${sandbox.sb.url}${path}`, {
    method,
    headers: {'x-api-key': sandbox.sb.keys.sandbox, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID()},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = await response.json()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
  return json
}

// [customer, days past due as of the report day, price]; negative: not yet due.
const OPEN: Array<[string, number, number]> = [
  ['Awa Bakery', -5, 1500],
  ['Awa Bakery', 0, 2000],
  ['Awa Bakery', 91, 10000], // partly paid: 4 000 of 10 000
  ['Bisi Shop', 1, 3000],
  ['Bisi Shop', 30, 2500],
  ['Bisi Shop', 61, 1200],
  ['Chez Paul', 31, 4000],
  ['Chez Paul', 60, 800],
  ['Chez Paul', 90, 5000],
]

beforeAll(async () => {
  sandbox = await startTestSandbox({settleAfterMs: 1000})
  temp = tempConfigDir()
  // Days are counted in UTC here: never start within two minutes of midnight, where the set-up
  // could straddle two days.
  let clock = await sandbox.admin('GET', '/clock')
  if (DAY_MS - (clock.now_ms % DAY_MS) < 120_000) clock = await sandbox.admin('POST', '/clock/advance', {ms: 121_000})
  today = clock.now.slice(0, 10)
  asOf = addDays(today, 100)
  const create = (customer_name: string, due_date: string, price: number) =>
    api('POST', '/v1/invoices', {customer_name, due_date, items: [{name: 'Bread', price, quantity: 1}]})
  const publish = (id: string) => api('POST', `/v1/invoices/${id}/publish`, {})

  for (const [customer, days, price] of OPEN) {
    const invoice = await create(customer, addDays(asOf, -days), price)
    await publish(invoice.id)
    if (days === 91) await payAtCheckout(invoice, 4000)
  }
  const paid = await create('Dora Paid', addDays(asOf, -10), 3000)
  await publish(paid.id)
  await payAtCheckout(paid, 3000)
  const cancelled = await create('Eko Cancelled', addDays(asOf, -10), 2000)
  await publish(cancelled.id)
  await api('POST', `/v1/invoices/${cancelled.id}/cancel`)
  await create('Fati Draft', addDays(asOf, -10), 1000)

  await sandbox.admin('POST', '/clock/advance', {ms: 100 * DAY_MS})
  const all = (await sandbox.get('/v1/invoices?page_size=100')).data as any[]
  // The sandbox agrees: the payments settled, time made the overdue ones PAST_DUE.
  expect(all.find((i) => i.customer_name === 'Dora Paid').status).toBe('PAID')
  expect(all.filter((i) => i.status === 'PAST_DUE')).toHaveLength(7)
  expect(all.filter((i) => i.status === 'UNPAID')).toHaveLength(2)
  expect(all.find((i) => i.amount_paid === 4000)).toMatchObject({status: 'PAST_DUE', amount_due: 6000})
}, 30_000)
afterAll(async () => {
  await sandbox.close()
  temp.cleanup()
})

function expectedReport() {
  const bucket = (id: string, from: number | null, to: number | null, count: number, amount: number, oldestDays: number) => ({
    bucket: id,
    from_days: from,
    to_days: to,
    count,
    amount_due: amount,
    oldest_due_date: addDays(asOf, -oldestDays),
  })
  const zero = {not_due: 0, days_1_30: 0, days_31_60: 0, days_61_90: 0, days_over_90: 0}
  return {
    report: 'receivables',
    as_of: asOf,
    currency: 'XAF',
    totals: {count: 9, amount_due: 26000, total_amount: 30000, amount_paid: 4000, partly_paid: 1},
    buckets: [
      bucket('not_due', null, 0, 2, 3500, 0),
      bucket('days_1_30', 1, 30, 2, 5500, 30),
      bucket('days_31_60', 31, 60, 2, 4800, 60),
      bucket('days_61_90', 61, 90, 2, 6200, 90),
      bucket('days_over_90', 91, null, 1, 6000, 91),
    ],
    customers: [
      {customer_name: 'Chez Paul', count: 3, amount_due: 9800, oldest_due_date: addDays(asOf, -90), max_days_past_due: 90, buckets: {...zero, days_31_60: 4800, days_61_90: 5000}},
      {customer_name: 'Awa Bakery', count: 3, amount_due: 9500, oldest_due_date: addDays(asOf, -91), max_days_past_due: 91, buckets: {...zero, not_due: 3500, days_over_90: 6000}},
      {customer_name: 'Bisi Shop', count: 3, amount_due: 6700, oldest_due_date: addDays(asOf, -61), max_days_past_due: 61, buckets: {...zero, days_1_30: 5500, days_61_90: 1200}},
    ],
  }
}

describe('svc report receivables', () => {
  it('--json: every bucket edge (due today, 1, 30, 31, 60, 61, 90, 91 days), by customer, totals; nothing on stderr', async () => {
    const r = await cli(['--as-of', asOf, '--json'])
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toEqual(expectedReport())
  })

  it('--page-size 1 reads every page and gives the same figures', async () => {
    const r = await cli(['--as-of', asOf, '--json', '--page-size', '1'])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(expectedReport())
  })

  it('--csv: a header row, a row per customer, a totals row; RFC 4180', async () => {
    const r = await cli(['--as-of', asOf, '--csv', '--page-size', '2'])
    expect(r.exitCode).toBe(0)
    const d = (days: number) => addDays(asOf, -days)
    expect(r.stdout).toBe(
      [
        'row_type,customer_name,count,amount_due,oldest_due_date,max_days_past_due,not_due,days_1_30,days_31_60,days_61_90,days_over_90',
        `customer,Chez Paul,3,9800,${d(90)},90,0,0,4800,5000,0`,
        `customer,Awa Bakery,3,9500,${d(91)},91,3500,0,0,0,6000`,
        `customer,Bisi Shop,3,6700,${d(61)},61,0,5500,0,1200,0`,
        `total,,9,26000,${d(91)},91,3500,5500,4800,6200,6000`,
        '',
      ].join('\r\n'),
    )
  })

  it('for people: a headline, the ageing chart with every label and figure, the customer table; no colour off a TTY', async () => {
    const r = await cli(['--as-of', asOf])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).not.toMatch(ANSI)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe(`Receivables as of ${asOf}: 9 open invoices, 26 000 XAF due (1 partly paid).`)
    // 80 columns off a TTY: labels 12 wide, figures 13, bars of 51 cells; 6 200 is the largest.
    expect(lines.slice(2, 8)).toEqual([
      'By age (days past due; invoices in brackets)',
      `Not yet due   ${'█'.repeat(28)}▊${' '.repeat(22)}  3 500 XAF (2)`,
      `1–30 days     ${'█'.repeat(45)}▎${' '.repeat(5)}  5 500 XAF (2)`,
      `31–60 days    ${'█'.repeat(39)}▌${' '.repeat(11)}  4 800 XAF (2)`,
      `61–90 days    ${'█'.repeat(51)}  6 200 XAF (2)`,
      `Over 90 days  ${'█'.repeat(49)}▍${' '.repeat(1)}  6 000 XAF (1)`,
    ])
    expect(r.stdout).toMatch(/CUSTOMER\s+INVOICES\s+AMOUNT DUE\s+OLDEST DUE\s+DAYS PAST DUE/)
    expect(r.stdout).toMatch(new RegExp(`Chez Paul\\s+3\\s+9 800 XAF\\s+${addDays(asOf, -90)}\\s+90`))
    expect(r.stdout).toMatch(new RegExp(`TOTAL\\s+9\\s+26 000 XAF\\s+${addDays(asOf, -91)}\\s+91`))
    expect(r.stderr).toBe('')
  })

  it("--as-of defaults to the service's today (its Date header: the sandbox clock, moved 100 days on), not the machine's", async () => {
    const r = await cli(['--json'])
    expect(r.exitCode).toBe(0)
    const report = JSON.parse(r.stdout)
    const clock = await sandbox.admin('GET', '/clock')
    const serviceNow = new Date(clock.now_ms)
    const serviceDay = `${serviceNow.getFullYear()}-${String(serviceNow.getMonth() + 1).padStart(2, '0')}-${String(serviceNow.getDate()).padStart(2, '0')}`
    expect(report.as_of).toBe(serviceDay)
    expect(report.as_of).not.toBe(new Date().toISOString().slice(0, 10))
    const explicit = await cli(['--json', '--as-of', serviceDay])
    expect(JSON.parse(explicit.stdout)).toEqual(report)
  })

  it('refuses bad flags with exit 2 before any request', async () => {
    for (const args of [['--page-size', '0'], ['--page-size', '101'], ['--as-of', '2026-02-30']]) {
      const r = await cli(args)
      expect(r.exitCode, args.join(' ')).toBe(2)
      expect(r.stdout, args.join(' ')).toBe('')
      expect(r.stderr, args.join(' ')).toMatch(/page-size|as-of/)
    }
    const both = await cli(['--csv', '--json'])
    expect(both.exitCode).toBe(2)
    expect(JSON.parse(both.stdout).error).toMatchObject({code: 'invalid_input'})
  })
})
