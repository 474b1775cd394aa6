/** Numbers, amounts and dates in the locale's form; the French unit from the catalogue. */
import {beforeAll, describe, expect, it} from 'vitest'

import {fr} from '../../../src/lib/i18n/fr/index.js'
import {registerCatalogue} from '../../../src/lib/i18n/index.js'
import {formatXaf, parseAmount} from '../../../src/lib/payments/amount.js'
import {formatDate, formatDateTime} from '../../../src/lib/time/date.js'

beforeAll(() => registerCatalogue('fr', fr))

describe('amounts', () => {
  it('12 500 XAF in English, 12 500 FCFA in French, and both read back', () => {
    expect(formatXaf(12500, 'en')).toBe('12 500 XAF')
    expect(formatXaf(12500, 'fr')).toBe('12 500 FCFA')
    expect(formatXaf(1234567, 'fr')).toBe('1 234 567 FCFA')
    expect(parseAmount(formatXaf(12500, 'fr'))).toBe(12500)
  })
})

describe('dates and times', () => {
  it('dates: 2026-12-31 in English, 31/12/2026 in French', () => {
    expect(formatDate('2026-12-31', 'en')).toBe('2026-12-31')
    expect(formatDate('2026-12-31', 'fr')).toBe('31/12/2026')
  })

  it('times: date and UTC hour, in the locale’s order', () => {
    expect(formatDateTime('2026-03-05T09:07:30.123Z', 'en')).toBe('2026-03-05 09:07 UTC')
    expect(formatDateTime('2026-03-05T09:07:30.123Z', 'fr')).toBe('05/03/2026 09:07 UTC')
    expect(formatDateTime('2026-03-05T23:30:00-02:00', 'fr')).toBe('06/03/2026 01:30 UTC')
  })

  it('a date alone stays a date; anything unreadable is returned as is', () => {
    expect(formatDateTime('2026-12-31', 'fr')).toBe('31/12/2026')
    expect(formatDateTime('soon', 'fr')).toBe('soon')
  })
})
