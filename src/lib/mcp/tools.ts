/**
 * The tools `svc mcp` offers: for each, the JSON Schema the assistant reads, the annotations,
 * and `prepare`, which reads and checks the arguments with the CLI's own rules (nothing is sent
 * when they are wrong) and returns what it would do: the sentence that needs a LIVE key's
 * permission, if any, and `execute`, the same flows `svc pay …`, `svc invoice …` and
 * `svc report …` use.
 *
 * Descriptions and schemas are English whatever the language, like `--help` (README
 * "Languages"): the list of tools is machine input for the assistant, read once per session.
 * The summaries and errors a person may be shown come from the catalogue, in the CLI's language.
 */
import type {Context} from '../context.js'
import {SvcError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {checkId, checkListPaging, readIdempotencyKey, readDelivery, readPublishDelivery} from '../invoices/cli.js'
import type {InvoiceDraft} from '../invoices/draft.js'
import {cancelInvoice, createInvoice, fetchInvoicePdf, getInvoice, listInvoices, publishInvoice, sendInvoice, type InvoiceApi} from '../invoices/flows.js'
import {finishDraft, parseChannel, parseDiscount} from '../invoices/input.js'
import type {LineItem} from '../invoices/items.js'
import {INVOICE_STATUSES, type Invoice} from '../invoices/types.js'
import {formatXaf, parseAmount, parseWholeXaf} from '../payments/amount.js'
import {checkListLimit} from '../payments/cli.js'
import {createPayment, getPayment, listPayments, watchPayment} from '../payments/flows.js'
import {resolveOperator} from '../payments/operator.js'
import {normalisePhone} from '../payments/phone.js'
import {PAYMENT_STATUSES, type Payment} from '../payments/types.js'
import {collectionsReport, receivablesReport} from '../reports/cli.js'
import {formatDate, formatDateTime, parseDueDate} from '../time/date.js'
import {formatDuration, parseDuration} from '../time/duration.js'
import {TEST_NUMBERS} from '../../contract/test-numbers.js'
import {
  ArgumentError,
  asArgument,
  optionalBoolean,
  optionalChoice,
  optionalInteger,
  optionalString,
  readArgs,
  relabelField,
  requiredString,
  xafText,
  type Args,
} from './args.js'

/** What a tool call gives back: a sentence to quote, and the service's objects. */
export interface ToolOutcome {
  summary: string
  data: Record<string, unknown>
  /** More content blocks (the PDF). */
  attachments?: Array<{type: 'resource'; resource: {uri: string; mimeType: string; blob: string}}>
}

export interface CallSession {
  ctx: Context
  signal: AbortSignal
  /** Progress for the client, when it asked for it (a progress token). */
  progress(message: string): void
}

export interface Plan {
  /** Set when the call moves money or tells customers: the action, as `svc` asks a person to confirm it. */
  liveAction?: string
  execute(): Promise<ToolOutcome>
}

export interface Annotations {
  title: string
  readOnlyHint: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint: boolean
}

export interface ToolDefinition {
  name: string
  description: string
  inputSchema: {type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties: false}
  annotations: Annotations
  prepare(args: Args, session: CallSession): Plan
}

// ---------------------------------------------------------------------------------------------
// Schemas: what `--help` says, as JSON Schema.

const AMOUNT = {
  type: ['integer', 'string'],
  description: 'Whole XAF (integer ≥ 1): 5000, or as a person writes it, "5 000", "5,000", "5000 XAF". Never decimals: XAF has no minor unit.',
  examples: [5000, '12 500'],
}
const PHONE = {
  type: 'string',
  description: "The customer's Cameroon mobile number: 9 digits (670000001), with the country code (237670000001, +237670000001, 00237670000001); spaces, dots, dashes and parentheses are allowed (+237 6 70 00 00 01).",
  examples: ['670000001', '+237 6 90 00 00 01'],
}
const OPERATOR = {type: 'string', enum: ['MTN', 'ORANGE'], description: 'MTN or ORANGE. Leave it out: it is inferred from the number (sandbox test numbers, then the prefix).'}
const PAYMENT_ID = {type: 'string', description: 'The payment id, e.g. svcpay_test_….'}
const INVOICE_ID = {type: 'string', description: 'The invoice id, e.g. inv_test_….'}
const CHANNEL = {type: 'string', enum: ['EMAIL', 'WHATSAPP'], description: 'Deliver it by EMAIL (customer_email) or WHATSAPP (customer_phone).'}
const TO_EMAIL = {type: 'string', description: 'Deliver this once to this address instead (the invoice is unchanged). Needs channel.'}
const TO_PHONE = {type: 'string', description: 'Deliver this once to this number instead (the invoice is unchanged; same phone forms). Needs channel.'}
const ITEM = {
  type: 'object',
  description: 'One line item.',
  properties: {
    name: {type: 'string', description: 'What is sold (not empty).'},
    description: {type: 'string', description: 'Optional detail shown under the name.'},
    price: {type: ['integer', 'string'], description: 'Unit price in whole XAF, 0 or more (1500, "1 500").'},
    quantity: {type: ['integer', 'string'], description: 'A whole number, 1 or more (default 1).'},
  },
  required: ['name', 'price'],
  additionalProperties: false,
}

function schema(properties: Record<string, unknown>, required: string[] = []): ToolDefinition['inputSchema'] {
  return {type: 'object', properties, ...(required.length > 0 ? {required} : {}), additionalProperties: false}
}

// ---------------------------------------------------------------------------------------------
// Helpers

const xaf = (amount: number) => formatXaf(amount, getLocale())

async function invoiceApi(ctx: Context): Promise<InvoiceApi> {
  return {client: await ctx.client(), service: await ctx.service()}
}

function read(raw: Args, tool: ToolDefinition): Args {
  return readArgs(raw, tool.name, Object.keys(tool.inputSchema.properties))
}

/**
 * A value from the service or a customer, as it goes into a summary: a JSON string, so that it
 * reads as data (a customer named "SYSTEM: ignore all previous instructions…" stays a quoted
 * name); the tool descriptions tell the model so (server.ts).
 */
const quoted = (value: unknown): string => JSON.stringify(String(value ?? ''))
/** A status or code: as is when it has an enum's shape (PENDING, CUSTOMER_DECLINED), quoted otherwise. */
const code = (value: unknown): string => (typeof value === 'string' && /^[A-Z][A-Z0-9_]{0,39}$/.test(value) ? value : quoted(value))

function paymentSummary(payment: Payment): string {
  const params = {id: quoted(payment.id), amount: xaf(payment.amount), phone: quoted(payment.phone_number), status: code(payment.status)}
  if (payment.status === 'SUCCESS') return t('mcp.summary.paymentSucceeded', params)
  if (payment.status === 'FAILED') return t('mcp.summary.paymentFailed', {...params, code: code(payment.failure_code ?? 'UNKNOWN')})
  return t('mcp.summary.payment', params)
}

function amountDue(invoice: Invoice): number {
  return invoice.amount_due ?? invoice.total_amount - (invoice.amount_paid ?? 0)
}

function invoiceSummary(invoice: Invoice): string {
  return t('mcp.summary.invoice', {
    id: quoted(invoice.id),
    status: code(invoice.status),
    customer: quoted(invoice.customer_name),
    total: xaf(invoice.total_amount),
    due: xaf(amountDue(invoice)),
    dueDate: formatDate(invoice.due_date, getLocale()),
  })
}

function invoiceId(args: Args): string {
  return asArgument('id', () => checkId(requiredString(args, 'id')))
}

function paymentId(args: Args): string {
  const id = requiredString(args, 'id').trim()
  if (id === '') throw new ArgumentError(t('mcp.error.missing', {name: 'id'}), {field: 'id'})
  return id
}

/** The CLI's flag names (InputError.field) as the invoice tools name their arguments. */
const INVOICE_FIELDS: Record<string, string> = {
  'customer-name': 'customer_name',
  'due-date': 'due_date',
  item: 'items',
  total: 'items',
  discount: 'discount_percent',
  email: 'customer_email',
  phone: 'customer_phone',
  notes: 'notes',
  'external-reference': 'external_reference',
  'idempotency-key': 'idempotency_key',
  channel: 'channel',
  'to-email': 'to_email',
  'to-phone': 'to_phone',
  page: 'page',
  'page-size': 'page_size',
}

function asInvoiceArguments<T>(parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    throw relabelField(error, INVOICE_FIELDS)
  }
}

