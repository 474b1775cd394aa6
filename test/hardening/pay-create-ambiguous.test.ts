/**
 * `pay create` after a lost answer when it cannot tell which payment is its own: another identical
 * payment was made while its request was in flight. It must not pick one: exit 7, every candidate
 * listed with its id and time, and the command to check.
 */
import {join} from 'node:path'

import {expect, vi} from 'vitest'

import {runInProcess} from '../helpers/in-process.js'
import {allPayments, it, makePayment} from './fixtures.js'

it('two new identical payments after a lost answer: exit 7, both listed, nothing chosen', async ({sb, dir, proxy: faulty}) => {
  const proxy = await faulty([{method: 'POST', path: /^\/v1\/payments$/, fault: {kind: 'delay-after-forward', ms: 1600}}])
  const running = runInProcess(['pay', 'create', '--amount', '7777', '--phone', '670000001'], {
    configDir: join(dir, 'config'),
    env: {SVC_BASE_URL: proxy.url, SVC_API_KEY: sb.sb.keys.sandbox, SVC_TIMEOUT: '1s', SVC_RATE_LIMIT: '0'},
  })
  // Once our request has reached the service, someone else makes the same payment.
  await vi.waitFor(() => expect(proxy.seen).toContain('POST /v1/payments'), {timeout: 15_000, interval: 10})
  const other = await makePayment(sb, '237670000001', 7777)
  const r = await running
  const payments = (await allPayments(sb)).filter((p) => p.amount === 7777)
  expect(payments).toHaveLength(2)
  expect(r.exitCode, r.stderr).toBe(7)
  expect(r.stdout).toBe('')
  // Each candidate with its status and creation time, as a person reads a time (to the minute, UTC).
  for (const p of payments) expect(r.stderr).toContain(`${p.id}  ${p.status}  created ${p.created_at.slice(0, 10)} ${p.created_at.slice(11, 16)} UTC`)
  expect(r.stderr).toMatch(/cannot be told apart: 2 payments/)
  expect(r.stderr).toMatch(/svc pay status svcpay_/)
  expect(r.stderr).not.toMatch(/Not created again/)
  expect(other.id).toBeTruthy()
})

it('an earlier identical payment, and a service clock a day ahead of the machine: nothing claimed, exit 7, the payments listed', async ({sb, dir, proxy: faulty}) => {
  // The sandbox's clock moved a day on (its Date header and created_at with it): the moment
  // `pay create` sent cannot be placed in the service's time, so neither payment may be called ours.
  await sb.admin('POST', '/clock/advance', {ms: 86_400_000})
  const earlier = await makePayment(sb, '237670000001', 6666)
  const proxy = await faulty([{method: 'POST', path: /^\/v1\/payments$/, fault: {kind: 'delay-after-forward', ms: 1600}}])
  const r = await runInProcess(['pay', 'create', '--amount', '6666', '--phone', '670000001'], {
    configDir: join(dir, 'config'),
    env: {SVC_BASE_URL: proxy.url, SVC_API_KEY: sb.sb.keys.sandbox, SVC_TIMEOUT: '1s', SVC_RATE_LIMIT: '0'},
  })
  const payments = (await allPayments(sb)).filter((p) => p.amount === 6666)
  expect(payments).toHaveLength(2)
  expect(r.exitCode, r.stderr).toBe(7)
  expect(r.stdout).toBe('')
  expect(r.stderr).toMatch(/clock and the service's disagree by more than a second/)
  for (const p of payments) expect(r.stderr).toContain(p.id)
  expect(r.stderr).not.toMatch(/Not created again/)
  expect(earlier.id).toBeTruthy()
})
