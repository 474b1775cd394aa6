/**
 * `svc invoice remind` started several times at once on one profile (a cron job overlapping a
 * manual run): each due invoice is reminded once in total, counted in the sandbox's outbox; a run
 * names the invoices another run is reminding; a run killed with SIGKILL while others go on never
 * makes any invoice go out twice.
 */
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect} from 'vitest'

import {runCli, type CliResult} from '../helpers/cli.js'
import {startFaultProxy, type FaultProxy} from '../helpers/fault-proxy.js'
import {withSandbox, type TempConfigDir} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import type {TestSandbox} from '../helpers/sandbox.js'

const DAY = 86_400_000

/**
 * Where the runs' sends wait for each other: open, a send's answer passes at once; shut, it is
 * held (the service has acted: the invoice is claimed in the journal, not yet confirmed) until the
 * gate opens. `whenHeld` hears how many are held since it shut: the test opens it once every run
 * has one held, so that the runs surely overlap, however slowly each one starts.
 */
function sendGate() {
  let isOpen = true
  let held = 0
  let release = () => {}
  let opened: Promise<void> = Promise.resolve()
  let whenHeld: (held: number) => void = () => {}
  return {
    /** The fault proxy's `until` for a send. */
    async until(): Promise<void> {
      if (isOpen) return
      held++
      const wait = opened
      whenHeld(held)
      await wait
    },
    shut(onHeld: (held: number) => void): void {
      if (!isOpen) return
      isOpen = false
      held = 0
      whenHeld = onHeld
      opened = new Promise((resolve) => (release = resolve))
    },
    open(): void {
      if (isOpen) return
      isOpen = true
      release()
    },
  }
}
type Gate = ReturnType<typeof sendGate>

// The file's sandbox (payments settle at once), and per test a gate on the sends, the fault proxy
// that holds them there, and a config dir holding a profile `shop` on the sandbox through that
// proxy. The runs are child processes: processes at once, and one killed, are what is tested.
const it = withSandbox({settleAfterMs: 0}).extend<{sb: TestSandbox; gate: Gate; proxy: FaultProxy; temp: TempConfigDir}>({
  sb: [async ({sandbox}, use) => use(sandbox), {scope: 'file'}],
  // eslint-disable-next-line no-empty-pattern
  gate: async ({}, use) => {
    const gate = sendGate()
    await use(gate)
    gate.open()
  },
  proxy: async ({sb, gate}, use) => {
    const proxy = await startFaultProxy(sb.sb.url, [
      {method: 'POST', path: /^\/v1\/invoices\/[^/]+\/send$/, fault: {kind: 'delay-after-forward', until: () => gate.until()}, times: Infinity},
    ])
    try {
      await use(proxy)
    } finally {
      await proxy.close()
    }
  },
  temp: async ({sb, proxy, temp}, use) => {
    mkdirSync(temp.dir, {recursive: true, mode: 0o700})
    const config = {current: 'shop', profiles: {shop: {api_key: sb.sb.keys.sandbox, base_url: proxy.url}}}
    writeFileSync(join(temp.dir, 'config.json'), JSON.stringify(config), {mode: 0o600})
    await use(temp)
  },
})

async function dueInvoices(sb: TestSandbox, customer: string, count: number): Promise<string[]> {
  const clock = await sb.admin('GET', '/clock')
  const due = new Date(clock.now_ms + 2 * DAY).toISOString().slice(0, 10)
  const headers = {'x-api-key': sb.sb.keys.sandbox, 'content-type': 'application/json'}
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const body = {customer_name: `${customer} ${i}`, due_date: due, items: [{name: 'Bread', price: 500, quantity: 2}], customer_phone: '670000001'}
    const created = await fetch(`${sb.sb.url}/v1/invoices`, {method: 'POST', headers, body: JSON.stringify(body)})
    const {id} = (await created.json()) as {id: string}
    const published = await fetch(`${sb.sb.url}/v1/invoices/${id}/publish`, {method: 'POST', headers, body: '{}'})
    expect(published.status).toBe(200)
    ids.push(id)
  }
  return ids
}

/** Reminders ("send" deliveries) per invoice in the sandbox's outbox. */
async function sends(sb: TestSandbox): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  for (let offset = 0; ; offset += 100) {
    const page = await sb.admin('GET', `/outbox?limit=100&offset=${offset}`)
    for (const m of page.data as Array<{invoice_id: string; trigger: string}>) if (m.trigger === 'send') counts.set(m.invoice_id, (counts.get(m.invoice_id) ?? 0) + 1)
    if (!page.has_more) return counts
  }
}

const remind = (temp: TempConfigDir, customer: string) =>
  runCli(['invoice', 'remind', '--due-within', '3d', '--customer', customer, '--yes', '--json'], {
    configDir: temp.dir,
    env: {SVC_RATE_LIMIT: '0', SVC_TIMEOUT: '120s'},
    timeoutMs: 170_000,
  })

const idsOf = (list: Array<{id: string}>) => list.map((p) => p.id)

function checkOnce(ids: string[], before: Map<string, number>, after: Map<string, number>): void {
  for (const id of ids) expect(after.get(id) ?? 0, id).toBe((before.get(id) ?? 0) + 1)
}

