/**
 * How both sides speak two languages: the locales, the `{name}` template rule, and a catalogue
 * engine. The CLI (`src/lib/i18n/`) and the local sandbox (`src/sandbox/i18n/`) each keep their
 * own sentences; this module holds no sentence, only the mechanism. PURE: no imports.
 */
export type Locale = 'en' | 'fr'
export type Params = Record<string, string | number | undefined>

const pluralRules: Partial<Record<Locale, Intl.PluralRules>> = {}

/** The CLDR plural category of `count` in `locale` (Intl.PluralRules, one instance per language). */
export function pluralCategory(count: number, locale: Locale): Intl.LDMLPluralRule {
  pluralRules[locale] ??= new Intl.PluralRules(locale)
  return pluralRules[locale]!.select(count)
}

/**
 * `template` with each `{name}` filled from `params`; an unknown placeholder stays as written.
 * `{name|one|other}` is the word that agrees with the number `params[name]`, by the language's
 * plural rules (Intl.PluralRules): `one` where the category is "one" (English: 1; French: 0, 1
 * and 1.5: « 0 facture envoyée »), `other` for every other category ("1 step done", "2 steps done").
 * A value that is not a number (e.g. already formatted, "1 000") takes `other`.
 */
export function fillTemplate(template: string, params?: Params, locale: Locale = 'en'): string {
  if (!params) return template
  const parts = compiled(template)
  if (typeof parts === 'string') return parts
  let out = ''
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part
      continue
    }
    const value = params[part.name]
    if (value === undefined) out += part.whole
    else if (part.one === undefined) out += String(value)
    else {
      const count = Math.abs(Number(value))
      out += Number.isFinite(count) && pluralCategory(count, locale) === 'one' ? part.one : part.other
    }
  }
  return out
}

/** A placeholder of a template: `{name}`, or `{name|one|other}` with its two words. */
interface Placeholder {
  whole: string
  name: string
  one?: string
  other?: string
}

/**
 * Templates cut once into text and placeholders (a sentence said for each of a million rows is
 * not parsed a million times). The catalogues' sentences are a few thousand; past that the cache
 * starts again rather than grow.
 */
const cuts = new Map<string, string | Array<string | Placeholder>>()
const PLACEHOLDER = /\{(\w+)\|([^|{}]*)\|([^|{}]*)\}|\{(\w+)\}/g

function compiled(template: string): string | Array<string | Placeholder> {
  let parts = cuts.get(template)
  if (parts !== undefined) return parts
  const list: Array<string | Placeholder> = []
  let at = 0
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index > at) list.push(template.slice(at, match.index))
    list.push(match[4] === undefined ? {whole: match[0], name: match[1]!, one: match[2]!, other: match[3]!} : {whole: match[0], name: match[4]})
    at = match.index + match[0].length
  }
  if (at < template.length) list.push(template.slice(at))
  parts = list.some((part) => typeof part !== 'string') ? list : template
  if (cuts.size >= 10_000) cuts.clear()
  cuts.set(template, parts)
  return parts
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

  /** `shape`, when given, rewrites the sentence before its placeholders are filled (their values stay as given). */
  t(key: K, params: Params | undefined, locale: Locale, shape?: (template: string) => string): string {
    const own = this.byLocale[locale]?.[key]
    const template = own ?? this.english[key]
    return fillTemplate(shape ? shape(template) : template, params, own === undefined ? 'en' : locale)
  }
}
