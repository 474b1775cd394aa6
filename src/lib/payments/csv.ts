/** `svc pay list --csv`: the payments for an accountant's spreadsheet (RFC 4180 in the dialect asked, a header row, integers for XAF, the phone as it is). */
import {csvDocument, phoneCell, RFC4180, type CsvDialect} from '../io/csv-writer.js'
import type {Payment} from './types.js'

export const PAYMENT_CSV_COLUMNS = ['id', 'status', 'amount', 'currency', 'phone_number', 'failure_code', 'environment', 'created_at', 'internal_transaction_id'] as const

export function paymentsCsv(payments: Payment[], dialect: CsvDialect = RFC4180): string {
  return csvDocument(PAYMENT_CSV_COLUMNS, payments.map((p) => PAYMENT_CSV_COLUMNS.map((c) => (c === 'phone_number' ? phoneCell(p[c]) : p[c]))), dialect)
}
