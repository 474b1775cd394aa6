/**
 * Dates as typed on the command line and as shown in tables.
 *
 * - `parseDueDate`: a date as the user writes it, in flags, prompts and files alike: `YYYY-MM-DD`
 *   (kept exactly so, which is what the service's `due_date` takes) in every language; the
 *   language's own form, `31/12/2026` (also `1/2/2027`, `31.12.2026`) in French, returned as
 *   `YYYY-MM-DD`; a number of days from today (`30d`, in French also `30j`), today being the
 *   service's day when the caller has it; or a full ISO 8601 / RFC 3339 time with its offset
 *   (`2026-12-31T17:00:00Z`, `2026-12-31T17:00+01:00`), returned as UTC
 *   (`2026-12-31T16:00:00.000Z`). The calendar is checked (2026-02-30, 31/02/2027, 2026-13-01,
 *   25:00 refused; 2028-02-29 accepted). A time without an offset is refused, since it would mean
 *   different instants on different machines. English refuses `31/12/2026` (is it 12/31?).
 * - `parseSince`: how far back from `now` (`7d`, `24h`, `30m`, any `parseDuration` form) or a
 *   date; a bare date means local midnight at its start, as `git log --since` does. The future is
 *   refused.
 * - `formatDate`: `2026-12-31` in English, `31/12/2026` in French. A date-only value is shown as
 *   is; a time is shown as its date in UTC unless `timeZone: 'local'`. Anything unparseable is
 *   returned unchanged (rendering never throws).
 */
import {InputError} from '../errors.js'
import {getInputLocale, t, type Locale, type MessageKey} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import {parseDuration} from './duration.js'

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/
/** French order: day, month, year (`31/12/2026`, `1/2/2027`, `31.12.2026`). */
const DAY_FIRST = /^(\d{1,2})([/.])(\d{1,2})\2(\d{4})$/
/** Days from today: `30d`, `+30d`, `30 days`; in French also `30j`, `30 jours`. */
const RELATIVE = /^\+?(\d{1,5})\s*(d|days?|j|jours?)$/i
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?$/

interface Parts {
  year: number
  month: number
  day: number
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

export interface DueDateOptions {
  /** The language whose form is accepted besides ISO (default: the current one). */
  locale?: Locale
  /** "Today" for `30d`: the service's day when the caller has it, else the run's clock's. Without it, `30d` is refused (as with `relative: false`). */
  today?: Date
  /** `false` where a number of days must not be taken (a file re-run on another day). */
  relative?: boolean
}

/** Whether `text` is a date in the current language's day-first form (`31/12/2026` in French). */
export function isDayFirstDate(text: string, locale: Locale = getInputLocale()): boolean {
  return locale === 'fr' && DAY_FIRST.test(text.trim())
}

/** Whether `input` is a number of days from today (`30d`), the one form that needs today. */
export function isRelativeDate(input: unknown): boolean {
  return typeof input === 'string' && RELATIVE.test(input.trim())
}

/**
 * The due date as the API takes it: `YYYY-MM-DD`, or a time with offset as UTC ISO, from any form
 * the module comment lists. Throws InputError (exit 2) naming `field`.
 */
export function parseDueDate(input: string, field = 'due-date', options: DueDateOptions = {}): string {
  const text = typeof input === 'string' ? input.trim() : ''
  const relative = RELATIVE.exec(text)
  if (relative) {
    const base = options.today
    if (options.relative === false || !base) throw new InputError(t('domain.date.relativeHere', {field, input: quoteInput(input)}), {field})
    const day = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate() + Number(relative[1])))
    return day.toISOString().slice(0, 10)
  }
  const parsed = parseDateInput(input, field, options.locale ?? getInputLocale())
  return parsed.dateOnly ? parsed.text : parsed.date.toISOString()
}

/**
 * The start of a report range: `now` minus a duration (`7d`, `24h`), or a date (local midnight)
 * or a time with offset. Throws InputError naming `field` when unreadable or in the future.
 */
export function parseSince(input: string, now: Date, field = 'since'): Date {
  const text = typeof input === 'string' ? input.trim() : ''
  let result: Date
  if (/^\d{4}-/.test(text) || isDayFirstDate(text)) {
    const parsed = parseDateInput(text, field, getInputLocale())
    result = parsed.dateOnly ? new Date(parsed.year, parsed.month - 1, parsed.day) : parsed.date
  } else {
    let ms: number
    try {
      ms = parseDuration(text, field)
    } catch (error) {
      if (error instanceof InputError) {
        throw new InputError(t('domain.since.invalid', {field, input: quoteInput(input)}), {field})
      }
      throw error
    }
    result = new Date(now.getTime() - ms)
  }
  if (Number.isNaN(result.getTime())) {
    throw new InputError(t('domain.since.invalid', {field, input: quoteInput(input)}), {field})
  }
  if (result.getTime() > now.getTime()) {
    throw new InputError(t('domain.since.future', {field, input: quoteInput(input)}), {field})
  }
  return result
}

