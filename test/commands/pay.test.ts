import {afterEach, describe, expect} from 'vitest'

import {ANSI, type CliResult} from '../helpers/cli.js'
import {skippingClock, testClock} from '../helpers/clock.js'
import {startFaultProxy, type FaultProxy} from '../helpers/fault-proxy.js'
import {withSandbox} from '../helpers/fixtures.js'
import type {TestSandbox} from '../helpers/sandbox.js'
import {runInProcess} from '../helpers/in-process.js'

type Run = (args: string[], env?: Record<string, string>) => Promise<CliResult>

// The file's sandbox (payments settle after 300 ms), a config dir per test, and the command class
// run in-process against them (same arguments, same result): nothing here is about the process.
// The sandbox and the runs share one clock, flowing with real time: a test moves both on at once.
const clock = testClock()
const it = withSandbox({settleAfterMs: 300, clock}).extend<{inProcess: Run}>({
  inProcess: async ({sandbox, temp}, use) => {
    await use((args, env = sandbox.env()) => runInProcess(args, {configDir: temp.dir, env, clock}))
  },
})

/**
 * After a lost answer `pay create` takes a payment for its own only when the service made it
 * after the latest moment the request can have left by the service's clock, which it reads to the
 * second (src/lib/payments/flows.ts): here the request reaches the service 2 s after it left (the
 * proxy moves the clock when it comes). test/hardening/pay-create-ambiguous.test.ts has a payment
 * made within that second.
 */
const arrivesLate = {onArrived: () => void clock.advance(2000)}

let proxy: FaultProxy | undefined
afterEach(async () => {
  await proxy?.close()
  proxy = undefined
})

async function paymentsFor(sandbox: TestSandbox, phone: string): Promise<any[]> {
  const list = await sandbox.get('/v1/payments?limit=100')
  return list.data.filter((p: any) => p.phone_number === phone)
}

// The watches: a sandbox of their own and the runs on one clock that jumps through the runs' waits
// (a watch's interval, its --timeout), firing the settlements (300 ms of sandbox time) on the way:
// a watch takes no real time.
const watchClock = skippingClock()
const itWatch = withSandbox({settleAfterMs: 300, clock: watchClock}).extend<{inProcess: Run}>({
  inProcess: async ({sandbox, temp}, use) => {
    await use((args, env = sandbox.env()) => runInProcess(args, {configDir: temp.dir, env, clock: watchClock}))
  },
})

