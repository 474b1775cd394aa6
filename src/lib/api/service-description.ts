/**
 * What svc needs to know of the service beyond the spec: the method and path of each operation,
 * the envelope of each list, the names of a few response fields; and the choices of
 * svc's choices (docs/service.md) that stand in for them when the service does not describe itself.
 */
import type {OperationName} from './retry.js'

export interface Operation {
  method: string
  /** A path template in full, e.g. `/v1/invoices/{invoiceId}/publish`. */
  path: string
  source: 'openapi' | 'fallback'
  operationId?: string
}

export interface ListShape {
  /** The envelope key holding the array; undefined: a bare array. */
  itemsKey?: string
  totalKey?: string
  hasMoreKey?: string
}

export type ListName = 'payments' | 'invoices'

export interface ServiceDescription {
  operations: Record<OperationName, Operation>
  lists: Record<ListName, ListShape>
  /** Names of response fields the CLI reads that the spec does not show (e.g. where the PDF link is). */
  fields: ResponseFields
  /** Where the description came from: fetched now, the cache, or the built-in fallback alone. */
  source: 'network' | 'cache' | 'fallback'
  /** When the document was fetched (ISO 8601), for network and cache. */
  fetchedAt?: string
  /** Why the fallback was used, when it was. */
  fallbackReason?: string
}

export interface ResponseFields {
  /** The field of the PDF operation's answer that carries the download link. */
  pdfUrl: string
}

/** svc's choice (docs/service.md): `GET …/pdf` → `{ "pdf_url": "...", "expires_at": "..." }`. */
export const FALLBACK_FIELDS: Readonly<ResponseFields> = {pdfUrl: 'pdf_url'}

/** svc's choices (docs/service.md, where the service's documentation is silent), and the paths it gives. */
export const FALLBACK_OPERATIONS: Readonly<Record<OperationName, {method: string; path: string}>> = {
  'payment.create': {method: 'POST', path: '/v1/payments'},
  'payment.list': {method: 'GET', path: '/v1/payments'},
  'payment.status': {method: 'GET', path: '/v1/payments/{paymentId}/status'},
  'invoice.list': {method: 'GET', path: '/v1/invoices'},
  'invoice.create': {method: 'POST', path: '/v1/invoices'},
  'invoice.get': {method: 'GET', path: '/v1/invoices/{invoiceId}'},
  'invoice.publish': {method: 'POST', path: '/v1/invoices/{invoiceId}/publish'},
  'invoice.cancel': {method: 'POST', path: '/v1/invoices/{invoiceId}/cancel'},
  'invoice.pdf': {method: 'GET', path: '/v1/invoices/{invoiceId}/pdf'},
  'invoice.send': {method: 'POST', path: '/v1/invoices/{invoiceId}/send'},
  'files.uploadUrl': {method: 'POST', path: '/v1/files/upload-url'},
  openapi: {method: 'GET', path: '/v1/openapi.json'},
}

export const FALLBACK_LISTS: Readonly<Record<ListName, ListShape>> = {
  payments: {itemsKey: 'data', totalKey: 'total', hasMoreKey: 'has_more'},
  invoices: {itemsKey: 'data', totalKey: 'total'},
}

export function fallbackOperations(): Record<OperationName, Operation> {
  const out = {} as Record<OperationName, Operation>
  for (const [name, op] of Object.entries(FALLBACK_OPERATIONS) as [OperationName, {method: string; path: string}][]) {
    out[name] = {...op, source: 'fallback'}
  }
  return out
}
