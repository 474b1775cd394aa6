/**
 * `pay create` after a lost answer when it cannot tell which payment is its own: another identical
 * payment was made while its request was in flight, or just before it. It must not pick one: exit
 * 7, every candidate listed with its id and time, and the command to check.
 *
 * Each test's sandbox and run share one test clock, pinned (test/helpers/clock.ts): a held answer
 * meets its deadline when the test moves the clock, not in real time, and nothing depends on how
 * long a step takes.
 */
import {join} from 'node:path'

import {describe, expect} from 'vitest'

import {testClock, type TestClock} from '../helpers/clock.js'
import {startFaultProxy, type FaultRule} from '../helpers/fault-proxy.js'
import {runInProcess} from '../helpers/in-process.js'
import {allPayments, freshSandbox, it, makePayment, type TestSandbox} from './fixtures.js'

/** SVC_TIMEOUT of the runs whose answer is held: the clock is moved past it. */
const TIMEOUT_MS = 2000

/** A sandbox on a pinned test clock, closed after `test`. */
async function withSandbox(test: (sb: TestSandbox, clock: TestClock) => Promise<void>): Promise<void> {
  const clock = testClock('2026-11-28T10:00:00.000Z')
  const sb = await freshSandbox(clock)
  try {
    await test(sb, clock)
  } finally {
    await sb.close()
  }
}

/** `pay create` of `amount` through a fault proxy in front of `sb` with `rule` on its POST. */
async function payOnce(sb: TestSandbox, clock: TestClock, dir: string, amount: number, rule: Omit<FaultRule, 'method' | 'path'>) {
  const proxy = await startFaultProxy(sb.sb.url, [{method: 'POST', path: /^\/v1\/payments$/, ...rule}])
  try {
    return await runInProcess(['pay', 'create', '--amount', String(amount), '--phone', '670000001'], {
      configDir: join(dir, 'config'),
      env: {SVC_BASE_URL: proxy.url, SVC_API_KEY: sb.sb.keys.sandbox, SVC_RATE_LIMIT: '0', SVC_MAX_RETRIES: '1', SVC_TIMEOUT: `${TIMEOUT_MS}ms`},
      clock,
    })
  } finally {
    await proxy.close()
  }
}

it('two new identical payments after a lost answer: exit 7, both listed, nothing chosen', async ({dir}) => {
  await withSandbox(async (sb, clock) => {
    let other: any
    // Once our request has reached the service and its answer is held, someone else makes the
    // same payment; then the client's deadline passes.
    const held = {
      kind: 'delay-after-forward',
      onHeld: () =>
        void makePayment(sb, '237670000001', 7777).then((made) => {
          other = made
          clock.advance(TIMEOUT_MS)
        }),
    } as const
    const r = await payOnce(sb, clock, dir, 7777, {fault: held})
    const payments = (await allPayments(sb)).filter((p) => p.amount === 7777)
    expect(payments).toHaveLength(2)
    expect(payments.map((p) => p.id)).toContain(other.id)
    expect(r.exitCode, r.stderr).toBe(7)
    expect(r.stdout).toBe('')
    // Each candidate with its status and creation time, as a person reads a time (to the minute, UTC).
    for (const p of payments) expect(r.stderr).toContain(`${p.id}  ${p.status}  created ${p.created_at.slice(0, 10)} ${p.created_at.slice(11, 16)} UTC`)
    expect(r.stderr).toMatch(/cannot be told apart: 2 payments/)
    expect(r.stderr).toMatch(/svc pay status svcpay_/)
    expect(r.stderr).not.toMatch(/Not created again/)
  })
})

