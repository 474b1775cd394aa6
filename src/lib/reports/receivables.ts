/**
 * Receivables (docs/service.md, invoice "Statuses": "UNPAID and PAST_DUE together are the receivables"), aged by
 * due date. Pure: invoices in, figures out; fetching and rendering live elsewhere.
 *
 * - Open: status UNPAID or PAST_DUE (partly paid ones included: they keep that status, with
 *   `amount_paid` > 0) and something still due. What is due is `amount_due`, or
 *   `total_amount − amount_paid` when the service leaves it out.
 * - Age: whole days from the due date to the as-of day. Due today (or later) is not yet due, as
 *   the service sees it: an invoice becomes PAST_DUE after the end of its due day. The status is
 *   not used for ageing, so an earlier --as-of ages the same invoices as they stood then.
 */
import type {Invoice} from '../invoices/types.js'
import {dayOf, daysBetween, type DayZone} from './days.js'

export const BUCKETS = [
  {id: 'not_due', fromDays: null, toDays: 0},
  {id: 'days_1_30', fromDays: 1, toDays: 30},
  {id: 'days_31_60', fromDays: 31, toDays: 60},
  {id: 'days_61_90', fromDays: 61, toDays: 90},
  {id: 'days_over_90', fromDays: 91, toDays: null},
] as const

export type BucketId = (typeof BUCKETS)[number]['id']

export const OPEN_STATUSES = ['UNPAID', 'PAST_DUE'] as const

export interface BucketFigures {
  bucket: BucketId
  /** Days past due covered, both ends included; null: open-ended. */
  from_days: number | null
  to_days: number | null
  count: number
  amount_due: number
  oldest_due_date: string | null
}

export interface CustomerFigures {
  customer_name: string
  count: number
  amount_due: number
  oldest_due_date: string
  max_days_past_due: number
  /** Amount due per ageing bucket. */
  buckets: Record<BucketId, number>
}

export interface ReceivablesReport {
  report: 'receivables'
  as_of: string
  currency: 'XAF'
  totals: {count: number; amount_due: number; total_amount: number; amount_paid: number; partly_paid: number}
  buckets: BucketFigures[]
  customers: CustomerFigures[]
}

/** The bucket of an invoice this many days past due (0 or less: not yet due). */
export function bucketOf(daysPastDue: number): BucketId {
  for (const bucket of BUCKETS) {
    if ((bucket.fromDays === null || daysPastDue >= bucket.fromDays) && (bucket.toDays === null || daysPastDue <= bucket.toDays)) return bucket.id
  }
  return 'not_due'
}

const whole = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : undefined)

/** What is still due on an invoice. */
export function amountDue(invoice: Pick<Invoice, 'total_amount' | 'amount_paid' | 'amount_due'>): number {
  return whole(invoice.amount_due) ?? Math.max(0, (whole(invoice.total_amount) ?? 0) - (whole(invoice.amount_paid) ?? 0))
}

export function isOpen(invoice: Pick<Invoice, 'status' | 'total_amount' | 'amount_paid' | 'amount_due'>): boolean {
  return (OPEN_STATUSES as readonly string[]).includes(invoice.status) && amountDue(invoice) > 0
}

function emptyBuckets(): Record<BucketId, number> {
  return Object.fromEntries(BUCKETS.map((b) => [b.id, 0])) as Record<BucketId, number>
}

const older = (a: string | null, b: string): string => (a === null || b < a ? b : a)

/**
 * The report as of `asOf` (`YYYY-MM-DD`). Invoices that are not open are left out; an invoice
 * listed twice (pages shifting under us) counts once. `zone` decides the day of a due date given
 * as a time.
 */
export function aggregateReceivables(invoices: readonly Invoice[], asOf: string, options: {zone?: DayZone} = {}): ReceivablesReport {
  const zone = options.zone ?? 'local'
  const buckets = new Map<BucketId, BucketFigures>(
    BUCKETS.map((b) => [b.id, {bucket: b.id, from_days: b.fromDays, to_days: b.toDays, count: 0, amount_due: 0, oldest_due_date: null}]),
  )
  const customers = new Map<string, CustomerFigures>()
  const totals = {count: 0, amount_due: 0, total_amount: 0, amount_paid: 0, partly_paid: 0}
  const seen = new Set<string>()

  for (const invoice of invoices) {
    if (!isOpen(invoice) || seen.has(invoice.id)) continue
    seen.add(invoice.id)
    const due = amountDue(invoice)
    // An unreadable due date cannot be aged: count it as due today rather than lose the money.
    const dueDay = dayOf(invoice.due_date, zone) ?? asOf
    const days = daysBetween(dueDay, asOf)
    const bucket = buckets.get(bucketOf(days))!
    bucket.count += 1
    bucket.amount_due += due
    bucket.oldest_due_date = older(bucket.oldest_due_date, dueDay)

    const name = typeof invoice.customer_name === 'string' ? invoice.customer_name.trim() : ''
    let customer = customers.get(name)
    if (!customer) {
      customer = {customer_name: name, count: 0, amount_due: 0, oldest_due_date: dueDay, max_days_past_due: 0, buckets: emptyBuckets()}
      customers.set(name, customer)
    }
    customer.count += 1
    customer.amount_due += due
    customer.oldest_due_date = older(customer.oldest_due_date, dueDay)
    customer.max_days_past_due = Math.max(customer.max_days_past_due, days)
    customer.buckets[bucket.bucket] += due

    const paid = whole(invoice.amount_paid) ?? 0
    totals.count += 1
    totals.amount_due += due
    totals.total_amount += whole(invoice.total_amount) ?? due + paid
    totals.amount_paid += paid
    if (paid > 0) totals.partly_paid += 1
  }

  return {
    report: 'receivables',
    as_of: asOf,
    currency: 'XAF',
    totals,
    buckets: [...buckets.values()],
    // Largest amount due first; ties by oldest due date, then name, so the order is stable.
    customers: [...customers.values()].sort(
      (a, b) =>
        b.amount_due - a.amount_due ||
        (a.oldest_due_date < b.oldest_due_date ? -1 : a.oldest_due_date > b.oldest_due_date ? 1 : 0) ||
        (a.customer_name < b.customer_name ? -1 : a.customer_name > b.customer_name ? 1 : 0),
    ),
  }
}
