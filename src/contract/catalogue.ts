/**
 * How both sides speak two languages: the locales, the `{name}` template rule, and a catalogue
 * engine. The CLI (`src/lib/i18n/`) and the local sandbox (`src/sandbox/i18n/`) each keep their
 * own sentences; this module holds no sentence, only the mechanism. PURE: no imports.
 */
export type Locale = 'en' | 'fr'
export type Params = Record<string, string | number | undefined>

/** `template` with each `{name}` filled from `params`; an unknown placeholder stays as written. */
export function fillTemplate(template: string, params?: Params): string {
  if (!params) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
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
    return fillTemplate(this.byLocale[locale]?.[key] ?? this.english[key], params)
  }
}
