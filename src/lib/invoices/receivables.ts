/**
 * Which invoices a shop owner is owed on, and which of them a filter picks: by customer, by due
 * date, overdue, or due within a few days. The service's list filters by status alone, so these
 * filters run here, over the pages the service returns (newest first, which says nothing of due
 * dates: a search reads every page unless it has found as many as asked for).
 *
 * "Today" is the service's day (its Date header, which the local sandbox serves from its own
 * clock), so `sandbox clock advance 40d` makes invoices overdue here as it does on the service.
 */
import {dateNow} from '../../contract/clock.js'
import {InputError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {formatDate, isRelativeDate, parseDueDate} from '../time/date.js'
import {DAY, parseDuration} from '../time/duration.js'
import type {InvoiceApi} from './flows.js'
import type {Invoice} from './types.js'

export interface ReceivableFilter {
  /** Part of the customer's name, email, phone or the invoice's reference, any case or accent. */
  customer?: string
  /** Due strictly before this day (YYYY-MM-DD). */
  dueBefore?: string
  /** Due strictly after this day (YYYY-MM-DD). */
  dueAfter?: string
  /** Unpaid and due before today. */
  overdue?: boolean
  /** Unpaid and due from today to today + this many days. */
  dueWithinDays?: number
}

export interface FilterFlags {
  customer?: string
  'due-before'?: string
  'due-after'?: string
  overdue?: boolean
  'due-within'?: string
}

/** Whether a filter flag counts days from today (`--due-before 30d`): the service's today is then needed. */
export function filterNeedsToday(flags: FilterFlags): boolean {
  return isRelativeDate(flags['due-before']) || isRelativeDate(flags['due-after'])
}

/**
 * Reads and checks the filter flags before any request (InputError naming the flag). `today`
 * (the service's) is where `30d` counts from.
 */
export function readFilter(flags: FilterFlags, today: Date): ReceivableFilter {
  const filter: ReceivableFilter = {}
  if (flags.customer !== undefined) {
    const text = flags.customer.trim()
    if (text === '') throw new InputError(t('core.error.invalidFlag', {flag: '--customer', reason: t('invoice.filter.customerEmpty')}), {field: 'customer'})
    filter.customer = text
  }
  if (flags['due-before'] !== undefined) filter.dueBefore = day(flags['due-before'], 'due-before', today)
  if (flags['due-after'] !== undefined) filter.dueAfter = day(flags['due-after'], 'due-after', today)
  if (filter.dueBefore && filter.dueAfter && filter.dueAfter >= filter.dueBefore)
    throw new InputError(t('invoice.filter.emptyRange', {after: formatDate(filter.dueAfter, getLocale()), before: formatDate(filter.dueBefore, getLocale())}), {field: 'due-after'})
  if (flags.overdue) filter.overdue = true
  if (flags['due-within'] !== undefined) {
    const ms = parseDuration(flags['due-within'], 'due-within', {min: DAY, unit: 'd'})
    filter.dueWithinDays = Math.floor(ms / DAY)
  }
  return filter
}

function day(input: string, field: string, today: Date): string {
  return parseDueDate(input, field, {today}).slice(0, 10)
}

export function isFiltering(filter: ReceivableFilter): boolean {
  return Object.keys(filter).length > 0
}

/** Still owed: published, not paid, not cancelled. */
export function isReceivable(invoice: Invoice): boolean {
  return (invoice.status === 'UNPAID' || invoice.status === 'PAST_DUE') && (invoice.amount_due ?? 1) > 0
}

/** `YYYY-MM-DD` of a date in UTC, the service's calendar. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

function addDays(dayText: string, days: number): string {
  return utcDay(new Date(Date.parse(`${dayText}T00:00:00Z`) + days * DAY))
}

/** Text as a search compares it: accents and case folded (`Émilie` and `EMILIE` read as `emilie`), spaces collapsed. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim()
}

export function matchesFilter(invoice: Invoice, filter: ReceivableFilter, today: string): boolean {
  const due = String(invoice.due_date ?? '').slice(0, 10)
  if (filter.customer !== undefined) {
    const needle = foldText(filter.customer)
    const haystack = foldText([invoice.customer_name, invoice.customer_email ?? '', invoice.customer_phone ?? '', invoice.external_reference ?? ''].join('\n'))
    if (!haystack.includes(needle)) return false
  }
  if (filter.dueBefore !== undefined && !(due < filter.dueBefore)) return false
  if (filter.dueAfter !== undefined && !(due > filter.dueAfter)) return false
  if (filter.overdue && !(isReceivable(invoice) && (invoice.status === 'PAST_DUE' || due < today))) return false
  if (filter.dueWithinDays !== undefined && !(isReceivable(invoice) && due >= today && due <= addDays(today, filter.dueWithinDays))) return false
  return true
}

export interface SearchOptions {
  status?: string
  filter: ReceivableFilter
  /** Stop once this many have matched (undefined: read every page). */
  limit?: number
  onPage?: (scanned: number, matched: number) => void
}

export interface SearchResult {
  items: Invoice[]
  /** The service's day the filters used. */
  today: string
  /** Stopped at `limit` with pages left unread: more may match. */
  stoppedEarly: boolean
}

/** Every invoice the filter picks, reading the service's pages (100 at a time) until done or `limit`. */
export async function searchInvoices(api: InvoiceApi, options: SearchOptions): Promise<SearchResult> {
  const {listPages} = await import('../api/index.js')
  const operation = api.service.operations['invoice.list']
  const pages = listPages<Invoice>(api.client, {
    method: operation.method,
    path: operation.path,
    operation: 'invoice.list',
    query: {status: options.status},
    shape: api.service.lists.invoices,
    pageSize: 100,
    style: 'page',
    start: 1,
  })
  const items: Invoice[] = []
  let scanned = 0
  let today: string | undefined
  for await (const page of pages) {
    // The first answer carries the service's Date: its day is "today" for every page.
    today ??= utcDay(api.client.serviceNow() ?? dateNow(api.client.clock))
    for (const [index, invoice] of page.items.entries()) {
      scanned++
      if (!matchesFilter(invoice, options.filter, today)) continue
      items.push(invoice)
      if (options.limit !== undefined && items.length >= options.limit) {
        options.onPage?.(scanned, items.length)
        return {items, today, stoppedEarly: page.hasMore || index < page.items.length - 1}
      }
    }
    options.onPage?.(scanned, items.length)
    if (!page.hasMore) break
  }
  return {items, today: today ?? utcDay(api.client.serviceNow() ?? dateNow(api.client.clock)), stoppedEarly: false}
}
