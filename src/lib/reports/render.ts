/**
 * The reports for people: a headline, a chart fitted to the terminal, tables, and the caveats.
 * Every figure is printed as text, so nothing depends on colour.
 */
import {getLocale, statusLabel, t, type MessageKey} from '../i18n/index.js'
import type {Column} from '../io/table.js'
import type {IO, Painter} from '../io/terminal.js'
import {formatXaf} from '../payments/amount.js'
import {formatDate} from '../time/date.js'
import {renderBarChart, sparkline, width, type Tone} from './chart.js'
import {REPORT_STATUSES, successRate, type CollectionsReport, type DayRow, type Figures, type OperatorRow} from './collections.js'
import type {BucketId, ReceivablesReport} from './receivables.js'

const BUCKET_TONE: Record<BucketId, Tone> = {
  not_due: 'good',
  days_1_30: 'warn',
  days_31_60: 'warn',
  days_61_90: 'bad',
  days_over_90: 'bad',
}

const xaf = (n: number) => formatXaf(n, getLocale())
const day = (d: string) => formatDate(d, getLocale())

export function formatRate(rate: number | null): string {
  if (rate === null) return t('report.none')
  // 66.7 % in English, 66,7 % in French.
  const figure = (rate * 100).toFixed(1)
  return t('report.rate', {rate: getLocale() === 'fr' ? figure.replace('.', ',') : figure})
}

/** The ageing chart alone (pure, for the given width and painter). */
export function receivablesChart(report: ReceivablesReport, options: {columns: number; paint: Painter}): string {
  return renderBarChart(
    report.buckets.map((b) => ({
      label: t(`report.bucket.${b.bucket}` as MessageKey),
      value: b.amount_due,
      figure: t('report.chart.figure', {amount: xaf(b.amount_due), count: b.count}),
      tone: BUCKET_TONE[b.bucket],
    })),
    options,
  )
}

export async function renderReceivables(io: IO, report: ReceivablesReport): Promise<string> {
  const paint = await io.paint()
  const asOf = day(report.as_of)
  if (report.totals.count === 0) return t('report.receivables.none', {asOf})
  const head = paint.bold(
    t('report.receivables.title', {asOf, count: report.totals.count, amount: xaf(report.totals.amount_due), partly: report.totals.partly_paid}),
  )
  const chart = receivablesChart(report, {columns: io.columns, paint})
  const oldest = report.buckets.map((b) => b.oldest_due_date).filter((d): d is string => d !== null).sort()[0]
  const maxDays = Math.max(0, ...report.customers.map((c) => c.max_days_past_due))
  const table = await io.table(
    [t('report.table.customer'), t('report.table.invoices'), t('report.table.amountDue'), t('report.table.oldestDue'), t('report.table.daysPastDue')],
    [
      ...report.customers.map((c) => [
        c.customer_name === '' ? t('report.receivables.noName') : c.customer_name,
        String(c.count),
        xaf(c.amount_due),
        day(c.oldest_due_date),
        String(c.max_days_past_due),
      ]),
      [paint.bold(t('report.table.total')), String(report.totals.count), xaf(report.totals.amount_due), oldest ? day(oldest) : '', String(maxDays)],
    ],
    // Names before the rest: a customer's name is never cut below 24 columns.
    [{kind: 'text', priority: 0, min: 24}, {priority: 1}, {kind: 'amount'}, {priority: 3}, {priority: 2}],
  )
  // The sentences wrap at word boundaries on a terminal; the chart and the table already fit it.
  return io.prose([head, '', paint.bold(t('report.receivables.byAge')), chart, '', paint.bold(t('report.receivables.byCustomer')), table].join('\n'))
}

/**
 * How the figure columns fit a narrow terminal: amounts stay; the per-status counts go first
 * (UNSPECIFIED, then PENDING, FAILED, SUCCESS), then the count of payments, then the rate.
 */
const FIGURE_COLUMNS: Column[] = [{priority: 3}, {kind: 'amount'}, {priority: 4}, {priority: 5}, {priority: 6}, {priority: 7}, {priority: 2}, {kind: 'amount'}]

function figureCells(f: Figures): string[] {
  return [
    String(f.count),
    xaf(f.amount),
    ...REPORT_STATUSES.map((s) => String(f.by_status[s].count)),
    formatRate(f.success_rate),
    xaf(f.by_status.SUCCESS.amount),
  ]
}

