/**
 * The report commands' work: flags read and checked before any request, every page read (with
 * progress), aggregated, then printed as JSON, CSV or for people.
 */
import {dateNow} from '../../contract/clock.js'
import type {ApiClient} from '../api/index.js'
import type {Context} from '../context.js'
import {InputError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {formatDateTime, isDayFirstDate, parseDueDate, parseSince} from '../time/date.js'
import {serviceNow} from '../api/service-clock.js'
import {aggregateCollections, type CollectionsReport, type GroupBy} from './collections.js'
import {collectionsCsv, receivablesCsv} from './csv.js'
import {csvDialect} from '../io/csv-dialect.js'
import {dayOf} from './days.js'
import {fetchOpenInvoices, fetchPaymentsSince} from './fetch.js'
import {withReportProgress} from './progress.js'
import {aggregateReceivables, type ReceivablesReport} from './receivables.js'
import {renderCollections, renderReceivables} from './render.js'

export interface OutputFlags {
  csv: boolean
  'csv-sep'?: string
  'page-size': number
}

export function checkPageSize(pageSize: number): number {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
    throw new InputError(t('core.error.invalidFlag', {flag: '--page-size', reason: t('report.error.pageSize')}), {field: 'page-size'})
  }
  return pageSize
}

/** `--as-of`: a `YYYY-MM-DD` (or a time with offset, taken as its local day); today by default. */
export function parseAsOf(input: string | undefined, now: Date): string {
  if (input === undefined) return dayOf(now.toISOString(), 'local')!
  const parsed = parseDueDate(input, 'as-of', {today: now})
  return dayOf(parsed, 'local')!
}

/**
 * `--until`: like --since (a duration back from now, a date, a time with offset), but a bare date
 * means the end of that day, and the future is allowed (it only bounds the range). Exclusive.
 */
export function parseUntil(input: string | undefined, now: Date): Date {
  if (input === undefined) return now
  const text = input.trim()
  if (/^\d{4}-/.test(text) || isDayFirstDate(text)) {
    // A date is never compared with now here: give parseSince a "now" no date can pass.
    const at = parseSince(text, new Date(8.64e15), 'until')
    return /^\d{4}-\d{2}-\d{2}$/.test(text) || isDayFirstDate(text) ? new Date(at.getFullYear(), at.getMonth(), at.getDate() + 1) : at
  }
  return parseSince(text, now, 'until')
}

/** The receivables report: flags checked before any request, every open invoice read, aggregated. */
export async function receivablesReport(ctx: Context, flags: {'page-size': number; 'as-of'?: string}, onPage?: (count: number) => void): Promise<ReceivablesReport> {
  const pageSize = checkPageSize(flags['page-size'])
  // Checked before any request; without --as-of, the day is the service's own (below).
  const givenAsOf = flags['as-of'] === undefined ? undefined : parseAsOf(flags['as-of'], dateNow(ctx.clock))
  const client = await ctx.client()
  const service = await ctx.service()
  const invoices = await fetchOpenInvoices(client, service, {pageSize, onPage})
  const asOf = givenAsOf ?? parseAsOf(undefined, client.serviceNow() ?? dateNow(client.clock))
  return aggregateReceivables(invoices, asOf)
}

export async function reportReceivables(ctx: Context, flags: OutputFlags & {'as-of'?: string}): Promise<void> {
  const report = await withReportProgress(ctx.io, t('report.progress.invoices', {count: 0}), (progress) =>
    receivablesReport(ctx, flags, (count) => progress.update(t('report.progress.invoices', {count}))),
    {clock: ctx.clock},
  )
  await ctx.io.result(report, async () => (flags.csv ? ctx.io.outData(receivablesCsv(report, csvDialect(flags['csv-sep']))) : ctx.io.out(await renderReceivables(ctx.io, report))))
}

/** The collections report: flags checked before any request, the payments of the range read, aggregated. */
export async function collectionsReport(
  ctx: Context,
  flags: {'page-size': number; since: string; until?: string; by: GroupBy},
  onPage?: (count: number) => void,
): Promise<CollectionsReport> {
  const pageSize = checkPageSize(flags['page-size'])
  const windowAt = (now: Date) => {
    const since = parseSince(flags.since, now)
    const until = parseUntil(flags.until, now)
    if (until.getTime() <= since.getTime()) {
      throw new InputError(t('report.error.untilBeforeSince', {since: formatDateTime(since.toISOString(), getLocale()), until: formatDateTime(until.toISOString(), getLocale())}), {field: 'until'})
    }
    return {since, until}
  }
  windowAt(dateNow(ctx.clock)) // every flag checked before any request
  const client = await ctx.client()
  const service = await ctx.service()
  // "Last 30 days" by the service's clock (the local sandbox's can be moved on).
  const {since, until} = windowAt(await serviceNow(client, '/v1/payments'))
  const payments = await fetchPaymentsSince(client, service, since, {pageSize, onPage})
  return aggregateCollections(payments, {since, until, by: flags.by})
}

export async function reportCollections(ctx: Context, flags: OutputFlags & {since: string; until?: string; by: GroupBy}): Promise<void> {
  const report = await withReportProgress(ctx.io, t('report.progress.payments', {count: 0}), (progress) =>
    collectionsReport(ctx, flags, (count) => progress.update(t('report.progress.payments', {count}))),
    {clock: ctx.clock},
  )
  await ctx.io.result(report, async () => (flags.csv ? ctx.io.outData(collectionsCsv(report, csvDialect(flags['csv-sep']))) : ctx.io.out(await renderCollections(ctx.io, report))))
}


