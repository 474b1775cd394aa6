/**
 * The business's own settings in the dashboard stand-in: the language its customers read
 * (invoice PDFs, email and WhatsApp messages; the checkout page follows the customer's browser
 * and falls back to it). Kept with the business data, so it survives restarts with `dataFile`.
 */
import type {Locale} from './i18n/index.js'
import type {Store} from './store.js'

export const LANGUAGES = ['en', 'fr'] as const satisfies readonly Locale[]

const SETTING = 'language'

export function businessLanguage(store: Store): Locale {
  const value = store.business.setting<string>(SETTING)
  return value === 'fr' ? 'fr' : 'en'
}

export function setBusinessLanguage(store: Store, language: Locale): void {
  store.business.setSetting(SETTING, language)
}

/**
 * The best of our languages for an `Accept-Language` header (`fr-CM,fr;q=0.9,en;q=0.8`): highest
 * q first, then the order given; `*` takes the fallback. Undefined when none of ours is acceptable.
 */
export function fromAcceptLanguage(header: string | undefined, fallback: Locale): Locale | undefined {
  if (!header) return undefined
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined)
      return {tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index}
    })
    .filter((r) => r.tag !== '' && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const {tag} of ranges) {
    if (tag === '*') return fallback
    const primary = tag.split('-')[0]
    if ((LANGUAGES as readonly string[]).includes(primary)) return primary as Locale
  }
  return undefined
}