it('an earlier identical payment, and a service clock a day ahead of the machine: nothing claimed, exit 7, the payments listed', async ({dir}) => {
  await withSandbox(async (sb, clock) => {
    // The sandbox's clock moved a day on (its Date header and created_at with it): the moment
    // `pay create` sent is placed in the service's time by the service's own Date header, whatever
    // this machine's clock says, and both payments were made within a second of it.
    await sb.admin('POST', '/clock/advance', {ms: 86_400_000})
    const earlier = await makePayment(sb, '237670000001', 6666)
    const r = await payOnce(sb, clock, dir, 6666, {fault: {kind: 'delay-after-forward', onHeld: () => void clock.advance(TIMEOUT_MS)}})
    const payments = (await allPayments(sb)).filter((p) => p.amount === 6666)
    expect(payments).toHaveLength(2)
    expect(payments.map((p) => p.created_at.slice(0, 10))).toEqual(['2026-11-29', '2026-11-29'])
    expect(r.exitCode, r.stderr).toBe(7)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/cannot be told apart: 2 payments/)
    for (const p of payments) expect(r.stderr).toContain(p.id)
    expect(r.stderr).not.toMatch(/Not created again/)
    expect(earlier.id).toBeTruthy()
  })
})

/**
 * The service's clock is known to the second only (its `Date` header): when `pay create` sent its
 * request is placed within a second of the service's time, never more exactly. So a payment of the
 * same amount and number made within that second may be an earlier one (another terminal, a script
 * run twice), and is never called ours; only one made after the latest moment the request can have
 * left, by the service's clock, is. The request left at 10:00:00.300 by the machine's clock (shared
 * by the sandbox, pinned: nothing here depends on how long a step takes).
 */
describe('a lost answer and the Date header\'s one-second resolution', () => {
  const SENT = '2026-11-28T10:00:00.300Z'
  const NOT_REACHED = {kind: 'status', status: 503, body: '<html><body>503</body></html>', contentType: 'text/html'} as const

  it('the service\'s clock 0.5 s ahead, an identical payment made 0.2 s before the send: not claimed, exit 7, listed', async ({dir}) => {
    await withSandbox(async (sb, clock) => {
      // Ahead by less than the Date header's resolution: nothing tells the two clocks apart.
      await sb.admin('POST', '/clock/advance', {ms: 500})
      clock.set('2026-11-28T10:00:00.100Z')
      const earlier = await makePayment(sb, '237670000001', 4321)
      expect(earlier.created_at).toBe('2026-11-28T10:00:00.600Z')
      clock.set(SENT)
      // The 503 is the proxy's: the request never reached the service.
      const r = await payOnce(sb, clock, dir, 4321, {fault: NOT_REACHED})
      expect((await allPayments(sb)).map((p) => p.id)).toEqual([earlier.id])
      expect(r.exitCode, r.stderr).toBe(7)
      expect(r.stdout).toBe('')
      expect(r.stderr).not.toMatch(/Not created again/)
      expect(r.stderr).toContain(earlier.id)
      expect(r.stderr).toMatch(/svc pay (status|list)/)
    })
  })

  it('clocks in step, an identical payment made in the millisecond the request left: not claimed, exit 7', async ({dir}) => {
    await withSandbox(async (sb, clock) => {
      clock.set(SENT)
      const earlier = await makePayment(sb, '237670000001', 4321)
      expect(earlier.created_at).toBe(SENT)
      const r = await payOnce(sb, clock, dir, 4321, {fault: NOT_REACHED})
      expect((await allPayments(sb)).map((p) => p.id)).toEqual([earlier.id])
      expect(r.exitCode, r.stderr).toBe(7)
      expect(r.stderr).not.toMatch(/Not created again/)
      expect(r.stderr).toContain(earlier.id)
    })
  })

  it('the service made it more than a second after the request left: found, exit 0, said so', async ({dir}) => {
    await withSandbox(async (sb, clock) => {
      clock.set(SENT)
      // The request reaches the service 1.5 s after it left; its answer is lost.
      const r = await payOnce(sb, clock, dir, 4321, {fault: {kind: 'reset-after-forward'}, onArrived: () => void clock.advance(1500)})
      const payments = await allPayments(sb)
      expect(payments).toHaveLength(1)
      expect(payments[0].created_at).toBe('2026-11-28T10:00:01.800Z')
      expect(r.exitCode, r.stderr).toBe(0)
      expect(r.stdout).toContain(payments[0].id)
      expect(r.stderr).toMatch(/lost; found payment .* Not created again/)
    })
  })
})
