/**
 * Collections: what payments asked for and what came in, by day or by operator. Pure: payments
 * in, figures out.
 *
 * - Amounts are the payments' `amount` as the API returns them: gross. Fees are not an API field,
 *   so nothing is deducted (the output says so).
 * - Success rate: SUCCESS among the payments that reached a final status (SUCCESS or FAILED);
 *   PENDING and UNSPECIFIED are not final yet. null when none is final.
 * - Operator: the Payment object has none; it is inferred from the phone number (the spec's test
 *   numbers, then the prefix table), "other" when it cannot be.
 */
import {inferOperator} from '../payments/operator.js'
import type {Payment} from '../payments/types.js'
import {dayOf, dayRange, type DayZone} from './days.js'

export const REPORT_STATUSES = ['SUCCESS', 'FAILED', 'PENDING', 'UNSPECIFIED'] as const
export type ReportStatus = (typeof REPORT_STATUSES)[number]

export const REPORT_OPERATORS = ['MTN', 'ORANGE', 'other'] as const
export type ReportOperator = (typeof REPORT_OPERATORS)[number]

export type GroupBy = 'day' | 'operator'

export interface Figures {
  count: number
  amount: number
  by_status: Record<ReportStatus, {count: number; amount: number}>
  /** SUCCESS / (SUCCESS + FAILED), to 4 decimals; null when nothing is final. */
  success_rate: number | null
}

export interface DayRow extends Figures {
  date: string
}

export interface OperatorRow extends Figures {
  operator: ReportOperator
  /** Amount of SUCCESS payments per day, aligned with the report's `dates`. */
  daily_success_amount: number[]
}

export interface FailureCodeRow {
  code: string
  count: number
  amount: number
}

export interface CollectionsReport {
  report: 'collections'
  since: string
  until: string
  by: GroupBy
  currency: 'XAF'
  /** Always false: fees are not an API field. */
  fees_deducted: false
  /** True when grouped by operator: the operator is inferred from the phone number. */
  operator_inferred: boolean
  totals: Figures
  failure_codes: FailureCodeRow[]
  /** Every day of the range, oldest first. */
  dates: string[]
  /** Amount of SUCCESS payments per day, aligned with `dates`. */
  daily_success_amount: number[]
  rows: DayRow[] | OperatorRow[]
}

export interface CollectionsOptions {
  since: Date
  /** Exclusive. */
  until: Date
  by: GroupBy
  zone?: DayZone
}

export function emptyFigures(): Figures {
  return {
    count: 0,
    amount: 0,
    by_status: Object.fromEntries(REPORT_STATUSES.map((s) => [s, {count: 0, amount: 0}])) as Figures['by_status'],
    success_rate: null,
  }
}

function add(figures: Figures, payment: Payment, amount: number): void {
  figures.count += 1
  figures.amount += amount
  const slot = figures.by_status[payment.status as ReportStatus]
  // A status the spec does not list counts in the totals only.
  if (slot) {
    slot.count += 1
    slot.amount += amount
  }
}

export function successRate(figures: Figures): number | null {
  const final = figures.by_status.SUCCESS.count + figures.by_status.FAILED.count
  return final === 0 ? null : Math.round((figures.by_status.SUCCESS.count / final) * 10_000) / 10_000
}

/** MTN, ORANGE, or "other" when the number says nothing (or names an uncollectable network). */
export function operatorOf(phone: unknown): ReportOperator {
  if (typeof phone !== 'string') return 'other'
  try {
    return inferOperator(phone).operator
  } catch {
    return 'other'
  }
}

export function aggregateCollections(payments: readonly Payment[], options: CollectionsOptions): CollectionsReport {
  const zone = options.zone ?? 'local'
  const since = options.since.getTime()
  const until = options.until.getTime()
  const dates = dayRange(dayOf(options.since.toISOString(), zone)!, dayOf(new Date(Math.max(since, until - 1)).toISOString(), zone)!)
  const dayIndex = new Map(dates.map((d, i) => [d, i]))

  const totals = emptyFigures()
  const days = new Map<string, DayRow>(dates.map((date) => [date, {date, ...emptyFigures()}]))
  const operators = new Map<ReportOperator, OperatorRow>(
    REPORT_OPERATORS.map((operator) => [operator, {operator, ...emptyFigures(), daily_success_amount: dates.map(() => 0)}]),
  )
  const daily = dates.map(() => 0)
  const codes = new Map<string, FailureCodeRow>()
  const seen = new Set<string>()

  for (const payment of payments) {
    const created = Date.parse(payment.created_at)
    if (!Number.isFinite(created) || created < since || created >= until || seen.has(payment.id)) continue
    seen.add(payment.id)
    const amount = typeof payment.amount === 'number' && Number.isFinite(payment.amount) ? Math.round(payment.amount) : 0
    const day = dayOf(payment.created_at, zone)!
    const index = dayIndex.get(day)
    const operator = operators.get(operatorOf(payment.phone_number))!
    add(totals, payment, amount)
    if (index !== undefined) add(days.get(day)!, payment, amount)
    add(operator, payment, amount)
    if (payment.status === 'SUCCESS' && index !== undefined) {
      daily[index]! += amount
      operator.daily_success_amount[index]! += amount
    }
    if (payment.status === 'FAILED') {
      const code = typeof payment.failure_code === 'string' && payment.failure_code !== '' ? payment.failure_code : 'UNKNOWN'
      const row = codes.get(code) ?? {code, count: 0, amount: 0}
      row.count += 1
      row.amount += amount
      codes.set(code, row)
    }
  }

  const withRate = <T extends Figures>(f: T): T => ({...f, success_rate: successRate(f)})
  return {
    report: 'collections',
    since: options.since.toISOString(),
    until: options.until.toISOString(),
    by: options.by,
    currency: 'XAF',
    fees_deducted: false,
    operator_inferred: options.by === 'operator',
    totals: withRate(totals),
    // Most frequent first; ties by amount, then code.
    failure_codes: [...codes.values()].sort((a, b) => b.count - a.count || b.amount - a.amount || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)),
    dates,
    daily_success_amount: daily,
    rows: options.by === 'day' ? [...days.values()].map(withRate) : [...operators.values()].map(withRate),
  }
}
