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

describe('words that agree with a number', () => {
  it('English: one for 1, other for 0 and more; French: one for 0 and 1', async () => {
    const {t} = await import('../../../src/lib/i18n/index.js')
    expect(t('fixtures.done', {count: 1}, 'en')).toBe('1 step done.')
    expect(t('fixtures.done', {count: 0}, 'en')).toBe('0 steps done.')
    expect(t('fixtures.done', {count: 3}, 'en')).toBe('3 steps done.')
    expect(t('fixtures.done', {count: 1}, 'fr')).toBe('1 étape faite.')
    expect(t('fixtures.done', {count: 0}, 'fr')).toBe('0 étape faite.')
    expect(t('fixtures.done', {count: 2}, 'fr')).toBe('2 étapes faites.')
    expect(t('invoice.remind.summary', {day: '23/11/2026', sent: 1, skipped: 0, unknown: 2, failed: 0}, 'fr')).toBe(
      'Relances du 23/11/2026 : 1 envoyée, 0 ignorée (déjà relancée aujourd’hui), 2 inconnues, 0 en échec.',
    )
  })

  it('no sentence of either catalogue says "(s)" for a number it knows', async () => {
    const {en} = await import('../../../src/lib/i18n/en/index.js')
    const counted = /\{(count|total|sent|done|expected)\}[^{]*?\w\(s\)/
    for (const catalogue of [en, fr]) for (const [key, text] of Object.entries(catalogue)) expect(`${key}: ${counted.test(text)}`).toBe(`${key}: false`)
  })
})
