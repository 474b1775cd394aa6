/**
 * The one message catalogue. Every sentence a person reads at run time comes from here, never a
 * literal in a command file. Keys are typed: `t('pay.created')` with a key that does not exist
 * fails the type check. Each domain keeps its section in `en/<section>.ts`; French follows with
 * the same keys (a `Record<MessageKey, string>`, so a missing translation fails the type check).
 *
 * Templates use `{name}` placeholders; `t()` fills them from `params`.
 */
import {en} from './en/index.js'

export type MessageKey = keyof typeof en
export type Catalogue = Record<MessageKey, string>
export type Locale = 'en' | 'fr'
export type Params = Record<string, string | number | undefined>

const catalogues: Partial<Record<Locale, Catalogue>> = {en}
let current: Locale = 'en'

export function setLocale(locale: Locale): void {
  current = locale
}

export function getLocale(): Locale {
  return current
}

/** Register a catalogue (loaded lazily so that English-only runs never parse the others). */
export function registerCatalogue(locale: Locale, catalogue: Catalogue): void {
  catalogues[locale] = catalogue
}

export function t(key: MessageKey, params?: Params, locale: Locale = current): string {
  const template = catalogues[locale]?.[key] ?? en[key]
  if (!params) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name]
    return value === undefined ? whole : String(value)
  })
}
