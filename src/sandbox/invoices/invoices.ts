/**
 * Invoices: create (with `Idempotency-Key`), list, read, publish, send, cancel and the PDF link,
 * with every state rule of docs/service.md ("Invoices", "Statuses"), its choices where the service is silent included:
 *
 *   DRAFT ──publish──▶ UNPAID ──due date passes──▶ PAST_DUE
 *     │                  │  └─payments add up to total_amount─▶ PAID (from UNPAID or PAST_DUE)
 *     └──cancel──▶ CANCELLED ◀──cancel── (UNPAID, PAST_DUE, partly paid included)
 *
 * - Totals are computed here (src/lib/invoices/totals.ts, shared with the CLI) and never accepted.
 * - A DRAFT is invisible to the customer and cannot be paid; amounts are fixed at publish (there is
 *   no edit endpoint, so they never change after creation either).
 * - PAST_DUE is applied lazily on every read, at the first instant past the due date on the
 *   sandbox clock: the end of the due day (UTC) for a date, the instant itself for a date-time.
 * - Partly paid: status stays UNPAID/PAST_DUE, amount_paid grows and amount_due shrinks; PAID with
 *   paid_at when amount_due reaches 0.
 * - Payments reach an invoice only through its hosted checkout (checkout.ts), as real sandbox
 *   payments; the invoice learns their outcome from the event bus.
 */
import {createHash} from 'node:crypto'
import {type Locale} from '../i18n/index.js'
import {t} from '../i18n/index.js'
import {isSettlementEvent} from '../../contract/events.js'
import {MAX_TOTAL} from '../../contract/limits.js'
import {computeTotals, computeTotalsExact} from '../../contract/totals.js'
import type {Operator} from '../../contract/test-numbers.js'
import {businessLanguage, businessLogo, businessName} from '../business.js'
import type {SandboxContext} from '../context.js'
import {ApiError, invalidState, notFound, validationError} from '../errors.js'
import {isExample, seedInvoices} from '../examples.js'
import {newId} from '../ids.js'
import type {Payment, Payments} from '../payments.js'
import {normalisePhone} from '../../contract/phone.js'
import type {RequestContext} from '../router.js'
import type {Collection} from '../store.js'
import type {Environment} from '../types.js'
import type {DocumentWorker} from './document-worker.js'
import type {Files, StoredFile} from './files.js'
import {IdempotencyKeys} from './idempotency.js'
import type {Inventory} from './inventory.js'
import {resolveRecipient, type DeliveryRequest, type Outbox} from './outbox.js'
import {MIN_INVOICE_TOTAL, type Invoice, type LineItem} from './schemas.js'
import type {UrlSigner} from './signing.js'

/** The PDF link of the API and of publish: short-lived. */
export const PDF_URL_TTL_MS = 15 * 60 * 1000
/** The PDF link in a delivered message, which the customer may open days later. */
export const DELIVERED_PDF_TTL_MS = 7 * 24 * 60 * 60 * 1000

const DAY_MS = 24 * 60 * 60 * 1000
/** PDF versions kept rendered: about 10 MB for invoices of 100 items. */
const PDF_CACHE_SIZE = 64
/** Downscaled covers kept (each at most COVER_BOX: ~4 MB decoded, far less encoded). */
const COVER_CACHE_SIZE = 16

export interface InvoicePayment {
  /** The payment id. */
  id: string
  invoice_id: string
  amount: number
  status: Payment['status']
  created_at: string
  settled_at?: string
}

interface CreateBody {
  customer_name: string
  due_date: string
  items: LineItem[]
  customer_email?: string
  customer_phone?: string
  discount_percent: number
  notes?: string
  currency: 'XAF'
  cover_image_url?: string
  external_reference?: string
}

/** The first instant at which the invoice is past due, or undefined when `due` is no real date. */
export function dueInstant(due: string): number | undefined {
  const date = due.slice(0, 10)
  const midnight = Date.parse(`${date}T00:00:00Z`)
  if (Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== date) return undefined
  if (due.length === 10) return midnight + DAY_MS
  const instant = Date.parse(due)
  return Number.isNaN(instant) ? undefined : instant
}

