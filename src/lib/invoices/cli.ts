/**
 * The invoice commands' work, one function per command: input read and checked before any
 * request, sent, rendered. Commands only hand over their flags.
 */
import {readFile} from 'node:fs/promises'

import {dateNow} from '../../contract/clock.js'
import type {Context} from '../context.js'
import {ApiError, ExitCode, InputError, OutcomeError, SvcError} from '../errors.js'
import {readReason} from '../io/read-reason.js'
import {getLocale, statusLabel, t} from '../i18n/index.js'
import {formatDate, isRelativeDate} from '../time/date.js'
import {readCover, coverUrl} from '../files/cli.js'
import {checkStorageUrl} from '../files/upload.js'
import {formatXaf} from '../payments/amount.js'
import {normalisePhone} from '../payments/phone.js'
import {quoteInput} from '../io/quote.js'
import type {InvoiceDraft} from './draft.js'
import {
  cancelInvoice,
  createInvoice,
  fetchInvoicePdf,
  getInvoice,
  listInvoices,
  newIdempotencyKey,
  publishInvoice,
  sendInvoice,
  type InvoiceApi,
} from './flows.js'
import {draftFromFlags, draftFromJson, finishDraft, parseChannel, type DraftFlags} from './input.js'
import {missingFlags} from './guided-form.js'
import {filterNeedsToday, isFiltering, readFilter, searchInvoices, type FilterFlags} from './receivables.js'
import {serviceNow} from '../api/service-clock.js'
import {renderInvoice, renderInvoiceTable, renderSend, renderTotals} from './render.js'
import type {Delivery, Invoice} from './types.js'

async function api(ctx: Context): Promise<InvoiceApi> {
  const client = await ctx.client()
  return {client, service: await ctx.service()}
}

/** The invoice (JSON, or the rendered invoice), then, for people only, the lines `after` prints. */
async function show(ctx: Context, invoice: Invoice, after?: () => void): Promise<void> {
  await ctx.io.result(invoice, async () => {
    ctx.io.out(await renderInvoice(ctx.io, invoice))
    after?.()
  })
}

/** `--channel`, `--to-email`, `--to-phone`, checked locally. */
export function readDelivery(flags: {channel?: string; 'to-email'?: string; 'to-phone'?: string}): Delivery {
  const delivery: Delivery = {channel: parseChannel(flags.channel)}
  if (flags['to-email'] !== undefined) {
    const email = flags['to-email'].trim()
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new InputError(t('domain.draft.email', {field: 'to-email', value: quoteInput(email)}), {field: 'to-email'})
    delivery.toEmail = email
  }
  if (flags['to-phone'] !== undefined) delivery.toPhone = `+${normalisePhone(flags['to-phone'], 'to-phone')}`
  // A recipient goes with its channel (the service refuses the other pairs): said before sending.
  const given = delivery.channel ?? 'EMAIL'
  if (delivery.toPhone && given !== 'WHATSAPP') throw new InputError(t('invoice.error.overrideChannel', {field: 'to-phone', channel: 'WHATSAPP', given}), {field: 'to-phone'})
  if (delivery.toEmail && given !== 'EMAIL') throw new InputError(t('invoice.error.overrideChannel', {field: 'to-email', channel: 'EMAIL', given}), {field: 'to-email'})
  return delivery
}

/** The Idempotency-Key to send: the one given (one line, at most 255 characters), else a new UUID. */
export function readIdempotencyKey(given: string | undefined): string {
  const key = given?.trim() || newIdempotencyKey()
  if (key.length > 255 || /[\r\n]/.test(key)) throw new InputError(t('invoice.error.key'), {field: 'idempotency-key'})
  return key
}

/** Publish's delivery: a channel, and the one-off recipients only with one. */
export function readPublishDelivery(flags: {channel?: string; 'to-email'?: string; 'to-phone'?: string}): Delivery {
  if (flags.channel === undefined && (flags['to-email'] !== undefined || flags['to-phone'] !== undefined)) {
    throw new InputError(t('invoice.error.overrideNeedsChannel'), {field: 'channel'})
  }
  return readDelivery(flags)
}

