/** `svc pay list --csv`: the payments for an accountant's spreadsheet (RFC 4180, a header row, integers for XAF). */
import {csvLine} from '../io/csv-writer.js'
import type {Payment} from './types.js'

export const PAYMENT_CSV_COLUMNS = ['id', 'status', 'amount', 'currency', 'phone_number', 'failure_code', 'environment', 'created_at', 'internal_transaction_id'] as const

export function paymentsCsv(payments: Payment[]): string {
  return csvLine([...PAYMENT_CSV_COLUMNS]) + payments.map((p) => csvLine(PAYMENT_CSV_COLUMNS.map((c) => p[c]))).join('')
}