describe('svc pay create', () => {
  it('creates a PENDING payment: details on stdout, next steps on stderr', async ({inProcess}) => {
    const r = await inProcess(['pay', 'create', '--amount', '5 000', '--phone', '+237 6 70 00 00 01'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/ID\s+svcpay_test_\w+/)
    expect(r.stdout).toMatch(/STATUS\s+PENDING/)
    expect(r.stdout).toMatch(/AMOUNT\s+5 000 XAF/)
    expect(r.stdout).toMatch(/PHONE\s+237670000001/)
    expect(r.stderr).toMatch(/svc pay watch svcpay_test_/)
    expect(r.stdout + r.stderr).not.toMatch(ANSI)
  })

  it('--json prints the created Payment object only', async ({inProcess}) => {
    const r = await inProcess(['pay', 'create', '--amount', '1,500', '--phone', '690000001', '--json'])
    expect(r.exitCode).toBe(0)
    const payment = JSON.parse(r.stdout)
    expect(payment).toMatchObject({status: 'PENDING', amount: 1500, currency: 'XAF', phone_number: '237690000001', environment: 'SANDBOX'})
    expect(payment.id).toMatch(/^svcpay_test_/)
    expect(payment.internal_transaction_id).toBeTruthy()
  })

  itWatch('--watch: an always-SUCCESS number exits 0, an always-FAILED one exits 1 with its failure_code', async ({inProcess}) => {
    const ok = await inProcess(['pay', 'create', '--amount', '5000', '--phone', '670000002', '--watch', '--interval', '250ms'])
    expect(ok.exitCode).toBe(0)
    expect(ok.stdout).toMatch(/STATUS\s+SUCCESS/)
    const failed = await inProcess(['pay', 'create', '--amount', '5000', '--phone', '680000099', '--watch', '--interval', '250ms'])
    expect(failed.exitCode).toBe(1)
    expect(failed.stdout).toMatch(/FAILURE CODE\s+CUSTOMER_DECLINED/)
    expect(failed.stderr).toMatch(/failed \(CUSTOMER_DECLINED\): The customer declined the request on their phone/)
  })

  itWatch('--watch --json: one JSON document, the final payment, and the exit code of its outcome', async ({inProcess}) => {
    const failed = await inProcess(['pay', 'create', '--amount', '700', '--phone', '237650000099', '--watch', '--interval', '250ms', '--json'])
    expect(failed.exitCode).toBe(1)
    expect(JSON.parse(failed.stdout)).toMatchObject({status: 'FAILED', failure_code: 'CUSTOMER_DECLINED', amount: 700})
  })

  itWatch('infers ORANGE for the spec test number 237650000001 and warns when the operator contradicts it', async ({inProcess}) => {
    const inferred = await inProcess(['pay', 'create', '--amount', '100', '--phone', '650000001', '--watch', '--interval', '250ms', '--json'])
    expect(inferred.exitCode).toBe(0)
    expect(JSON.parse(inferred.stdout).status).toBe('SUCCESS')
    const contradicted = await inProcess(['pay', 'create', '--amount', '100', '--phone', '650000001', '--operator', 'mtn', '--json'])
    expect(contradicted.exitCode).toBe(0)
    expect(contradicted.stderr).toMatch(/Warning:.*ORANGE/)
  })

  it('refuses bad input before any request: the sandbox holds nothing for that number', async ({sandbox, inProcess}) => {
    for (const amount of ['0', '-5', '50.5', '1e3', '', 'abc']) {
      const r = await inProcess(['pay', 'create', '--amount', amount, '--phone', '670000002'])
      expect(r.exitCode, amount).toBe(2)
      expect(r.stderr, amount).toMatch(/--amount/)
    }
    const before = (await paymentsFor(sandbox, '237670000002')).length
    const nexttel = await inProcess(['pay', 'create', '--amount', '500', '--phone', '660000002'])
    expect(nexttel.exitCode).toBe(2)
    expect((await paymentsFor(sandbox, '237660000002')).length).toBe(0)
    expect((await paymentsFor(sandbox, '237670000002')).length).toBe(before)
  })

  it('a LIVE key is refused without --yes when not interactive, and goes through with it', async ({sandbox, inProcess}) => {
    const refused = await inProcess(['pay', 'create', '--amount', '5000', '--phone', '670000001'], sandbox.env('live'))
    expect(refused.exitCode).toBe(2)
    expect(refused.stderr).toMatch(/--yes/)
    const live = await inProcess(['pay', 'create', '--amount', '4321', '--phone', '670000001', '--yes', '--json'], sandbox.env('live'))
    expect(live.exitCode).toBe(0)
    expect(JSON.parse(live.stdout)).toMatchObject({environment: 'LIVE', status: 'PENDING', amount: 4321})
    expect(JSON.parse(live.stdout).id).toMatch(/^svcpay_(?!test_)/)
  })
})

describe('svc pay create when the answer is lost: never a second payment', () => {
  const phone = (n: number) => `23767${String(n).padStart(7, '0')}`

  it('connection reset after the service acted: finds the payment in the list, warns, exit 0', async ({sandbox, inProcess}) => {
    proxy = await startFaultProxy(sandbox.sb.url, [{method: 'POST', path: /^\/v1\/payments$/, fault: {kind: 'reset-after-forward'}, ...arrivesLate}])
    const r = await inProcess(['pay', 'create', '--amount', '2222', '--phone', phone(1001), '--json'], {...sandbox.env(), SVC_BASE_URL: proxy.url})
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toMatch(/lost.*found payment/i)
    const found = JSON.parse(r.stdout)
    const onServer = await paymentsFor(sandbox, phone(1001))
    expect(onServer).toHaveLength(1)
    expect(found.id).toBe(onServer[0].id)
    expect(proxy.seen.filter((s) => s === 'POST /v1/payments')).toHaveLength(1)
  })

  it('costs one request when all goes well: the POST, and no list read before it', async ({sandbox, inProcess}) => {
    proxy = await startFaultProxy(sandbox.sb.url, [])
    const r = await inProcess(['pay', 'create', '--amount', '2121', '--phone', phone(1000), '--json'], {...sandbox.env(), SVC_BASE_URL: proxy.url})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).amount).toBe(2121)
    // A script's payments per minute are the rate budget's, not halved by a look-before.
    expect(proxy.seen).toEqual(['POST /v1/payments'])
  })

  it('503 after the service acted: not retried, found in the list', async ({sandbox, inProcess}) => {
    proxy = await startFaultProxy(sandbox.sb.url, [{method: 'POST', path: /^\/v1\/payments$/, fault: {kind: 'status-after-forward', status: 503, body: '<html>Service Unavailable</html>', contentType: 'text/html'}, ...arrivesLate}])
    const r = await inProcess(['pay', 'create', '--amount', '3333', '--phone', phone(1002)], {...sandbox.env(), SVC_BASE_URL: proxy.url})
    expect(r.exitCode).toBe(0)
    expect(await paymentsFor(sandbox, phone(1002))).toHaveLength(1)
    expect(proxy.seen.filter((s) => s === 'POST /v1/payments')).toHaveLength(1)
  })

  it('timeout after the service acted (SVC_TIMEOUT): found in the list', async ({sandbox, inProcess}) => {
    // The answer is held until the client gives up: the clock is moved past its deadline.
    const held = {kind: 'delay-after-forward', onHeld: () => void clock.advance(5000)} as const
    proxy = await startFaultProxy(sandbox.sb.url, [{method: 'POST', path: /^\/v1\/payments$/, fault: held, ...arrivesLate}])
    const r = await inProcess(['pay', 'create', '--amount', '4444', '--phone', phone(1003), '--json'], {
      ...sandbox.env(),
      SVC_BASE_URL: proxy.url,
      SVC_TIMEOUT: '4s',
    })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout).amount).toBe(4444)
    expect(await paymentsFor(sandbox, phone(1003))).toHaveLength(1)
  })

  it('502 before the service acted: nothing found, exit 7, says the outcome is unknown and how to check', async ({sandbox, inProcess}) => {
    proxy = await startFaultProxy(sandbox.sb.url, [{method: 'POST', path: /^\/v1\/payments$/, fault: {kind: 'status', status: 502, body: 'Bad Gateway', contentType: 'text/plain'}}])
    const r = await inProcess(['pay', 'create', '--amount', '5555', '--phone', phone(1004)], {...sandbox.env(), SVC_BASE_URL: proxy.url})
    expect(r.exitCode).toBe(7)
    expect(r.stderr).toMatch(/outcome is unknown/)
    expect(r.stderr).toMatch(/svc pay list/)
    expect(await paymentsFor(sandbox, phone(1004))).toHaveLength(0)
    expect(proxy.seen.filter((s) => s === 'POST /v1/payments')).toHaveLength(1)
    const json = await inProcess(['pay', 'create', '--amount', '5555', '--phone', phone(1005), '--json'], {...sandbox.env(), SVC_BASE_URL: 'http://127.0.0.1:9'})
    expect(json.exitCode).toBe(7)
    // A refused connection: nothing was sent, so not an unknown outcome (issue 18).
    expect(JSON.parse(json.stdout).error.code).toBe('not_connected')
  })
})

