/**
 * `svc api … --paginate`: every page of a list, followed through the service's envelopes as the
 * CLI's own lists read them (api/discovery.ts `extractList`): `page` (+1) when the envelope numbers
 * its pages, else `offset` (+ the items read), while it says there is more. The items of every
 * page come out as one array (a bare array, as every list of svc under --json).
 */
import {extractList} from '../api/discovery.js'

/** A bound on the pages read, against a service that always says there is more. */
const MAX_PAGES = 10_000

export async function followPages(
  first: unknown,
  query: Record<string, string>,
  fetchPage: (query: Record<string, string>) => Promise<unknown>,
): Promise<unknown[]> {
  let body = first
  let next = {...query}
  const items: unknown[] = []
  for (let pages = 1; ; pages++) {
    const list = extractList(body)
    items.push(...list.items)
    if (list.hasMore !== true || list.items.length === 0 || pages >= MAX_PAGES) return items
    const envelope = body as Record<string, unknown>
    if (typeof envelope.page === 'number') next = {...next, page: String(envelope.page + 1)}
    else {
      const offset = typeof envelope.offset === 'number' ? envelope.offset : Number(next.offset ?? 0)
      next = {...next, offset: String(offset + list.items.length)}
    }
    body = await fetchPage(next)
  }
}