/** `+237XXXXXXXXX` for a Cameroon number in any accepted form, else `+` and the digits. */
export function internationalPhone(input: string): string {
  const cameroon = normalisePhone(input)
  return cameroon ? `+${cameroon}` : `+${input.replace(/\D/g, '')}`
}

export class Invoices {
  readonly idempotency: IdempotencyKeys
  /** Rendered PDFs by ETag (see `pdf`). */
  private readonly pdfCache = new Map<string, Promise<Buffer>>()
  /** Covers made small enough for the PDF (images.ts, downscaleCover), by file and upload: once each. */
  private readonly coverCache = new Map<string, Promise<Uint8Array>>()
  private exampleInvoices?: Map<string, Invoice>
  /**
   * Awaited while a create holds its idempotency key, before the invoice is stored: a seam for
   * embedders (and for tests, to hold a request in flight). Throwing aborts the create and frees the key.
   */
  beforeCreate?: (environment: Environment, body: unknown) => Promise<void>

  constructor(
    private readonly ctx: SandboxContext,
    private readonly deps: {payments: Payments; files: Files; inventory: Inventory; outbox: Outbox; signer: UrlSigner; documents: DocumentWorker},
  ) {
    this.idempotency = new IdempotencyKeys(ctx)
    // A reset or a restored snapshot starts from a fresh sandbox: the examples as they were.
    ctx.store.onReload(() => (this.exampleInvoices = undefined))
    ctx.store.defineCollection<Invoice>('environment', 'invoices', {status: (invoice) => invoice.status})
    ctx.store.defineCollection<InvoicePayment>('environment', 'invoice_payments', {invoice_id: (link) => link.invoice_id, status: (link) => link.status})
    ctx.events.subscribe((event) => {
      if (isSettlementEvent(event.type)) this.paymentSettled(event.environment, event.data as Payment)
    })
  }

  /** The merchant's invoices (never the examples: see examples.ts). */
  collection(environment: Environment): Collection<Invoice> {
    return this.ctx.store.env(environment).collection<Invoice>('invoices')
  }

  /** The example invoices, as a fresh sandbox has them until changed (kept beside the store). */
  private examples(): Map<string, Invoice> {
    this.exampleInvoices ??= new Map(seedInvoices(this.ctx.baseUrl()).map((invoice) => [invoice.id, invoice as Invoice]))
    return this.exampleInvoices
  }

  /** The example invoices as they stand now (for the admin route that lists them: no list of the merchant's does). */
  examplesNow(): Invoice[] {
    return [...this.examples().values()].map((invoice) => this.refresh(invoice))
  }

  /** Change an invoice where it lives: the store, or the examples beside it. */
  private change(invoice: Invoice, change: (invoice: Invoice) => void): void {
    if (isExample(invoice.environment, invoice.id)) change(invoice)
    else this.collection(invoice.environment).update(invoice.id, change)
  }

  links(environment: Environment): Collection<InvoicePayment> {
    return this.ctx.store.env(environment).collection<InvoicePayment>('invoice_payments')
  }

  checkoutUrl(environment: Environment, id: string): string {
    return `${this.ctx.baseUrl()}/pay/i/${id}${environment === 'SANDBOX' ? '?type=sandbox' : ''}`
  }

  /** Apply what time alone changes (PAST_DUE) and return the stored invoice. */
  refresh(invoice: Invoice): Invoice {
    if (invoice.status !== 'UNPAID') return invoice
    const due = dueInstant(invoice.due_date)
    if (due !== undefined && this.ctx.clock.now() >= due)
      this.change(invoice, (i) => {
        i.status = 'PAST_DUE'
        i.updated_at = this.ctx.clock.iso(Math.max(due, Date.parse(i.updated_at)))
      })
    return invoice
  }

