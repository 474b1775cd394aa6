import {describe, expect, it} from 'vitest'

import type {Invoice} from '../../../src/lib/invoices/types.js'
import {addDays, daysBetween, dayOf, dayRange} from '../../../src/lib/reports/days.js'
import {aggregateReceivables, amountDue, bucketOf, isOpen} from '../../../src/lib/reports/receivables.js'

let n = 0
function invoice(fields: Partial<Invoice>): Invoice {
  n += 1
  return {
    id: `inv_test_${n}`,
    status: 'UNPAID',
    customer_name: 'Awa Bakery',
    due_date: '2026-06-30',
    items: [],
    total_amount: 1000,
    amount_paid: 0,
    amount_due: 1000,
    ...fields,
  }
}

describe('days', () => {
  it('counts calendar days across months, leap days and DST-free', () => {
    expect(daysBetween('2026-05-31', '2026-06-30')).toBe(30)
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2)
    expect(daysBetween('2026-06-30', '2026-06-29')).toBe(-1)
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(dayRange('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'])
    expect(dayRange('2026-03-02', '2026-03-01')).toEqual([])
  })

  it('reads a date as is and a time as its day in the zone asked for', () => {
    expect(dayOf('2026-06-30', 'UTC')).toBe('2026-06-30')
    expect(dayOf('2026-06-30T23:30:00-02:00', 'UTC')).toBe('2026-07-01')
    expect(dayOf('soon', 'UTC')).toBeUndefined()
    expect(dayOf(undefined, 'UTC')).toBeUndefined()
  })
})

describe('bucketOf', () => {
  it('puts each edge in its bucket: due today is not yet due', () => {
    const cases: Array<[number, string]> = [
      [-15, 'not_due'],
      [0, 'not_due'],
      [1, 'days_1_30'],
      [30, 'days_1_30'],
      [31, 'days_31_60'],
      [60, 'days_31_60'],
      [61, 'days_61_90'],
      [90, 'days_61_90'],
      [91, 'days_over_90'],
      [1000, 'days_over_90'],
    ]
    for (const [days, bucket] of cases) expect(bucketOf(days), `${days} days`).toBe(bucket)
  })
})

describe('amountDue and isOpen', () => {
  it('uses amount_due, else total minus paid; only UNPAID and PAST_DUE with something due are open', () => {
    expect(amountDue({total_amount: 5000, amount_paid: 1500, amount_due: 3500})).toBe(3500)
    expect(amountDue({total_amount: 5000, amount_paid: 1500})).toBe(3500)
    expect(amountDue({total_amount: 5000})).toBe(5000)
    expect(isOpen(invoice({status: 'PAST_DUE'}))).toBe(true)
    for (const status of ['DRAFT', 'PAID', 'CANCELLED']) expect(isOpen(invoice({status}))).toBe(false)
    expect(isOpen(invoice({status: 'UNPAID', amount_due: 0, amount_paid: 1000}))).toBe(false)
  })
})

