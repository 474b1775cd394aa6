/** `svc invoice list --csv`: the invoices for an accountant's spreadsheet (RFC 4180, a header row, integers for XAF, ISO dates). */
import {csvLine} from '../io/csv-writer.js'
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

export function invoicesCsv(invoices: Invoice[]): string {
  return csvLine([...INVOICE_CSV_COLUMNS]) + invoices.map((i) => csvLine(INVOICE_CSV_COLUMNS.map((c) => i[c]))).join('')
}
