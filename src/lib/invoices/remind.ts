/**
 * `svc invoice remind`: each matching receivable gets its pay link again through the service's
 * send, at most once per service day per invoice (the journal, reminder-journal.ts), one at a
 * time so the client's pacer keeps to the rate limit, with progress on stderr and a summary.
 * Each invoice is claimed in the journal just before its send, so runs going at the same time
 * share the work: one reminder per invoice in total, and a run names the invoices another run is
 * reminding. `--dry-run` finds, checks and shows the same plan, and sends nothing.
 */
import {dateNow} from '../../contract/clock.js'
import type {Context} from '../context.js'
import {ApiError, ExitCode, OutcomeError, SvcError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {formatDate} from '../time/date.js'
import {sendInvoice} from './flows.js'
import {parseChannel} from './input.js'
import {progressBar, waitStatus} from './progress.js'
import {filterNeedsToday, isFiltering, isReceivable, readFilter, searchInvoices, type FilterFlags} from './receivables.js'
import {serviceNow} from '../api/service-clock.js'
import {journalPath, ReminderJournal, type Standing} from './reminder-journal.js'
import type {Channel, Invoice} from './types.js'
import {RemindLines} from './remind-lines.js'

export interface RemindFlags extends FilterFlags {
  channel?: string
  'dry-run'?: boolean
}

interface Planned {
  id: string
  customer: string
  amount_due: number
  due_date: string
  channel: Channel
  recipient: string
}

export interface RemindReport {
  dry_run: boolean
  /** The service's day the journal counts in. */
  day: string
  /** With --dry-run, what would be sent; otherwise what was. */
  sent: Planned[]
  skipped: Array<{id: string; customer: string; reason: 'already_reminded_today'}>
  unknown: Array<{id: string; customer: string}>
  /** Being reminded by another run going at the same time (its PID): that run says how it went. */
  elsewhere: Array<{id: string; customer: string; pid: number}>
  failed: Array<{id: string; customer: string; error: string}>
}

/** The channel and address a reminder goes to: the flag's channel, else email when there is one, else WhatsApp. */
function target(invoice: Invoice, channel: Channel | undefined): {channel: Channel; recipient: string} | {error: string} {
  const email = invoice.customer_email ?? ''
  const phone = invoice.customer_phone ?? ''
  const chosen: Channel | undefined = channel ?? (email ? 'EMAIL' : phone ? 'WHATSAPP' : undefined)
  if (!chosen) return {error: t('invoice.remind.noContact')}
  const recipient = chosen === 'EMAIL' ? email : phone
  if (!recipient) return {error: t(chosen === 'EMAIL' ? 'invoice.remind.noEmail' : 'invoice.remind.noPhone')}
  return {channel: chosen, recipient}
}

export async function invoiceRemind(ctx: Context, flags: RemindFlags): Promise<void> {
  let filter = readFilter(flags, dateNow(ctx.clock))
  const channel = parseChannel(flags.channel)
  const dryRun = flags['dry-run'] === true
  const client = await ctx.client()
  if (filterNeedsToday(flags)) filter = readFilter(flags, await serviceNow(client))
  const api = {client, service: await ctx.service()}
  const credentials = ctx.credentials()
  const journal = ReminderJournal.open(journalPath(ctx.configDir, credentials), ctx.clock)
  try {
    await remindWith(ctx, journal, {filter, channel, dryRun, api})
  } finally {
    journal.close()
  }
}

async function remindWith(
  ctx: Context,
  journal: ReminderJournal,
  {filter, channel, dryRun, api}: {filter: ReturnType<typeof readFilter>; channel: Channel | undefined; dryRun: boolean; api: Parameters<typeof sendInvoice>[0]},
): Promise<void> {
  const found = await ctx.io.withSpinner(t('invoice.filter.progress', {scanned: 0, matched: 0}), (spinner) =>
    searchInvoices(api, {filter, onPage: (scanned, matched) => spinner.update(t('invoice.filter.progress', {scanned, matched}))}),
  )
  const day = found.today
  const report: RemindReport = {dry_run: dryRun, day, sent: [], skipped: [], unknown: [], elsewhere: [], failed: []}
  /** Files an invoice another run has claimed or done; false when it is free. */
  const taken = (id: string, customer: string, standing: Standing): boolean => {
    if (standing.kind === 'sent') report.skipped.push({id, customer, reason: 'already_reminded_today'})
    else if (standing.kind === 'unknown') report.unknown.push({id, customer})
    else if (standing.kind === 'elsewhere') report.elsewhere.push({id, customer, pid: standing.pid})
    return standing.kind !== 'free'
  }
  const todo: Planned[] = []
  // Only what is still owed, whatever the filter: a reminder for a paid invoice is a mistake.
  for (const invoice of found.items.filter(isReceivable)) {
    const customer = invoice.customer_name
    if (taken(invoice.id, customer, journal.standing(invoice.id, day))) continue
    const to = target(invoice, channel)
    if ('error' in to) {
      report.failed.push({id: invoice.id, customer, error: to.error})
      continue
    }
    todo.push({id: invoice.id, customer, amount_due: invoice.amount_due ?? invoice.total_amount ?? 0, due_date: invoice.due_date, ...to})
  }

  const lines = new RemindLines(ctx.io, [...todo, ...report.skipped, ...report.unknown, ...report.elsewhere, ...report.failed])
  if (dryRun) {
    report.sent = todo
    return show(ctx, report, isFiltering(filter), lines)
  }
  if (todo.length > 0) {
    const customers = new Set(todo.map((p) => p.customer.trim().toLowerCase())).size
    await ctx.confirmLive(t('invoice.live.remind', {customers, invoices: todo.length}))
  }

  const progress = progressBar(ctx.io, todo.length, (done, total, failed) => t('invoice.remind.progress', {done, total, failed}), ctx.clock)
  // On a terminal the waits go to the bar's own status line (as import's), not glued to the bar.
  const releaseWaits = progress.active ? ctx.onWait((wait) => progress.wait(wait.ms, (seconds) => waitStatus(wait, seconds))) : undefined
  try {
    for (const planned of todo) {
      // Claimed before the send: a crash from here on leaves it `pending`, reported as unknown;
      // another run may have claimed or sent it since the plan was made.
      if (taken(planned.id, planned.customer, await journal.claim(planned.id, day, planned.channel))) {
        progress.tick(false)
        continue
      }
      try {
        await sendInvoice(api, planned.id, {channel: planned.channel})
      } catch (error) {
        // A refusal (4xx) certainly sent nothing: it may be tried again. Anything else may have.
        const refused = error instanceof ApiError && error.status !== undefined && error.status < 500
        if (refused) await journal.forget(planned.id, day)
        if (!(error instanceof SvcError)) throw error
        if (refused) report.failed.push({id: planned.id, customer: planned.customer, error: ctx.redact(error.message)})
        else report.unknown.push({id: planned.id, customer: planned.customer})
        progress.tick(true)
        // As it happens when the output is a log; after the progress bar on a terminal.
        if (!ctx.io.interactive) lines.write(planned.id, planned.customer, refused ? {outcome: 'failed', error: ctx.redact(error.message)} : {outcome: 'unknown'})
        continue
      }
      await journal.confirm(planned.id, day, planned.channel)
      report.sent.push(planned)
      progress.tick(false)
      if (!ctx.io.interactive) lines.write(planned.id, planned.customer, {outcome: 'sent', channel: planned.channel, recipient: planned.recipient})
    }
  } finally {
    releaseWaits?.()
    progress.done()
  }
  await show(ctx, report, isFiltering(filter), lines)
  if (report.failed.length > 0 || report.unknown.length > 0) {
    const failure = new OutcomeError(t('invoice.remind.incomplete', {failed: report.failed.length, unknown: report.unknown.length}), {
      code: 'remind_incomplete',
      exitCode: ExitCode.FAILURE,
    })
    throw ctx.io.afterResult(failure)
  }
}

async function show(ctx: Context, report: RemindReport, filtered: boolean, lines: RemindLines): Promise<void> {
  await ctx.io.result(report, () => {
    const none = [report.sent, report.skipped, report.unknown, report.elsewhere, report.failed].every((list) => list.length === 0)
    if (none && report.dry_run) ctx.io.err(t(filtered ? 'invoice.remind.noneMatching' : 'invoice.remind.noneOwed'))
    // One line per invoice on stdout, dry run or not (those already written as they happened are not repeated).
    for (const p of report.sent)
      lines.write(p.id, p.customer, report.dry_run ? {outcome: 'wouldSend', amount: p.amount_due, due: p.due_date, channel: p.channel, recipient: p.recipient} : {outcome: 'sent', channel: p.channel, recipient: p.recipient})
    for (const s of report.skipped) lines.write(s.id, s.customer, {outcome: 'skipped'})
    for (const u of report.unknown) lines.write(u.id, u.customer, {outcome: 'unknown'})
    for (const e of report.elsewhere) lines.write(e.id, e.customer, {outcome: 'elsewhere', pid: e.pid})
    for (const f of report.failed) lines.write(f.id, f.customer, {outcome: 'failed', error: f.error})
    const counts = {sent: report.sent.length, skipped: report.skipped.length, unknown: report.unknown.length, failed: report.failed.length, day: formatDate(report.day, getLocale())}
    ctx.io.err(t(report.dry_run ? 'invoice.remind.dryRunSummary' : 'invoice.remind.summary', counts))
    if (report.elsewhere.length > 0) ctx.io.err(t('invoice.remind.elsewhereSummary', {count: report.elsewhere.length, pids: [...new Set(report.elsewhere.map((e) => e.pid))].join(', ')}))
  })
}
