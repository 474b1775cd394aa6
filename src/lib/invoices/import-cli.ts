/**
 * `svc invoice import FILE`: many invoices from a CSV or JSON-lines file.
 *
 * 1. Read and check EVERY row locally first (import-rows.ts); bad rows are all listed with their
 *    line numbers and nothing is created, unless --skip-invalid.
 * 2. One Idempotency-Key per row, derived from the row itself (see `rowKey`), so running the same
 *    file again, after a crash, a Ctrl-C or a SIGKILL, replays the rows already created instead of
 *    creating them twice, and creates the missing ones.
 * 3. The run (import-run.ts): requests through the client's pacer with a few in flight.
 * 4. A results file (import-results.ts), appended as rows finish so a killed run leaves what it
 *    did, then rewritten in row order at the end.
 */
import {existsSync} from 'node:fs'
import {readFile} from 'node:fs/promises'

import type {Context} from '../context.js'
import {ExitCode, InputError, OutcomeError, SvcError} from '../errors.js'
import {readReason} from '../io/read-reason.js'
import {quoteInput} from '../io/quote.js'
import {getLocale, t} from '../i18n/index.js'
import {formatXaf} from '../payments/amount.js'
import {formatDate} from '../time/date.js'
import {checkStorageUrl} from '../files/upload.js'
import {parseChannel} from './input.js'
import {checkRows, ImportValidationError, readSourceRows, where, type CheckedRow} from './import-rows.js'
import {isDone, readEarlierResults} from './import-resume.js'
import {importPlan, planText, rateOf} from './import-plan.js'
import type {Delivery} from './types.js'
import {runImport, type RowResult} from './import-run.js'
import {ResultsWriter, summarise} from './import-results.js'
import {progressBar, waitStatus} from './progress.js'
import {decodeImportFile, parseEncoding} from './import-text.js'

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
  recheck?: boolean
}

/** The command's Ctrl-C hook: the results so far, written before exit 130. */
let flushOnInterrupt: (() => Promise<void>) | undefined
export async function onImportInterrupt(): Promise<void> {
  await flushOnInterrupt?.()
}

