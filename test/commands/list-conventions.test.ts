/**
 * One convention for lists (docs/conventions.md), against a seeded local sandbox, in-process:
 * every list takes --limit and --page-size; every list's --json is a bare array, the next-page
 * hint on stderr; `pay list` and `invoice list` take --csv (RFC 4180), and no CSV cell begins
 * like a spreadsheet formula.
 */
import {createHash} from 'node:crypto'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {EventLog} from '../../src/lib/webhooks/event-log.js'

import {parseCsv} from '../../src/lib/invoices/csv.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

let h: TestSandbox
let temp: ReturnType<typeof tempConfigDir>
let cli: ReturnType<TestSandbox['cli']>
const admin = () => ({SVC_SANDBOX_URL: h.sb.url, SVC_SANDBOX_ADMIN_TOKEN: h.sb.adminToken})

beforeAll(async () => {
  temp = tempConfigDir()
  h = await startTestSandbox({settleAfterMs: 0})
  cli = h.cli(temp.dir, 'sandbox', runInProcess)
  for (const phone of ['670000001', '670000099', '650000001']) expect((await cli(['pay', 'create', '--amount', '1500', '--phone', phone, '--json'])).exitCode).toBe(0)
  for (const name of ['=HYPERLINK("http://evil.example","click")', 'Awa, "la" Boulangerie', '@Ndolo']) {
    const made = await cli(['invoice', 'create', '--customer-name', name, '--due-date', '2099-12-31', '--item', 'Pain:500:3', '--email', 'a@example.com', '--publish', '--channel', 'EMAIL', '--json'])
    expect(made.exitCode, made.stderr).toBe(0)
  }
}, 60_000)

afterAll(async () => {
  await h?.close()
  temp?.cleanup()
})

describe('--limit and --page-size on every list', () => {
  it.each([
    ['pay', 'list'],
    ['invoice', 'list'],
  ])('%s %s takes both', async (...command) => {
    for (const flag of ['--limit', '--page-size']) {
      const result = await cli([...command, flag, '2', '--json'])
      expect(result.exitCode, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout)).toHaveLength(2)
      expect(result.stderr).toMatch(/More/)
    }
  })

  it('sandbox outbox takes both; its --json is a bare array, the next page on stderr', async () => {
    for (const flag of ['--limit', '--page-size']) {
      const result = await cli(['sandbox', 'outbox', flag, '2', '--json'], {env: admin()})
      expect(result.exitCode, result.stderr).toBe(0)
      const list = JSON.parse(result.stdout)
      expect(Array.isArray(list)).toBe(true)
      expect(list).toHaveLength(2)
      expect(result.stderr).toContain('--offset 2')
    }
    const rest = await cli(['sandbox', 'outbox', '--offset', '2', '--json'], {env: admin()})
    expect(JSON.parse(rest.stdout)).toHaveLength(1)
    expect(rest.stderr).toBe('')
  })

  it.each([
    [['sandbox', 'keys', 'list']],
    [['sandbox', 'webhooks', 'list']],
    [['sandbox', 'allowlist', 'list']],
    [['sandbox', 'numbers', 'list']],
    [['sandbox', 'faults', 'list']],
    [['sandbox', 'balance']],
    [['sandbox', 'inventory', 'list']],
  ])('svc %j --json is a bare array', async (command) => {
    const result = await cli([...command, '--json'], {env: admin()})
    expect(result.exitCode, result.stderr).toBe(0)
    expect(Array.isArray(JSON.parse(result.stdout))).toBe(true)
  })

  it('webhooks events takes --page-size; when the log holds more, the hint is on stderr', async () => {
    const result = await cli(['webhooks', 'events', '--page-size', '5', '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual([])
    const log = await EventLog.open({dir: join(temp.dir, 'webhooks', `key-${createHash('sha256').update(h.sb.keys.sandbox).digest('hex').slice(0, 12)}`)})
    for (const id of ['evt_1', 'evt_2', 'evt_3']) log.appendEvent({id, type: 'payment.success', received_at: new Date().toISOString(), source: 'inbound', payload: {}})
    await log.close()
    const two = await cli(['webhooks', 'events', '--limit', '2', '--json'])
    expect(JSON.parse(two.stdout).map((e: {id: string}) => e.id)).toEqual(['evt_3', 'evt_2'])
    expect(two.stderr).toContain('--limit')
    const all = await cli(['webhooks', 'events', '--limit', '3', '--json'])
    expect(JSON.parse(all.stdout)).toHaveLength(3)
    expect(all.stderr).toBe('')
  })
})

describe('--csv on pay list and invoice list', () => {
  it('pay list --csv: a header row, one row per payment, CRLF, integers for XAF', async () => {
    const result = await cli(['pay', 'list', '--csv'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout.startsWith('id,status,amount,currency,phone_number,failure_code,environment,created_at,internal_transaction_id\r\n')).toBe(true)
    const records = parseCsv(result.stdout)
    expect(records).toHaveLength(4)
    expect(records.slice(1).map((r) => r.fields[2])).toEqual(['1500', '1500', '1500'])
    expect(records.slice(1).some((r) => r.fields[5] !== '')).toBe(true)
  })

  it('invoice list --csv: quoted where RFC 4180 says, and a name that begins like a formula disarmed', async () => {
    const result = await cli(['invoice', 'list', '--csv'])
    expect(result.exitCode, result.stderr).toBe(0)
    const [head, ...rows] = parseCsv(result.stdout)
    expect(head!.fields.slice(0, 3)).toEqual(['id', 'status', 'customer_name'])
    const names = rows.map((r) => r.fields[2])
    expect(names).toContain('\'=HYPERLINK("http://evil.example","click")')
    expect(names).toContain('Awa, "la" Boulangerie')
    expect(names).toContain("'@Ndolo")
    expect(result.stdout).toContain('"Awa, ""la"" Boulangerie"')
    expect(rows.every((r) => r.fields.every((cell) => !/^[=+\-@]/.test(cell)))).toBe(true)
  })

  it('--csv and --json together are refused before any request', async () => {
    const result = await cli(['pay', 'list', '--csv', '--json'])
    expect(result.exitCode).toBe(2)
    expect(result.stdout + result.stderr).toMatch(/--csv|--json/)
  })
})
