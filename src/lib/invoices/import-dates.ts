/**
 * `svc invoice import`, a file's dates read in the file's own convention, whatever language svc
 * speaks: a spreadsheet writes its dates the way its owner's locale does, and the file goes on
 * being that spreadsheet's when svc runs with LANG=C on a server.
 *
 * - `YYYY-MM-DD` (and an ISO time with its offset) is read so in every file.
 * - `21/01/2027` (also `21.01.2027`, `21-01-2027`, `1/2/2027`) is read in the file's order:
 *   `--date-order dmy|mdy|ymd` when given; otherwise day first when the file looks French (`;`,
 *   Windows-1252, or a first number over 12 in the due_date column) and by default (the service
 *   bills in XAF, whose countries write the day first); month first only when the column says so
 *   (a second number over 12, no first one) in a file that does not look French.
 * - A number of days (`30d`) is refused: a re-run on another day would make another invoice.
 *
 * Errors name the column and the order the file is read in, and the flag that changes it; never
 * a form a file cannot take.
 */
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import {daysInMonth, isRelativeDate, parseDueDate} from '../time/date.js'

export const DATE_ORDERS = ['dmy', 'mdy', 'ymd'] as const
export type DateOrder = (typeof DATE_ORDERS)[number]

/** What the due_date column shows of its order, whatever order is chosen. */
export interface DateEvidence {
  firstOver12: boolean
  secondOver12: boolean
}

const THREE_NUMBERS = /^(\d{1,4})([/.-])(\d{1,2})\2(\d{1,4})$/

export function parseDateOrder(raw: string): DateOrder {
  const value = raw.trim().toLowerCase()
  if ((DATE_ORDERS as readonly string[]).includes(value)) return value as DateOrder
  throw new InputError(t('core.error.invalidFlag', {flag: '--date-order', reason: t('invoice.import.date.orderFlag', {value: quoteInput(raw), accepted: DATE_ORDERS.join(', ')})}), {
    field: 'date-order',
  })
}

/** Adds what a due_date cell says of the order (`21/01/2027`: the first number is the day). */
export function noteDateEvidence(cell: string, evidence: DateEvidence): void {
  const match = THREE_NUMBERS.exec(cell.trim())
  if (!match || match[1]!.length > 2) return
  if (Number(match[1]) > 12) evidence.firstOver12 = true
  if (Number(match[3]) > 12) evidence.secondOver12 = true
}

/** The order of a file's dates, from the flag, the file's looks and its due_date column. */
export function chooseDateOrder(chosen: DateOrder | undefined, frenchLooking: boolean, evidence: DateEvidence): DateOrder {
  if (chosen) return chosen
  if (frenchLooking || evidence.firstOver12) return 'dmy'
  return evidence.secondOver12 ? 'mdy' : 'dmy'
}

function example(order: DateOrder): string {
  return order === 'dmy' ? '21/01/2027' : order === 'mdy' ? '01/21/2027' : '2027/01/21'
}

/** `YYYY-MM-DD` (or an ISO time as UTC) from a file's cell, read in `order`; InputError naming the column. */
export function parseFileDate(input: string, order: DateOrder, column = 'due_date'): string {
  const text = input.trim()
  const fail = (key: 'invoice.import.date.invalid' | 'invoice.import.date.relative' | 'invoice.import.date.badMonth' | 'invoice.import.date.noSuchDay', extra: Record<string, string | number> = {}): never => {
    const orderName = t(`invoice.import.date.order.${order}`)
    throw new InputError(t(key, {column, input: quoteInput(input), example: example(order), order: orderName, ...extra}), {field: column})
  }
  if (isRelativeDate(text)) fail('invoice.import.date.relative')
  const match = THREE_NUMBERS.exec(text)
  if (match && !(match[2] === '-' && match[1]!.length === 4 && order !== 'ymd')) {
    const [a, b, c] = [match[1]!, match[3]!, match[4]!]
    const [y, m, d] = order === 'ymd' ? [a, b, c] : order === 'dmy' ? [c, b, a] : [c, a, b]
    if (y.length !== 4 || d.length > 2) return fail('invoice.import.date.invalid')
    const [year, month, day] = [Number(y), Number(m), Number(d)]
    if (year < 1000) fail('invoice.import.date.invalid')
    if (month < 1 || month > 12) fail('invoice.import.date.badMonth', {month: m})
    const days = daysInMonth(year, month)
    const mm = String(month).padStart(2, '0')
    if (day < 1 || day > days) fail('invoice.import.date.noSuchDay', {yearMonth: `${mm}/${year}`, days})
    return `${y}-${mm}-${String(day).padStart(2, '0')}`
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    try {
      return parseDueDate(text, column, {relative: false, locale: 'en'})
    } catch (error) {
      // The calendar's own words (02/2027 has 28 days), with the column's name.
      if (error instanceof InputError) throw new InputError(error.message.split(`--${column}`).join(column), {field: column})
      throw error
    }
  }
  return fail('invoice.import.date.invalid')
}
