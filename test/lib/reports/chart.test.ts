import {PassThrough} from 'node:stream'
import {describe, expect, it} from 'vitest'

import {IO, type Painter} from '../../../src/lib/io/terminal.js'
import {bar, renderBarChart, sparkline} from '../../../src/lib/reports/chart.js'
import {aggregateCollections} from '../../../src/lib/reports/collections.js'
import {aggregateReceivables} from '../../../src/lib/reports/receivables.js'
import {collectionsSummary, receivablesChart} from '../../../src/lib/reports/render.js'
import type {Invoice} from '../../../src/lib/invoices/types.js'
import type {Payment} from '../../../src/lib/payments/types.js'

async function painter(color: boolean): Promise<Painter> {
  const stream = () => Object.assign(new PassThrough(), {isTTY: false})
  return new IO({stdin: stream(), stdout: stream(), stderr: stream()}, {interactive: false, color, json: false}).paint()
}

const GREEN = (s: string) => `\u001b[32m${s}\u001b[39m`
const YELLOW = (s: string) => `\u001b[33m${s}\u001b[39m`
const RED = (s: string) => `\u001b[31m${s}\u001b[39m`
const CYAN = (s: string) => `\u001b[36m${s}\u001b[39m`
const B = (n: number) => '█'.repeat(n)
const S = (n: number) => ' '.repeat(n)

describe('bar', () => {
  it('draws eighths of a cell; a non-zero value shows at least ▏; zero draws nothing', () => {
    expect(bar(24000, 24000, 10)).toBe(B(10))
    expect(bar(3000, 24000, 10)).toBe('█▎')
    expect(bar(1, 24000, 10)).toBe('▏')
    expect(bar(0, 24000, 10)).toBe('')
    expect(bar(5, 0, 10)).toBe('')
  })
})

describe('sparkline', () => {
  it('▁ for nothing, ▂…█ scaled to the largest', () => {
    expect(sparkline([0, 500, 1000, 7000, 3500])).toBe('▁▂▂█▅')
    expect(sparkline([0, 0, 0])).toBe('▁▁▁')
    expect(sparkline([1, 2, 3, 4, 5, 6, 7])).toBe('▂▃▄▅▆▇█')
  })

  it('keeps the latest values after … when too wide, and tints only when painted', async () => {
    expect(sparkline([7, 0, 0, 7, 1], {maxWidth: 3})).toBe('…█▂')
    expect(sparkline([0, 7], {paint: await painter(true)})).toBe(CYAN('▁█'))
    expect(sparkline([0, 7], {paint: await painter(false)})).toBe('▁█')
  })
})

describe('receivables chart', () => {
  let n = 0
  const inv = (due_date: string, amount_due: number): Invoice => ({
    id: `inv_test_${++n}`,
    status: 'UNPAID',
    customer_name: 'Awa',
    due_date,
    items: [],
    total_amount: amount_due,
    amount_due,
  })
  // As of 2026-06-30: not yet due 12 000 (2), 1–30 3 000 (1), 31–60 nothing, 61–90 1 500 (1), over 90 24 000 (3).
  const report = aggregateReceivables(
    [
      inv('2026-06-30', 7000),
      inv('2026-07-10', 5000),
      inv('2026-06-20', 3000),
      inv('2026-04-30', 1500),
      inv('2026-03-31', 10000),
      inv('2026-01-01', 10000),
      inv('2025-06-30', 4000),
    ],
    '2026-06-30',
    {zone: 'UTC'},
  )

  it('40 columns, no colour: labels, bars of 10 cells, figures right-aligned, 40 wide', async () => {
    const chart = receivablesChart(report, {columns: 40, paint: await painter(false)})
    expect(chart).toBe(
      [
        `Not yet due   ${B(5)}${S(5)}  12 000 XAF (2)`,
        `1–30 days     █▎${S(8)}   3 000 XAF (1)`,
        `31–60 days    ${S(10)}       0 XAF (0)`,
        `61–90 days    ▋${S(9)}   1 500 XAF (1)`,
        `Over 90 days  ${B(10)}  24 000 XAF (3)`,
      ].join('\n'),
    )
    for (const line of chart.split('\n')) expect([...line].length).toBe(40)
  })

  it('120 columns, no colour: bars of at most 60 cells', async () => {
    expect(receivablesChart(report, {columns: 120, paint: await painter(false)})).toBe(
      [
        `Not yet due   ${B(30)}${S(30)}  12 000 XAF (2)`,
        `1–30 days     ${B(7)}▌${S(52)}   3 000 XAF (1)`,
        `31–60 days    ${S(60)}       0 XAF (0)`,
        `61–90 days    ${B(3)}▊${S(56)}   1 500 XAF (1)`,
        `Over 90 days  ${B(60)}  24 000 XAF (3)`,
      ].join('\n'),
    )
  })

  it('40 and 120 columns with colour: only the bars are tinted, by age', async () => {
    const paint = await painter(true)
    expect(receivablesChart(report, {columns: 40, paint})).toBe(
      [
        `Not yet due   ${GREEN(B(5))}${S(5)}  12 000 XAF (2)`,
        `1–30 days     ${YELLOW('█▎')}${S(8)}   3 000 XAF (1)`,
        `31–60 days    ${S(10)}       0 XAF (0)`,
        `61–90 days    ${RED('▋')}${S(9)}   1 500 XAF (1)`,
        `Over 90 days  ${RED(B(10))}  24 000 XAF (3)`,
      ].join('\n'),
    )
    expect(receivablesChart(report, {columns: 120, paint})).toBe(
      [
        `Not yet due   ${GREEN(B(30))}${S(30)}  12 000 XAF (2)`,
        `1–30 days     ${YELLOW(`${B(7)}▌`)}${S(52)}   3 000 XAF (1)`,
        `31–60 days    ${S(60)}       0 XAF (0)`,
        `61–90 days    ${RED(`${B(3)}▊`)}${S(56)}   1 500 XAF (1)`,
        `Over 90 days  ${RED(B(60))}  24 000 XAF (3)`,
      ].join('\n'),
    )
  })

  it('a terminal too narrow still gets a 5-cell bar and every figure', () => {
    const lines = renderBarChart([{label: 'A', value: 2, figure: '2 XAF'}, {label: 'B', value: 1, figure: '1 XAF'}], {columns: 10, paint: {bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s, cyan: (s) => s}})
    expect(lines).toBe(`A  ${B(5)}  2 XAF\nB  ██▌${S(2)}  1 XAF`)
  })
})

