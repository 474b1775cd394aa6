/**
 * The payment commands' work, one function per command: input read (flags, else prompts on a
 * TTY), validated before any request, sent, rendered. Commands only hand over their flags.
 */
import type {Context} from '../context.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {failureSentence, getLocale, statusLabel, t} from '../i18n/index.js'
import {inQuestionTerms, missingValue} from '../io/prompt.js'
import {formatXaf, parseAmount} from './amount.js'
import {resolveOperator} from './operator.js'
import {normalisePhone} from './phone.js'
import {clockTime, createPayment, failedOutcome, getPayment, listPayments, watchPayment} from './flows.js'
import {FAILURE_COLUMN, renderPayment, renderPaymentTable} from './render.js'
import type {Payment, PaymentInput} from './types.js'
import {parseDuration} from '../time/duration.js'

/** A value from its flag, else a prompt when interactive, else an error naming the flag. */
async function valueOrPrompt<T>(
  ctx: Context,
  given: string | undefined,
  parse: (raw: string) => T,
  prompt: {message: string; what: string; flag: string; subject: string},
): Promise<T> {
  if (given !== undefined) return parse(given)
  if (!ctx.io.interactive) throw missingValue(prompt.what, prompt.flag)
  const raw = await ctx.prompter().input(prompt.message, {
    validate(value) {
      try {
        parse(value)
        return true
      } catch (error) {
        // Refused in the question's terms: the person answered "Amount", not --amount.
        return error instanceof InputError ? inQuestionTerms(error, prompt.subject) : (error as Error).message
      }
    },
  })
  return parse(raw)
}

export async function readPaymentInput(ctx: Context, flags: {amount?: string; phone?: string; operator?: string}): Promise<PaymentInput> {
  const amount = await valueOrPrompt(ctx, flags.amount, (raw) => parseAmount(raw), {
    message: t('pay.prompt.amount'),
    what: t('pay.what.amount'),
    flag: '--amount',
    subject: t('pay.subject.amount'),
  })
  const phone = await valueOrPrompt(ctx, flags.phone, (raw) => normalisePhone(raw), {
    message: t('pay.prompt.phone'),
    what: t('pay.what.phone'),
    flag: '--phone',
    subject: t('pay.subject.phone'),
  })
  const {operator, warnings} = resolveOperator(phone, flags.operator)
  for (const warning of warnings) ctx.io.warn(warning)
  return {amount, phone, operator}
}

export interface WatchFlags {
  interval: string
  timeout: string
}

export async function payCreate(ctx: Context, flags: {amount?: string; phone?: string; operator?: string; watch: boolean; 'dry-run'?: boolean} & WatchFlags): Promise<void> {
  const input = await readPaymentInput(ctx, flags)
  const watchTiming = flags.watch ? parseWatchTiming(flags) : undefined
  const amountText = formatXaf(input.amount, getLocale())
  if (flags['dry-run']) {
    // Checked (amount, number, operator), shown, not sent: no payment request reaches the phone.
    await ctx.io.result({dry_run: true, request: input}, () => {
      ctx.io.out(t('pay.create.dryRun', {amount: amountText, phone: input.phone, operator: input.operator}))
    })
    return
  }
  await ctx.confirmLive(t('pay.live.action', {amount: amountText, phone: input.phone}))
  const client = await ctx.client()
  const {payment, recovered} = await ctx.io.withSpinner(t('pay.create.sending', {phone: input.phone, operator: input.operator, amount: amountText}), () =>
    createPayment(client, input, {listShape: async () => (await ctx.service()).lists.payments}),
  )
  if (recovered) ctx.io.warn(t('pay.create.recovered', {id: payment.id}))
  if (watchTiming) return followPayment(ctx, payment.id, watchTiming, payment)
  await ctx.io.result(payment, async () => {
    ctx.io.out(await renderPayment(ctx.io, payment, {operator: input.operator}))
    ctx.io.err(t('pay.create.created', {id: payment.id}))
    ctx.io.err(t('pay.create.next', {id: payment.id}))
  })
}

function parseWatchTiming(flags: WatchFlags): {intervalMs: number; timeoutMs: number} {
  return {intervalMs: parseDuration(flags.interval, 'interval', {min: 250}), timeoutMs: parseDuration(flags.timeout, 'timeout')}
}

