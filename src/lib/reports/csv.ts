/**
 * The reports as CSV (RFC 4180 in the dialect asked: CRLF line ends, fields quoted when they must be, a header row).
 * One table per report, with a `row_type` column so that the totals row cannot be mistaken for a
 * customer, a day or an operator. Integers for XAF; never colour.
 */
import {csvDocument, RFC4180, type CsvDialect} from '../io/csv-writer.js'
import {REPORT_STATUSES, type CollectionsReport, type DayRow, type Figures, type OperatorRow} from './collections.js'
import {BUCKETS, type ReceivablesReport} from './receivables.js'

export const RECEIVABLES_COLUMNS = [
  'row_type',
  'customer_name',
  'count',
  'amount_due',
  'oldest_due_date',
  'max_days_past_due',
  ...BUCKETS.map((b) => b.id),
] as const

export function receivablesCsv(report: ReceivablesReport, dialect: CsvDialect = RFC4180): string {
  const rows: unknown[][] = report.customers.map((c) => ['customer', c.customer_name, c.count, c.amount_due, c.oldest_due_date, c.max_days_past_due, ...BUCKETS.map((b) => c.buckets[b.id])])
  const oldest = report.buckets.map((b) => b.oldest_due_date).filter((d): d is string => d !== null).sort()[0] ?? ''
  const maxDays = Math.max(0, ...report.customers.map((c) => c.max_days_past_due))
  rows.push([
    'total',
    '',
    report.totals.count,
    report.totals.amount_due,
    oldest,
    report.totals.count === 0 ? '' : maxDays,
    ...report.buckets.map((b) => b.amount_due),
  ])
  return csvDocument(RECEIVABLES_COLUMNS, rows, dialect)
}

const STATUS_COLUMNS = REPORT_STATUSES.flatMap((s) => [`${s.toLowerCase()}_count`, `${s.toLowerCase()}_amount`])

export function collectionsColumns(by: 'day' | 'operator'): string[] {
  return ['row_type', by === 'day' ? 'date' : 'operator', 'count', 'amount', ...STATUS_COLUMNS, 'success_rate']
}

function figureCells(f: Figures): unknown[] {
  return [f.count, f.amount, ...REPORT_STATUSES.flatMap((s) => [f.by_status[s].count, f.by_status[s].amount]), f.success_rate ?? '']
}

export function collectionsCsv(report: CollectionsReport, dialect: CsvDialect = RFC4180): string {
  const rows = report.rows.map((row) => [report.by, report.by === 'day' ? (row as DayRow).date : (row as OperatorRow).operator, ...figureCells(row)])
  rows.push(['total', '', ...figureCells(report.totals)])
  return csvDocument(collectionsColumns(report.by), rows, dialect)
}