describe('collections summary and sparkline', () => {
  // 30 days of June 2026: SUCCESS amounts 0, 100, …; day 15 (index 14) the highest, 7 000.
  const payments: Payment[] = []
  for (let d = 1; d <= 30; d++) {
    const amount = d === 15 ? 7000 : (d % 3) * 1000
    if (amount > 0) {
      payments.push({id: `p${d}`, status: 'SUCCESS', amount, currency: 'XAF', created_at: `2026-06-${String(d).padStart(2, '0')}T12:00:00Z`, phone_number: '237670000001'})
    }
  }
  payments.push({id: 'f1', status: 'FAILED', failure_code: 'EXPIRED', amount: 500, currency: 'XAF', created_at: '2026-06-30T13:00:00Z', phone_number: '237670000099'})
  const report = aggregateCollections(payments, {since: new Date('2026-06-01T00:00:00Z'), until: new Date('2026-07-01T00:00:00Z'), by: 'day', zone: 'UTC'})
  // Day d: (d % 3) thousand → 1000 ▂, 2000 ▃, 0 ▁; day 15: 7000 █.
  const all = '▂▃▁▂▃▁▂▃▁▂▃▁▂▃█▂▃▁▂▃▁▂▃▁▂▃▁▂▃▁'

  it('120 columns: every day between the first and last date', async () => {
    expect(collectionsSummary(report, {columns: 120, paint: await painter(false)})).toEqual([
      'Collections from 2026-06-01 to 2026-06-30: 22 payments, 37 500 XAF asked for, 37 000 XAF collected.',
      'Success rate: 95.5 % of the 22 payments with a final status (21 SUCCESS, 1 FAILED); not final yet: 0 PENDING, 0 UNSPECIFIED.',
      'Collected per day (SUCCESS; highest 7 000 XAF):',
      `2026-06-01 ${all} 2026-06-30`,
    ])
  })

  it('40 columns: the latest 18 days, from the day they start', async () => {
    const lines = collectionsSummary(report, {columns: 40, paint: await painter(false)})
    expect(lines[2]).toBe('Collected per day (SUCCESS; highest 7 000 XAF):')
    expect(lines[3]).toBe(`2026-06-13 ${all.slice(12)} 2026-06-30`)
    expect([...lines[3]!].length).toBe(40)
  })

  it('with colour: the headline bold, the sparkline cyan, the figures unchanged', async () => {
    const paint = await painter(true)
    const lines = collectionsSummary(report, {columns: 40, paint})
    expect(lines[0]).toBe('\u001b[1mCollections from 2026-06-01 to 2026-06-30: 22 payments, 37 500 XAF asked for, 37 000 XAF collected.\u001b[22m')
    expect(lines[3]).toBe(`2026-06-13 ${CYAN(all.slice(12))} 2026-06-30`)
    expect(collectionsSummary(report, {columns: 120, paint})[3]).toBe(`2026-06-01 ${CYAN(all)} 2026-06-30`)
  })
})
