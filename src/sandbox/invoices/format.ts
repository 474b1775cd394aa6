/**
 * Amounts and dates as the customer reads them on pages, documents and messages, in the page's or
 * the business's language (never the process's: one server serves both languages at once):
 * `12 500 XAF` / `12 500 FCFA` (the unit from the catalogue), `2026-12-31` / `31/12/2026`.
 */
import {t, type Locale} from '../i18n/index.js'

export function formatXaf(amount: number, locale: Locale = 'en'): string {
  return `${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} ${t('sandbox.xaf.unit', undefined, locale)}`
}

/** The calendar day of an ISO date or timestamp (UTC), `2026-12-31` or `31/12/2026`. */
export function formatDay(iso: string | null | undefined, locale: Locale = 'en'): string {
  if (!iso) return ''
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso.trim())
  if (!match) return iso
  const date = iso.trim().length > 10 ? new Date(iso) : undefined
  const [y, m, d] =
    date && !Number.isNaN(date.getTime())
      ? [String(date.getUTCFullYear()).padStart(4, '0'), String(date.getUTCMonth() + 1).padStart(2, '0'), String(date.getUTCDate()).padStart(2, '0')]
      : [match[1], match[2], match[3]]
  return locale === 'fr' ? `${d}/${m}/${y}` : `${y}-${m}-${d}`
}