  /** The invoice as it stands now, or undefined. */
  find(environment: Environment, id: string): Invoice | undefined {
    const invoice = isExample(environment, id) ? this.examples().get(id) : this.collection(environment).get(id)
    return invoice && this.refresh(invoice)
  }

  get(environment: Environment, id: string): Invoice {
    const invoice = this.find(environment, id)
    if (!invoice) throw notFound('invoice', id)
    return invoice
  }

  // Create ------------------------------------------------------------------------------------

  /** Rules the schema cannot say (a 400 leaves an idempotency key free, so the client can fix the body and retry). */
  private prepare(environment: Environment, body: CreateBody): Omit<Invoice, 'id' | 'checkout_url' | 'created_at' | 'updated_at'> {
    const errors: Array<{field: string; message: string}> = []
    if (dueInstant(body.due_date) === undefined) errors.push({field: 'due_date', message: t('sandboxInvoices.validation.dueDate', {field: 'due_date', got: JSON.stringify(body.due_date)})})
    if (body.customer_name.trim() === '') errors.push({field: 'customer_name', message: t('sandbox.validation.empty', {field: 'customer_name'})})
    body.items.forEach((item, index) => {
      if (item.name.trim() === '') errors.push({field: `items[${index}].name`, message: t('sandbox.validation.empty', {field: `items[${index}].name`})})
    })
    if (errors.length > 0) throw validationError(errors)
    // The contract's bound on a computed total (the subtotal): refused, never rounded.
    const exact = computeTotalsExact(body.items, body.discount_percent)
    if (exact.subtotal_amount > BigInt(MAX_TOTAL))
      throw validationError([{field: 'items', message: t('sandboxInvoices.validation.tooLarge', {total: exact.subtotal_amount.toString(), max: MAX_TOTAL})}])
    const totals = computeTotals(body.items, body.discount_percent)
    if (totals.total_amount < MIN_INVOICE_TOTAL)
      throw validationError([
        {field: 'total_amount', message: t('sandboxInvoices.validation.minimumTotal', {minimum: MIN_INVOICE_TOTAL, total: totals.total_amount})},
      ])
    if (body.cover_image_url !== undefined) this.deps.files.resolveFileUrl(environment, body.cover_image_url, 'cover_image_url')
    return {
      status: 'DRAFT',
      customer_name: body.customer_name.trim(),
      customer_email: body.customer_email ?? null,
      customer_phone: body.customer_phone === undefined ? null : internationalPhone(body.customer_phone),
      due_date: body.due_date,
      items: body.items.map((item) => ({
        name: item.name.trim(),
        ...(item.description !== undefined ? {description: item.description} : {}),
        price: item.price,
        quantity: item.quantity,
      })),
      subtotal_amount: totals.subtotal_amount,
      discount_percent: body.discount_percent,
      discount_amount: totals.discount_amount,
      total_amount: totals.total_amount,
      amount_paid: 0,
      amount_due: totals.total_amount,
      currency: 'XAF',
      notes: body.notes ?? null,
      cover_image_url: body.cover_image_url ?? null,
      external_reference: body.external_reference ?? null,
      environment,
    }
  }

  private store(environment: Environment, fields: ReturnType<Invoices['prepare']>): Invoice {
    const id = newId('inv', environment)
    const now = this.ctx.clock.iso()
    const invoice: Invoice = {id, ...fields, checkout_url: this.checkoutUrl(environment, id), created_at: now, updated_at: now}
    this.deps.inventory.syncItems(environment, invoice.items)
    return this.collection(environment).insert(invoice)
  }