export async function payWatch(ctx: Context, id: string, flags: WatchFlags): Promise<void> {
  return followPayment(ctx, id, parseWatchTiming(flags))
}

/** Spinner while PENDING/UNSPECIFIED; exit 0 on SUCCESS, 1 on FAILED, 8 on timeout. */
async function followPayment(ctx: Context, id: string, timing: {intervalMs: number; timeoutMs: number}, first?: Payment): Promise<void> {
  const client = await ctx.client()
  // Stopped while waiting (Ctrl-C, SIGTERM): the id was only in the spinner, which is erased.
  ctx.io.setInterruptNote(t('pay.watch.interrupted', {id}))
  const payment: Payment = await ctx.io.withSpinner(t('pay.watch.waiting', {id, status: statusLabel(first?.status ?? 'PENDING')}), (spinner) =>
    watchPayment(client, id, {
      ...timing,
      clock: ctx.clock,
      onUpdate: (p) => spinner.update(t('pay.watch.waiting', {id, status: statusLabel(p.status)})),
      onUnreachable: (since, last) =>
        spinner.update(t('pay.watch.unreachable', {id, status: statusLabel(last?.status ?? first?.status ?? 'PENDING'), since: clockTime(since)})),
    }),
  )
  ctx.io.setInterruptNote(undefined)
  const failure = payment.status === 'FAILED' ? failedOutcome(payment) : undefined
  await ctx.io.result(payment, async () => {
    ctx.io.out(await renderPayment(ctx.io, payment))
    if (!failure) ctx.io.err(t('pay.watch.success', {id, amount: formatXaf(payment.amount, getLocale())}))
  })
  // --json prints the final object only; the exit code carries the failure.
  if (failure) throw ctx.io.afterResult(failure)
}

export async function payStatus(ctx: Context, id: string): Promise<void> {
  const payment = await getPayment(await ctx.client(), id)
  await ctx.io.result(payment, async () => ctx.io.out(await renderPayment(ctx.io, payment)))
}

/** `--limit` 1–100, checked before any request. */
export function checkListLimit(limit: number | undefined): void {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) {
    throw new SvcError(t('core.error.invalidFlag', {flag: '--limit', reason: t('pay.list.limitRange')}), {
      exitCode: ExitCode.USAGE,
      code: 'invalid_input',
      field: 'limit',
    })
  }
}

export async function payList(ctx: Context, given: {status?: string; limit?: number; offset?: number; page?: number; all: boolean; csv?: boolean; 'csv-sep'?: string}): Promise<void> {
  checkListLimit(given.limit)
  if (given.page !== undefined && (!Number.isInteger(given.page) || given.page < 1)) {
    throw new InputError(t('core.error.invalidFlag', {flag: '--page', reason: t('invoice.list.pageRange')}), {field: 'page'})
  }
  // --page N is the offset of its first payment (pages of --limit), as invoice list counts pages.
  const {page, ...rest} = given
  const flags = page === undefined ? rest : {...rest, offset: (page - 1) * (given.limit ?? 20)}
  const client = await ctx.client()
  const list = async (onPage?: (count: number) => void) => listPayments(client, {...flags, listShape: (await ctx.service()).lists.payments, onPage})
  // Only --all, which may read many pages, shows progress.
  const result = flags.all
    ? await ctx.io.withSpinner(t('pay.list.progress', {count: 0}), (spinner) => list((count) => spinner.update(t('pay.list.progress', {count}))))
    : await list()
  await ctx.io.result(result.items, async () => {
    if (flags.csv) return ctx.io.outData((await import('./csv.js')).paymentsCsv(result.items, (await import('../io/csv-dialect.js')).csvDialect(flags['csv-sep'])))
    if (result.items.length === 0) return ctx.io.err(t('pay.list.none'))
    const table = await renderPaymentTable(ctx.io, result.items)
    ctx.io.out(table.text)
    // What each failure code of the page means, once per code, under the table: when it shows them.
    if (!table.shown(FAILURE_COLUMN)) return
    for (const code of new Set(result.items.map((p) => p.failure_code).filter((c): c is string => Boolean(c)))) {
      ctx.io.err(t('domain.failure.line', {code, sentence: failureSentence(code)}))
    }
  })
  // On stderr, with --json too: a script that read one page learns there is more (the data is unchanged).
  if (result.hasMore && !flags.all) ctx.io.err(t('pay.list.more', {next: (flags.offset ?? 0) + result.items.length}))
}
