import {describe, expect} from 'vitest'

import {ANSI} from '../helpers/cli.js'
import {skippingClock} from '../helpers/clock.js'
import {startFaultProxy, type FaultRule} from '../helpers/fault-proxy.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'

// The walkthrough in-process: its steps, report and exit code are what is tested, not the process.
// Its waits (for a settlement, an event, the checkout's payment) on a clock that jumps through
// them, which the sandboxes' time runs on too (its own, started in the run, and the file's): the
// settlements fire on the way, and a tour takes the time of its requests.
const clock = skippingClock()
const it = withSandbox({clock})

describe('svc sandbox walkthrough', () => {
  it('with no profile: starts its own sandbox, every step behaves, exit 0 (CI mode, no ANSI, no prompt)', async ({sandbox, temp}) => {
    const r = await runInProcess(['sandbox', 'walkthrough', '--settle-after', '250ms'], {configDir: temp.dir, env: {CI: 'true'}, clock})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/no key, no network/)
    expect(r.stdout).toMatch(/Always-SUCCESS number settles\s+SUCCESS\s+SUCCESS\s+✓/)
    expect(r.stdout).toMatch(/Always-FAILED number settles\s+FAILED \(failure_code\)\s+FAILED \(CUSTOMER_DECLINED\)\s+✓/)
    expect(r.stdout).toMatch(/payment\.success evt_\w+ \(signature valid\)/)
    expect(r.stdout).toMatch(/payment\.failed evt_\w+ \(signature valid\)/)
    expect(r.stdout).toMatch(/Invoice created\s+DRAFT, 3 600 XAF\s+DRAFT, 3 600 XAF inv_test_\w+\s+✓/)
    expect(r.stdout).toMatch(/Invoice published\s+UNPAID\s+UNPAID\s+✓/)
    expect(r.stdout).toMatch(/Invoice paid on its checkout page\s+PAID\s+PAID\s+✓/)
    expect(r.stderr).toMatch(/\/pay\/i\/inv_test_\w+\?type=sandbox/)
    expect(r.stdout).not.toMatch(/✗/)
    expect(r.stderr).toMatch(/svc sandbox serve/)
    expect(r.stdout + r.stderr).not.toMatch(ANSI)
  })

  it('--json: one document with ok and every step', async ({temp}) => {
    const r = await runInProcess(['sandbox', 'walkthrough', '--json', '--settle-after', '250ms'], {configDir: temp.dir, clock})
    expect(r.exitCode, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report.ok).toBe(true)
    expect(report.steps.length).toBe(9)
    expect(report.steps.every((s: {ok: boolean}) => s.ok)).toBe(true)
  })

  it("with a sandbox key: uses that sandbox (not its own), and the payments land there", async ({sandbox, temp}) => {
    const before = (await sandbox.get('/v1/payments?limit=1')).total
    const r = await runInProcess(['sandbox', 'walkthrough', '--json'], {configDir: temp.dir, env: sandbox.env(), clock})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).base_url).toBe(sandbox.sb.url)
    // Two payments of its own, and the customer's on the checkout page.
    expect((await sandbox.get('/v1/payments?limit=1')).total).toBe(before + 3)
    const invoices = await sandbox.get('/v1/invoices?page_size=1')
    expect(invoices.data[0]).toMatchObject({status: 'PAID', customer_name: 'Awa Bakery', total_amount: 3600})
  })

  it('exits 1 when the sandbox does not behave as the spec says (a settlement reported wrongly)', async ({sandbox, temp}) => {
    // Every status read claims SUCCESS: the always-FAILED number's step must be marked ✗.
    const lie = (id: string) => JSON.stringify({id, status: 'SUCCESS', amount: 1, currency: 'XAF', created_at: new Date().toISOString(), phone_number: '237650000099'})
    const rules: FaultRule[] = Array.from({length: 40}, () => ({method: 'GET', path: /\/status$/, fault: {kind: 'status', status: 200, body: lie('svcpay_test_x')}}))
    const proxy = await startFaultProxy(sandbox.sb.url, rules)
    try {
      const r = await runInProcess(['sandbox', 'walkthrough'], {configDir: temp.dir, env: {...sandbox.env(), SVC_BASE_URL: proxy.url}, clock})
      expect(r.exitCode).toBe(1)
      expect(r.stdout).toMatch(/Always-FAILED number settles\s+FAILED \(failure_code\)\s+SUCCESS\s+✗/)
      expect(r.stderr).toMatch(/did not behave/)
    } finally {
      await proxy.close()
    }
  })
})
