/**
 * `svc invoice list --csv`: the invoices for an accountant's spreadsheet (RFC 4180 in the dialect
 * asked, a header row, integers for XAF, ISO dates, the phone shown as it is).
 */
import {csvDocument, phoneCell, RFC4180, type CsvDialect} from '../io/csv-writer.js'
import type {Invoice} from './types.js'

export const INVOICE_CSV_COLUMNS = [
  'id',
  'status',
  'customer_name',
  'customer_email',
  'customer_phone',
  'due_date',
  'subtotal_amount',
  'discount_percent',
  'total_amount',
  'amount_paid',
  'amount_due',
  'currency',
  'external_reference',
  'created_at',
  'paid_at',
  'checkout_url',
] as const

export function invoicesCsv(invoices: Invoice[], dialect: CsvDialect = RFC4180): string {
  return csvDocument(INVOICE_CSV_COLUMNS, invoices.map((i) => INVOICE_CSV_COLUMNS.map((c) => (c === 'customer_phone' ? phoneCell(i[c]) : i[c]))), dialect)
}