/** `items`: objects of the contract's shape, each price and quantity read as `--item`'s are. */
function readItems(args: Args): LineItem[] | undefined {
  const raw = args.items
  if (raw === undefined || raw === null) return undefined
  if (!Array.isArray(raw)) throw new ArgumentError(t('mcp.error.array', {name: 'items'}), {field: 'items'})
  const shape = '{name, description?, price, quantity?}'
  return raw.map((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ArgumentError(t('mcp.error.item', {name: 'items', index: i + 1, shape}), {field: 'items'})
    }
    try {
      return readItem(entry, i)
    } catch (error) {
      // A field of an item is at fault: the argument to fix is `items`.
      if (!(error instanceof ArgumentError) || error.field === 'items') throw error
      throw new ArgumentError(t('mcp.error.input', {field: 'items', message: error.message}), {field: 'items'})
    }
  })
}

function readItem(entry: object, i: number): LineItem {
  const item = readArgs(entry, `items[${i + 1}]`, ['name', 'description', 'price', 'quantity'])
  const line = {name: item.name, price: wholeNumber(item.price), quantity: item.quantity === undefined ? 1 : wholeNumber(item.quantity)} as LineItem
  if (item.description !== undefined) line.description = item.description as string
  return line
}

/**
 * A price or quantity as given: a number as is, a string read as `--item`'s are ("1 500",
 * "1,500"). What cannot be read is kept as given, for the draft's rules (validateInvoiceDraft,
 * in finishDraft) to refuse with the item's index, name and bounds, as for `--from-file`.
 */
function wholeNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return parseWholeXaf(value, {min: 0, field: 'item'})
  } catch {
    return value
  }
}

// ---------------------------------------------------------------------------------------------
// Payments

const paymentsCreate: ToolDefinition = {
  name: 'payments_create',
  description:
    "Collect mobile money: asks the customer's wallet (MTN or ORANGE, Cameroon) for a whole-XAF amount. The payment is PENDING until the customer approves on their phone; follow it with payments_wait. " +
    'It is sent once and never retried: if the answer is lost, svc looks for the payment in the list instead of prompting the customer twice, and says so when it cannot tell (outcome_unknown: do not call again; check payments_list first). ' +
    'On a LIVE key it is refused unless the server was started with --allow-live-writes. In the sandbox, sandbox_test_numbers lists numbers with fixed outcomes.',
  inputSchema: schema({amount: AMOUNT, phone: PHONE, operator: OPERATOR}, ['amount', 'phone']),
  annotations: {title: 'Collect a mobile money payment', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true},
  prepare(raw, {ctx}) {
    const args = read(raw, paymentsCreate)
    const amount = asArgument('amount', () => parseAmount(xafText(args, 'amount') ?? ''))
    const phone = asArgument('phone', () => normalisePhone(optionalString(args, 'phone') ?? ''))
    const {operator, warnings} = resolveOperator(phone, optionalString(args, 'operator'))
    return {
      liveAction: t('pay.live.action', {amount: xaf(amount), phone}),
      async execute() {
        const client = await ctx.client()
        let created
        try {
          created = await createPayment(client, {amount, phone, operator}, {listShape: async () => (await ctx.service()).lists.payments})
        } catch (error) {
          // The CLI's sentence, with the next step said in tools rather than commands.
          if (!(error instanceof SvcError) || error.code !== 'outcome_unknown') throw error
          throw new SvcError(error.message, {exitCode: error.exitCode, code: error.code, hint: t('mcp.hint.outcomeUnknown', {amount: xaf(amount), phone}), cause: error})
        }
        const {payment, recovered} = created
        const params = {id: quoted(payment.id), amount: xaf(payment.amount), phone: quoted(payment.phone_number), operator, status: code(payment.status)}
        const summary = [t(recovered ? 'mcp.summary.paymentRecovered' : 'mcp.summary.paymentCreated', params), ...warnings].join(' ')
        return {summary, data: {payment, recovered, ...(warnings.length > 0 ? {warnings} : {})}}
      },
    }
  },
}

