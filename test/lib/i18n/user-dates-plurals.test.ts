/**
 * Dates as the user's language writes them (one reader, `parseDueDate`, and one writer,
 * `formatDate`), and plurals from Intl.PluralRules in the catalogue engine.
 */
import {describe, expect, it} from 'vitest'

import {fillTemplate} from '../../../src/contract/catalogue.js'
import {fr} from '../../../src/lib/i18n/fr/index.js'
import {registerCatalogue, setLocale, t} from '../../../src/lib/i18n/index.js'
import {formatDate, isRelativeDate, parseDueDate, parseSince} from '../../../src/lib/time/date.js'
import {parseUntil} from '../../../src/lib/reports/cli.js'

registerCatalogue('fr', fr)

const today = new Date('2026-11-25T10:00:00Z')

describe('parseDueDate: the user’s language and durations from today', () => {
  it('French: 31/12/2026, 1/2/2027 and ISO', () => {
    expect(parseDueDate('31/12/2026', 'due-date', {locale: 'fr'})).toBe('2026-12-31')
    expect(parseDueDate('1/2/2027', 'due-date', {locale: 'fr'})).toBe('2027-02-01')
    expect(parseDueDate('2026-12-31', 'due-date', {locale: 'fr'})).toBe('2026-12-31')
  })

  it('French: the calendar is checked, in French, naming the flag', () => {
    setLocale('fr')
    try {
      expect(() => parseDueDate('31/02/2027', 'due-date', {locale: 'fr'})).toThrow(/--due-date « 31\/02\/2027 » invalide : 02\/2027 compte 28 jours/)
      expect(() => parseDueDate('12/31/2026', 'due-date', {locale: 'fr'})).toThrow(/le mois doit aller de 01 à 12/)
    } finally {
      setLocale('en')
    }
  })

  it('English: ISO, and a day-first date is refused with the ISO form to write', () => {
    expect(parseDueDate('2026-12-31', 'due-date', {locale: 'en'})).toBe('2026-12-31')
    expect(() => parseDueDate('31/12/2026', 'due-date', {locale: 'en'})).toThrow(/Invalid --due-date "31\/12\/2026".*YYYY-MM-DD/)
  })

  it('30d (and 30j in French) is today + 30 days on the given today; 0d is today', () => {
    expect(isRelativeDate('30d')).toBe(true)
    expect(isRelativeDate('2026-12-31')).toBe(false)
    expect(parseDueDate('30d', 'due-date', {today})).toBe('2026-12-25')
    expect(parseDueDate('30j', 'due-date', {today, locale: 'fr'})).toBe('2026-12-25')
    expect(parseDueDate('0d', 'due-date', {today})).toBe('2026-11-25')
    expect(() => parseDueDate('30h', 'due-date', {today})).toThrow(/--due-date/)
  })

  it('a duration is refused where no today applies (a file), saying why', () => {
    expect(() => parseDueDate('30d', 'due-date', {today, relative: false})).toThrow(/--due-date "30d".*date itself/)
  })

  it('formatDate writes back what parseDueDate reads, in both languages', () => {
    for (const locale of ['en', 'fr'] as const) {
      expect(parseDueDate(formatDate('2027-02-01', locale), 'due-date', {locale})).toBe('2027-02-01')
    }
  })
})

describe('report ranges in French', () => {
  it('--since 01/11/2026 and --until 30/11/2026 are local days, the end of the until day included', () => {
    setLocale('fr')
    try {
      const now = new Date(2026, 11, 15)
      expect(parseSince('01/11/2026', now, 'since').getTime()).toBe(new Date(2026, 10, 1).getTime())
      expect(parseUntil('30/11/2026', now).getTime()).toBe(new Date(2026, 11, 1).getTime())
      expect(() => parseSince('31/11/2026', now, 'since')).toThrow(/--since « 31\/11\/2026 » invalide : 11\/2026 compte 30 jours/)
    } finally {
      setLocale('en')
    }
  })
})

describe('plurals from Intl.PluralRules', () => {
  it('English: 1 one, 0 and 2 other; French: 0, 1 and 1.5 one, 2 and a million other', () => {
    const tpl = '{n} {n|x|xs}'
    expect([0, 1, 2].map((n) => fillTemplate(tpl, {n}, 'en'))).toEqual(['0 xs', '1 x', '2 xs'])
    expect([0, 1, 1.5, 2, 1_000_000].map((n) => fillTemplate(tpl, {n}, 'fr'))).toEqual(['0 x', '1 x', '1.5 x', '2 xs', '1000000 xs'])
  })

  it('the messages people met with a wrong plural agree with their number', () => {
    expect(t('invoice.import.someFailed', {failed: 1, path: 'r.csv'})).toMatch(/^1 row failed/)
    expect(t('invoice.import.someFailed', {failed: 2, path: 'r.csv'})).toMatch(/^2 rows failed/)
    expect(t('invoice.import.dryRunSummary', {count: 1, total: '500 XAF'})).toContain('1 invoice would be created')
    expect(t('report.receivables.title', {asOf: 'x', count: 1, amount: '1 XAF', partly: 0}, 'fr')).toContain('1 facture ouverte,')
    expect(t('report.receivables.title', {asOf: 'x', count: 3, amount: '1 XAF', partly: 0}, 'fr')).toContain('3 factures ouvertes')
    expect(t('invoice.import.dryRunSummary', {count: 1, total: '500 FCFA'}, 'fr')).toContain('1 facture serait créée')
  })
})