/** An invoice id as given (trimmed): refused locally when empty or when it would change the path. */
export function checkId(id: string): string {
  const value = id.trim()
  if (value === '' || /[\s/?#]/.test(value)) throw new InputError(t('invoice.error.id', {value: quoteInput(id)}), {field: 'id'})
  return value
}

/**
 * The invoice an id names: as given, or, shortened as a table shows it (`inv_test_0VcF…`), the one
 * invoice whose id starts so (invoices/id-prefix.ts).
 */
export async function resolveId(ctx: Context, given: string): Promise<string> {
  const {shortenedId, resolveInvoicePrefix} = await import('./id-prefix.js')
  const prefix = shortenedId(given)
  if (prefix === undefined) return checkId(given)
  return resolveInvoicePrefix(await api(ctx), checkId(prefix))
}

// ---------------------------------------------------------------------------------------------
// create

export interface CreateFlags extends DraftFlags {
  'from-file'?: string
  from?: string
  cover?: string
  'idempotency-key'?: string
  publish: boolean
  channel?: string
  'dry-run'?: boolean
}

async function readBodyFile(path: string, stdin: AsyncIterable<Buffer | string>): Promise<InvoiceDraft> {
  let text: string
  try {
    text = path === '-' ? await readStdin(stdin) : await readFile(path, 'utf8')
  } catch (error) {
    throw new InputError(t('invoice.error.fileUnreadable', {field: 'from-file', path: quoteInput(path), reason: readReason(error)}), {field: 'from-file'})
  }
  let value: unknown
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new InputError(t('invoice.error.fileJson', {field: 'from-file', path, reason: (error as Error).message}), {field: 'from-file'})
  }
  return draftFromJson(value, 'from-file')
}

/**
 * `--from INV_ID`: a new draft starting from an invoice's customer (name, email, phone), items,
 * discount and notes; flags given with it replace those. Not its due date (a new invoice is due
 * anew), reference, cover or anything of its life: it is a new invoice, with its own
 * Idempotency-Key.
 */
async function draftFromInvoice(ctx: Context, id: string): Promise<Partial<InvoiceDraft>> {
  const source = await getInvoice(await api(ctx), await resolveId(ctx, id))
  const draft: Partial<InvoiceDraft> = {
    customer_name: source.customer_name,
    items: (source.items ?? []).map(({name, description, price, quantity}) => ({name, ...(description ? {description} : {}), price, quantity})),
  }
  if (source.customer_email) draft.customer_email = source.customer_email
  if (source.customer_phone) draft.customer_phone = source.customer_phone
  if (source.discount_percent) draft.discount_percent = source.discount_percent
  if (source.notes) draft.notes = source.notes
  return draft
}

async function readStdin(stdin: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}

export async function invoiceCreate(ctx: Context, flags: CreateFlags): Promise<void> {
  // Everything local first: nothing is sent if any of it is wrong.
  const base = flags.from ? await draftFromInvoice(ctx, flags.from) : flags['from-file'] ? await readBodyFile(flags['from-file'], ctx.io.streams.stdin as AsyncIterable<Buffer | string>) : {}
  let start = draftFromFlags(flags, base, {today: dateNow(ctx.clock)})
  // `--due-date 30d` counts from the service's today: checked above, then one small read.
  if (isRelativeDate(flags['due-date'])) start = draftFromFlags(flags, base, {today: await serviceNow((await api(ctx)).client)})
  let channel = parseChannel(flags.channel)
  let publish = flags.publish
  const missing = missingFlags(start)
  if (missing.length > 0) {
    // On a terminal, a guided form for what is missing; otherwise every missing flag at once.
    if (!ctx.io.interactive || ctx.io.json) throw new InputError(t('invoice.error.missingFlags', {flags: missing.join(', ')}), {field: missing[0]!.replace(/^-+/, '')})
    const {guidedDraft} = await import('./guided-form.js')
    const answered = await guidedDraft(ctx, start, {discountGiven: flags.discount !== undefined || (base as Partial<InvoiceDraft>).discount_percent !== undefined, publish: flags.publish})
    start = answered.draft
    publish = answered.publish
    channel = channel ?? answered.channel
  }
  const {draft, totals} = finishDraft(start)
  if (channel && !publish) throw new InputError(t('invoice.error.channelNeedsPublish'), {field: 'channel'})
  // Knowable here, so refused before anything is sent (--dry-run too): a delivery needs its address.
  if (publish && channel === 'EMAIL' && !draft.customer_email) throw new InputError(t('invoice.error.channelNeedsEmail'), {field: 'email'})
  if (publish && channel === 'WHATSAPP' && !draft.customer_phone) throw new InputError(t('invoice.error.channelNeedsPhone'), {field: 'phone'})
  const cover = flags.cover !== undefined ? await readCover(ctx, flags.cover) : undefined
  if (!cover && draft.cover_image_url) {
    draft.cover_image_url = await checkStorageUrl(draft.cover_image_url, {configDir: ctx.configDir, baseUrl: ctx.credentials().baseUrl, field: 'from-file'})
  }
  const key = readIdempotencyKey(flags['idempotency-key'])
  ctx.io.err(renderTotals(totals, draft.discount_percent))
  // Allowed (the service accepts it: the invoice is PAST_DUE at once), but rarely meant.
  if (draft.due_date < dateNow(ctx.clock).toISOString().slice(0, 10)) {
    ctx.io.warn(t('invoice.create.dueInPast', {date: formatDate(draft.due_date, getLocale())}))
  }
  const {numberForInvoice} = await import('./numbering.js')
  if (flags['dry-run']) {
    const next = await numberForInvoice(ctx, draft, key, {reserve: false})
    return showDryRun(ctx, {draft, totals, publish, channel, key, cover: flags.cover, next})
  }
  if (publish && channel) await ctx.confirmLive(t('invoice.live.publish', {customer: draft.customer_name, channel}))
  // The profile's next number, reserved on disk before anything is sent (invoices/numbering.ts).
  const number = await numberForInvoice(ctx, draft, key, {reserve: true})
  if (number) draft.external_reference = number

  const invoices = await api(ctx)
  if (cover) draft.cover_image_url = await coverUrl(ctx, cover)
  const result = await ctx.io.withSpinner(t('invoice.create.sending', {customer: draft.customer_name}), () =>
    createInvoice(invoices, draft, key).catch(async (error: unknown) => {
      throw (await import('../api/safe-retry.js')).withSafeRetry(error, key, ctx.argv)
    }),
  )
  let invoice: Invoice = result.invoice
  if (result.replayed) ctx.io.warn(t('invoice.create.replayed', {id: invoice.id}))
  if (publish) {
    try {
      invoice = await publishInvoice(invoices, invoice.id, {channel})
    } catch (error) {
      if (error instanceof SvcError) ctx.io.note(t('invoice.create.publishFailedFinish', {id: invoice.id, command: finishCommand(invoice.id, channel, ctx.argv)}))
      throw error
    }
  }
  await show(ctx, invoice, () => {
    ctx.io.err(t(publish ? 'invoice.create.createdPublished' : 'invoice.create.created', {id: invoice.id, status: statusLabel(invoice.status)}))
    if (channel) ctx.io.err(t('invoice.publish.delivered', {channel}))
    if (!publish) ctx.io.err(t('invoice.create.next', {id: invoice.id}))
  })
}

// ---------------------------------------------------------------------------------------------
/**
 * The command that publishes (and delivers) an invoice whose create succeeded and publish failed,
 * with the connection flags of this run (a key given by flag stays `"$SVC_API_KEY"`).
 */
function finishCommand(id: string, channel: string | undefined, argv: readonly string[]): string {
  const out = ['svc', 'invoice', 'publish', id]
  if (channel) out.push('--channel', channel)
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i]!.split('=', 2) as [string, string | undefined]
    if (!['--profile', '--base-url', '--api-key'].includes(name)) continue
    const value = inline ?? argv[++i] ?? ''
    out.push(name, name === '--api-key' ? '"$SVC_API_KEY"' : /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`)
  }
  return out.join(' ')
}

/** `--dry-run`: the checked body, its totals and what would be delivered; nothing sent, exit 0. */
async function showDryRun(
  ctx: Context,
  plan: {
    draft: InvoiceDraft
    totals: {subtotal_amount: number; discount_amount: number; total_amount: number}
    publish: boolean
    channel?: string
    key: string
    cover?: string
    /** The number a real run would reserve now (none is reserved). */
    next?: string
  },
): Promise<void> {
  const recipient = plan.channel === 'EMAIL' ? plan.draft.customer_email : plan.channel === 'WHATSAPP' ? plan.draft.customer_phone : undefined
  const report = {
    dry_run: true,
    request: plan.draft,
    totals: plan.totals,
    idempotency_key: plan.key,
    publish: plan.publish,
    delivery: plan.channel ? {channel: plan.channel, recipient: recipient ?? null} : null,
    cover_file: plan.cover ?? null,
    next_number: plan.next ?? null,
  }
  await ctx.io.result(report, () => {
    ctx.io.out(t('invoice.dryRun.heading'))
    ctx.io.out(t('invoice.dryRun.customer', {customer: plan.draft.customer_name, due: formatDate(plan.draft.due_date, getLocale())}))
    for (const item of plan.draft.items) ctx.io.out(t('invoice.dryRun.item', {name: item.name, quantity: item.quantity, price: formatXaf(item.price, getLocale())}))
    if (plan.next) ctx.io.out(t('invoice.dryRun.number', {number: plan.next}))
    ctx.io.out(t(plan.publish ? (plan.channel ? 'invoice.dryRun.publishSend' : 'invoice.dryRun.publish') : 'invoice.dryRun.draft', {channel: plan.channel ?? '', recipient: recipient ?? '—'}))
  })
}

// ---------------------------------------------------------------------------------------------
// list, get

/** `--page` from 1, `--page-size` 1–100: checked before any request. */
export function checkListPaging(flags: {page?: number; 'page-size'?: number}): void {
  const pageSize = flags['page-size']
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)) {
    throw new InputError(t('core.error.invalidFlag', {flag: '--page-size', reason: t('invoice.list.pageSizeRange')}), {field: 'page-size'})
  }
  if (flags.page !== undefined && (!Number.isInteger(flags.page) || flags.page < 1)) {
    throw new InputError(t('core.error.invalidFlag', {flag: '--page', reason: t('invoice.list.pageRange')}), {field: 'page'})
  }
}

export async function invoiceList(
  ctx: Context,
  flags: {status?: string; page?: number; offset?: number; 'page-size'?: number; all: boolean; csv?: boolean; 'csv-sep'?: string} & FilterFlags,
): Promise<void> {
  checkListPaging(flags)
  if (flags.offset !== undefined) return invoiceListFrom(ctx, flags.offset, flags)
  const pageSize = flags['page-size']
  let filter = readFilter(flags, dateNow(ctx.clock))
  const invoices = await api(ctx)
  if (filterNeedsToday(flags)) filter = readFilter(flags, await serviceNow(invoices.client))
  if (isFiltering(filter)) {
    // The service cannot filter these: read its pages here, and stop at --page-size matches
    // unless --all (newest first says nothing of due dates, so no earlier stop is sound).
    const found = await ctx.io.withSpinner(t('invoice.filter.progress', {scanned: 0, matched: 0}), (spinner) =>
      searchInvoices(invoices, {
        status: flags.status,
        filter,
        limit: flags.all ? undefined : (pageSize ?? 20),
        onPage: (scanned, matched) => spinner.update(t('invoice.filter.progress', {scanned, matched})),
      }),
    )
    await ctx.io.result(found.items, async () => {
      if (flags.csv) return ctx.io.outData((await import('./list-csv.js')).invoicesCsv(found.items, (await import('../io/csv-dialect.js')).csvDialect(flags['csv-sep'])))
      if (found.items.length === 0) return ctx.io.err(t('invoice.filter.none'))
      ctx.io.out(await renderInvoiceTable(ctx.io, found.items))
    })
    // On stderr, with --json too, as an unfiltered list's next-page hint.
    if (found.stoppedEarly) ctx.io.err(t('invoice.filter.more', {count: found.items.length}))
    return
  }
  const list = (onPage?: (count: number) => void) => listInvoices(invoices, {status: flags.status, page: flags.page, pageSize, all: flags.all, onPage})
  // Only --all, which may read many pages, shows progress.
  const result = flags.all
    ? await ctx.io.withSpinner(t('invoice.list.progress', {count: 0}), (spinner) => list((count) => spinner.update(t('invoice.list.progress', {count}))))
    : await list()
  await ctx.io.result(result.items, async () => {
    if (flags.csv) return ctx.io.outData((await import('./list-csv.js')).invoicesCsv(result.items, (await import('../io/csv-dialect.js')).csvDialect(flags['csv-sep'])))
    if (result.items.length === 0) return ctx.io.err(t('invoice.list.none'))
    ctx.io.out(await renderInvoiceTable(ctx.io, result.items))
  })
  // On stderr, with --json too: a script that read one page learns there is more (the data is unchanged).
  if (result.hasMore && !flags.all) ctx.io.err(t('invoice.list.more', {next: (flags.page ?? 1) + 1}))
}

/**
 * `invoice list --offset N`, as `pay list` takes it: the service pages invoices by number, so the
 * page holding the N-th invoice is read, and the next when the --page-size invoices run onto it.
 */
async function invoiceListFrom(ctx: Context, offset: number, flags: {status?: string; 'page-size'?: number; csv?: boolean}): Promise<void> {
  const size = flags['page-size'] ?? 20
  const invoices = await api(ctx)
  const first = Math.floor(offset / size) + 1
  const skip = offset % size
  const page = await listInvoices(invoices, {status: flags.status, page: first, pageSize: size, all: false})
  let items = page.items.slice(skip)
  let hasMore = page.hasMore
  if (skip > 0 && page.hasMore) {
    const next = await listInvoices(invoices, {status: flags.status, page: first + 1, pageSize: size, all: false})
    items = [...items, ...next.items.slice(0, skip)]
    hasMore = next.hasMore || next.items.length > skip
  }
  await ctx.io.result(items, async () => {
    if (flags.csv) return ctx.io.outData((await import('./list-csv.js')).invoicesCsv(items))
    if (items.length === 0) return ctx.io.err(t('invoice.list.none'))
    ctx.io.out(await renderInvoiceTable(ctx.io, items))
  })
  if (hasMore) ctx.io.err(t('invoice.list.moreOffset', {next: offset + items.length}))
}

export async function invoiceGet(ctx: Context, id: string): Promise<void> {
  const invoice = await getInvoice(await api(ctx), await resolveId(ctx, id))
  await show(ctx, invoice)
}

// ---------------------------------------------------------------------------------------------
// publish, send, cancel

export async function invoicePublish(ctx: Context, id: string, flags: {channel?: string; 'to-email'?: string; 'to-phone'?: string}): Promise<void> {
  const delivery = readPublishDelivery(flags)
  const invoiceId = await resolveId(ctx, id)
  if (delivery.channel) await ctx.confirmLive(t('invoice.live.publishId', {id: invoiceId, channel: delivery.channel}))
  const invoice = await publishInvoice(await api(ctx), invoiceId, delivery).catch(inFlagTerms(invoiceId))
  await show(ctx, invoice, () => {
    ctx.io.err(t('invoice.publish.done', {id: invoice.id, status: statusLabel(invoice.status)}))
    if (delivery.channel) ctx.io.err(t('invoice.publish.delivered', {channel: delivery.channel}))
  })
}

export async function invoiceSend(ctx: Context, id: string, flags: {channel?: string; 'to-email'?: string; 'to-phone'?: string}): Promise<void> {
  const delivery = readDelivery(flags)
  const invoiceId = await resolveId(ctx, id)
  await ctx.confirmLive(t('invoice.live.send', {id: invoiceId, channel: delivery.channel ?? 'EMAIL'}))
  const result = await sendInvoice(await api(ctx), invoiceId, delivery).catch(inFlagTerms(invoiceId))
  await ctx.io.result(result, () => ctx.io.out(renderSend(result)))
}

/**
 * The service names its own fields (`override_email`: no address to deliver to); a person typed
 * flags. A 400 about a delivery address gets a hint naming the flag that gives one.
 */
function inFlagTerms(id: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof ApiError && error.status === 400) {
      const fields = new Set((error.errors ?? []).map((e) => e.field))
      const missing = fields.has('override_email') ? 'Email' : fields.has('override_phone') ? 'Phone' : undefined
      // The service's sentence names its fields (customer_email, override_email): ours names the flags.
      if (missing) {
        throw new ApiError(t(`invoice.delivery.no${missing}`, {id}), {
          status: error.status,
          code: error.code,
          errors: error.errors,
          requestId: error.requestId,
          hint: t(`invoice.delivery.hint${missing}`),
        })
      }
    }
    throw error
  }
}

export async function invoiceCancel(ctx: Context, id: string): Promise<void> {
  const invoiceId = await resolveId(ctx, id)
  await ctx.confirmLive(t('invoice.live.cancel', {id: invoiceId}))
  const invoice = await cancelInvoice(await api(ctx), invoiceId)
  await show(ctx, invoice, () => ctx.io.err(t('invoice.cancel.done', {id: invoice.id})))
}

// ---------------------------------------------------------------------------------------------
// pdf, open

export async function invoicePdf(ctx: Context, id: string, flags: {output?: string}): Promise<void> {
  const invoiceId = await resolveId(ctx, id)
  const target = flags.output ?? `${invoiceId}.pdf`
  const {link, url, bytes} = await fetchInvoicePdf(await api(ctx), invoiceId)
  if (target === '-') {
    await new Promise<void>((resolve, reject) => (ctx.io.streams.stdout as NodeJS.WritableStream).write(bytes, (error) => (error ? reject(error) : resolve())))
    return
  }
  const {writeFile, rename} = await import('node:fs/promises')
  const temporary = `${target}.${process.pid}.tmp`
  try {
    // A file the user asked for: created with the umask (0644 under 022), like any tool's download.
    await writeFile(temporary, bytes)
    await rename(temporary, target)
  } catch (error) {
    throw new SvcError(t('invoice.pdf.writeFailed', {path: target, reason: (error as NodeJS.ErrnoException).code ?? String(error)}), {
      exitCode: ExitCode.FAILURE,
      code: 'write_failed',
      cause: error,
    })
  }
  await ctx.io.result({invoice_id: invoiceId, file: target, bytes: bytes.length, pdf_url: url, expires_at: link.expires_at}, () => {
    ctx.io.out(target)
    ctx.io.err(t('invoice.pdf.saved', {id: invoiceId, path: target, bytes: bytes.length}))
  })
}

export async function invoiceOpen(ctx: Context, id: string, flags: {print: boolean}): Promise<void> {
  const invoice = await getInvoice(await api(ctx), await resolveId(ctx, id))
  const url = invoice.checkout_url
  if (typeof url !== 'string' || url === '') throw new OutcomeError(t('invoice.open.noUrl', {id: invoice.id}), {code: 'no_checkout_url'})
  let opened = false
  if (!flags.print && ctx.io.interactive && !ctx.io.json) {
    const {findOpener, openUrl} = await import('./open.js')
    const opener = findOpener()
    if (opener) opened = await openUrl(opener, url)
    if (!opened) ctx.io.warn(t('invoice.open.noOpener'))
  }
  await ctx.io.result({id: invoice.id, status: invoice.status, checkout_url: url, opened}, () => {
    if (opened) ctx.io.err(t('invoice.open.opened', {url}))
    else ctx.io.out(url)
    if (invoice.status === 'DRAFT') ctx.io.warn(t('invoice.open.draft', {id: invoice.id}))
  })
}
