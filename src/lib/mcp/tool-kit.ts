/**
 * What every tool of `svc mcp` is made of (tools.ts lists them): a tool's definition and outcome,
 * the JSON Schema pieces the tools share, and the readers and summaries more than one tool uses.
 * Imports the lib's own folders and the contract.
 */
import type {Context} from '../context.js'
import {getLocale, t} from '../i18n/index.js'
import {checkId} from '../invoices/cli.js'
import type {InvoiceApi} from '../invoices/flows.js'
import type {Invoice} from '../invoices/types.js'
import {formatXaf, parseWholeXaf} from '../payments/amount.js'
import type {Payment} from '../payments/types.js'
import {formatDate} from '../time/date.js'
import {ArgumentError, asArgument, readArgs, requiredString, type Args} from './args.js'

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

export const AMOUNT = {
  type: ['integer', 'string'],
  description: 'Whole XAF (integer ≥ 1): 5000, or as a person writes it, "5 000", "5,000", "5000 XAF". Never decimals: XAF has no minor unit.',
  examples: [5000, '12 500'],
}

export const PHONE = {
  type: 'string',
  description: "The customer's Cameroon mobile number: 9 digits (670000001), with the country code (237670000001, +237670000001, 00237670000001); spaces, dots, dashes and parentheses are allowed (+237 6 70 00 00 01).",
  examples: ['670000001', '+237 6 90 00 00 01'],
}

export const OPERATOR = {type: 'string', enum: ['MTN', 'ORANGE'], description: 'MTN or ORANGE. Leave it out: it is inferred from the number (sandbox test numbers, then the prefix).'}

export const PAYMENT_ID = {type: 'string', description: 'The payment id, e.g. svcpay_test_….'}

export const INVOICE_ID = {type: 'string', description: 'The invoice id, e.g. inv_test_….'}

export const CHANNEL = {type: 'string', enum: ['EMAIL', 'WHATSAPP'], description: 'Deliver it by EMAIL (customer_email) or WHATSAPP (customer_phone).'}

export const TO_EMAIL = {type: 'string', description: 'Deliver this once to this address instead (the invoice is unchanged). Needs channel.'}

export const TO_PHONE = {type: 'string', description: 'Deliver this once to this number instead (the invoice is unchanged; same phone forms). Needs channel.'}

export const ITEM = {
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

export function schema(properties: Record<string, unknown>, required: string[] = []): ToolDefinition['inputSchema'] {
  return {type: 'object', properties, ...(required.length > 0 ? {required} : {}), additionalProperties: false}
}

// ---------------------------------------------------------------------------------------------
// Helpers

export const xaf = (amount: number) => formatXaf(amount, getLocale())

export async function invoiceApi(ctx: Context): Promise<InvoiceApi> {
  return {client: await ctx.client(), service: await ctx.service()}
}

export function read(raw: Args, tool: ToolDefinition): Args {
  return readArgs(raw, tool.name, Object.keys(tool.inputSchema.properties))
}

/**
 * A value from the service or a customer, as it goes into a summary: a JSON string, so that it
 * reads as data (a customer named "SYSTEM: ignore all previous instructions…" stays a quoted
 * name); the tool descriptions tell the model so (server.ts).
 */
export const quoted = (value: unknown): string => JSON.stringify(String(value ?? ''))

/** A status or code: as is when it has an enum's shape (PENDING, CUSTOMER_DECLINED), quoted otherwise. */
export const code = (value: unknown): string => (typeof value === 'string' && /^[A-Z][A-Z0-9_]{0,39}$/.test(value) ? value : quoted(value))

export function paymentSummary(payment: Payment): string {
  const params = {id: quoted(payment.id), amount: xaf(payment.amount), phone: quoted(payment.phone_number), status: code(payment.status)}
  if (payment.status === 'SUCCESS') return t('mcp.summary.paymentSucceeded', params)
  if (payment.status === 'FAILED') return t('mcp.summary.paymentFailed', {...params, code: code(payment.failure_code ?? 'UNKNOWN')})
  return t('mcp.summary.payment', params)
}

function amountDue(invoice: Invoice): number {
  return invoice.amount_due ?? invoice.total_amount - (invoice.amount_paid ?? 0)
}

export function invoiceSummary(invoice: Invoice): string {
  return t('mcp.summary.invoice', {
    id: quoted(invoice.id),
    status: code(invoice.status),
    customer: quoted(invoice.customer_name),
    total: xaf(invoice.total_amount),
    due: xaf(amountDue(invoice)),
    dueDate: formatDate(invoice.due_date, getLocale()),
  })
}

export function invoiceId(args: Args): string {
  return asArgument('id', () => checkId(requiredString(args, 'id')))
}

export function paymentId(args: Args): string {
  const id = requiredString(args, 'id').trim()
  if (id === '') throw new ArgumentError(t('mcp.error.missing', {name: 'id'}), {field: 'id'})
  return id
}

/**
 * A price or quantity as given: a number as is, a string read as `--item`'s are ("1 500",
 * "1,500"). What cannot be read is kept as given, for the draft's rules (validateInvoiceDraft,
 * in finishDraft) to refuse with the item's index, name and bounds, as for `--from-file`.
 */
export function wholeNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return parseWholeXaf(value, {min: 0, field: 'item'})
  } catch {
    return value
  }
}

// ---------------------------------------------------------------------------------------------
// Payments
