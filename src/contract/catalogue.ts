/**
 * How both sides speak two languages: the locales, the `{name}` template rule, and a catalogue
 * engine. The CLI (`src/lib/i18n/`) and the local sandbox (`src/sandbox/i18n/`) each keep their
 * own sentences; this module holds no sentence, only the mechanism. PURE: no imports.
 */
export type Locale = 'en' | 'fr'
export type Params = Record<string, string | number | undefined>

/**
 * `template` with each `{name}` filled from `params`; an unknown placeholder stays as written.
 * `{name|one|other}` is the word that agrees with the number `params[name]`: `one` for 1 (and, in
 * French, for 0: « 0 facture envoyée »), `other` otherwise ("1 step done", "2 steps done").
 */
export function fillTemplate(template: string, params?: Params, locale: Locale = 'en'): string {
  if (!params) return template
  return template
    .replace(/\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g, (whole, name: string, one: string, other: string) => {
      const value = params[name]
      if (value === undefined) return whole
      const count = Math.abs(Number(value))
      return count === 1 || (locale === 'fr' && count === 0) ? one : other
    })
    .replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name]
      return value === undefined ? whole : String(value)
    })
}

/**
 * A catalogue: English always, other languages once registered (loaded lazily, so a run that
 * never needs them never parses them). A key missing from a registered language falls back to
 * English.
 */
export class Catalogue<K extends string> {
  private readonly byLocale: Partial<Record<Locale, Record<K, string>>>

  constructor(private readonly english: Record<K, string>) {
    this.byLocale = {en: english}
  }

  register(locale: Locale, messages: Record<K, string>): void {
    this.byLocale[locale] = messages
  }

  has(locale: Locale): boolean {
    return this.byLocale[locale] !== undefined
  }

  t(key: K, params: Params | undefined, locale: Locale): string {
    const own = this.byLocale[locale]?.[key]
    return own === undefined ? fillTemplate(this.english[key], params, 'en') : fillTemplate(own, params, locale)
  }
}
