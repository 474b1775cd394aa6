/**
 * `--jq` past its time limit, in-process: the limit (SVC_JQ_TIMEOUT) is a deadline on the run's
 * clock (src/lib/io/jq-run.ts), so the test holds a pinned clock (test/helpers/clock.ts) and moves
 * it past the limit once the filter runs in its worker, instead of waiting the limit out. Nine
 * hostile expressions: each ends with exit 1 naming a limit (the time limit, or the memory or
 * output limit when it meets one first). What only a process shows (signals mid-filter, no Node
 * abort under a long limit) is test/commands/jq-bounds.test.ts, in the process project.
 */
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'

import {testClock, type TestClock} from '../helpers/clock.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {HOSTILE, JQ_ARGS} from '../helpers/jq-hostile.js'


let temp: ReturnType<typeof tempConfigDir>
beforeAll(() => {
  temp = tempConfigDir()
})
afterAll(() => temp.cleanup())

const ARGS = JQ_ARGS
// Straight to the worker (no main-thread slice, which runs on node:vm's own time).
const LIMITS = {SVC_JQ_TIMEOUT: '2', SVC_JQ_MAIN_THREAD_MS: '0'}

/**
 * Whether the filter runs on the input in its worker: its 2 s deadline is on the clock, and it is
 * the second one (the first bounds jq's compile, which runs on no input and ends at once).
 */
function running(clock: TestClock): boolean {
  return clock.timersSet('deadline') >= 2 && clock.waiting('deadline').includes(2000)
}

describe('--jq past its limits: exit 1 naming the limit', () => {
  for (const expression of HOSTILE) {
    it(expression, async () => {
      const clock = testClock('2026-03-10T08:00:00Z')
      let settled = false
      const run = runInProcess([...ARGS, '--jq', expression], {configDir: temp.dir, env: LIMITS, clock}).finally(() => (settled = true))
      await vi.waitFor(() => expect(settled || running(clock)).toBe(true), {timeout: 60_000, interval: 20})
      if (!settled) {
        clock.advance(1999)
        await new Promise((resolve) => setImmediate(resolve))
        expect(settled, 'ended before its time limit').toBe(false)
        clock.advance(1)
      }
      const r = await run
      expect(r.exitCode, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/time limit \(2 s; SVC_JQ_TIMEOUT\)|memory limit \(\d+ MB\)|output limit \(\d+ MB\)/)
      expect(r.stderr).not.toMatch(/Aborted|FATAL|heap out of memory|Unexpected error/)
    }, 90_000)
  }

  it('the same clock moved by less than the limit: the filter goes on', async () => {
    // A limit of a tenth of a second (SVC_JQ_TIMEOUT takes fractions), so that the real time that
    // must pass beyond it is short: the filter spins in its worker all the while (its CPU).
    const clock = testClock('2026-03-10T08:00:00Z')
    let settled = false
    const run = runInProcess([...ARGS, '--jq', 'until(false; .)'], {configDir: temp.dir, env: {...LIMITS, SVC_JQ_TIMEOUT: '0.1'}, clock}).finally(() => (settled = true))
    await vi.waitFor(() => expect(clock.timersSet('deadline') >= 2 && clock.waiting('deadline').includes(100)).toBe(true), {timeout: 60_000, interval: 20})
    clock.advance(80)
    // Deliberate: real time passes too, twice the limit: the limit is the clock's, not the machine's.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(settled).toBe(false)
    clock.advance(20)
    const r = await run
    expect(r.exitCode, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/time limit \(0\.1 s; SVC_JQ_TIMEOUT\)/)
  }, 90_000)

  // In-process: SVC_JQ_TIMEOUT is read from the command's environment, not the process's.
  it('SVC_JQ_TIMEOUT that is not a number of seconds: exit 2 naming it, what is accepted', async () => {
    for (const value of ['0', 'abc', '-3', '10 minutes']) {
      const r = await runInProcess([...ARGS, '--jq', '.'], {configDir: temp.dir, env: {SVC_JQ_TIMEOUT: value}})
      expect(r.exitCode, `${value}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toContain('SVC_JQ_TIMEOUT')
      expect(r.stdout).toBe('')
    }
  })

  it('a filter within its limits still works, after the same worker ran the compile', async () => {
    const r = await runInProcess([...ARGS, '--jq', '[.[] | .phone] | length'], {configDir: temp.dir, env: {SVC_JQ_TIMEOUT: '5'}})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^\d+\n$/)
  })
})
