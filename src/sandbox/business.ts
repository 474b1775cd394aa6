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

// The business's name and logo, shown on invoice PDFs, checkout pages and delivery texts. The
// name set in the dashboard wins over the server's start-up option (`businessName`).
const NAME = 'name'
const LOGO = 'logo'
export const MAX_LOGO_BYTES = 1024 * 1024
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const
export type LogoType = (typeof LOGO_TYPES)[number]

export function businessName(store: Store, fallback: string): string {
  const value = store.business.setting<string>(NAME)
  return typeof value === 'string' && value !== '' ? value : fallback
}

export function setBusinessName(store: Store, name: string): void {
  store.business.setSetting(NAME, name)
}

export interface Logo {
  content_type: LogoType
  bytes: Buffer
}

export function businessLogo(store: Store): Logo | undefined {
  const value = store.business.setting<{content_type: LogoType; data: string}>(LOGO)
  if (!value || typeof value.data !== 'string') return undefined
  return {content_type: value.content_type, bytes: Buffer.from(value.data, 'base64')}
}

export function setBusinessLogo(store: Store, logo: Logo | null): void {
  store.business.setSetting(LOGO, logo ? {content_type: logo.content_type, data: logo.bytes.toString('base64')} : null)
}

/** The image type its first bytes say (PNG or JPEG), or undefined. */
export function sniffLogo(bytes: Buffer): LogoType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  return undefined
}
