import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {DAY, formatDuration, HOUR, MINUTE, parseDuration, SECOND} from '../../../src/lib/time/duration.js'
import {expectRefused, onlyInputErrors} from './refusal.js'

describe('parseDuration: accepted forms', () => {
  it.each([
    ['0', 0],
    ['00', 0],
    ['0.0', 0],
    ['0s', 0],
    ['0ms', 0],
    ['250ms', 250],
    ['1ms', 1],
    ['2s', 2 * SECOND],
    ['5m', 5 * MINUTE],
    ['1h', HOUR],
    ['7d', 7 * DAY],
    ['1.5s', 1500],
    ['0.5h', 30 * MINUTE],
    ['1.25m', 75 * SECOND],
    ['0.001s', 1],
    ['1h30m', 90 * MINUTE],
    ['1d2h3m4s5ms', DAY + 2 * HOUR + 3 * MINUTE + 4 * SECOND + 5],
    ['1m 30s', 90 * SECOND],
    ['2 s', 2 * SECOND],
    ['  3s  ', 3 * SECOND],
    ['2S', 2 * SECOND],
    ['5M', 5 * MINUTE],
    ['10sec', 10 * SECOND],
    ['5min', 5 * MINUTE],
    ['2hr', 2 * HOUR],
    ['1000ms', SECOND],
  ])('%j → %d ms', (input, expected) => {
    expect(parseDuration(input, 'timeout')).toBe(expected)
  })
})

describe('parseDuration: refused forms', () => {
  it.each([
    ['', /Missing --timeout/],
    ['5', /add a unit/],
    ['250', /add a unit/],
    ['1.5', /add a unit/],
    ['-5s', /negative/],
    ['-0', /negative/],
    ['\u22121s', /negative/],
    ['5w', /unknown unit "w"/],
    ['5x', /unknown unit "x"/],
    ['5mins', /unknown unit "mins"/],
    ['5 seconds', /unknown unit "seconds"/],
    ['30m1h', /largest first/],
    ['1m1m', /largest first/],
    ['1s1sec', /largest first/],
    ['0.5ms', /one millisecond/],
    ['1.0001s', /one millisecond/],
    ['s', /Invalid --timeout/],
    ['ms5', /Invalid --timeout/],
    ['1h30', /Invalid --timeout/],
    ['.5s', /Invalid --timeout/],
    ['5s!', /Invalid --timeout/],
    ['abc', /Invalid --timeout/],
    ['1,5s', /Invalid --timeout/],
    ['P1D', /Invalid --timeout/],
    ['99999999999999999d', /at most/],
  ])('%j is refused (%s)', (input, message) => {
    const error = expectRefused(() => parseDuration(input, 'timeout'), 'timeout')
    expect(error.message).toMatch(message)
  })

  it('applies bounds', () => {
    expect(parseDuration('1s', 'interval', {min: 250})).toBe(1000)
    expect(expectRefused(() => parseDuration('100ms', 'interval', {min: 250}), 'interval').message).toMatch(/at least 250ms/)
    expect(expectRefused(() => parseDuration('2d', 'interval', {max: DAY}), 'interval').message).toMatch(/at most 1d/)
  })
})

describe('formatDuration', () => {
  it.each([
    [0, '0'],
    [1, '1ms'],
    [250, '250ms'],
    [999, '999ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [1250, '1.25s'],
    [1005, '1.005s'],
    [90 * SECOND, '1m30s'],
    [5 * MINUTE, '5m'],
    [HOUR, '1h'],
    [90 * MINUTE, '1h30m'],
    [7 * DAY, '7d'],
    [DAY + 2 * HOUR + 3 * MINUTE + 4 * SECOND + 5, '1d2h3m4.005s'],
    [-1500, '-1.5s'],
    [0.4, '0'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
  ])('%d → %j', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected)
  })
})

describe('parseDuration: properties', () => {
  it('reads back what formatDuration prints', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({min: 0, max: 100 * DAY}), fc.integer({min: 0, max: Number.MAX_SAFE_INTEGER})), (ms) => {
        expect(parseDuration(formatDuration(ms), 'timeout')).toBe(ms)
      }),
      {numRuns: 1000},
    )
  })
  it('returns a safe integer ≥ 0 or throws an InputError, for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[-0-9. a-zA-Z]{0,12}$/)), (input) => {
        onlyInputErrors(() => {
          const ms = parseDuration(input, 'timeout')
          expect(Number.isSafeInteger(ms)).toBe(true)
          expect(ms).toBeGreaterThanOrEqual(0)
        })
      }),
      {numRuns: 1500},
    )
  })
})