describe('aggregateReceivables', () => {
  const asOf = '2026-06-30'
  // Days past due as of 2026-06-30: the edges of every bucket.
  const edges: Array<[string, number]> = [
    ['2026-07-15', -15],
    ['2026-06-30', 0],
    ['2026-06-29', 1],
    ['2026-05-31', 30],
    ['2026-05-30', 31],
    ['2026-05-01', 60],
    ['2026-04-30', 61],
    ['2026-04-01', 90],
    ['2026-03-31', 91],
  ]

  it('ages every edge into its bucket, with counts, amounts and oldest due dates', () => {
    const invoices = edges.map(([due_date, days], i) =>
      invoice({due_date, status: days > 0 ? 'PAST_DUE' : 'UNPAID', total_amount: 1000 * (i + 1), amount_due: 1000 * (i + 1), customer_name: `C${i}`}),
    )
    const report = aggregateReceivables(invoices, asOf, {zone: 'UTC'})
    expect(report.buckets).toEqual([
      {bucket: 'not_due', from_days: null, to_days: 0, count: 2, amount_due: 3000, oldest_due_date: '2026-06-30'},
      {bucket: 'days_1_30', from_days: 1, to_days: 30, count: 2, amount_due: 7000, oldest_due_date: '2026-05-31'},
      {bucket: 'days_31_60', from_days: 31, to_days: 60, count: 2, amount_due: 11000, oldest_due_date: '2026-05-01'},
      {bucket: 'days_61_90', from_days: 61, to_days: 90, count: 2, amount_due: 15000, oldest_due_date: '2026-04-01'},
      {bucket: 'days_over_90', from_days: 91, to_days: null, count: 1, amount_due: 9000, oldest_due_date: '2026-03-31'},
    ])
    expect(report.totals).toEqual({count: 9, amount_due: 45000, total_amount: 45000, amount_paid: 0, partly_paid: 0})
    expect(report.customers.map((c) => [c.customer_name, c.max_days_past_due])).toEqual([
      ['C8', 91],
      ['C7', 90],
      ['C6', 61],
      ['C5', 60],
      ['C4', 31],
      ['C3', 30],
      ['C2', 1],
      ['C1', 0],
      ['C0', 0],
    ])
  })

  it('groups by customer: count, amount due per bucket, oldest due date; partly paid counts what is left', () => {
    const report = aggregateReceivables(
      [
        invoice({customer_name: 'Awa Bakery', due_date: '2026-03-31', status: 'PAST_DUE', total_amount: 5000, amount_paid: 2000, amount_due: 3000}),
        invoice({customer_name: 'Awa Bakery ', due_date: '2026-07-01', total_amount: 1200, amount_due: 1200}),
        invoice({customer_name: 'Bisi Shop', due_date: '2026-06-15', status: 'PAST_DUE', total_amount: 4200, amount_due: 4200}),
        invoice({customer_name: 'Paid Co', status: 'PAID', amount_paid: 1000, amount_due: 0}),
        invoice({customer_name: 'Gone', status: 'CANCELLED'}),
        invoice({customer_name: 'Draft', status: 'DRAFT'}),
      ],
      asOf,
      {zone: 'UTC'},
    )
    expect(report.customers).toEqual([
      {
        customer_name: 'Awa Bakery',
        count: 2,
        amount_due: 4200,
        oldest_due_date: '2026-03-31',
        max_days_past_due: 91,
        buckets: {not_due: 1200, days_1_30: 0, days_31_60: 0, days_61_90: 0, days_over_90: 3000},
      },
      {
        customer_name: 'Bisi Shop',
        count: 1,
        amount_due: 4200,
        oldest_due_date: '2026-06-15',
        max_days_past_due: 15,
        buckets: {not_due: 0, days_1_30: 4200, days_31_60: 0, days_61_90: 0, days_over_90: 0},
      },
    ])
    expect(report.totals).toEqual({count: 3, amount_due: 8400, total_amount: 10400, amount_paid: 2000, partly_paid: 1})
  })

  it('counts an invoice listed twice once, and ages a due time by its day in the zone', () => {
    const one = invoice({due_date: '2026-06-29T23:30:00-02:00'})
    const report = aggregateReceivables([one, {...one}], asOf, {zone: 'UTC'})
    expect(report.totals.count).toBe(1)
    expect(report.buckets[0]).toMatchObject({bucket: 'not_due', count: 1, oldest_due_date: '2026-06-30'})
  })

  it('an empty list gives zeros in every bucket', () => {
    const report = aggregateReceivables([], asOf)
    expect(report.totals).toEqual({count: 0, amount_due: 0, total_amount: 0, amount_paid: 0, partly_paid: 0})
    expect(report.buckets.every((b) => b.count === 0 && b.amount_due === 0 && b.oldest_due_date === null)).toBe(true)
    expect(report.customers).toEqual([])
  })
})