/** The headline, the success rate and the sparkline of amounts collected per day. */
export function collectionsSummary(report: CollectionsReport, options: {columns: number; paint: Painter; sparkline?: boolean}): string[] {
  const {totals} = report
  const first = day(report.dates[0]!)
  const last = day(report.dates.at(-1)!)
  const s = totals.by_status
  const lines = [
    options.paint.bold(
      t('report.collections.title', {since: first, until: last, count: totals.count, amount: xaf(totals.amount), collected: xaf(s.SUCCESS.amount)}),
    ),
    totals.success_rate === null
      ? t('report.collections.rateNone', {pending: s.PENDING.count, unspecified: s.UNSPECIFIED.count})
      : t('report.collections.rate', {
          rate: formatRate(totals.success_rate),
          final: s.SUCCESS.count + s.FAILED.count,
          success: s.SUCCESS.count,
          failed: s.FAILED.count,
          pending: s.PENDING.count,
          unspecified: s.UNSPECIFIED.count,
        }),
  ]
  // Piped (a file, an email), a line of block characters says nothing: the tables below have the figures.
  if (options.sparkline === false) return lines
  // The sparkline between its first and last day, fitted to the width: the latest days when the
  // range is longer than the terminal is wide.
  const fit = Math.max(7, options.columns - 2 * width(last) - 2)
  const from = Math.max(0, report.dates.length - fit)
  const values = report.daily_success_amount.slice(from)
  lines.push(t('report.collections.sparkline', {max: xaf(Math.max(0, ...values))}))
  lines.push(`${day(report.dates[from]!)} ${sparkline(values, {paint: options.paint})} ${last}`)
  return lines
}

/** Day rows summed by week, each under its Monday (the first week from the range's first day). */
export function byWeek(rows: readonly DayRow[]): DayRow[] {
  const weeks: DayRow[] = []
  for (const row of rows) {
    const weekday = (new Date(`${row.date}T00:00:00Z`).getUTCDay() + 6) % 7
    const current = weeks.at(-1)
    if (!current || weekday === 0) {
      weeks.push(structuredClone(row))
      continue
    }
    current.count += row.count
    current.amount += row.amount
    for (const status of REPORT_STATUSES) {
      current.by_status[status].count += row.by_status[status].count
      current.by_status[status].amount += row.by_status[status].amount
    }
  }
  return weeks.map((week) => ({...week, success_rate: successRate(week)}))
}

export async function renderCollections(io: IO, report: CollectionsReport): Promise<string> {
  const paint = await io.paint()
  const first = day(report.dates[0]!)
  const last = day(report.dates.at(-1)!)
  const notes = [t('report.collections.fees'), ...(report.operator_inferred ? [t('report.collections.inferred')] : [])]
  if (report.totals.count === 0) return io.prose([t('report.collections.none', {since: first, until: last}), ...notes].join('\n'))

  const heads = [
    t('report.table.payments'),
    t('report.table.amount'),
    ...REPORT_STATUSES.map(statusLabel),
    t('report.table.rate'),
    t('report.table.collected'),
  ]
  let title: string
  let table: string
  const terminal = io.isTerminal('stdout')
  if (report.by === 'day') {
    // Past a month, a row per week (from its Monday) rather than a screen of days.
    const weekly = report.rows.length > 31
    const rows = weekly ? byWeek(report.rows as DayRow[]) : (report.rows as DayRow[])
    title = t(weekly ? 'report.collections.byWeek' : 'report.collections.byDay')
    table = await io.table(
      [t(weekly ? 'report.table.weekOf' : 'report.table.date'), ...heads],
      [
        ...rows.map((r) => [day(r.date), ...figureCells(r)]),
        [paint.bold(t('report.table.total')), ...figureCells(report.totals)],
      ],
      [{kind: 'id'}, ...FIGURE_COLUMNS],
    )
  } else {
    title = t('report.collections.byOperator')
    const sparkWidth = Math.max(7, io.columns - 100)
    // The per-day sparkline only on a terminal (piped, the figures say it).
    const spark = (values: number[]) => (terminal ? [sparkline(values, {maxWidth: sparkWidth, paint})] : [])
    table = await io.table(
      [t('report.table.operator'), ...heads, ...(terminal ? [t('report.table.perDay')] : [])],
      [
        ...(report.rows as OperatorRow[]).map((r) => [r.operator === 'other' ? t('report.operator.other') : r.operator, ...figureCells(r), ...spark(r.daily_success_amount)]),
        [paint.bold(t('report.table.total')), ...figureCells(report.totals), ...spark(report.daily_success_amount)],
      ],
      [{kind: 'id'}, ...FIGURE_COLUMNS, {priority: 9}],
    )
  }

  const failures =
    report.failure_codes.length === 0
      ? t('report.collections.noFailures')
      : await io.table(
          [t('report.table.code'), t('report.table.count'), t('report.table.amount')],
          report.failure_codes.map((f) => [f.code, String(f.count), xaf(f.amount)]),
          [{kind: 'id'}, {priority: 1}, {kind: 'amount'}],
        )

  // The sentences wrap at word boundaries on a terminal; the tables already fit it.
  return io.prose([
    ...collectionsSummary(report, {columns: io.columns, paint, sparkline: terminal}),
    '',
    paint.bold(title),
    table,
    '',
    paint.bold(t('report.collections.failureCodes')),
    failures,
    '',
    ...notes.map((n) => paint.dim(n)),
  ].join('\n'))
}
