import {describe, expect, it} from 'vitest'

import type {Payment} from '../../../src/lib/payments/types.js'
import {aggregateCollections, operatorOf, successRate, emptyFigures} from '../../../src/lib/reports/collections.js'
import {collectionsCsv} from '../../../src/lib/reports/csv.js'

let n = 0
function payment(fields: Partial<Payment>): Payment {
  n += 1
  return {
    id: `svcpay_test_${n}`,
    status: 'SUCCESS',
    amount: 1000,
    currency: 'XAF',
    created_at: '2026-06-02T10:00:00.000Z',
    phone_number: '237670000001',
    ...fields,
  }
}

const since = new Date('2026-06-01T00:00:00Z')
const until = new Date('2026-06-04T00:00:00Z')

const payments = [
  payment({amount: 5000, created_at: '2026-06-01T08:00:00Z', phone_number: '237670000001'}),
  payment({amount: 3000, created_at: '2026-06-01T09:00:00Z', phone_number: '237690000001'}),
  payment({status: 'FAILED', failure_code: 'CUSTOMER_DECLINED', amount: 2000, created_at: '2026-06-01T10:00:00Z', phone_number: '237670000099'}),
  payment({status: 'FAILED', failure_code: 'INSUFFICIENT_FUNDS', amount: 700, created_at: '2026-06-02T10:00:00Z', phone_number: '237680000099'}),
  payment({status: 'FAILED', failure_code: 'CUSTOMER_DECLINED', amount: 400, created_at: '2026-06-02T11:00:00Z', phone_number: '237690000099'}),
  payment({status: 'PENDING', amount: 1200, created_at: '2026-06-03T23:59:59.999Z', phone_number: '237661234567'}),
  payment({status: 'UNSPECIFIED', amount: 800, created_at: '2026-06-03T12:00:00Z', phone_number: '237650000001'}),
  // Outside the range: before since, and at until (exclusive).
  payment({amount: 99999, created_at: '2026-05-31T23:59:59.999Z'}),
  payment({amount: 99999, created_at: '2026-06-04T00:00:00.000Z'}),
]

describe('operatorOf', () => {
  it('infers from the test numbers, then the prefix; anything else is other', () => {
    expect(operatorOf('237650000001')).toBe('ORANGE') // a spec ORANGE test number in an MTN prefix
    expect(operatorOf('237651234567')).toBe('MTN')
    expect(operatorOf('237699123456')).toBe('ORANGE')
    expect(operatorOf('237661234567')).toBe('other') // Nexttel
    expect(operatorOf('237222123456')).toBe('other') // Camtel
    expect(operatorOf('12345')).toBe('other')
    expect(operatorOf(undefined)).toBe('other')
  })
})

describe('successRate', () => {
  it('is SUCCESS among final payments, to 4 decimals; null when none is final', () => {
    const f = emptyFigures()
    expect(successRate(f)).toBeNull()
    f.by_status.PENDING.count = 5
    expect(successRate(f)).toBeNull()
    f.by_status.SUCCESS.count = 2
    f.by_status.FAILED.count = 1
    expect(successRate(f)).toBe(0.6667)
  })
})

describe('aggregateCollections', () => {
  it('by day: every day of the range, statuses, rate, failure codes ranked, daily SUCCESS amounts', () => {
    const report = aggregateCollections(payments, {since, until, by: 'day', zone: 'UTC'})
    expect(report.dates).toEqual(['2026-06-01', '2026-06-02', '2026-06-03'])
    expect(report.daily_success_amount).toEqual([8000, 0, 0])
    expect(report.totals).toEqual({
      count: 7,
      amount: 13100,
      by_status: {SUCCESS: {count: 2, amount: 8000}, FAILED: {count: 3, amount: 3100}, PENDING: {count: 1, amount: 1200}, UNSPECIFIED: {count: 1, amount: 800}},
      success_rate: 0.4,
    })
    expect(report.failure_codes).toEqual([
      {code: 'CUSTOMER_DECLINED', count: 2, amount: 2400},
      {code: 'INSUFFICIENT_FUNDS', count: 1, amount: 700},
    ])
    expect(report.rows.map((r) => [(r as {date: string}).date, r.count, r.amount, r.success_rate])).toEqual([
      ['2026-06-01', 3, 10000, 0.6667],
      ['2026-06-02', 2, 1100, 0],
      ['2026-06-03', 2, 2000, null],
    ])
    expect(report).toMatchObject({fees_deducted: false, operator_inferred: false, since: '2026-06-01T00:00:00.000Z', until: '2026-06-04T00:00:00.000Z'})
  })

  it('by operator: MTN, ORANGE, other, each with its daily SUCCESS amounts; says the operator is inferred', () => {
    const report = aggregateCollections(payments, {since, until, by: 'operator', zone: 'UTC'})
    expect(report.operator_inferred).toBe(true)
    expect(report.rows.map((r) => [(r as {operator: string}).operator, r.count, r.amount, r.success_rate, (r as {daily_success_amount: number[]}).daily_success_amount])).toEqual([
      ['MTN', 3, 7700, 0.3333, [5000, 0, 0]],
      ['ORANGE', 3, 4200, 0.5, [3000, 0, 0]],
      ['other', 1, 1200, null, [0, 0, 0]],
    ])
  })

  it('counts a payment listed twice once; a FAILED one without a code is UNKNOWN', () => {
    const failed = payment({status: 'FAILED', created_at: '2026-06-02T00:00:00Z'})
    const report = aggregateCollections([failed, {...failed}], {since, until, by: 'day', zone: 'UTC'})
    expect(report.totals.count).toBe(1)
    expect(report.failure_codes).toEqual([{code: 'UNKNOWN', count: 1, amount: 1000}])
  })

  it('CSV: a header row, one row per day and a totals row, CRLF, integers', () => {
    const report = aggregateCollections(payments, {since, until, by: 'day', zone: 'UTC'})
    expect(collectionsCsv(report)).toBe(
      [
        'row_type,date,count,amount,success_count,success_amount,failed_count,failed_amount,pending_count,pending_amount,unspecified_count,unspecified_amount,success_rate',
        'day,2026-06-01,3,10000,2,8000,1,2000,0,0,0,0,0.6667',
        'day,2026-06-02,2,1100,0,0,2,1100,0,0,0,0,0',
        'day,2026-06-03,2,2000,0,0,0,0,1,1200,1,800,',
        'total,,7,13100,2,8000,3,3100,1,1200,1,800,0.4',
        '',
      ].join('\r\n'),
    )
  })
})