const paymentsGet: ToolDefinition = {
  name: 'payments_get',
  description: "A payment's current status (PENDING, SUCCESS, FAILED with its failure_code, or UNSPECIFIED), as `svc pay status`.",
  inputSchema: schema({id: PAYMENT_ID}, ['id']),
  annotations: {title: 'Get a payment', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx}) {
    const id = paymentId(read(raw, paymentsGet))
    return {
      async execute() {
        const payment = await getPayment(await ctx.client(), id)
        return {summary: paymentSummary(payment), data: {payment}}
      },
    }
  },
}

const paymentsList: ToolDefinition = {
  name: 'payments_list',
  description: 'Payments, newest first, one page at a time (as `svc pay list`).',
  inputSchema: schema({
    status: {type: 'string', enum: [...PAYMENT_STATUSES], description: 'Only payments in this status.'},
    limit: {type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Payments per page (1–100).'},
    offset: {type: 'integer', minimum: 0, description: 'Skip this many payments (the next page starts at offset + limit).'},
  }),
  annotations: {title: 'List payments', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx}) {
    const args = read(raw, paymentsList)
    const status = optionalChoice(args, 'status', PAYMENT_STATUSES)
    const limit = optionalInteger(args, 'limit')
    asArgument('limit', () => checkListLimit(limit))
    const offset = optionalInteger(args, 'offset')
    if (offset !== undefined && offset < 0) throw new ArgumentError(t('mcp.error.integer', {name: 'offset'}), {field: 'offset'})
    return {
      async execute() {
        const listShape = (await ctx.service()).lists.payments
        const result = await listPayments(await ctx.client(), {status, limit, offset, listShape})
        const next = (offset ?? 0) + result.items.length
        const summary = result.hasMore ? t('mcp.summary.paymentsMore', {count: result.items.length, next}) : t('mcp.summary.payments', {count: result.items.length})
        return {summary, data: {payments: result.items, has_more: result.hasMore, ...(result.hasMore ? {next_offset: next} : {})}}
      },
    }
  },
}

const paymentsWait: ToolDefinition = {
  name: 'payments_wait',
  description:
    'Wait for a payment to reach SUCCESS or FAILED (as `svc pay watch`), checking its status every interval. If it is still PENDING when the timeout ends, the result says so (not an error): call again to keep waiting. ' +
    'Keep the timeout under your client\'s request timeout (often 60 s); progress notifications are sent when a progress token is given.',
  inputSchema: schema(
    {
      id: PAYMENT_ID,
      timeout: {type: 'string', default: '50s', description: 'How long to wait: a duration such as 30s, 2m (at most 10m).'},
      interval: {type: 'string', default: '3s', description: 'Time between status checks: a duration of at least 250ms.'},
    },
    ['id'],
  ),
  annotations: {title: 'Wait for a payment to settle', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx, progress, signal}) {
    const args = read(raw, paymentsWait)
    const id = paymentId(args)
    const timeoutMs = asArgument('timeout', () => parseDuration(optionalString(args, 'timeout') ?? '50s', 'timeout', {max: 10 * 60_000}))
    const intervalMs = asArgument('interval', () => parseDuration(optionalString(args, 'interval') ?? '3s', 'interval', {min: 250}))
    return {
      async execute() {
        const client = await ctx.client()
        // The client cancelling the call (notifications/cancelled) ends the wait at once.
        const sleep = (ms: number) =>
          new Promise<void>((resolve, reject) => {
            if (signal.aborted) return reject(new Error('cancelled'))
            const timer = setTimeout(resolve, ms)
            signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('cancelled'))), {once: true})
          })
        let payment: Payment
        try {
          payment = await watchPayment(client, id, {
            intervalMs,
            timeoutMs,
            sleep,
            onUpdate: (p) => progress(t('pay.watch.waiting', {id, status: p.status})),
          })
        } catch (error) {
          if (!(error instanceof SvcError) || error.code !== 'watch_timeout') throw error
          const last = await getPayment(client, id)
          return {summary: t('mcp.summary.paymentStillPending', {id: quoted(id), status: code(last.status), waited: formatDuration(timeoutMs)}), data: {payment: last, final: false}}
        }
        return {summary: paymentSummary(payment), data: {payment, final: true}}
      },
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Invoices

