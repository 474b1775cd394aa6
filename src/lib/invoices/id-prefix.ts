/**
 * An invoice id as a table shows it at 80 columns, shortened to a prefix and ending in `…`
 * (`inv_test_0VcF…`, io/table.ts): the invoice commands take it back. The service has no search by
 * prefix, so its list is read, newest first, up to MAX_SCANNED invoices: one match is the invoice;
 * several are refused, listing them; none is "not found".
 */
import {InputError, SvcError, ExitCode} from '../errors.js'
import {t} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import {displayWidth} from '../io/table.js'
import type {InvoiceApi} from './flows.js'
import type {Invoice} from './types.js'

const MAX_SCANNED = 2000
const MAX_LISTED = 10

/** The prefix of an id given shortened (ending in `…` or `...`), else undefined. */
export function shortenedId(given: string): string | undefined {
  const match = /^(\S+?)(?:…|\.\.\.)$/.exec(given.trim())
  return match?.[1]
}

export async function resolveInvoicePrefix(api: InvoiceApi, prefix: string): Promise<string> {
  const {listPages} = await import('../api/index.js')
  const operation = api.service.operations['invoice.list']
  const found: Invoice[] = []
  let scanned = 0
  const pages = listPages<Invoice>(api.client, {
    method: operation.method,
    path: operation.path,
    operation: 'invoice.list',
    query: {},
    shape: api.service.lists.invoices,
    pageSize: 100,
    style: 'page',
    start: 1,
  })
  for await (const page of pages) {
    scanned += page.items.length
    found.push(...page.items.filter((invoice) => invoice.id.startsWith(prefix)))
    if (found.length > MAX_LISTED || scanned >= MAX_SCANNED) break
  }
  if (found.length === 1) return found[0]!.id
  if (found.length === 0) {
    throw new SvcError(t('invoice.prefix.none', {prefix: quoteInput(`${prefix}…`), scanned}), {exitCode: ExitCode.NOT_FOUND, code: 'not_found', field: 'id'})
  }
  const listed = found.slice(0, MAX_LISTED)
  // In columns: the id, the customer (padded to the longest), the number.
  const width = Math.max(...listed.map((invoice) => displayWidth(invoice.customer_name)))
  const lines = listed.map((invoice) =>
    t('invoice.prefix.candidate', {id: invoice.id, customer: invoice.customer_name + ' '.repeat(width - displayWidth(invoice.customer_name)), reference: invoice.external_reference ?? ''}).trimEnd(),
  )
  throw new InputError(`${t('invoice.prefix.ambiguous', {prefix: quoteInput(`${prefix}…`), count: found.length > MAX_LISTED ? `${MAX_LISTED}+` : found.length})}\n${lines.join('\n')}`, {
    field: 'id',
    code: 'ambiguous_id',
    hint: t('invoice.prefix.hint'),
  })
}
