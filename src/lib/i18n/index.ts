/**
 * The CLI's message catalogue. Every sentence a person reads at run time comes from here, never a
 * literal in a command file. Keys are typed: `t('pay.created')` with a key that does not exist
 * fails the type check. Each domain keeps its section in `en/<section>.ts`; French follows with
 * the same keys (a `Record<MessageKey, string>`, so a missing translation fails the type check).
 * The local sandbox keeps its own catalogue (`src/sandbox/i18n/`); both use the engine of
 * `src/contract/catalogue.ts`.
 *
 * Templates use `{name}` placeholders; `t()` fills them from `params`.
 */
import {Catalogue as Engine, type Locale, type Params} from '../../contract/catalogue.js'
import {en} from './en/index.js'

export type {Locale, Params} from '../../contract/catalogue.js'
export type MessageKey = keyof typeof en
export type Catalogue = Record<MessageKey, string>

const catalogue = new Engine<MessageKey>(en)
let current: Locale = 'en'

export function setLocale(locale: Locale): void {
  current = locale
}

export function getLocale(): Locale {
  return current
}

let input: Locale | undefined

/**
 * The person's language for what they type (dates such as `31/12/2026`): the same as the output's,
 * except under --json, whose output speaks English while the person still writes French.
 */
export function setInputLocale(locale: Locale | undefined): void {
  input = locale
}

export function getInputLocale(): Locale {
  return input ?? current
}

/** Whether `key` is a message of the catalogue (for labels derived from data, e.g. a field name). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key)
}

/** Register a catalogue (loaded lazily so that English-only runs never parse the others). */
export function registerCatalogue(locale: Locale, messages: Catalogue): void {
  catalogue.register(locale, messages)
}

export function t(key: MessageKey, params?: Params, locale: Locale = current): string {
  return catalogue.t(key, params, locale)
}

/** A status as a person reads it in the current language (`UNPAID` → `À PAYER`); unknown ones as they are. */
export function statusLabel(status: string): string {
  const key = `domain.status.${status}` as MessageKey
  return key in en ? t(key) : status
}

/** What a payment's failure_code means and what to do next, in the current language (any code, known or not). */
export function failureSentence(code: string): string {
  const key = `domain.failure.${code}` as MessageKey
  return key in en && /^[A-Z_]+$/.test(code) ? t(key) : t('domain.failure.unknown')
}