describe('svc pay status, list, watch', () => {
  it('status shows a payment; an unknown id is exit 4; the other environment is exit 3', async ({sandbox, inProcess}) => {
    const created = JSON.parse((await inProcess(['pay', 'create', '--amount', '800', '--phone', '670000001', '--json'])).stdout)
    const r = await inProcess(['pay', 'status', created.id, '--json'])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout).id).toBe(created.id)
    const human = await inProcess(['pay', 'status', created.id])
    expect(human.stdout).toMatch(/AMOUNT\s+800 XAF/)
    expect((await inProcess(['pay', 'status', 'svcpay_test_doesnotexist'])).exitCode).toBe(4)
    const other = await inProcess(['pay', 'status', created.id], sandbox.env('live'))
    expect(other.exitCode).toBe(3)
  })

  itWatch('list: table with amounts as "12 500 XAF", --status filter, --limit, --all following every page', async ({sandbox, inProcess}) => {
    await inProcess(['pay', 'create', '--amount', '12500', '--phone', '670000099', '--watch', '--interval', '250ms'])
    const table = await inProcess(['pay', 'list', '--limit', '5'])
    expect(table.exitCode).toBe(0)
    expect(table.stdout.split('\n')[0]).toMatch(/ID\s+STATUS\s+AMOUNT\s+PHONE/)
    expect(table.stdout).toMatch(/12 500 XAF/)
    const failed = JSON.parse((await inProcess(['pay', 'list', '--status', 'FAILED', '--json'])).stdout)
    expect(failed.length).toBeGreaterThan(0)
    expect(failed.every((p: any) => p.status === 'FAILED')).toBe(true)
    const total = (await sandbox.get('/v1/payments?limit=1')).total
    const all = JSON.parse((await inProcess(['pay', 'list', '--all', '--json'])).stdout)
    expect(all).toHaveLength(total)
    expect(new Set(all.map((p: any) => p.id)).size).toBe(total)
    const page = JSON.parse((await inProcess(['pay', 'list', '--limit', '2', '--offset', '1', '--json'])).stdout)
    expect(page).toHaveLength(2)
    expect(page[0].id).toBe(all[1].id)
  })

  itWatch('watch: a live payment nobody approves times out with exit 8; approved, it exits 0', async ({sandbox, inProcess}) => {
    const live = JSON.parse((await inProcess(['pay', 'create', '--amount', '900', '--phone', '670000001', '--yes', '--json'], sandbox.env('live'))).stdout)
    const timedOut = await inProcess(['pay', 'watch', live.id, '--interval', '250ms', '--timeout', '1s'], sandbox.env('live'))
    expect(timedOut.exitCode).toBe(8)
    expect(timedOut.stderr).toMatch(/still PENDING/)
    await sandbox.admin('POST', `/payments/${live.id}/approve`)
    const approved = await inProcess(['pay', 'watch', live.id, '--interval', '250ms', '--json'], sandbox.env('live'))
    expect(approved.exitCode).toBe(0)
    expect(JSON.parse(approved.stdout).status).toBe('SUCCESS')
  })

  it('--verbose traces requests on stderr with the key masked, never whole', async ({sandbox, inProcess}) => {
    const r = await inProcess(['pay', 'list', '--limit', '1', '--verbose'])
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toMatch(/GET .*\/v1\/payments/)
    expect(r.stderr).toMatch(/200/)
    const key = sandbox.sb.keys.sandbox
    expect(r.stderr + r.stdout).not.toContain(key)
    expect(r.stderr).toContain(`svc_sk_test_…${key.slice(-4)}`)
  })
})