export async function invoiceImport(ctx: Context, file: string, flags: ImportFlags): Promise<void> {
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch (error) {
    // FILE is an argument: named as the usage line shows it, the reason in words.
    throw new InputError(t('invoice.import.fileUnreadable', {path: quoteInput(file), reason: readReason(error)}), {field: 'file'})
  }
  const channel = parseChannel(flags.channel)
  if (channel && !flags.publish) throw new InputError(t('invoice.error.channelNeedsPublish'), {field: 'channel'})
  if (flags.concurrency < 1 || flags.concurrency > 16) {
    throw new InputError(t('core.error.invalidFlag', {flag: '--concurrency', reason: t('invoice.import.concurrencyRange')}), {field: 'concurrency'})
  }
  if (flags.rate !== undefined) {
    if (flags.rate < 0) throw new InputError(t('core.error.invalidFlag', {flag: '--rate', reason: t('invoice.import.rateRange')}), {field: 'rate'})
    // The client reads its pace from SVC_RATE_LIMIT when it is first created (context.ts).
    ctx.env.SVC_RATE_LIMIT = String(flags.rate)
  }

  const decoded = decodeImportFile(bytes, file, flags.encoding === undefined ? undefined : parseEncoding(flags.encoding))
  if (decoded.guessedAt !== undefined) ctx.io.warn(t('invoice.import.readAsWindows1252', {path: file, line: decoded.guessedAt}))
  const {rows: sourceRows} = readSourceRows(file, decoded.text)
  if (sourceRows.length === 0) throw new InputError(t('invoice.import.empty', {field: 'file'}), {field: 'file'})
  const storage = {configDir: ctx.configDir, baseUrl: ctx.credentials().baseUrl, field: 'cover-image-url'}
  const coverChecks = new Map<string, Error | undefined>()
  for (const source of sourceRows) {
    // Cover URLs are checked up front (async), then reused by the synchronous row check.
    try {
      const draft = source.build()
      if (draft.cover_image_url && !coverChecks.has(draft.cover_image_url)) {
        coverChecks.set(draft.cover_image_url, await checkStorageUrl(draft.cover_image_url, storage).then(() => undefined, (error: Error) => error))
      }
    } catch {
      // reported by checkRows
    }
  }
  const checked = checkRows(sourceRows, (draft) => {
    const error = draft.cover_image_url ? coverChecks.get(draft.cover_image_url) : undefined
    if (error) throw error
    // Knowable here: a delivery needs its address (the service would leave a DRAFT and an error).
    if (channel === 'EMAIL' && !draft.customer_email) throw new InputError(t('invoice.import.channelNeedsEmail'), {field: 'customer_email'})
    if (channel === 'WHATSAPP' && !draft.customer_phone) throw new InputError(t('invoice.import.channelNeedsPhone'), {field: 'customer_phone'})
  })
  const bad = checked.filter((r) => r.error)
  if (bad.length > 0 && !flags['skip-invalid']) throw new ImportValidationError(bad, checked.length)
  const good = checked.filter((r) => !r.error)
  for (const row of bad) ctx.io.warn(t('invoice.import.skipping', {where: where(row), message: row.error!.message}))

  // Resume: the rows the results file records as done are skipped, without a request.
  const resultsPath = flags.results ?? defaultResultsPath(file)
  const publish: Delivery | undefined = flags.publish ? {channel} : undefined
  const earlier = flags.recheck ? new Map<string, RowResult>() : await readEarlierResults(resultsPath)
  const skipped: RowResult[] = []
  const todo: CheckedRow[] = []
  for (const row of good) {
    const done = earlier.get(row.key!)
    if (done && isDone(done, publish)) skipped.push({...done, row: row.row, line: row.line, skipped: true, error: undefined, error_code: undefined})
    else todo.push(row)
  }
  const plan = importPlan(todo.length, flags.publish, rateOf(ctx, flags))

  if (flags['dry-run']) {
    // Every row checked above; show what would be created, send nothing, write no results file.
    const rows = todo.map((r) => ({row: r.row, customer_name: r.draft!.customer_name, due_date: r.draft!.due_date, total_amount: r.totals!.total_amount, idempotency_key: r.key}))
    const total = rows.reduce((sum, r) => sum + r.total_amount, 0)
    const document = {
      dry_run: true,
      file,
      rows,
      invalid: bad.map((r) => ({row: r.row, error: r.error!.message})),
      skipped: skipped.map((r) => ({row: r.row, invoice_id: r.invoice_id ?? null})),
      publish: flags.publish,
      channel: channel ?? null,
      plan: {invoices: plan.invoices, requests: plan.requests, rate_per_minute: plan.rate, seconds: plan.seconds},
    }
    await ctx.io.result(document, () => {
      for (const r of rows) ctx.io.out(t('invoice.import.dryRunRow', {row: r.row, customer: r.customer_name, total: formatXaf(r.total_amount, getLocale()), due: formatDate(r.due_date, getLocale())}))
      ctx.io.err(t(flags.publish ? (channel ? 'invoice.import.dryRunSummarySend' : 'invoice.import.dryRunSummaryPublish') : 'invoice.import.dryRunSummary', {count: rows.length, total: formatXaf(total, getLocale()), channel: channel ?? ''}))
      if (skipped.length > 0) ctx.io.err(t('invoice.import.planSkipped', {count: skipped.length, path: resultsPath}))
      ctx.io.err(planText(plan))
    })
    return
  }
  if (channel && todo.length > 0) await ctx.confirmLive(t('invoice.live.import', {count: todo.length, channel}))

  const writer = new ResultsWriter(resultsPath)
  const invalidResults: RowResult[] = bad.map((r) => ({row: r.row, line: r.line, status: 'invalid', error_code: 'invalid_input', error: r.error!.message}))
  const finished: RowResult[] = [...invalidResults, ...skipped]
  let writes = Promise.resolve()
  const queueAppend = (result: RowResult) => {
    writes = writes.then(() => writer.append(result)).catch(() => undefined)
  }
  for (const r of finished) queueAppend(r)
  flushOnInterrupt = async () => {
    await writes
    await writer.finish(finished).catch(() => undefined)
    ctx.io.note(`\n${t('invoice.import.interrupted', {done: finished.length - invalidResults.length, total: good.length, path: resultsPath})}`)
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
  await ctx.io.result({file, results_file: resultsPath, summary, results: [...finished].sort((a, b) => a.row - b.row)}, () => {
    for (const r of finished.filter((x) => x.status === 'failed' || x.published === false)) {
      ctx.io.err(t('invoice.import.rowFailed', {where: where(r), message: r.error ?? ''}))
    }
    ctx.io.err(t('invoice.import.summary', {...summary, file}))
    if (summary.skipped > 0) ctx.io.err(t('invoice.import.summarySkipped', {skipped: summary.skipped}))
    ctx.io.err(t('invoice.import.resultsAt', {path: resultsPath}))
  })
  // With --json the document above says what failed; the exit code still does.
  if (fatal) throw fatal instanceof SvcError ? ctx.io.afterResult(fatal) : fatal
  if (summary.failed > 0) {
    const command = (await import('../io/shell.js')).retryCommand({argv: ctx.argv})
    const failure = new OutcomeError(t('invoice.import.someFailed', {failed: summary.failed, path: resultsPath}), {code: 'import_incomplete', exitCode: ExitCode.FAILURE, hint: t('invoice.import.rerunHint', {command})})
    throw ctx.io.afterResult(failure)
  }
}
