/**
 * LIVE safety, checked on the sandbox's live environment: every command that moves money or tells
 * customers refuses on a LIVE key without --yes when not interactive (exit 2, nothing sent: the
 * sandbox's live payments, invoices and delivery outbox are unchanged), asks on a terminal
 * (answering no sends nothing), and goes ahead with --yes (so the refusal is what stopped it).
 * `webhooks trigger` is refused on LIVE outright, --yes or not. The refusals (exit 2 before any
 * request) and the control run in-process; the terminal and its prompts in child processes.
 */
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect} from 'vitest'

import {runInProcess} from '../helpers/in-process.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import {allInvoices, allPayments, it, makeInvoice, unreadable, type TestSandbox} from './fixtures.js'

const liveEnv = (sb: TestSandbox) => ({SVC_API_KEY: sb.sb.keys.live, SVC_BASE_URL: sb.sb.url, SVC_RATE_LIMIT: '0'})

/** What the live environment holds: payments, invoices by status, deliveries. */
async function liveState(sb: TestSandbox): Promise<{payments: number; invoices: string[]; outbox: number}> {
  const invoices = await allInvoices(sb, 'live')
  const outbox = await sb.admin('GET', '/outbox?environment=live&limit=100')
  return {
    payments: (await allPayments(sb, 'live')).length,
    invoices: invoices.map((i) => `${i.customer_name}:${i.status}`).sort(),
    outbox: outbox.total,
  }
}

/** A draft and a published invoice on LIVE, and a CSV of one row to import: what the commands act on. */
async function liveFixtures(sb: TestSandbox, dir: string): Promise<{draft: any; published: any; csv: string}> {
  const csv = join(dir, 'rows.csv')
  writeFileSync(csv, 'customer_name,due_date,items,customer_email\nLive Row,2099-12-31,Tea:300:2,row@example.com\n')
  return {draft: await makeInvoice(sb, {key: 'live'}), published: await makeInvoice(sb, {key: 'live', publish: true}), csv}
}

interface LiveCase {
  name: string
  args: (fx: {draft: any; published: any; csv: string}) => string[]
}

const CASES: LiveCase[] = [
  {name: 'pay create', args: () => ['pay', 'create', '--amount', '5000', '--phone', '670000001']},
  {name: 'invoice publish --channel', args: ({draft}) => ['invoice', 'publish', draft.id, '--channel', 'EMAIL']},
  {name: 'invoice send', args: ({published}) => ['invoice', 'send', published.id]},
  {name: 'invoice cancel', args: ({published}) => ['invoice', 'cancel', published.id]},
  {name: 'invoice create --publish --channel', args: () => ['invoice', 'create', '--customer-name', 'Live New', '--due-date', '2099-12-31', '--item', 'Tea:300:2', '--email', 'n@example.com', '--publish', '--channel', 'EMAIL']},
  {name: 'invoice import --publish --channel', args: ({csv}) => ['invoice', 'import', csv, '--publish', '--channel', 'EMAIL']},
  {name: 'api POST /v1/payments', args: () => ['api', 'POST', '/v1/payments', '-F', 'amount=5000', '-f', 'phone_number=237670000001', '-f', 'operator=MTN']},
]

describe('LIVE key, not interactive, no --yes: refused, exit 2, nothing sent', () => {
  it.for(CASES)('$name', async ({args}, {sb, dir}) => {
    const fx = await liveFixtures(sb, dir)
    const before = await liveState(sb)
    for (const json of [false, true]) {
      const r = await runInProcess([...args(fx), ...(json ? ['--json'] : [])], {configDir: join(dir, 'c1'), env: liveEnv(sb)})
      expect(r.exitCode, r.stderr + r.stdout).toBe(2)
      if (json) expect(JSON.parse(r.stdout).error.code).toBe('confirmation_required')
      else {
        expect(r.stderr).toMatch(/LIVE key \(svc_sk_live_…\w{4}\).*--yes/)
        expect(unreadable(r.stderr)).toEqual([])
      }
    }
    expect(await liveState(sb)).toEqual(before)
  })

  it('webhooks trigger is refused on LIVE even with --yes', async ({sb, dir}) => {
    const before = await liveState(sb)
    const r = await runInProcess(['webhooks', 'trigger', 'payment.success', '--yes'], {configDir: join(dir, 'c2'), env: liveEnv(sb)})
    expect(r.exitCode).toBe(2)
    expect(unreadable(r.stderr)).toEqual([])
    expect(await liveState(sb)).toEqual(before)
  })

  it('control: with --yes the same commands do act on LIVE (the refusal was what stopped them)', async ({sb, dir}) => {
    const fx = await liveFixtures(sb, dir)
    const before = await liveState(sb)
    for (const c of CASES.filter((x) => ['pay create', 'invoice send', 'api POST /v1/payments'].includes(x.name))) {
      const r = await runInProcess([...c.args(fx), '--yes'], {configDir: join(dir, 'c3'), env: liveEnv(sb)})
      expect(r.exitCode, `${c.name}: ${r.stderr}`).toBe(0)
    }
    const after = await liveState(sb)
    expect(after.payments).toBe(before.payments + 2)
    expect(after.outbox).toBe(before.outbox + 1)
  })
})

describe('LIVE key on a terminal: asks; answering no sends nothing', () => {
  it.for(CASES.filter((c) => ['pay create', 'invoice send', 'invoice cancel', 'api POST /v1/payments'].includes(c.name)))('$name: no → exit 2, nothing sent', async ({args}, {sb, dir}) => {
    const fx = await liveFixtures(sb, dir)
    const before = await liveState(sb)
    const session = runInPty(args(fx), {configDir: join(dir, 'pty'), env: liveEnv(sb)})
    try {
      await session.waitFor(/LIVE key[\s\S]*Continue\?/, 15_000)
      session.type('n\r')
      const {exitCode} = await session.exit
      expect(exitCode, stripAnsi(session.output())).toBe(2)
      expect(stripAnsi(session.output())).toMatch(/nothing was sent/i)
    } finally {
      session.kill()
    }
    expect(await liveState(sb)).toEqual(before)
  })
})
