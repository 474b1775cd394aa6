/**
 * One test clock (test/helpers/clock.ts) for the in-process sandbox and the in-process CLI runs of
 * a test: the test sets the time and both read it (the service's today, the command's own
 * checks); moved on, both move, and what falls due on the way runs. Nothing waits for real time.
 */
import {describe, expect} from 'vitest'

import {testClock} from '../helpers/clock.js'
import {it} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox} from '../helpers/sandbox.js'

const DAY = 86_400_000
const START = '2026-01-10T12:00:00Z'

describe('a test clock shared by the sandbox and runInProcess', () => {
  it('sets the time of both; moving it moves both and runs what falls due', async ({temp}) => {
    const clock = testClock(START)
    const sb = await startTestSandbox({clock, settleAfterMs: 200})
    try {
      const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
      expect(sb.sb.clock.now()).toBe(Date.parse(START))

      // `30d` counts from the service's today (its Date header): the clock's day.
      const invoice = await svc(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '30d', '--item', 'Bread:500:3', '--json'])
      expect(invoice.exitCode, invoice.stderr).toBe(0)
      expect(JSON.parse(invoice.stdout).due_date).toBe('2026-02-09')

      // A payment settles 200 ms of sandbox time after it is made: not while the clock stands still.
      const created = await svc(['pay', 'create', '--amount', '500', '--phone', '670000001', '--json'])
      expect(created.exitCode, created.stderr).toBe(0)
      const id = JSON.parse(created.stdout).id
      expect((await sb.get(`/v1/payments/${id}/status`)).status).toBe('PENDING')
      clock.advance(199)
      await sb.sb.clock.idle()
      expect((await sb.get(`/v1/payments/${id}/status`)).status).toBe('PENDING')
      clock.advance(1)
      await sb.sb.clock.idle()
      expect((await sb.get(`/v1/payments/${id}/status`)).status).toBe('SUCCESS')

      // The command's own reading of the time: 40 days on, a due date of 1 February is past.
      const dryRun = ['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2026-02-01', '--item', 'Bread:500:3', '--dry-run']
      expect((await svc(dryRun)).stderr).not.toMatch(/already past/)
      clock.advance(40 * DAY)
      expect(sb.sb.clock.now()).toBe(Date.parse(START) + 40 * DAY + 200)
      expect((await svc(dryRun)).stderr).toMatch(/The due date .* is already past/)
    } finally {
      await sb.close()
    }
  })
})
