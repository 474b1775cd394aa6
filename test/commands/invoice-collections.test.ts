/**
 * The shop owner's collections loop against the local sandbox over HTTP: which invoices the list
 * filters pick (invoices on both sides of each boundary day), "today" taken from the service.
 */
import {describe, expect} from 'vitest'

import {readdirSync, statSync} from 'node:fs'
import {join} from 'node:path'

import {runCli} from '../helpers/cli.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import type {TestSandbox} from '../helpers/sandbox.js'

const DAY = 86_400_000
// The file's sandbox (payments settle at once) and a config dir per test (test/helpers/fixtures.ts).
const it = withSandbox({settleAfterMs: 0})

/** The sandbox's day plus `days`, YYYY-MM-DD. */
async function sandboxDay(sb: TestSandbox, days = 0): Promise<string> {
  const clock = await sb.admin('GET', '/clock')
  return new Date(clock.now_ms + days * DAY).toISOString().slice(0, 10)
}

async function invoice(sb: TestSandbox, customer: string, due: string, publish = true, extra: Record<string, unknown> = {}): Promise<string> {
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
  it('--customer, --due-before, --due-after, --overdue pick exactly the invoices on the right side of each day', async ({sandbox: sb, temp}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const ids = (r: {stdout: string}) => (JSON.parse(r.stdout) as Array<{id: string}>).map((i) => i.id).sort()
    const a = await invoice(sb, 'Awa Bakery', await sandboxDay(sb, 10))
    const b = await invoice(sb, 'AWA bakery (Douala)', await sandboxDay(sb, 20))
    const c = await invoice(sb, 'Jean Mbarga', await sandboxDay(sb, 15), true, {customer_email: 'jean@awa-supplies.cm'})
    const d = await invoice(sb, 'Awa Bakery', await sandboxDay(sb, 1), false) // a draft: never owed
    const e = await invoice(sb, 'Paul Etoga', await sandboxDay(sb, 12))

    const between = await svc(['invoice', 'list', '--due-after', await sandboxDay(sb, 10), '--due-before', await sandboxDay(sb, 20), '--json'])
    expect(between.exitCode, between.stderr).toBe(0)
    expect(ids(between)).toEqual([c, e].sort())

    const before = await svc(['invoice', 'list', '--due-before', await sandboxDay(sb, 11), '--json'])
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

  it('stops at --page-size matches and says more may match; bad filters exit 2 naming the flag', async ({sandbox: sb, temp}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    for (let i = 0; i < 3; i++) await invoice(sb, `Stop Early ${i}`, await sandboxDay(sb, 30))
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

/** How many deliveries of each invoice the sandbox's outbox holds (trigger "send": reminders). */
async function sends(sb: TestSandbox): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  for (let offset = 0; ; offset += 100) {
    const page = await sb.admin('GET', `/outbox?limit=100&offset=${offset}`)
    for (const m of page.data as Array<{invoice_id: string; trigger: string}>) if (m.trigger === 'send') counts.set(m.invoice_id, (counts.get(m.invoice_id) ?? 0) + 1)
    if (!page.has_more) return counts
  }
}

describe('svc invoice remind', {timeout: 120_000}, () => {
  it('reminds each overdue invoice once a day: a second run sends nothing; --dry-run sends nothing', async ({sandbox: sb, temp}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const customer = `Remind Twice ${Date.now()}`
    const late = [await invoice(sb, customer, await sandboxDay(sb, 1), true, {customer_email: 'late@example.cm'}), await invoice(sb, customer, await sandboxDay(sb, 2))]
    const notYet = await invoice(sb, customer, await sandboxDay(sb, 30))
    await sb.admin('POST', '/clock/advance', {ms: 5 * DAY})
    const before = await sends(sb)

    const dry = await svc(['invoice', 'remind', '--overdue', '--customer', customer, '--dry-run'])
    expect(dry.exitCode, dry.stderr).toBe(0)
    expect(dry.stdout).toContain(late[0])
    expect(dry.stdout).toMatch(/EMAIL to late@example\.cm/)
    expect(dry.stdout).toMatch(/WHATSAPP to \+?237670000001/)
    expect(dry.stdout).not.toContain(notYet)
    expect(dry.stderr).toMatch(/Dry run .*nothing sent: 2 would be sent/)
    expect(await sends(sb)).toEqual(before)

    const first = await svc(['invoice', 'remind', '--overdue', '--customer', customer, '--json'])
    expect(first.exitCode, first.stderr).toBe(0)
    const report = JSON.parse(first.stdout)
    expect(report.sent.map((p: {id: string}) => p.id).sort()).toEqual([...late].sort())
    const second = await svc(['invoice', 'remind', '--overdue', '--customer', customer])
    expect(second.exitCode, second.stderr).toBe(0)
    expect(second.stderr).toMatch(/0 sent, 2 skipped \(already reminded today\)/)
    const after = await sends(sb)
    for (const id of late) expect(after.get(id)).toBe((before.get(id) ?? 0) + 1)
    expect(after.get(notYet)).toBeUndefined()

    // The journal names customers: 0600, in the config dir.
    const dir = join(temp.dir, 'reminders')
    for (const file of readdirSync(dir)) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600)

    // The next service day, the same invoices may be reminded again.
    await sb.admin('POST', '/clock/advance', {ms: DAY})
    const nextDay = await svc(['invoice', 'remind', '--overdue', '--customer', customer, '--json'])
    expect(JSON.parse(nextDay.stdout).sent).toHaveLength(2)
  })

  it('killed mid-run, then run again: no confirmed reminder is sent twice, unconfirmed ones are named', async ({sandbox: sb, temp}) => {
    const customer = `Remind Killed ${Date.now()}`
    const ids: string[] = []
    for (let i = 0; i < 6; i++) ids.push(await invoice(sb, customer, await sandboxDay(sb, 1)))
    await sb.admin('POST', '/clock/advance', {ms: 3 * DAY})
    const before = await sends(sb)
    const sentSoFar = async () => {
      const now = await sends(sb)
      return ids.reduce((n, id) => n + (now.get(id) ?? 0) - (before.get(id) ?? 0), 0)
    }
    // Paced to 5 requests a minute: after the first few sends the run waits for the rate limit's window,
    // and it is killed there, after two sends (at 60 a minute it could finish before the kill).
    const args = ['invoice', 'remind', '--overdue', '--customer', customer]
    // A child process, killed (SIGKILL) mid-run; the run after it, in-process.
    const killed = await runCli(args, {
      configDir: temp.dir,
      env: {...sb.env(), SVC_RATE_LIMIT: '5'},
      timeoutMs: 60_000,
      onSpawn: (child) => {
        const poll = setInterval(async () => {
          if ((await sentSoFar()) >= 2) {
            clearInterval(poll)
            child.kill('SIGKILL')
          }
        }, 50)
        child.on('close', () => clearInterval(poll))
      },
    })
    expect(killed.signal).toBe('SIGKILL')
    const afterKill = await sends(sb)
    const rerun = await runInProcess([...args, '--json'], {configDir: temp.dir, env: {...sb.env(), SVC_RATE_LIMIT: '0'}})
    const report = JSON.parse(rerun.stdout)
    const final = await sends(sb)
    for (const id of ids) {
      const total = (final.get(id) ?? 0) - (before.get(id) ?? 0)
      expect(total, id).toBeLessThanOrEqual(1)
      // Sent before the kill: never again.
      if ((afterKill.get(id) ?? 0) > (before.get(id) ?? 0)) expect(report.sent.map((p: {id: string}) => p.id)).not.toContain(id)
    }
    // Every invoice is accounted for: sent, skipped as reminded, or named as unknown.
    const accounted = [...report.sent, ...report.skipped, ...report.unknown].map((p: {id: string}) => p.id).sort()
    expect(accounted).toEqual([...ids].sort())
    expect(report.skipped.length).toBeGreaterThanOrEqual(1)
    if (report.unknown.length > 0) expect(rerun.exitCode).toBe(1)
  })
})

describe('--dry-run and missing values', {timeout: 120_000}, () => {
  const counts = async (sb: TestSandbox) => {
    const payments = await sb.get('/v1/payments?limit=1')
    const invoices = await sb.get('/v1/invoices?page=1&page_size=1')
    const outbox = await sb.admin('GET', '/outbox?limit=1')
    return {payments: payments.total ?? payments.data?.length, invoices: invoices.total, outbox: outbox.total}
  }

  it('pay create, invoice create and invoice import with --dry-run check and show everything, send nothing, exit 0', async ({sandbox: sb, temp}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const before = await counts(sb)

    const pay = await svc(['pay', 'create', '--amount', '5 000', '--phone', '+237 6 70 00 00 01', '--dry-run'])
    expect(pay.exitCode, pay.stderr).toBe(0)
    expect(pay.stdout).toMatch(/nothing sent.*237670000001 \(MTN\).*5 000 XAF/)
    const badPay = await svc(['pay', 'create', '--amount', '50.5', '--phone', '670000001', '--dry-run'])
    expect(badPay.exitCode).toBe(2)

    const create = await svc(['invoice', 'create', '--customer-name', 'Dry Run', '--email', 'dry@example.cm', '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--discount', '10', '--publish', '--channel', 'EMAIL', '--dry-run', '--json'])
    expect(create.exitCode, create.stderr).toBe(0)
    expect(JSON.parse(create.stdout)).toMatchObject({dry_run: true, totals: {total_amount: 1350}, publish: true, delivery: {channel: 'EMAIL', recipient: 'dry@example.cm'}})
    const human = await svc(['invoice', 'create', '--customer-name', 'Dry Run', '--email', 'dry@example.cm', '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--publish', '--channel', 'EMAIL', '--dry-run', '--lang', 'fr'])
    expect(human.stdout).toMatch(/publiée et envoyée par EMAIL à dry@example\.cm/)

    const {mkdirSync, writeFileSync} = await import('node:fs')
    mkdirSync(temp.dir, {recursive: true})
    const csv = join(temp.dir, 'batch.csv')
    writeFileSync(csv, 'customer_name,due_date,items\r\nAwa,2099-12-31,"Bread:500:2"\r\nJean,2099-12-31,"Cake:2500:1"\r\n')
    const imported = await svc(['invoice', 'import', csv, '--publish', '--dry-run'])
    expect(imported.exitCode, imported.stderr).toBe(0)
    expect(imported.stdout).toMatch(/^line 2: FAC-\d{4}-\d{4}, Awa, 1 000 XAF/m)
    expect(imported.stderr).toMatch(/2 invoices would be created and published, 3 500 XAF in all/)
    const {existsSync} = await import('node:fs')
    expect(existsSync(`${csv}.results.csv`) || existsSync(join(temp.dir, 'batch.results.csv'))).toBe(false)

    expect(await counts(sb)).toEqual(before)
  })

  it('invoice create without a terminal names every missing flag at once, exit 2, nothing sent', async ({sandbox: sb, temp}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const before = await counts(sb)
    const none = await svc(['invoice', 'create'])
    expect(none.exitCode).toBe(2)
    expect(none.stderr).toContain('--customer-name, --due-date, --item')
    const some = await svc(['invoice', 'create', '--customer-name', 'Awa', '--lang', 'fr'])
    expect(some.exitCode).toBe(2)
    expect(some.stderr).toContain('Il manque --due-date, --item')
    expect(await counts(sb)).toEqual(before)
  })
})
