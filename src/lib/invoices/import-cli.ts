/**
 * `svc invoice import FILE`: many invoices from a CSV or JSON-lines file.
 *
 * 1. The file is a stream read in its own dialect (import-source.ts): encoding, separator, the
 *    order of its dates. A first pass checks EVERY row (import-pass.ts, import-rows.ts); the bad
 *    rows are all listed, each with every one of its errors, and nothing is created, unless
 *    --skip-invalid. The file is never held whole: a cell and a row have caps (import-stream.ts).
 * 2. One Idempotency-Key per row, derived from the row itself (see `rowKey`), so running the same
 *    file again, after a crash, a Ctrl-C or a SIGKILL, replays the rows already created instead of
 *    creating them twice, and creates the missing ones.
 * 3. A second pass streams the good rows: to the dry run's listing, or to the run (import-run.ts):
 *    requests through the client's pacer with a few in flight. The service gone (no answer, or a
 *    5xx after the client's retries) stops the run at once, with one line and the command that
 *    resumes it (exit 7).
 * 4. A results file (import-results.ts) in the input's dialect, appended as rows finish so a
 *    killed run leaves what it did, then rewritten in row order at the end.
 */
import {existsSync} from 'node:fs'

import type {Context} from '../context.js'
import {ApiError, ExitCode, InputError, OutcomeError, SvcError} from '../errors.js'
import {readReason} from '../io/read-reason.js'
import {quoteInput} from '../io/quote.js'
import {getLocale, t} from '../i18n/index.js'
import {formatXaf} from '../payments/amount.js'
import {formatDate} from '../time/date.js'
import {checkStorageUrl} from '../files/upload.js'
import {parseChannel} from './input.js'
import {ImportValidationError, where, type CheckedRow} from './import-rows.js'
import {isDone, readEarlierResults} from './import-resume.js'
import {importPlan, planText, rateOf, SERVICE_RATE_LIMIT} from './import-plan.js'
import type {Delivery} from './types.js'
import {runImport, serviceGone, type RowResult} from './import-run.js'
import {ResultsWriter, summarise, type ResultsDialect} from './import-results.js'
import {progressBar, waitStatus} from './progress.js'
import {parseEncoding} from './import-text.js'
import {parseDateOrder} from './import-dates.js'
import {ImportSource} from './import-source.js'
import {checkedRows, checkPass, type RowChecks} from './import-pass.js'

/**
 * `batch.csv` → `batch.results.csv` (another name gets `.results.csv` appended). The file is the
 * run's journal: an import started before this name, whose `batch.csv.results.csv` is still there,
 * keeps using it so that it resumes where it stopped.
 */
export function defaultResultsPath(file: string): string {
  const legacy = `${file}.results.csv`
  if (/\.csv$/i.test(file)) {
    const current = `${file.replace(/\.csv$/i, '')}.results.csv`
    if (!existsSync(current) && existsSync(legacy)) return legacy
    return current
  }
  return legacy
}

export interface ImportFlags {
  'skip-invalid': boolean
  results?: string
  publish: boolean
  channel?: string
  rate?: number
  concurrency: number
  'dry-run'?: boolean
  encoding?: string
  'date-order'?: string
  recheck?: boolean
}

/** The command's Ctrl-C hook: the results so far, written before exit 130. */
let flushOnInterrupt: (() => Promise<void>) | undefined
export async function onImportInterrupt(): Promise<void> {
  await flushOnInterrupt?.()
}

/** The results file's dialect: the CSV input's own; for JSON, the language's (`;` and a BOM in French). */
function resultsDialect(source: ImportSource): ResultsDialect {
  const {format, delimiter, encoding, bom} = source.dialect
  if (format !== 'csv') return getLocale() === 'fr' ? {sep: ';', bom: true, encoding: 'utf-8'} : {sep: ',', bom: false, encoding: 'utf-8'}
  return {sep: delimiter as ResultsDialect['sep'], encoding, bom: bom || encoding !== 'utf-8'}
}

/** Who a row is for, in the results file. */
function labelOf(row: CheckedRow): Pick<RowResult, 'customer_name' | 'external_reference'> {
  if (row.draft) return {customer_name: row.draft.customer_name, external_reference: row.draft.external_reference}
  return {customer_name: row.label?.customer_name, external_reference: row.label?.external_reference}
}

