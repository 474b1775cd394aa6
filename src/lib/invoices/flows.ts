/**
 * Invoices, as the CLI drives them. Every path comes from the service's description
 * (ctx.service(): its /v1/openapi.json, else svc's choices of docs/service.md), never hard-wired, since the spec
 * leaves read, publish, cancel and PDF "not shown".
 *
 * Create always carries an Idempotency-Key, and the client retries it (only then) with that same
 * key, so a lost answer never makes a second invoice. Send is never retried (it would deliver
 * twice); publish and cancel may be (the contract makes them safe to repeat).
 */
import {randomUUID} from 'node:crypto'

import type {ApiClient, ApiResponse, ListShape, OperationName, ServiceDescription} from '../api/index.js'
import {ExitCode, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import type {InvoiceDraft} from './draft.js'
import type {Delivery, Invoice, PdfLink, SendResult} from './types.js'

export interface InvoiceApi {
  client: ApiClient
  service: ServiceDescription
}

async function call<T>(
  api: InvoiceApi,
  name: OperationName,
  options: {id?: string; body?: unknown; query?: Record<string, string | number | undefined>; idempotencyKey?: string; signal?: AbortSignal} = {},
): Promise<ApiResponse<T>> {
  const {fillPath} = await import('../api/index.js')
  const operation = api.service.operations[name]
  const path = options.id === undefined ? operation.path : fillPath(operation.path, options.id)
  return api.client.request<T>({
    method: operation.method,
    path,
    operation: name,
    body: options.body,
    query: options.query,
    idempotencyKey: options.idempotencyKey,
    signal: options.signal,
  })
}

/** A fresh Idempotency-Key (a UUID, as the spec recommends). */
export function newIdempotencyKey(): string {
  return randomUUID()
}

export interface CreateResult {
  invoice: Invoice
  /** The service replayed an earlier answer to the same key: nothing new was created. */
  replayed: boolean
  idempotencyKey: string
}

export async function createInvoice(
  api: InvoiceApi,
  draft: InvoiceDraft,
  idempotencyKey: string,
  signal?: AbortSignal,
): Promise<CreateResult> {
  const response = await call<Invoice>(api, 'invoice.create', {body: draft, idempotencyKey, signal})
  return {invoice: response.data, replayed: response.replayed, idempotencyKey}
}

export async function getInvoice(api: InvoiceApi, id: string): Promise<Invoice> {
  return (await call<Invoice>(api, 'invoice.get', {id})).data
}

/** The publish/send body: `channel`, `override_email`, `override_phone` (only those given). */
export function deliveryBody(delivery: Delivery): Record<string, string> | undefined {
  const body: Record<string, string> = {}
  if (delivery.channel) body.channel = delivery.channel
  if (delivery.toEmail) body.override_email = delivery.toEmail
  if (delivery.toPhone) body.override_phone = delivery.toPhone
  return Object.keys(body).length > 0 ? body : undefined
}

export async function publishInvoice(api: InvoiceApi, id: string, delivery: Delivery = {}, signal?: AbortSignal): Promise<Invoice> {
  return (await call<Invoice>(api, 'invoice.publish', {id, body: deliveryBody(delivery), signal})).data
}

export async function sendInvoice(api: InvoiceApi, id: string, delivery: Delivery = {}): Promise<SendResult> {
  return (await call<SendResult>(api, 'invoice.send', {id, body: deliveryBody(delivery) ?? {}})).data
}

export async function cancelInvoice(api: InvoiceApi, id: string): Promise<Invoice> {
  return (await call<Invoice>(api, 'invoice.cancel', {id})).data
}

export interface ListOptions {
  status?: string
  page?: number
  pageSize?: number
  /** Follow every page. */
  all?: boolean
  onPage?: (fetched: number, total?: number) => void
}

export interface ListResult {
  items: Invoice[]
  total?: number
  hasMore: boolean
}

export async function listInvoices(api: InvoiceApi, options: ListOptions): Promise<ListResult> {
  const {listPages} = await import('../api/index.js')
  const operation = api.service.operations['invoice.list']
  const items: Invoice[] = []
  const pages = listPages<Invoice>(api.client, {
    method: operation.method,
    path: operation.path,
    operation: 'invoice.list',
    query: {status: options.status},
    shape: api.service.lists.invoices,
    pageSize: options.all ? 100 : (options.pageSize ?? 20),
    style: 'page',
    start: options.all ? 1 : (options.page ?? 1),
  })
  for await (const page of pages) {
    items.push(...page.items)
    options.onPage?.(items.length, page.total)
    if (!options.all || !page.hasMore) return {items, total: page.total, hasMore: page.hasMore}
  }
  return {items, hasMore: false}
}

/** `%PDF-`: the first bytes of every PDF file. */
export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-'
}

/**
 * The rendered PDF: the signed `pdf_url` from the service, then its bytes (fetched without the
 * key: the URL is signed, and the client never sends the key off the base URL's origin anyway).
 * Anything that is not a PDF is an error; the caller writes nothing.
 */
export async function fetchInvoicePdf(api: InvoiceApi, id: string): Promise<{link: PdfLink; url: string; bytes: Buffer}> {
  const link = (await call<PdfLink>(api, 'invoice.pdf', {id})).data
  // The field's name comes from the service's description (`pdf_url`, svc's choice in docs/service.md, when it does not say).
  const field = api.service.fields?.pdfUrl ?? 'pdf_url'
  const record = link && typeof link === 'object' ? (link as unknown as Record<string, unknown>) : {}
  const url = record[field] ?? record.pdf_url
  if (typeof url !== 'string' || url === '') {
    throw new SvcError(t('invoice.pdf.noUrl', {id, field}), {exitCode: ExitCode.UNAVAILABLE, code: 'invalid_response'})
  }
  const response = await api.client.request<Buffer>({method: 'GET', path: url, auth: false, responseType: 'buffer'})
  const bytes = response.data
  if (!isPdf(bytes)) {
    const contentType = response.headers['content-type']
    throw new SvcError(t('invoice.pdf.notPdf', {id, type: String(Array.isArray(contentType) ? contentType[0] : (contentType ?? '?')), bytes: bytes.length}), {
      exitCode: ExitCode.UNAVAILABLE,
      code: 'invalid_response',
    })
  }
  return {link, url, bytes}
}
