/**
 * The report tools of `svc mcp`: receivables and collections, as `svc report …` computes them.
 * Imports the lib's own folders and the contract.
 */
import {getLocale, t} from '../i18n/index.js'
import {collectionsReport, receivablesReport} from '../reports/cli.js'
import {formatDate, formatDateTime} from '../time/date.js'
import {optionalChoice, optionalInteger, optionalString, relabelField} from './args.js'
import {type ToolDefinition, read, schema, xaf} from './tool-kit.js'

export const reportsReceivables: ToolDefinition = {
  name: 'reports_receivables',
  description:
    'What customers still owe: every UNPAID and PAST_DUE invoice (partly paid ones included), aged by due date against as_of (default today): not yet due, 1–30, 31–60, 61–90 and over 90 days past due, by bucket and by customer (as `svc report receivables --json`; amounts in whole XAF).',
  inputSchema: schema({
    as_of: {type: 'string', description: 'Age the invoices as of this day (YYYY-MM-DD); default today.'},
    page_size: {type: 'integer', minimum: 1, maximum: 100, default: 100, description: 'Invoices per request while reading the list (1–100).'},
  }),
  annotations: {title: 'Receivables by age', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx, progress}) {
    const args = read(raw, reportsReceivables)
    const flags = {'as-of': optionalString(args, 'as_of'), 'page-size': optionalInteger(args, 'page_size') ?? 100}
    return {
      async execute() {
        const report = await asReportArguments(() => receivablesReport(ctx, flags, (count) => progress(t('report.progress.invoices', {count}))))
        const overdue = report.buckets.filter((b) => b.bucket !== 'not_due').reduce((sum, b) => sum + b.amount_due, 0)
        const summary = t('mcp.summary.receivables', {
          asOf: formatDate(report.as_of, getLocale()),
          count: report.totals.count,
          due: xaf(report.totals.amount_due),
          overdue: xaf(overdue),
        })
        return {summary, data: {report}}
      },
    }
  },
}

export const reportsCollections: ToolDefinition = {
  name: 'reports_collections',
  description:
    'Payments over a period: counts and amounts by status (SUCCESS, FAILED, PENDING, UNSPECIFIED), by day or by operator (inferred from the number), success rate (SUCCESS among final payments) and failure codes ranked (as `svc report collections --json`). Amounts are gross: fees are not an API field.',
  inputSchema: schema({
    since: {type: 'string', default: '7d', description: 'Start: a duration back from now (7d, 24h) or a date (YYYY-MM-DD, or an ISO 8601 time with its offset).'},
    until: {type: 'string', description: 'End: a duration back from now or a date (a date includes that whole day); default now.'},
    by: {type: 'string', enum: ['day', 'operator'], default: 'day', description: 'Group by day or by (inferred) operator.'},
    page_size: {type: 'integer', minimum: 1, maximum: 100, default: 100, description: 'Payments per request while reading the list (1–100).'},
  }),
  annotations: {title: 'Collections over a period', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx, progress}) {
    const args = read(raw, reportsCollections)
    const by = optionalChoice(args, 'by', ['day', 'operator'] as const) ?? 'day'
    const flags = {since: optionalString(args, 'since') ?? '7d', until: optionalString(args, 'until'), by, 'page-size': optionalInteger(args, 'page_size') ?? 100}
    return {
      async execute() {
        const report = await asReportArguments(() => collectionsReport(ctx, flags, (count) => progress(t('report.progress.payments', {count}))))
        const rate = report.totals.success_rate
        const summary = t('mcp.summary.collections', {
          since: formatDateTime(report.since, getLocale()),
          until: formatDateTime(report.until, getLocale()),
          count: report.totals.count,
          collected: xaf(report.totals.by_status.SUCCESS.amount),
          rate: rate === null ? t('mcp.summary.noRate') : `${Math.round(rate * 1000) / 10} %`,
        })
        return {summary, data: {report}}
      },
    }
  },
}

/** The reports check their flags inside the call (before any request): name the arguments. */
async function asReportArguments<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw relabelField(error, {'as-of': 'as_of', 'page-size': 'page_size', since: 'since', until: 'until'})
  }
}
