// What the pages read of the records the admin contract leaves open (AdminRecord: the sandbox's
// own payments, invoices, ledger entries, events, outbox records, outages and faults), field by field.
import type {AdminList} from '../../../contract/sandbox-admin-routes.js'

export interface PaymentRow {
  id: string
  amount: number
  phone_number: string
  operator: string
  status: string
  failure_code?: string | null
  created_at: string
}
export interface InvoiceRow {
  id: string
  customer_name: string
  total_amount: number
  status: string
  due_date: string
  pdf_url: string | null
  checkout_url: string
}
export interface LedgerRow {
  created_at: string
  type: string
  net_amount: number
  fee: number
  payment_id: string
}
export interface EventRow {
  id: string
  type: string
  created_at: string
  deliveries: Array<{
    url: string
    status: string
    next_attempt_at?: string | null
    attempts: Array<{attempt: number; status_code?: number | null; error?: string | null; duration_ms: number}>
  }>
}
export interface OutboxRow {
  id: string
  created_at: string
  channel: string
  recipient: string
  subject: string | null
  text: string
}
export interface OperatorRow {
  operator: string
  up: boolean
}
export interface FaultRow {
  id: string
  route?: string
  deliveries?: string
  error?: string
}

/** The rows of a list whose records the contract leaves open, as the page reads them. */
export const rows = <T>(list: AdminList<object>): readonly T[] => list.data as readonly T[]
