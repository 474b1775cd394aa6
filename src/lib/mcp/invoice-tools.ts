/**
 * The invoice tools of `svc mcp`: create, get, list, publish, send, cancel, PDF; the same flows as
 * `svc invoice …`. Imports the lib's own folders and the contract.
 */
import {SvcError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {checkListPaging, readIdempotencyKey, readDelivery, readPublishDelivery} from '../invoices/cli.js'
import type {InvoiceDraft} from '../invoices/draft.js'
import {cancelInvoice, createInvoice, fetchInvoicePdf, getInvoice, listInvoices, publishInvoice, sendInvoice} from '../invoices/flows.js'
import {finishDraft, parseChannel, parseDiscount} from '../invoices/input.js'
import type {LineItem} from '../invoices/items.js'
import {INVOICE_STATUSES} from '../invoices/types.js'
import {formatDateTime, parseDueDate} from '../time/date.js'
import {ArgumentError, argumentWords, asArgument, optionalBoolean, optionalChoice, optionalInteger, optionalString, readArgs, relabelField, type Args} from './args.js'
import {CHANNEL, INVOICE_ID, ITEM, TO_EMAIL, TO_PHONE, type ToolDefinition, code, invoiceApi, invoiceId, invoiceSummary, quoted, read, schema, wholeNumber, xaf} from './tool-kit.js'

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

export const invoicesCreate: ToolDefinition = {
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
    if (dueDate !== undefined) base.due_date = asArgument('due_date', () => parseDueDate(dueDate, 'due-date', {today: new Date(ctx.clock.now())}))
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
    if (channel && !publish) throw new ArgumentError(t('mcp.error.input', {field: 'channel', message: argumentWords(t('invoice.error.channelNeedsPublish'))}), {field: 'channel'})
    const key = asArgument('idempotency_key', () => readIdempotencyKey(optionalString(args, 'idempotency_key')))
    return {
      liveAction: publish && channel ? t('invoice.live.publish', {customer: draft.customer_name, channel}) : undefined,
      async execute() {
        const invoices = await invoiceApi(ctx)
        // The profile's next number, as `svc invoice create` gives it (invoices/numbering.ts).
        const number = await (await import('../invoices/numbering.js')).numberForInvoice(ctx, draft, key, {reserve: true})
        if (number) draft.external_reference = number
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

export const invoicesGet: ToolDefinition = {
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

export const invoicesList: ToolDefinition = {
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

export const invoicesPublish: ToolDefinition = {
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

export const invoicesSend: ToolDefinition = {
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

export const invoicesCancel: ToolDefinition = {
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

export const invoicesPdf: ToolDefinition = {
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