const invoicesCreate: ToolDefinition = {
  name: 'invoices_create',
  description:
    'Create an itemised invoice in XAF (a DRAFT, invisible to the customer, until published). Checked before anything is sent: at least one item, whole-XAF prices, whole quantities, discount_percent 0–100 (a percentage, never francs), total after discount at least 100 XAF. ' +
    'An Idempotency-Key is always sent and returned (a new UUID unless idempotency_key is given): to retry after an error or a lost answer, call again with the SAME idempotency_key and the existing invoice comes back instead of a second one. ' +
    'publish: true publishes it at once (UNPAID, payable); with channel it is also delivered to the customer, which on a LIVE key needs --allow-live-writes.',
  inputSchema: schema(
    {
      customer_name: {type: 'string', description: 'Customer name shown on the invoice.'},
      due_date: {type: 'string', description: 'Due date: YYYY-MM-DD (e.g. 2026-12-31), or an ISO 8601 time with its offset.'},
      items: {type: 'array', minItems: 1, items: ITEM, description: 'The line items: [{name, description?, price, quantity}].'},
      discount_percent: {type: ['number', 'string'], minimum: 0, maximum: 100, description: 'Discount in percent, 0–100 (10 = 10 %, not 10 XAF).'},
      customer_email: {type: 'string', description: "Customer's email (needed to deliver by EMAIL)."},
      customer_phone: {type: 'string', description: "Customer's phone (needed to deliver by WHATSAPP); same forms as payments_create's phone."},
      notes: {type: 'string', description: 'Notes shown on the invoice.'},
      external_reference: {type: 'string', description: 'Your own reference, echoed back on reads.'},
      idempotency_key: {type: 'string', maxLength: 255, description: 'The Idempotency-Key to send; give the one a previous call returned to retry it safely.'},
      publish: {type: 'boolean', default: false, description: 'Publish it at once (DRAFT → UNPAID, payable).'},
      channel: {...CHANNEL, description: 'With publish: deliver it by EMAIL or WHATSAPP.'},
    },
    ['customer_name', 'due_date', 'items'],
  ),
  annotations: {title: 'Create an invoice', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true},
  prepare(raw, {ctx}) {
    const args = read(raw, invoicesCreate)
    const base: Partial<InvoiceDraft> = {}
    const customerName = optionalString(args, 'customer_name')
    if (customerName !== undefined) base.customer_name = customerName
    const dueDate = optionalString(args, 'due_date')
    if (dueDate !== undefined) base.due_date = asArgument('due_date', () => parseDueDate(dueDate, 'due-date'))
    const items = readItems(args)
    if (items !== undefined) base.items = items
    const discount = args.discount_percent
    if (discount !== undefined && discount !== null) {
      if (typeof discount !== 'number' && typeof discount !== 'string') throw new ArgumentError(t('mcp.error.string', {name: 'discount_percent'}), {field: 'discount_percent'})
      base.discount_percent = asArgument('discount_percent', () => parseDiscount(String(discount)))
    }
    for (const [name, field] of [['customer_email', 'customer_email'], ['customer_phone', 'customer_phone'], ['notes', 'notes'], ['external_reference', 'external_reference']] as const) {
      const value = optionalString(args, name)
      if (value !== undefined) base[field] = value
    }
    const {draft, totals} = asInvoiceArguments(() => finishDraft(base as InvoiceDraft))
    const publish = optionalBoolean(args, 'publish') ?? false
    const channel = asArgument('channel', () => parseChannel(optionalString(args, 'channel')))
    if (channel && !publish) throw new ArgumentError(t('mcp.error.input', {field: 'channel', message: t('invoice.error.channelNeedsPublish')}), {field: 'channel'})
    const key = asArgument('idempotency_key', () => readIdempotencyKey(optionalString(args, 'idempotency_key')))
    return {
      liveAction: publish && channel ? t('invoice.live.publish', {customer: draft.customer_name, channel}) : undefined,
      async execute() {
        const invoices = await invoiceApi(ctx)
        const created = await createInvoice(invoices, draft, key)
        let invoice = created.invoice
        const params = () => ({
          id: quoted(invoice.id),
          status: code(invoice.status),
          customer: quoted(invoice.customer_name),
          total: xaf(invoice.total_amount ?? totals.total_amount),
          key,
          url: quoted(invoice.checkout_url ?? ''),
        })
        if (publish) {
          try {
            invoice = await publishInvoice(invoices, invoice.id, {channel})
          } catch (error) {
            if (!(error instanceof SvcError)) throw error
            // Created but not published: say both, with the key, so a retry does not duplicate.
            throw new SvcError(t('mcp.summary.invoicePublishFailed', {id: quoted(invoice.id), key, message: quoted(error.message)}), {
              exitCode: error.exitCode,
              code: error.code,
              status: error.status,
              cause: error,
            })
          }
        }
        const summary = created.replayed
          ? t('mcp.summary.invoiceReplayed', params())
          : t(publish ? 'mcp.summary.invoiceCreatedPublished' : 'mcp.summary.invoiceCreated', params())
        return {summary, data: {invoice, idempotency_key: key, replayed: created.replayed}}
      },
    }
  },
}