  async create(req: RequestContext) {
    const environment = req.environment
    const header = req.headers['idempotency-key']
    const key = Array.isArray(header) ? header[0] : header
    if (key !== undefined && (key.trim() === '' || key.length > 255))
      throw validationError([{field: 'Idempotency-Key', message: t('sandboxInvoices.idempotency.invalidKey')}])
    if (key === undefined) {
      const fields = this.prepare(environment, req.body as CreateBody)
      await this.beforeCreate?.(environment, req.body)
      return {status: 201, body: this.store(environment, fields)}
    }
    // A completed key replays whatever has changed since (e.g. a cover file), so look it up first.
    const claim = this.idempotency.begin(environment, key, req.body)
    if ('replay' in claim) return {status: claim.replay.status, body: claim.replay.body, headers: {'idempotent-replayed': 'true'}}
    try {
      const fields = this.prepare(environment, req.body as CreateBody)
      await this.beforeCreate?.(environment, req.body)
      const invoice = this.store(environment, fields)
      claim.commit(201, invoice)
      return {status: 201, body: invoice}
    } catch (error) {
      claim.abandon()
      throw error
    }
  }

  // Publish, send, cancel, PDF -------------------------------------------------------------------

  pdfLink(invoice: Invoice, ttlMs: number): {url: string; expiresAt: number} {
    const signed = this.deps.signer.sign(`/storage/invoices/${invoice.id}/invoice.pdf`, ttlMs)
    return {url: `${this.ctx.baseUrl()}${signed.url}`, expiresAt: signed.expiresAt}
  }

  /**
   * The invoice's PDF as it stands: its ETag at once (a hash of what the document shows that can
   * change: the invoice's state, the business's name and language, the cover file), its bytes rendered once per such
   * version in the document worker and kept (the last PDF_CACHE_SIZE versions; concurrent requests
   * for one version share one rendering).
   */
  pdf(invoice: Invoice): {etag: string; bytes: () => Promise<Buffer>} {
    let cover: StoredFile | undefined
    if (invoice.cover_image_url) {
      try {
        const file = this.deps.files.resolveFileUrl(invoice.environment, invoice.cover_image_url, 'cover_image_url')
        if (file.content_type !== 'image/webp') cover = file
      } catch {
        cover = undefined
      }
    }
    const name = businessName(this.ctx.store, this.ctx.options.businessName)
    const logo = businessLogo(this.ctx.store)
    const locale = businessLanguage(this.ctx.store)
    // What can change on an invoice once created (there is no edit endpoint: its lines, customer and
    // notes are fixed), and what else the document shows. Cheaper than hashing the whole invoice on
    // every fetch of a cached PDF (a 100-item invoice is ~10 KB of JSON).
    const changing = [invoice.status, invoice.amount_paid, invoice.amount_due, invoice.updated_at, invoice.published_at, invoice.paid_at, invoice.cancelled_at]
    // The logo by a digest: the business can change it without the invoice changing.
    const logoDigest = logo && createHash('sha256').update(logo.bytes).digest('base64url').slice(0, 16)
    const version = JSON.stringify([invoice.id, invoice.created_at, changing, name, logoDigest, locale, cover && [cover.id, cover.uploaded_at]])
    const etag = `"${createHash('sha256').update(version).digest('base64url').slice(0, 32)}"`
    const bytes = () => {
      const cached = this.pdfCache.get(etag)
      if (cached) {
        // Most recently used last: a Map keeps insertion order.
        this.pdfCache.delete(etag)
        this.pdfCache.set(etag, cached)
        return cached
      }
      const rendering = (cover ? this.pdfCover(cover) : Promise.resolve(undefined))
        .then((coverBytes) => this.deps.documents.run({kind: 'pdf', input: {invoice, businessName: name, cover: coverBytes && Buffer.from(coverBytes), logo: logo?.bytes, locale}}))
        .then(({bytes: pdf, missing}) => {
          // Said once per rendering (the bytes are cached): a name the document cannot show as written.
          if (missing.length > 0) this.ctx.log(t('sandboxInvoices.pdf.missingGlyphs', {id: invoice.id, chars: missing.join(' ')}))
          return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
        })
      rendering.catch(() => this.pdfCache.delete(etag))
      this.pdfCache.set(etag, rendering)
      while (this.pdfCache.size > PDF_CACHE_SIZE) this.pdfCache.delete(this.pdfCache.keys().next().value!)
      return rendering
    }
    return {etag, bytes}
  }

