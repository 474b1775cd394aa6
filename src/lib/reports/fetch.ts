/**
 * Reading whole lists for a report: every page, at the page size asked for, through the client
 * (which paces itself under the rate limit and retries safe reads). Paths and envelopes come from
 * the service's description (ctx.service()). The list functions of payments/ and invoices/ read
 * every page at 100 only; a report also takes --page-size, so it drives the pages itself.
 */
import type {ApiClient, ServiceDescription} from '../api/index.js'
import type {Invoice} from '../invoices/types.js'
import type {Payment} from '../payments/types.js'
import {OPEN_STATUSES} from './receivables.js'

export interface FetchOptions {
  pageSize: number
  /** Items read so far (after each page). */
  onPage?: (fetched: number) => void
}

/**
 * The open invoices: every page of `status=UNPAID`, then of `status=PAST_DUE`, so paid and
 * cancelled invoices are never downloaded. Pages may shift while we read (an invoice paid or
 * falling past due meanwhile): the aggregation counts an id once.
 */
export async function fetchOpenInvoices(client: ApiClient, service: ServiceDescription, options: FetchOptions): Promise<Invoice[]> {
  const {listPages} = await import('../api/index.js')
  const operation = service.operations['invoice.list']
  const items: Invoice[] = []
  for (const status of OPEN_STATUSES) {
    const pages = listPages<Invoice>(client, {
      method: operation.method,
      path: operation.path,
      operation: 'invoice.list',
      query: {status},
      shape: service.lists.invoices,
      pageSize: options.pageSize,
      style: 'page',
    })
    for await (const page of pages) {
      items.push(...page.items)
      options.onPage?.(items.length)
    }
  }
  return items
}

/**
 * Payments created at or after `since`: pages newest first (the contract's order) until a page
 * ends before `since`, so an old account is not read to its first payment.
 */
export async function fetchPaymentsSince(client: ApiClient, service: ServiceDescription, since: Date, options: FetchOptions): Promise<Payment[]> {
  const {listPages} = await import('../api/index.js')
  const operation = service.operations['payment.list']
  const items: Payment[] = []
  const from = since.getTime()
  const pages = listPages<Payment>(client, {
    method: operation.method,
    path: operation.path,
    operation: 'payment.list',
    shape: service.lists.payments,
    pageSize: options.pageSize,
    style: 'offset',
  })
  for await (const page of pages) {
    items.push(...page.items)
    options.onPage?.(items.length)
    const last = page.items.at(-1)
    if (last !== undefined && Date.parse(last.created_at) < from) break
  }
  return items
}
