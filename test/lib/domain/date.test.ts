import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {daysInMonth, formatDate, isLeapYear, parseDueDate, parseSince} from '../../../src/lib/time/date.js'
import {DAY, HOUR} from '../../../src/lib/time/duration.js'
import {expectRefused, onlyInputErrors} from './refusal.js'

describe('parseDueDate: accepted forms', () => {
  it.each([
    ['2026-12-31', '2026-12-31'],
    [' 2026-12-31 ', '2026-12-31'],
    ['2026-01-01', '2026-01-01'],
    ['2028-02-29', '2028-02-29'], // leap year
    ['2000-02-29', '2000-02-29'], // divisible by 400
    ['2026-04-30', '2026-04-30'],
    ['2026-12-31T17:00:00Z', '2026-12-31T17:00:00.000Z'],
    ['2026-12-31T17:00Z', '2026-12-31T17:00:00.000Z'],
    ['2026-12-31t17:00:00z', '2026-12-31T17:00:00.000Z'],
    ['2026-12-31 17:00:00Z', '2026-12-31T17:00:00.000Z'],
    ['2026-12-31T17:00:00+01:00', '2026-12-31T16:00:00.000Z'],
    ['2026-12-31T17:00:00+0100', '2026-12-31T16:00:00.000Z'],
    ['2026-12-31T17:00:00+01', '2026-12-31T16:00:00.000Z'],
    ['2026-12-31T23:30:00-05:00', '2027-01-01T04:30:00.000Z'],
    ['2026-12-31T17:00:00.123Z', '2026-12-31T17:00:00.123Z'],
    ['2026-12-31T17:00:00.123456789Z', '2026-12-31T17:00:00.123Z'],
    ['2026-12-31T17:00:00,5Z', '2026-12-31T17:00:00.500Z'],
    ['2026-12-31T00:00:00Z', '2026-12-31T00:00:00.000Z'],
    ['2026-12-31T23:59:59Z', '2026-12-31T23:59:59.000Z'],
  ])('%j → %s', (input, expected) => {
    expect(parseDueDate(input)).toBe(expected)
  })
})

describe('parseDueDate: refused forms', () => {
  it.each([
    ['', /Missing --due-date/],
    ['2026-02-30', /2026-02 has 28 days/],
    ['2026-02-29', /2026-02 has 28 days/], // not a leap year
    ['2100-02-29', /2100-02 has 28 days/], // divisible by 100, not 400
    ['2026-04-31', /2026-04 has 30 days/],
    ['2026-12-32', /31 days/],
    ['2026-12-00', /31 days/],
    ['2026-13-01', /month must be 01 to 12/],
    ['2026-00-10', /month must be 01 to 12/],
    ['2026-12-31T24:00:00Z', /time of day/],
    ['2026-12-31T23:60:00Z', /time of day/],
    ['2026-12-31T23:59:60Z', /time of day/],
    ['2026-12-31T17:00:00+24:00', /time of day/],
    ['2026-12-31T17:00:00+01:60', /time of day/],
    ['2026-12-31T17:00:00', /needs its offset/],
    ['2026-12-31T17:00', /needs its offset/],
    ['0999-12-31', /between 1000 and 9999/],
    ['9999-12-31T23:00:00-05:00', /between 1000 and 9999/],
    ['31/12/2026', /YYYY-MM-DD/],
    ['2026/12/31', /YYYY-MM-DD/],
    ['2026-1-5', /YYYY-MM-DD/],
    ['20261231', /YYYY-MM-DD/],
    ['26-12-31', /YYYY-MM-DD/],
    ['2026-12-31T', /YYYY-MM-DD/],
    ['2026-12-31T17Z', /YYYY-MM-DD/],
    ['tomorrow', /YYYY-MM-DD/],
    ['+002026-12-31', /YYYY-MM-DD/],
    ['2026-12-31Z', /YYYY-MM-DD/],
  ])('%j is refused (%s)', (input, message) => {
    const error = expectRefused(() => parseDueDate(input), 'due-date')
    expect(error.message).toMatch(message)
  })

  it('matches the calendar for every day of a 400-year cycle sample', () => {
    fc.assert(
      fc.property(fc.integer({min: 1000, max: 9999}), fc.integer({min: 1, max: 12}), fc.integer({min: 1, max: 31}), (y, m, d) => {
        const text = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
        const probe = new Date(Date.UTC(2000, 0, 1))
        probe.setUTCFullYear(y, m - 1, d)
        const real = probe.getUTCDate() === d
        if (real) expect(parseDueDate(text)).toBe(text)
        else expectRefused(() => parseDueDate(text), 'due-date')
      }),
      {numRuns: 1000},
    )
  })

  it('throws only InputError for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)?)?$/)), (input) => {
        onlyInputErrors(() => parseDueDate(input))
      }),
      {numRuns: 1000},
    )
  })
})

