/**
 * The shop owner's collections loop against the local sandbox over HTTP: which invoices the list
 * filters pick (invoices on both sides of each boundary day), "today" taken from the service.
 */
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

const DAY = 86_400_000
let sb: TestSandbox
let temp: ReturnType<typeof tempConfigDir>
beforeAll(async () => {
  sb = await startTestSandbox({settleAfterMs: 0})
})
afterAll(() => sb.close())
beforeEach(() => {
  temp = tempConfigDir()
})
afterEach(() => temp.cleanup())

/** The sandbox's day plus `days`, YYYY-MM-DD. */
async function sandboxDay(days = 0): Promise<string> {
  const clock = await sb.admin('GET', '/clock')
  return new Date(clock.now_ms + days * DAY).toISOString().slice(0, 10)
}

async function invoice(customer: string, due: string, publish = true, extra: Record<string, unknown> = {}): Promise<string> {
  const headers = {'x-api-key': sb.sb.keys.sandbox, 'content-type': 'application/json'}
  const body = {customer_name: customer, due_date: due, items: [{name: 'Bread', price: 500, quantity: 2}], customer_phone: '670000001', ...extra}
  const created = await fetch(`${sb.sb.url}/v1/invoices`, {method: 'POST', headers, body: JSON.stringify(body)})
  const {id} = (await created.json()) as {id: string}
  if (publish) {
    const published = await fetch(`${sb.sb.url}/v1/invoices/${id}/publish`, {method: 'POST', headers, body: '{}'})
    expect(published.status).toBe(200)
  }
  return id
}

describe('svc invoice list filters', {timeout: 90_000}, () => {
  it('--customer, --due-before, --due-after, --overdue pick exactly the invoices on the right side of each day', async () => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const ids = (r: {stdout: string}) => (JSON.parse(r.stdout) as Array<{id: string}>).map((i) => i.id).sort()
    const a = await invoice('Awa Bakery', await sandboxDay(10))
    const b = await invoice('AWA bakery (Douala)', await sandboxDay(20))
    const c = await invoice('Jean Mbarga', await sandboxDay(15), true, {customer_email: 'jean@awa-supplies.cm'})
    const d = await invoice('Awa Bakery', await sandboxDay(1), false) // a draft: never owed
    const e = await invoice('Paul Etoga', await sandboxDay(12))

    const between = await svc(['invoice', 'list', '--due-after', await sandboxDay(10), '--due-before', await sandboxDay(20), '--json'])
    expect(between.exitCode, between.stderr).toBe(0)
    expect(ids(between)).toEqual([c, e].sort())

    const before = await svc(['invoice', 'list', '--due-before', await sandboxDay(11), '--json'])
    expect(ids(before)).toEqual([a, d].sort())

    // Name, email or phone, any case.
    const awa = await svc(['invoice', 'list', '--customer', 'awa', '--json'])
    expect(ids(awa)).toEqual([a, b, c, d].sort())

    // Nothing is overdue yet; 12 days later on the service's clock, only what fell due before its today.
    expect(ids(await svc(['invoice', 'list', '--overdue', '--json']))).toEqual([])
    await sb.admin('POST', '/clock/advance', {ms: 12 * DAY})
    const overdue = await svc(['invoice', 'list', '--overdue', '--json'])
    expect(ids(overdue)).toEqual([a]) // e falls due today: not overdue; d is a draft
    const human = await svc(['invoice', 'list', '--overdue', '--customer', 'AWA'])
    expect(human.exitCode).toBe(0)
    expect(human.stdout).toContain(a)
    expect(human.stdout).not.toContain(b)
  })

  it('stops at --page-size matches and says more may match; bad filters exit 2 naming the flag', async () => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    for (let i = 0; i < 3; i++) await invoice(`Stop Early ${i}`, await sandboxDay(30))
    const first = await svc(['invoice', 'list', '--customer', 'stop early', '--page-size', '2', '--json'])
    expect(first.exitCode).toBe(0)
    expect(JSON.parse(first.stdout)).toHaveLength(2)
    expect(first.stderr).toMatch(/more may match: use --all/)
    const all = await svc(['invoice', 'list', '--customer', 'stop early', '--all', '--json'])
    expect(JSON.parse(all.stdout)).toHaveLength(3)

    const bad = await svc(['invoice', 'list', '--due-before', '2026-02-30'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('--due-before')
    const empty = await svc(['invoice', 'list', '--due-after', '2026-12-31', '--due-before', '2026-12-01'])
    expect(empty.exitCode).toBe(2)
    expect(empty.stderr).toContain('--due-after')
  })
})
