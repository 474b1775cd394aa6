/** How payments look in a terminal: tables, statuses coloured, amounts as `12 500 XAF`. */
import {failureSentence, getLocale, statusLabel, t} from '../i18n/index.js'
import type {IO, Painter} from '../io/terminal.js'
import {formatDateTime} from '../time/date.js'
import {formatXaf} from './amount.js'
import {inferOperator} from './operator.js'
import type {Payment} from './types.js'

export function paintStatus(paint: Painter, status: string): string {
  const label = statusLabel(status)
  if (status === 'SUCCESS' || status === 'PAID') return paint.green(label)
  if (status === 'FAILED' || status === 'CANCELLED') return paint.red(label)
  if (status === 'PAST_DUE') return paint.red(label)
  return paint.yellow(label)
}

/** The index of the failure code's column in the payments table. */
export const FAILURE_COLUMN = 4

/** The table, and whether it shows the failure codes (their explanations go under it only then). */
export async function renderPaymentTable(io: IO, payments: Payment[]): Promise<{text: string; shown: (column: number) => boolean}> {
  const paint = await io.paint()
  return io.fittedTable(
    [t('pay.table.id'), t('pay.table.status'), t('pay.table.amount'), t('pay.table.phone'), t('pay.table.failure'), t('pay.table.created')],
    payments.map((p) => [
      p.id,
      paintStatus(paint, p.status),
      formatXaf(p.amount, getLocale()),
      p.phone_number,
      p.failure_code ?? '',
      formatDateTime(p.created_at, getLocale()),
    ]),
    // At 80 columns the failure code goes first, then the creation time; id, status, amount and phone stay.
    [{kind: 'id'}, {priority: 1}, {kind: 'amount'}, {priority: 2}, {priority: 4}, {priority: 3}],
  )
}

/**
 * The operator of a payment as people read it: the one the payment was asked of when known (pay
 * create), the service's `operator` field if it ever sends one, else the one the number says (the
 * Payment object has no operator field), marked as such.
 */
function operatorText(payment: Payment, given: string | undefined): string {
  if (given) return given
  if (typeof payment.operator === 'string' && payment.operator !== '') return payment.operator
  try {
    return t('pay.operator.inferred', {operator: inferOperator(payment.phone_number).operator})
  } catch {
    return ''
  }
}

export async function renderPayment(io: IO, payment: Payment, options: {operator?: string} = {}): Promise<string> {
  const paint = await io.paint()
  const operator = operatorText(payment, options.operator)
  const rows: [string, string][] = [
    [t('pay.table.id'), payment.id],
    [t('pay.table.status'), paintStatus(paint, payment.status)],
    [t('pay.table.amount'), formatXaf(payment.amount, getLocale())],
    [t('pay.table.phone'), payment.phone_number],
    ...(operator ? [[t('pay.table.operator'), operator] as [string, string]] : []),
    [t('pay.table.environment'), payment.environment ?? ''],
    [t('pay.table.created'), formatDateTime(payment.created_at, getLocale())],
  ]
  if (payment.internal_transaction_id) rows.push([t('pay.table.transaction'), payment.internal_transaction_id])
  if (payment.failure_code) {
    rows.push([t('pay.table.failure'), paint.red(payment.failure_code)])
    rows.push([t('pay.table.failureMeaning'), failureSentence(payment.failure_code)])
  }
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')
}