async function openSource(ctx: Context, file: string, flags: ImportFlags): Promise<ImportSource> {
  const options = {
    encoding: flags.encoding === undefined ? undefined : parseEncoding(flags.encoding),
    dateOrder: flags['date-order'] === undefined ? undefined : parseDateOrder(flags['date-order']),
  }
  try {
    return await ImportSource.open(file, options)
  } catch (error) {
    if (error instanceof SvcError) throw error
    // FILE is an argument: named as the usage line shows it, the reason in words.
    throw new InputError(t('invoice.import.fileUnreadable', {path: quoteInput(file), reason: readReason(error)}), {field: 'file'})
  }
}

export async function invoiceImport(ctx: Context, file: string, flags: ImportFlags): Promise<void> {
  const channel = parseChannel(flags.channel)
  if (channel && !flags.publish) throw new InputError(t('invoice.error.channelNeedsPublish'), {field: 'channel'})
  if (flags.concurrency < 1 || flags.concurrency > 16) {
    throw new InputError(t('core.error.invalidFlag', {flag: '--concurrency', reason: t('invoice.import.concurrencyRange')}), {field: 'concurrency'})
  }
  if (flags.rate !== undefined) {
    if (flags.rate < 0) throw new InputError(t('core.error.invalidFlag', {flag: '--rate', reason: t('invoice.import.rateRange')}), {field: 'rate'})
    let rate = flags.rate
    // The service refuses what is past its limit (429s): a faster pace only collects them.
    if (rate > SERVICE_RATE_LIMIT) {
      ctx.io.warn(t('invoice.import.rateCapped', {rate, limit: SERVICE_RATE_LIMIT}))
      rate = SERVICE_RATE_LIMIT
    }
    // The client reads its pace from SVC_RATE_LIMIT when it is first created (context.ts).
    ctx.env.SVC_RATE_LIMIT = String(rate)
    flags = {...flags, rate}
  }

  const source = await openSource(ctx, file, flags)
  const storage = {configDir: ctx.configDir, baseUrl: ctx.credentials().baseUrl, field: 'cover-image-url'}
  const checks: RowChecks = {
    cover: (url) => checkStorageUrl(url, storage).then(() => undefined, (error: Error) => error),
    // Knowable here: a delivery needs its address (the service would leave a DRAFT and an error).
    extra: (draft) => {
      if (channel === 'EMAIL' && !draft.customer_email) throw new InputError(t('invoice.import.channelNeedsEmail'), {field: 'customer_email'})
      if (channel === 'WHATSAPP' && !draft.customer_phone) throw new InputError(t('invoice.import.channelNeedsPhone'), {field: 'customer_phone'})
    },
  }
  // Pass 1: every row checked; only the bad ones are kept.
  const checked = await checkPass(source, checks)
  if (source.dialect.guessedAt !== undefined) ctx.io.warn(t('invoice.import.readAsWindows1252', {path: file, line: source.dialect.guessedAt}))
  if (checked.rows === 0) throw new InputError(t('invoice.import.empty', {field: 'file'}), {field: 'file'})
  const bad = checked.bad
  if (bad.length > 0 && !flags['skip-invalid']) throw new ImportValidationError(bad, checked.rows, source.dialect.dateOrder)
  for (const row of bad) ctx.io.warn(t('invoice.import.skipping', {where: where(row), message: row.error!.message}))

  // Resume: the rows the results file records as done are skipped, without a request.
  const resultsPath = flags.results ?? defaultResultsPath(file)
  const publish: Delivery | undefined = flags.publish ? {channel} : undefined
  const earlier = flags.recheck ? new Map<string, RowResult>() : await readEarlierResults(resultsPath)
  const skipped: RowResult[] = []
  const skipOrDo = (row: CheckedRow): boolean => {
    const done = earlier.get(row.key!)
    if (!done || !isDone(done, publish)) return true
    skipped.push({...done, ...labelOf(row), row: row.row, line: row.line, skipped: true, error: undefined, error_code: undefined})
    return false
  }

  if (flags['dry-run']) return dryRun(ctx, {file, source, checks, bad, skipOrDo, skipped, channel, publish: flags.publish, resultsPath, rate: rateOf(ctx, flags)})

  // Pass 2: the good rows still to do.
  const todo: CheckedRow[] = []
  for await (const rows of checkedRows(source, checks)) for (const row of rows) if (!row.errors && skipOrDo(row)) todo.push(row)
  const plan = importPlan(todo.length, flags.publish, rateOf(ctx, flags))
  if (channel && todo.length > 0) await ctx.confirmLive(t('invoice.live.import', {count: todo.length, channel}))

  const writer = new ResultsWriter(resultsPath, resultsDialect(source))
  const invalidResults: RowResult[] = bad.map((r) => ({row: r.row, line: r.line, ...labelOf(r), status: 'invalid', error_code: 'invalid_input', error: r.error!.message}))
  const finished: RowResult[] = [...invalidResults, ...skipped]
  let writes = Promise.resolve()
  const queueAppend = (result: RowResult) => {
    writes = writes.then(() => writer.append(result)).catch(() => undefined)
  }
  for (const r of finished) queueAppend(r)
  flushOnInterrupt = async () => {
    await writes
    await writer.finish(finished).catch(() => undefined)
    ctx.io.note(`\n${t('invoice.import.interrupted', {done: finished.length - invalidResults.length, total: checked.good, path: resultsPath})}`)
  }
  if (skipped.length > 0) ctx.io.note(t('invoice.import.skippedDone', {count: skipped.length, path: resultsPath}))

  let fatal: unknown
  if (todo.length > 0) {
    ctx.io.note(t('invoice.import.starting', {count: todo.length, file}))
    // A run of more than a minute says how long, before it starts.
    if (plan.seconds !== undefined && plan.seconds > 60) ctx.io.note(planText(plan, 'invoice.import.estimate'))
  }
  const progress = progressBar(ctx.io, todo.length, (done, total, failed) => t('invoice.import.progress', {done, total, failed}), ctx.clock)
  // On a terminal the waits go to the bar's own status line, counting down, instead of lines glued to it.
  const releaseWaits = progress.active ? ctx.onWait((wait) => progress.wait(wait.ms, (seconds) => waitStatus(wait, seconds))) : undefined
  const controller = new AbortController()
  try {
    if (todo.length > 0) {
      const client = await ctx.client()
      const service = await ctx.service()
      const numberFor = await (await import('./numbering.js')).numbererForRun(ctx)
      await runImport({client, service}, todo, {
        numberFor,
        concurrency: flags.concurrency,
        publish,
        signal: controller.signal,
        onResult: (result) => {
          finished.push(result)
          queueAppend(result)
          if (result.status !== 'not_attempted') progress.tick(result.status === 'failed' || result.published === false)
        },
      })
    }
  } catch (error) {
    fatal = error
  } finally {
    releaseWaits?.()
    progress.done()
  }
  flushOnInterrupt = undefined
  await writes
  await writer.finish(finished)
  const summary = summarise(finished)
  const gone = serviceGone(fatal)
  await ctx.io.result({file, results_file: resultsPath, summary, results: [...finished].sort((a, b) => a.row - b.row)}, () => {
    // The service gone: the one line below says it all (not a line per row that could not be sent).
    if (gone) return
    for (const r of finished.filter((x) => x.status === 'failed' || x.published === false)) {
      ctx.io.err(t('invoice.import.rowFailed', {where: where(r), message: r.error ?? ''}))
    }
    // Rows an earlier run created, asked again or skipped on its results file's word: one count.
    const existing = summary.existing + summary.skipped
    const earlier = t(summary.skipped > 0 ? 'invoice.import.earlierSkipped' : 'invoice.import.earlier', {existing, skipped: summary.skipped})
    ctx.io.err(t('invoice.import.summary', {...summary, file, earlier}))
    ctx.io.err(t('invoice.import.resultsAt', {path: resultsPath}))
  })
  // With --json the document above says what failed; the exit code still does.
  if (gone) {
    const command = (await import('../io/shell.js')).retryCommand({argv: ctx.argv})
    const error = fatal as SvcError
    const reason = error instanceof ApiError ? `HTTP ${error.status}` : ((await import('../api/response-errors.js')).errorCode(error.cause) ?? error.code)
    const done = summary.created + summary.existing + summary.skipped
    // The profile's local sandbox stopped: the command that starts it again, then the one that resumes.
    const sandbox = (await import('../sandbox-admin/running.js')).stoppedSandbox(ctx)
    const stop = sandbox
      ? new SvcError(t('invoice.import.sandboxGone', {...sandbox, start: sandbox.command, done, total: checked.good, command}), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_not_running'})
      : new SvcError(t('invoice.import.serviceGone', {url: ctx.credentials().baseUrl, reason, done, total: checked.good, command}), {exitCode: ExitCode.UNAVAILABLE, code: 'service_unavailable'})
    throw ctx.io.afterResult(stop)
  }
  if (fatal) throw fatal instanceof SvcError ? ctx.io.afterResult(fatal) : fatal
  if (summary.failed > 0) {
    const command = (await import('../io/shell.js')).retryCommand({argv: ctx.argv})
    const failure = new OutcomeError(t('invoice.import.someFailed', {failed: summary.failed, path: resultsPath}), {code: 'import_incomplete', exitCode: ExitCode.FAILURE, hint: t('invoice.import.rerunHint', {command})})
    throw ctx.io.afterResult(failure)
  }
}

interface DryRun {
  file: string
  source: ImportSource
  checks: RowChecks
  bad: CheckedRow[]
  /** True for a row to do; records a row done by an earlier run in `skipped`. */
  skipOrDo: (row: CheckedRow) => boolean
  skipped: RowResult[]
  channel?: string
  publish: boolean
  resultsPath: string
  rate: number
}

/**
 * `--dry-run`: the second pass lists what would be created, a row at a time (a line each, or the
 * `rows` of the JSON document, written as they come: a million rows never sit in memory; only
 * `--jq`, which needs the whole document, builds it), then the plan. Nothing sent, no results file.
 */
async function dryRun(ctx: Context, run: DryRun): Promise<void> {
  const locale = getLocale()
  const streamed = ctx.io.json && !ctx.io.jq
  const kept: Array<Record<string, unknown>> = []
  let count = 0
  let total = 0
  let first = true
  const numberFor = await (await import('./numbering.js')).previewNumbersForRun(ctx)
  // The JSON document is written in pieces, laid out as JSON.stringify(document, null, 2) lays it out.
  if (streamed) ctx.io.outPiece(`{\n  "dry_run": true,\n  "file": ${JSON.stringify(run.file)},\n  "rows": [`)
  for await (const rows of checkedRows(run.source, run.checks)) {
    // A batch's lines written at once (a write per row costs more than the row's line).
    let text = ''
    for (const row of rows) {
      if (row.errors || !run.skipOrDo(row)) continue
      count += 1
      total += row.totals!.total_amount
      const number = numberFor?.(row.draft!, row.key!)
      const entry = {row: row.row, line: row.line ?? null, number: number ?? row.draft!.external_reference ?? null, customer_name: row.draft!.customer_name, due_date: row.draft!.due_date, total_amount: row.totals!.total_amount, idempotency_key: row.key}
      if (streamed) {
        text += `${first ? '' : ','}\n    ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ')}`
        first = false
      } else if (ctx.io.json) kept.push(entry)
      else {
        const shown = {where: where(row), number: entry.number ?? undefined, customer: entry.customer_name, total: formatXaf(entry.total_amount, locale), due: formatDate(entry.due_date, locale)}
        text += `${t(entry.number ? 'invoice.import.dryRunRowNumbered' : 'invoice.import.dryRunRow', shown)}\n`
      }
    }
    if (text === '') continue
    if (streamed) ctx.io.outPiece(text)
    else ctx.io.out(text)
  }
  const plan = importPlan(count, run.publish, run.rate)
  const rest = {
    invalid: run.bad.map((r) => ({row: r.row, error: r.error!.message})),
    skipped: run.skipped.map((r) => ({row: r.row, invoice_id: r.invoice_id ?? null})),
    publish: run.publish,
    channel: run.channel ?? null,
    plan: {invoices: plan.invoices, requests: plan.requests, rate_per_minute: plan.rate, seconds: plan.seconds},
  }
  if (streamed) {
    const tail = JSON.stringify(rest, null, 2).slice(1)
    ctx.io.outPiece(`${first ? '' : '\n  '}],${tail}\n`)
    return
  }
  if (ctx.io.json) return ctx.io.outJson({dry_run: true, file: run.file, rows: kept, ...rest})
  ctx.io.err(t(run.publish ? (run.channel ? 'invoice.import.dryRunSummarySend' : 'invoice.import.dryRunSummaryPublish') : 'invoice.import.dryRunSummary', {count, total: formatXaf(total, locale), channel: run.channel ?? ''}))
  if (run.skipped.length > 0) ctx.io.err(t('invoice.import.planSkipped', {count: run.skipped.length, path: run.resultsPath}))
  ctx.io.err(planText(plan))
}