export interface FormatDateOptions {
  /** Which calendar day a time falls on: UTC (default, the same everywhere) or this machine's. */
  timeZone?: 'UTC' | 'local'
}

/** `2026-12-31` (en) or `31/12/2026` (fr), from `YYYY-MM-DD` or an ISO time. */
export function formatDate(iso: string, locale: Locale = 'en', options: FormatDateOptions = {}): string {
  if (typeof iso !== 'string') return String(iso)
  let year: number
  let month: number
  let day: number
  const only = DATE_ONLY.exec(iso.trim())
  if (only) {
    ;[year, month, day] = [Number(only[1]), Number(only[2]), Number(only[3])]
  } else {
    const date = new Date(iso)
    if (!/^\d{4}-\d{2}-\d{2}/.test(iso.trim()) || Number.isNaN(date.getTime())) return iso
    if (options.timeZone === 'local') {
      ;[year, month, day] = [date.getFullYear(), date.getMonth() + 1, date.getDate()]
    } else {
      ;[year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]
    }
  }
  const y = String(year).padStart(4, '0')
  const m = String(month).padStart(2, '0')
  const d = String(day).padStart(2, '0')
  return locale === 'fr' ? `${d}/${m}/${y}` : `${y}-${m}-${d}`
}

/**
 * A time as a person reads it in a table: `2026-12-31 14:05 UTC` (en) or `31/12/2026 14:05 UTC`
 * (fr), in UTC (the same on every machine). A date-only or unparseable value goes through
 * `formatDate` (which returns what it cannot read unchanged).
 */
export function formatDateTime(iso: string, locale: Locale = 'en'): string {
  if (typeof iso !== 'string' || !DATE_TIME.test(iso.trim())) return formatDate(iso, locale)
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const hh = String(date.getUTCHours()).padStart(2, '0')
  const mm = String(date.getUTCMinutes()).padStart(2, '0')
  return `${formatDate(iso, locale)} ${hh}:${mm} UTC`
}

type ParsedDate = (Parts & {dateOnly: true; text: string}) | (Parts & {dateOnly: false; date: Date})

function parseDateInput(input: string, field: string, locale: Locale = 'en'): ParsedDate {
  const fail = (key: MessageKey, extra: Record<string, string | number> = {}): never => {
    throw new InputError(t(key, {field, input: quoteInput(input), ...extra}), {field})
  }
  const text = typeof input === 'string' ? input.trim() : ''
  if (text === '') fail('domain.date.missing')

  const dayFirst = locale === 'fr' ? DAY_FIRST.exec(text) : null
  if (dayFirst) {
    // 31/12/2026 → 2026-12-31, checked as the same calendar, its errors in the form typed.
    const [year, month, day] = [Number(dayFirst[4]), Number(dayFirst[3]), Number(dayFirst[1])]
    if (year < 1000) fail('domain.date.outOfRange')
    if (month < 1 || month > 12) fail('domain.date.badMonth')
    const days = daysInMonth(year, month)
    const mm = String(month).padStart(2, '0')
    if (day < 1 || day > days) fail('domain.date.noSuchDay', {yearMonth: `${mm}/${dayFirst[4]}`, days})
    return {dateOnly: true, text: `${dayFirst[4]}-${mm}-${String(day).padStart(2, '0')}`, year, month, day}
  }
  const only = DATE_ONLY.exec(text)
  const full = only ? undefined : DATE_TIME.exec(text)
  const match = only ?? full
  if (!match) return fail('domain.date.invalid')

  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (year < 1000) fail('domain.date.outOfRange')
  if (month < 1 || month > 12) fail('domain.date.badMonth')
  const days = daysInMonth(year, month)
  if (day < 1 || day > days) fail('domain.date.noSuchDay', {yearMonth: `${match[1]}-${match[2]}`, days})
  if (only) return {dateOnly: true, text, year, month, day}

  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)]
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3))
  const offset = match[8]
  if (hour > 23 || minute > 59 || second > 59) fail('domain.date.badTime')
  if (offset === undefined) return fail('domain.date.noOffset')

  let offsetMinutes = 0
  if (offset !== 'Z' && offset !== 'z') {
    const digits = offset.slice(1).replace(':', '')
    const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || 0)]
    if (oh > 23 || om > 59) fail('domain.date.badTime')
    offsetMinutes = (offset.startsWith('-') ? -1 : 1) * (oh * 60 + om)
  }
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, millis)
  date.setTime(date.getTime() - offsetMinutes * 60_000)
  const utcYear = date.getUTCFullYear()
  if (utcYear < 1000 || utcYear > 9999) fail('domain.date.outOfRange')
  return {dateOnly: false, date, year, month, day}
}
