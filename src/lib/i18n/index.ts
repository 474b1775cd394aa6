/**
 * The CLI's message catalogue. Every sentence a person reads at run time comes from here, never a
 * literal in a command file. Keys are typed: `t('pay.created')` with a key that does not exist
 * fails the type check. Each domain keeps its section in `en/<section>.ts`; French follows with
 * the same keys (a `Record<MessageKey, string>`, so a missing translation fails the type check).
 * The local sandbox keeps its own catalogue (`src/sandbox/i18n/`); both use the engine of
 * `src/contract/catalogue.ts`.
 *
 * Templates use `{name}` placeholders; `t()` fills them from `params`.
 *
 * The language is the run's, not the module's: the base command runs each command inside
 * `inLanguage()` (an AsyncLocalStorage holder), and `t()`, `getLocale()` and the date parser read
 * the holder of the run they are called from, so two commands run at the same time in one process
 * (the in-process test runner, an embedding program) each speak their own. Outside any run (the
 * library driven directly, e.g. by a unit test) they read the process's default.
 */
import {AsyncLocalStorage} from 'node:async_hooks'

import {Catalogue as Engine, type Locale, type Params} from '../../contract/catalogue.js'
import {en} from './en/index.js'

export type {Locale, Params} from '../../contract/catalogue.js'
export type MessageKey = keyof typeof en
export type Catalogue = Record<MessageKey, string>

const catalogue = new Engine<MessageKey>(en)

/** A run's languages: what it prints in, and what the person types in (undefined: the same). */
interface Language {
  output: Locale
  input?: Locale
  /** The global flags that chose the run's profile, key and base URL, as a hint repeats them (computed on first use). */
  hintFlags?: () => string
}

const runs = new AsyncLocalStorage<Language>()
/** Outside any run: the process's default (library code driven directly, unit tests). */
const outside: Language = {output: 'en'}

const language = (): Language => runs.getStore() ?? outside

/**
 * Run `fn` with a language of its own, English until `setLocale` says otherwise: everything it
 * calls, awaits, schedules or listens for from inside reads this one (the base command's `_run`).
 */
export function inLanguage<R>(fn: () => R): R {
  return runs.run({output: 'en'}, fn)
}

/** `fn` bound to the language of the run it is bound in (for listeners a process event calls, e.g. SIGINT). */
export function bindLanguage<F extends (...args: never[]) => unknown>(fn: F): F {
  return AsyncLocalStorage.bind(fn)
}

/** The language of the run in progress (outside a run, the process's default). */
export function setLocale(locale: Locale): void {
  language().output = locale
}

export function getLocale(): Locale {
  return language().output
}

/**
 * The person's language for what they type (dates such as `31/12/2026`): the same as the output's,
 * except under --json, whose output speaks English while the person still writes French.
 */
export function setInputLocale(locale: Locale | undefined): void {
  language().input = locale
}

export function getInputLocale(): Locale {
  const {input, output} = language()
  return input ?? output
}

/** Whether `key` is a message of the catalogue (for labels derived from data, e.g. a field name). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key)
}

/** Register a catalogue (loaded lazily so that English-only runs never parse the others). */
export function registerCatalogue(locale: Locale, messages: Catalogue): void {
  catalogue.register(locale, messages)
}

export function t(key: MessageKey, params?: Params, locale: Locale = language().output): string {
  const flags = language().hintFlags
  return catalogue.t(key, params, locale, flags ? (template) => withHintFlags(template, flags) : undefined)
}

/**
 * What a run was given to choose its profile, key and base URL (`--profile shop`, `--api-key
 * "$SVC_API_KEY"`, `--base-url URL`): every `svc …` command its sentences name then repeats it, so
 * that a hint works when pasted. The context sets it once the flags are known.
 */
export function setHintFlags(flags: () => string): void {
  language().hintFlags = flags
}

/**
 * The commands a sentence names (`svc pay watch {id}`), with the run's flags after `svc`; not those
 * that choose or need no profile (`sandbox serve`, `login`, `logout`, `profiles`). The
 * values filled in later (a command line already given whole) are left as they are.
 */
function withHintFlags(template: string, flags: () => string): string {
  if (!template.includes('svc ')) return template
  const given = flags()
  if (!given) return template
  // A command that names its own profile, key or address (`svc sandbox stop --profile {profile}`) is left as it is.
  return template.replace(/\bsvc (?!sandbox serve\b|login\b|logout\b|profiles\b|--)(?=[a-z])((?:(?!\bsvc )[^`\n])*)/g, (whole, rest: string) =>
    /(^|\s)--(profile|api-key|base-url)\b/.test(rest) ? whole : `svc ${given} ${rest}`,
  )
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