  /** The cover as the PDF draws it: downscaled once per file and upload, shared by every rendering. */
  private pdfCover(cover: StoredFile): Promise<Uint8Array | undefined> {
    const key = `${cover.id}:${cover.uploaded_at}`
    let downscaled = this.coverCache.get(key)
    if (!downscaled) {
      const bytes = this.deps.files.bytes(cover)
      if (!bytes) return Promise.resolve(undefined)
      downscaled = this.deps.documents.run({kind: 'cover', type: cover.content_type, bytes})
      downscaled.catch(() => this.coverCache.delete(key))
      this.coverCache.set(key, downscaled)
      while (this.coverCache.size > COVER_CACHE_SIZE) this.coverCache.delete(this.coverCache.keys().next().value!)
    }
    // A cover that cannot be made smaller is left out, as pdf.ts leaves out one it cannot read.
    return downscaled.catch(() => undefined)
  }

  /** An override goes with its channel (the schemas' `allOf` says the same). */
  private checkOverrides(body: DeliveryRequest): void {
    const channel = body.channel ?? 'EMAIL'
    if (body.override_email !== undefined && channel !== 'EMAIL')
      throw validationError([{field: 'override_email', message: t('sandboxInvoices.delivery.overrideChannel', {field: 'override_email', channel})}])
    if (body.override_phone !== undefined && channel !== 'WHATSAPP')
      throw validationError([{field: 'override_phone', message: t('sandboxInvoices.delivery.overrideChannel', {field: 'override_phone', channel})}])
  }

  private checkDelivery(req: RequestContext, body: DeliveryRequest): void {
    this.checkOverrides(body)
    if (!req.key?.scopes.includes('invoices:send')) throw new ApiError(403, 'insufficient_scope', t('sandbox.auth.scope', {scope: 'invoices:send'}))
  }

  private normaliseDelivery(body: DeliveryRequest): DeliveryRequest {
    return body.override_phone === undefined ? body : {...body, override_phone: internationalPhone(body.override_phone)}
  }

  publish(req: RequestContext) {
    const environment = req.environment
    const body = req.body as DeliveryRequest
    const invoice = this.get(environment, req.params.invoiceId)
    if (invoice.status === 'PAID' || invoice.status === 'CANCELLED')
      throw invalidState(t('sandboxInvoices.state.publish', {id: invoice.id, status: invoice.status}))
    const published = () => ({status: 200, body: {...invoice, published: true, pdf_url: this.pdfLink(invoice, PDF_URL_TTL_MS).url}})
    // The body's own rules first, whatever the invoice's status: the document states them so.
    if (body.channel === undefined && (body.override_email !== undefined || body.override_phone !== undefined)) {
      const field = body.override_email !== undefined ? 'override_email' : 'override_phone'
      throw validationError([{field, message: t('sandboxInvoices.delivery.overrideWithoutChannel', {field})}])
    }
    if (body.channel !== undefined) this.checkOverrides(body)
    // Already published: unchanged, and nothing is delivered again (send is for that).
    if (invoice.status !== 'DRAFT') return published()
    let target: ReturnType<typeof resolveRecipient> | undefined
    if (body.channel !== undefined) {
      this.checkDelivery(req, body)
      target = resolveRecipient(invoice, this.normaliseDelivery(body))
    }
    const now = this.ctx.clock.iso()
    this.change(invoice, (i) => {
      i.status = 'UNPAID'
      i.published_at = now
      i.updated_at = now
    })
    this.refresh(invoice)
    // An example's items are no stock of the merchant's.
    if (!isExample(environment, invoice.id)) this.deps.inventory.reserve(environment, invoice.id, invoice.items)
    if (target) this.deps.outbox.record(invoice, target, 'publish', this.pdfLink(invoice, DELIVERED_PDF_TTL_MS))
    return published()
  }

