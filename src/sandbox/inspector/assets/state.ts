// What every part of the page shares: the session (its CSRF token, its sentences, the language),
// the page and item the address names, and the words the pages write values in.

export const PAGES = ['requests', 'payments', 'phone', 'events', 'outbox', 'settings'] as const
export type PageName = (typeof PAGES)[number]

/** The item a page opens from its address: the sandbox's answer, or `{missing}` when it has none. */
export type Detail<T> = T | {missing: string}
/** The page and item the address names, as one key (#/PAGE/ID without the #/). */
export const addressOf = (): string => `${state.page}/${state.target}`

export const state = {
  csrf: '',
  messages: {} as Record<string, string>,
  language: 'en' as 'en' | 'fr',
  business: '',
  page: 'requests' as PageName,
  /** The id in the address (#/PAGE/ID), or ''. */
  target: '',
  /**
   * The item `target` names, once read (null until then, and once closed), with the address it was
   * read for: an answer that arrives after the address changed is never shown as the new one's.
   */
  detail: null as {address: string; value: Detail<unknown>} | null,
  /** The address the render under way draws (app.ts): an item is read only for that address. */
  drawing: '',
  live: null as EventSource | null,
  /** A wrong PIN, said on the handset it was typed on (by payment id). */
  pinNotes: {} as Record<string, string>,
  /** A key's secret, shown once right after it is created. */
  secret: undefined as string | undefined,
  /** Draw the page again (set by app.ts). */
  render: (): Promise<void> => Promise.resolve(),
}

// Words ------------------------------------------------------------------------------------------
export const t = (key: string, params?: Record<string, string | number>): string =>
  (state.messages[`inspector.${key}`] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => (params && name in params ? String(params[name]) : `{${name}}`))
export const locale = (): string => (state.language === 'fr' ? 'fr-FR' : 'en-GB')
// Amounts as svc writes them everywhere: whole XAF, groups of three with plain spaces (12 500 XAF,
// 12 500 FCFA in French).
export const xaf = (amount: number | string): string =>
  `${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} ${state.language === 'fr' ? 'FCFA' : 'XAF'}`
// A status in the page's language (the words the CLI uses); an unknown one as it is.
export const statusWord = (status: string): string => state.messages[`inspector.status.${status}`] ?? status
// Dates as the CLI writes them: 2026-12-31 in English, 31/12/2026 in French; times in UTC.
export const day = (iso: string | null | undefined): string =>
  state.language === 'fr' && iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : (iso ?? '')
export const when = (iso: string | null | undefined): string => {
  if (!iso) return ''
  const utc = new Date(iso).toISOString()
  return `${day(utc.slice(0, 10))} ${utc.slice(11, 19)} UTC`
}
