import type {Locale} from './index.js'

/** `fr_CM.UTF-8`, `fr_FR`, `fr` → fr; `en_US`, `C`, `POSIX` → en; anything else → undefined. */
export function localeFromTag(tag: string | undefined): Locale | undefined {
  if (!tag) return undefined
  const lang = tag.toLowerCase().split(/[_.@-]/)[0]
  if (lang === 'fr') return 'fr'
  if (lang === 'en' || lang === 'c' || lang === 'posix') return 'en'
  return undefined
}

/** `--lang`, then `SVC_LANG`, then the profile's language, then LC_ALL / LC_MESSAGES / LANG; English by default. */
export function resolveLocale(flag: string | undefined, env: NodeJS.ProcessEnv, profileLang?: string): Locale {
  for (const candidate of [flag, env.SVC_LANG, profileLang, env.LC_ALL, env.LC_MESSAGES, env.LANG]) {
    const locale = localeFromTag(candidate)
    if (locale) return locale
  }
  return 'en'
}