describe('svc invoice remind, several runs at once', {timeout: 240_000}, () => {
  for (const runs of [2, 10]) {
    it(`${runs} runs started together on 40 due invoices: 40 reminders in the outbox, each run accounts for every invoice`, async ({sb, temp, gate}) => {
      const customer = `Concurrent ${runs} ${Date.now()}`
      const ids = await dueInvoices(sb, customer, 40)
      const before = await sends(sb)
      // The sends wait until every run has one at the service; then all go on at once. A run that
      // ends first opens the gate too (the others would otherwise wait for it for ever).
      gate.shut((held) => held === runs && gate.open())
      const results: CliResult[] = await Promise.all(Array.from({length: runs}, () => remind(temp, customer).finally(() => gate.open())))
      const after = await sends(sb)
      checkOnce(ids, before, after)
      const reports = results.map((r) => {
        expect(r.exitCode, r.stderr).toBe(0)
        return JSON.parse(r.stdout)
      })
      // Together the runs sent each invoice once; each run says what it did with every invoice.
      expect(reports.flatMap((r) => idsOf(r.sent)).sort()).toEqual([...ids].sort())
      for (const report of reports) {
        expect(report.unknown).toEqual([])
        expect([...idsOf(report.sent), ...idsOf(report.skipped), ...idsOf(report.elsewhere)].sort()).toEqual([...ids].sort())
        for (const other of report.elsewhere) expect(other.pid).toEqual(expect.any(Number))
      }
    })
  }

  it('the run that meets another one names the invoices that run is reminding', async ({sb, temp, gate}) => {
    const customer = `Named ${Date.now()}`
    const ids = await dueInvoices(sb, customer, 40)
    const before = await sends(sb)
    const run = () =>
      runCli(['invoice', 'remind', '--due-within', '3d', '--customer', customer, '--yes'], {
        configDir: temp.dir,
        env: {SVC_RATE_LIMIT: '0', SVC_TIMEOUT: '120s'},
        timeoutMs: 170_000,
      })
    // The first run's first send is held at the service: its invoice stays claimed by that run while
    // the second run starts and plans, so the second meets the first mid-way however slowly it
    // starts. Once the second run's own first send is held too, the sends go on for both.
    let second: Promise<CliResult> | undefined
    gate.shut((held) => {
      if (held === 1) second = run().finally(() => gate.open())
      if (held === 2) gate.open()
    })
    const a = await run().finally(() => gate.open())
    expect(second).toBeDefined()
    const b = await second!
    checkOnce(ids, before, await sends(sb))
    for (const r of [a, b]) expect(r.exitCode, r.stderr).toBe(0)
    const lines = `${a.stdout}\n${b.stdout}`.split('\n')
    const named = lines.filter((line) => /being reminded by another run \(PID \d+\)/.test(line))
    const skipped = lines.filter((line) => /^skipped .*already reminded today/.test(line))
    const sent = lines.filter((line) => /^sent /.test(line))
    expect(sent).toHaveLength(40)
    // Each run accounts for the 40: what it did not send, it names as skipped (sent by then) or being reminded.
    expect(named.length + skipped.length).toBe(40)
    expect(named.length).toBeGreaterThan(0)
    expect(b.stderr).toMatch(/being reminded by another run at the same time \(PID \d+\): not sent twice/)
  })

  it('one of three runs killed with SIGKILL mid-way: no invoice is reminded twice, the unconfirmed one is named by the next run', async ({sb, temp, gate}) => {
    const customer = `Killed ${Date.now()}`
    const ids = await dueInvoices(sb, customer, 40)
    const before = await sends(sb)
    let killedOne = false
    // The three start together: the sends wait until each run has one at the service. Once the
    // victim has confirmed its first, the sends are held again until each of the three has one
    // held: the victim then waits for the answer to a send it has claimed (the journal's lock
    // released), and is killed there, mid-way, as the others are; they go on once it is dead.
    gate.shut((held) => held === 3 && gate.open())
    const victim = runCli(['invoice', 'remind', '--due-within', '3d', '--customer', customer, '--yes'], {
      configDir: temp.dir,
      env: {SVC_RATE_LIMIT: '0'},
      timeoutMs: 170_000,
      onSpawn: (child) => {
        child.once('exit', () => gate.open())
        let confirmed = false
        child.stdout!.on('data', (d: Buffer) => {
          if (confirmed || !/^sent /m.test(d.toString())) return
          confirmed = true
          gate.shut((held) => {
            if (held === 3) killedOne = child.kill('SIGKILL')
          })
        })
      },
    })
    const [killed, ...others] = await Promise.all([victim, remind(temp, customer), remind(temp, customer)].map((run) => run.finally(() => gate.open())))
    expect(killedOne).toBe(true)
    expect(killed.signal).toBe('SIGKILL')
    // The next run, in-process (the processes at once, and the one killed, were above).
    const rerun = await runInProcess(['invoice', 'remind', '--due-within', '3d', '--customer', customer, '--yes', '--json'], {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0'}})
    const after = await sends(sb)
    for (const id of ids) expect(after.get(id) ?? 0, id).toBeLessThanOrEqual((before.get(id) ?? 0) + 1)
    const report = JSON.parse(rerun.stdout)
    // What the killed run had claimed and not confirmed (the send it died waiting for) is named as
    // unknown, never sent again.
    expect(report.unknown).toHaveLength(1)
    for (const u of report.unknown) expect(after.get(u.id) ?? 0).toBeLessThanOrEqual((before.get(u.id) ?? 0) + 1)
    expect([...idsOf(report.sent), ...idsOf(report.skipped), ...idsOf(report.unknown)].sort()).toEqual([...ids].sort())
    for (const r of others) expect([0, 1]).toContain(r.exitCode)
  })
})
