/**
 * Amounts and dates as the customer reads them on pages, documents and messages, in the page's or
 * the business's language (never the process's: one server serves both languages at once):
 * `12 500 XAF` / `12 500 FCFA` (the unit from the catalogue), `2026-12-31` / `31/12/2026`.
 */
import {fr} from '../../i18n/fr/index.js'
import {registerCatalogue, type Locale} from '../../i18n/index.js'
import {t} from '../text.js'
import {formatDate} from '../../time/date.js'

export function formatXaf(amount: number, locale: Locale = 'en'): string {
  return `${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} ${t('domain.xaf.unit', undefined, locale)}`
}

export function formatDay(iso: string | null | undefined, locale: Locale = 'en'): string {
  return iso ? formatDate(iso, locale) : ''
}

// The sandbox speaks to customers in both languages whatever the process's own language, so it
// registers the French catalogue itself (the CLI loads it only for French runs).
registerCatalogue('fr', fr)
