/**
 * The listener's duplicate filter: the newest `window` ids are always remembered, whatever came
 * before, and the cost per id does not grow once the window is full (two generations of sets, not
 * eviction from the front of one).
 */
import {describe, expect, it} from 'vitest'

import {createDuplicateFilter} from '../../../src/lib/webhooks/receiver.js'

describe('createDuplicateFilter', () => {
  it('remembers the newest `window` ids and forgets ids older than twice the window', () => {
    const filter = createDuplicateFilter(1000)
    for (let i = 0; i < 50_000; i++) filter.remember(`evt_${i}`)
    for (let i = 49_000; i < 50_000; i++) expect(filter.has(`evt_${i}`)).toBe(true)
    expect(filter.has('evt_0')).toBe(false)
    expect(filter.has('evt_47000')).toBe(false)
  })

  it('an id remembered again does not push others out', () => {
    const filter = createDuplicateFilter(3)
    filter.remember('a')
    for (let i = 0; i < 10; i++) filter.remember('b')
    expect(filter.has('a')).toBe(true)
  })

  it('a full window costs no more per id than an empty one (200,000 ids through a window of 10,000)', () => {
    const filter = createDuplicateFilter(10_000)
    // Nanoseconds per id for `count` ids from `from`.
    const perId = (from: number, count: number) => {
      const started = process.hrtime.bigint()
      for (let i = from; i < from + count; i++) filter.remember(`evt_${i}`)
      return Number(process.hrtime.bigint() - started) / count
    }
    const filling = perId(0, 10_000)
    const full = perId(10_000, 190_000)
    // Front eviction from one Set cost tens of times more per id once full; a wide margin for a busy machine.
    expect(full).toBeLessThan(filling * 5 + 2_000)
  })
})