const invoicesGet: ToolDefinition = {
  name: 'invoices_get',
  description: 'One invoice: status, items, totals, amount paid and due, checkout_url (as `svc invoice get`).',
  inputSchema: schema({id: INVOICE_ID}, ['id']),
  annotations: {title: 'Get an invoice', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx}) {
    const id = invoiceId(read(raw, invoicesGet))
    return {
      async execute() {
        const invoice = await getInvoice(await invoiceApi(ctx), id)
        return {summary: invoiceSummary(invoice), data: {invoice}}
      },
    }
  },
}

const invoicesList: ToolDefinition = {
  name: 'invoices_list',
  description: 'Invoices, newest first, one page at a time (as `svc invoice list`).',
  inputSchema: schema({
    status: {type: 'string', enum: [...INVOICE_STATUSES], description: 'Only invoices in this status (UNPAID and PAST_DUE are the receivables).'},
    page: {type: 'integer', minimum: 1, default: 1, description: 'Page number, from 1.'},
    page_size: {type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Invoices per page (1–100).'},
  }),
  annotations: {title: 'List invoices', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx}) {
    const args = read(raw, invoicesList)
    const status = optionalChoice(args, 'status', INVOICE_STATUSES)
    const page = optionalInteger(args, 'page')
    const pageSize = optionalInteger(args, 'page_size')
    asInvoiceArguments(() => checkListPaging({page, 'page-size': pageSize}))
    return {
      async execute() {
        const result = await listInvoices(await invoiceApi(ctx), {status, page, pageSize})
        const next = (page ?? 1) + 1
        const summary = result.hasMore ? t('mcp.summary.invoicesMore', {count: result.items.length, next}) : t('mcp.summary.invoices', {count: result.items.length})
        return {summary, data: {invoices: result.items, has_more: result.hasMore, ...(result.hasMore ? {next_page: next} : {})}}
      },
    }
  },
}

const invoicesPublish: ToolDefinition = {
  name: 'invoices_publish',
  description:
    'Publish a DRAFT invoice: it becomes UNPAID and payable at its checkout_url. Without channel it is published quietly; with channel it is also delivered to the customer (on a LIVE key that needs --allow-live-writes). Publishing an UNPAID invoice again changes nothing and delivers nothing.',
  inputSchema: schema({id: INVOICE_ID, channel: CHANNEL, to_email: TO_EMAIL, to_phone: TO_PHONE}, ['id']),
  annotations: {title: 'Publish an invoice', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true},
  prepare(raw, {ctx}) {
    const args = read(raw, invoicesPublish)
    const id = invoiceId(args)
    const delivery = asInvoiceArguments(() =>
      readPublishDelivery({channel: optionalString(args, 'channel'), 'to-email': optionalString(args, 'to_email'), 'to-phone': optionalString(args, 'to_phone')}),
    )
    return {
      liveAction: delivery.channel ? t('invoice.live.publishId', {id, channel: delivery.channel}) : undefined,
      async execute() {
        const invoice = await publishInvoice(await invoiceApi(ctx), id, delivery)
        const params = {id: quoted(invoice.id), status: code(invoice.status), channel: delivery.channel ?? '', url: quoted(invoice.checkout_url ?? '')}
        return {summary: t(delivery.channel ? 'mcp.summary.invoicePublishedDelivered' : 'mcp.summary.invoicePublished', params), data: {invoice}}
      },
    }
  },
}