describe('isLeapYear and daysInMonth', () => {
  it.each([
    [2024, true],
    [2026, false],
    [1900, false],
    [2000, true],
  ])('%d leap: %s', (year, leap) => {
    expect(isLeapYear(year)).toBe(leap)
    expect(daysInMonth(year, 2)).toBe(leap ? 29 : 28)
  })
})

describe('parseSince', () => {
  const now = new Date('2026-06-15T12:00:00.000Z')
  it.each([
    ['7d', new Date(now.getTime() - 7 * DAY)],
    ['24h', new Date(now.getTime() - 24 * HOUR)],
    ['30m', new Date(now.getTime() - 30 * 60_000)],
    ['1h30m', new Date(now.getTime() - 90 * 60_000)],
    ['0', now],
    ['2026-06-01T00:00:00Z', new Date('2026-06-01T00:00:00Z')],
    ['2026-06-01T08:00:00+01:00', new Date('2026-06-01T07:00:00Z')],
    ['2026-06-01', new Date(2026, 5, 1)], // local midnight
    ['2026-06-15T12:00:00Z', now],
  ])('%j', (input, expected) => {
    expect(parseSince(input, now).getTime()).toBe(expected.getTime())
  })
  it.each([
    ['', /Invalid --since/],
    ['7', /Invalid --since/],
    ['last week', /Invalid --since/],
    ['-7d', /Invalid --since/],
    ['7w', /Invalid --since/],
    ['2026-02-30', /28 days/],
    ['2026-06-15T12:00:01Z', /future/],
    ['2027-01-01', /future/],
  ])('%j is refused (%s)', (input, message) => {
    expect(expectRefused(() => parseSince(input, now), 'since').message).toMatch(message)
  })
  it('names the flag it was given', () => {
    expectRefused(() => parseSince('x', now, 'from'), 'from')
  })
})

describe('formatDate', () => {
  it.each([
    ['2026-12-31', 'en', '2026-12-31'],
    ['2026-12-31', 'fr', '31/12/2026'],
    ['2026-01-05', 'fr', '05/01/2026'],
    ['2026-12-31T23:30:00.000Z', 'en', '2026-12-31'],
    ['2026-12-31T23:30:00.000Z', 'fr', '31/12/2026'],
    ['2026-12-31T23:30:00-05:00', 'en', '2027-01-01'], // the UTC day
    ['not a date', 'en', 'not a date'],
    ['', 'fr', ''],
  ] as const)('%j in %s → %j', (iso, locale, expected) => {
    expect(formatDate(iso, locale)).toBe(expected)
  })
  it('defaults to English', () => {
    expect(formatDate('2026-12-31')).toBe('2026-12-31')
  })
  it('can use the local calendar day', () => {
    const iso = '2026-12-31T12:00:00.000Z'
    const d = new Date(iso)
    const expected = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
    expect(formatDate(iso, 'en', {timeZone: 'local'})).toBe(expected)
  })
  it('formats what parseDueDate returns, in both locales', () => {
    fc.assert(
      fc.property(fc.date({min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true}), (date) => {
        const day = date.toISOString().slice(0, 10)
        expect(formatDate(parseDueDate(day), 'en')).toBe(day)
        const [y, m, d] = day.split('-')
        expect(formatDate(parseDueDate(date.toISOString()), 'fr')).toBe(`${d}/${m}/${y}`)
      }),
      {numRuns: 500},
    )
  })
})