  send(req: RequestContext) {
    const body = req.body as DeliveryRequest
    const invoice = this.get(req.environment, req.params.invoiceId)
    if (invoice.status === 'DRAFT' || invoice.status === 'PAID' || invoice.status === 'CANCELLED')
      throw invalidState(t(invoice.status === 'DRAFT' ? 'sandboxInvoices.state.sendDraft' : 'sandboxInvoices.state.send', {id: invoice.id, status: invoice.status}))
    this.checkDelivery(req, body)
    const target = resolveRecipient(invoice, this.normaliseDelivery(body))
    const message = this.deps.outbox.record(invoice, target, 'send', this.pdfLink(invoice, DELIVERED_PDF_TTL_MS))
    return {status: 200, body: {invoice_id: invoice.id, channel: message.channel, recipient: message.recipient, sent_at: message.created_at}}
  }

  cancel(req: RequestContext) {
    const invoice = this.get(req.environment, req.params.invoiceId)
    if (invoice.status === 'CANCELLED') return {status: 200, body: invoice}
    if (invoice.status === 'PAID') throw invalidState(t('sandboxInvoices.state.cancelPaid', {id: invoice.id}))
    const now = this.ctx.clock.iso()
    this.change(invoice, (i) => {
      i.status = 'CANCELLED'
      i.cancelled_at = now
      i.updated_at = now
    })
    if (!isExample(req.environment, invoice.id)) this.deps.inventory.release(req.environment, invoice.id)
    return {status: 200, body: invoice}
  }

  // Payments of an invoice ------------------------------------------------------------------------

  /** The payment of this invoice still waiting for its outcome, if any. */
  pendingPayment(environment: Environment, invoiceId: string): InvoicePayment | undefined {
    return this.links(environment)
      .find({invoice_id: invoiceId})
      .find((link) => link.status === 'PENDING' || link.status === 'UNSPECIFIED')
  }

  /**
   * The customer pays (part of) the invoice on its checkout page: a real payment of the payments
   * domain, linked to the invoice. One payment at a time, never more than amount_due.
   */
  startPayment(environment: Environment, invoiceId: string, input: {amount: number; phone_number: string; operator: Operator}, locale?: Locale): Payment {
    const invoice = this.get(environment, invoiceId)
    if (invoice.status !== 'UNPAID' && invoice.status !== 'PAST_DUE')
      throw invalidState(t(invoice.status === 'DRAFT' ? 'sandboxInvoices.state.payDraft' : 'sandboxInvoices.state.pay', {id: invoice.id, status: invoice.status}, locale))
    if (this.pendingPayment(environment, invoiceId)) throw invalidState(t('sandboxInvoices.checkout.inProgress', undefined, locale))
    if (!Number.isInteger(input.amount) || input.amount < 1 || input.amount > invoice.amount_due)
      throw validationError([{field: 'amount', message: t('sandboxInvoices.checkout.amountRange', {max: invoice.amount_due}, locale)}])
    const payment = this.deps.payments.create(environment, input)
    this.links(environment).insert({id: payment.id, invoice_id: invoiceId, amount: payment.amount, status: payment.status, created_at: payment.created_at})
    return payment
  }

  private paymentSettled(environment: Environment, payment: Payment): void {
    const link = this.links(environment).get(payment.id)
    if (!link || (link.status !== 'PENDING' && link.status !== 'UNSPECIFIED')) return
    const now = this.ctx.clock.iso()
    this.links(environment).update(link.id, (l) => {
      l.status = payment.status
      l.settled_at = now
    })
    if (payment.status !== 'SUCCESS') return
    const invoice = this.find(environment, link.invoice_id)
    if (!invoice) return
    let paidInFull = false
    this.change(invoice, (i) => {
      i.amount_paid += link.amount
      i.amount_due = Math.max(0, i.total_amount - i.amount_paid)
      i.updated_at = now
      // A payment already in flight when the invoice was cancelled is recorded, the status kept.
      if (i.amount_due === 0 && (i.status === 'UNPAID' || i.status === 'PAST_DUE')) {
        i.status = 'PAID'
        i.paid_at = now
        paidInFull = true
      }
    })
    if (paidInFull && !isExample(environment, invoice.id)) this.deps.inventory.confirm(environment, invoice.id, invoice.items)
  }
}