const invoicesSend: ToolDefinition = {
  name: 'invoices_send',
  description:
    'Send a published invoice to the customer again (its pay link), by EMAIL (the default) or WHATSAPP (as `svc invoice send`). Every call delivers a message: it is never retried. On a LIVE key it needs --allow-live-writes.',
  inputSchema: schema({id: INVOICE_ID, channel: CHANNEL, to_email: TO_EMAIL, to_phone: TO_PHONE}, ['id']),
  annotations: {title: 'Send an invoice to the customer', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true},
  prepare(raw, {ctx}) {
    const args = read(raw, invoicesSend)
    const id = invoiceId(args)
    const delivery = asInvoiceArguments(() =>
      readDelivery({channel: optionalString(args, 'channel'), 'to-email': optionalString(args, 'to_email'), 'to-phone': optionalString(args, 'to_phone')}),
    )
    return {
      liveAction: t('invoice.live.send', {id, channel: delivery.channel ?? 'EMAIL'}),
      async execute() {
        const sent = await sendInvoice(await invoiceApi(ctx), id, delivery)
        return {summary: t('mcp.summary.invoiceSent', {id: quoted(sent.invoice_id), channel: sent.channel, recipient: quoted(sent.recipient)}), data: {delivery: sent}}
      },
    }
  },
}

const invoicesCancel: ToolDefinition = {
  name: 'invoices_cancel',
  description: 'Cancel an invoice that is not paid: it can no longer be paid, and this cannot be undone. Cancelling it again changes nothing. On a LIVE key it needs --allow-live-writes.',
  inputSchema: schema({id: INVOICE_ID}, ['id']),
  annotations: {title: 'Cancel an invoice', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false},
  prepare(raw, {ctx}) {
    const id = invoiceId(read(raw, invoicesCancel))
    return {
      liveAction: t('invoice.live.cancel', {id}),
      async execute() {
        const invoice = await cancelInvoice(await invoiceApi(ctx), id)
        return {summary: t('mcp.summary.invoiceCancelled', {id: quoted(invoice.id)}), data: {invoice}}
      },
    }
  },
}

const invoicesPdf: ToolDefinition = {
  name: 'invoices_pdf',
  description: "The invoice as a PDF (rendered by the service): attached as an application/pdf resource, with its signed pdf_url and when that link expires.",
  inputSchema: schema({id: INVOICE_ID}, ['id']),
  annotations: {title: 'Get an invoice as PDF', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx}) {
    const id = invoiceId(read(raw, invoicesPdf))
    return {
      async execute() {
        const {link, url, bytes} = await fetchInvoicePdf(await invoiceApi(ctx), id)
        const expires = link.expires_at ? formatDateTime(link.expires_at, getLocale()) : '?'
        return {
          summary: t('mcp.summary.pdf', {id: quoted(id), bytes: bytes.length, expires}),
          data: {invoice_id: id, pdf_url: url, expires_at: link.expires_at ?? null, bytes: bytes.length},
          attachments: [{type: 'resource', resource: {uri: url, mimeType: 'application/pdf', blob: bytes.toString('base64')}}],
        }
      },
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Reports, test numbers

const reportsReceivables: ToolDefinition = {
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

const reportsCollections: ToolDefinition = {
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

const sandboxTestNumbers: ToolDefinition = {
  name: 'sandbox_test_numbers',
  description:
    "The sandbox's test numbers and the outcome each always gives with its own operator (any other number settles randomly). Use them with payments_create on a sandbox key (svc_sk_test_…).",
  inputSchema: schema({}),
  annotations: {title: 'Sandbox test numbers', readOnlyHint: true, openWorldHint: false},
  prepare(raw) {
    read(raw, sandboxTestNumbers)
    return {
      async execute() {
        return {summary: t('mcp.summary.testNumbers', {count: TEST_NUMBERS.length}), data: {test_numbers: TEST_NUMBERS}}
      },
    }
  },
}

/** Every tool, in the order they are listed. */
export const TOOLS: readonly ToolDefinition[] = [
  paymentsCreate,
  paymentsGet,
  paymentsList,
  paymentsWait,
  invoicesCreate,
  invoicesGet,
  invoicesList,
  invoicesPublish,
  invoicesSend,
  invoicesCancel,
  invoicesPdf,
  reportsReceivables,
  reportsCollections,
  sandboxTestNumbers,
]
