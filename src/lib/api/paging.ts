/**
 * Reading a list page by page: the one loop every list-following command uses (pay list --all,
 * invoice list --all, the reports). Paths come from the service's description; the envelope is
 * read with extractList; whether another page exists comes from the envelope's own has_more,
 * else its total, else a full page.
 */
import type {ApiClient, Query} from './client.js'
import {extractList, type ListShape} from './discovery.js'
import type {OperationName} from './retry.js'

export interface PageRequest {
  method: string
  path: string
  operation?: OperationName
  /** Filters (e.g. status); the paging parameters are added here. */
  query?: Query
  shape?: ListShape
  pageSize: number
  /** `offset`: limit/offset (payments); `page`: page/page_size, 1-based (invoices). */
  style: 'offset' | 'page'
  /** The first offset or page number (default 0, or page 1). */
  start?: number
}

export interface Page<T> {
  items: T[]
  total?: number
  hasMore: boolean
}

export async function* listPages<T>(client: ApiClient, request: PageRequest): AsyncGenerator<Page<T>> {
  const byPage = request.style === 'page'
  let position = request.start ?? (byPage ? 1 : 0)
  for (;;) {
    const paging = byPage ? {page: position, page_size: request.pageSize} : {limit: request.pageSize, offset: position}
    const response = await client.request<unknown>({
      method: request.method,
      path: request.path,
      operation: request.operation,
      query: {...request.query, ...paging},
    })
    const list = extractList<T>(response.data, request.shape)
    const before = byPage ? (position - 1) * request.pageSize : position
    const hasMore =
      list.items.length > 0 &&
      (list.hasMore ?? (list.total !== undefined ? before + list.items.length < list.total : list.items.length === request.pageSize))
    yield {items: list.items, total: list.total, hasMore}
    if (!hasMore) return
    position += byPage ? 1 : list.items.length
  }
}
