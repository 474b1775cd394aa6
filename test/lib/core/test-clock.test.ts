/**
 * The test clock (test/helpers/clock.ts) the command tests hand to the sandbox and to their runs:
 * pinned, it moves only when told and fires what falls due on the way in order, each at its time;
 * flowing, real time moves it; skipping, it jumps through the runs' waits (not the sandbox's) and
 * leaves deadlines to real time. And the contract's `deadline` on it: a request times out when
 * the clock passes it, not before.
 */
import {describe, expect, it, vi} from 'vitest'

import {deadline, sleep} from '../../../src/contract/clock.js'
import {skippingClock, testClock} from '../../helpers/clock.js'

const AT = Date.parse('2026-03-10T08:00:00Z')

describe('testClock', () => {
  it('pinned: stands still; advance fires the timers due on the way, in order, each at its time', () => {
    const clock = testClock(AT)
    const fired: Array<[string, number]> = []
    clock.setTimer(() => fired.push(['b', clock.now()]), 2000)
    clock.setTimer(() => fired.push(['a', clock.now()]), 1000)
    const cleared = clock.setTimer(() => fired.push(['never', clock.now()]), 1500)
    clock.clearTimer(cleared)
    expect(clock.now()).toBe(AT)
    clock.advance(1500)
    expect(fired).toEqual([['a', AT + 1000]])
    expect(clock.now()).toBe(AT + 1500)
    expect(clock.waiting()).toEqual([500])
    clock.advance(500)
    expect(fired).toEqual([['a', AT + 1000], ['b', AT + 2000]])
  })

  it('pinned: a timer already due fires on the next turn, as a zero timeout does', async () => {
    const clock = testClock(AT)
    let fired = false
    clock.setTimer(() => (fired = true), 0)
    expect(fired).toBe(false)
    await vi.waitFor(() => expect(fired).toBe(true))
    expect(clock.now()).toBe(AT)
  })

  it('set: forward fires what falls due; backward fires nothing', () => {
    const clock = testClock(AT)
    let fired = 0
    clock.setTimer(() => fired++, 60_000)
    clock.set(AT - 1000)
    expect(fired).toBe(0)
    clock.set('2026-03-10T08:01:00Z')
    expect(fired).toBe(1)
  })

  it('flowing: real time moves it, and its timers fire as real time reaches them', async () => {
    const clock = testClock(AT).flow()
    await vi.waitFor(() => expect(clock.now()).toBeGreaterThan(AT))
    let fired = false
    clock.setTimer(() => (fired = true), 20)
    await vi.waitFor(() => expect(fired).toBe(true))
  })

  it("deadline on it: aborts with a TimeoutError when the clock passes it, and not before", () => {
    const clock = testClock(AT)
    const {signal} = deadline(clock, 5000)
    clock.advance(4999)
    expect(signal.aborted).toBe(false)
    clock.advance(1)
    expect(signal.aborted).toBe(true)
    expect((signal.reason as DOMException).name).toBe('TimeoutError')
  })
})

describe('skippingClock', () => {
  it("jumps to the end of a run's wait at once; a wait of the clock's own owner (the sandbox) does not move it", async () => {
    const clock = skippingClock(AT)
    let sandboxTask = false
    clock.setTimer(() => (sandboxTask = true), 24 * 3_600_000)
    const started = Date.now()
    await sleep(clock.forRuns(), 60_000)
    expect(clock.now()).toBe(AT + 60_000)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(sandboxTask).toBe(false)
  })

  it('leaves deadlines to real time: a jump through a wait does not time out work in flight', async () => {
    const clock = skippingClock(AT)
    const runs = clock.forRuns()
    const {signal} = deadline(runs, 30_000)
    await sleep(runs, 120_000)
    expect(clock.now()).toBe(AT + 120_000)
    expect(signal.aborted).toBe(false)
  })
})
