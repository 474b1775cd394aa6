/**
 * `svc invoice import`, the run: the checked rows created (and published) a few at a time. The
 * requests go through the client's pacer (SVC_RATE_LIMIT or --rate, requests per minute); a 429 is
 * retried by the client with the same Idempotency-Key (Retry-After honoured). Each finished row is
 * handed to `onResult` at once (the results file is its journal); a failed row does not stop the
 * others, except one that would fail them all: auth, Ctrl-C, and the service gone (no answer, or
 * a 5xx after the client's retries), where every next row would wait out the same retries.
 */
import {ApiError, ExitCode, NetworkError, SvcError} from '../errors.js'
import {createInvoice, getInvoice, publishInvoice, type InvoiceApi} from './flows.js'
import type {CheckedRow} from './import-rows.js'
import type {Delivery} from './types.js'

export type RowStatus = 'created' | 'existing' | 'invalid' | 'failed' | 'not_attempted'

export interface RowResult {
  row: number
  line?: number
  /** Who the row is for, as the file says it. */
  customer_name?: string
  external_reference?: string
  status: RowStatus
  invoice_id?: string
  invoice_status?: string
  checkout_url?: string
  total_amount?: number
  idempotency_key?: string
  error_code?: string
  error?: string
  /** After a create whose publish failed: the invoice exists as a DRAFT. */
  published?: boolean
  /** A row an earlier run created AND published: this run published nothing. */
  already_published?: boolean
  /** The channel it was delivered by, when this run published with one. */
  channel?: string
  /** Recorded as done in the results file of an earlier run: skipped without a request. */
  skipped?: boolean
}

export interface RunOptions {
  /** Publish each invoice after creating it (with a channel: delivered too). */
  publish?: Delivery
  /** Requests in flight at once (the pacer still spaces them). */
  concurrency: number
  signal?: AbortSignal
  onResult?: (result: RowResult) => void
  /** The invoice number for a row, reserved just before its create (invoices/numbering.ts). */
  numberFor?: (draft: NonNullable<CheckedRow['draft']>, key: string) => Promise<string | undefined>
}

/** Creates (and publishes) the checked rows; a failed row does not stop the others, except auth. */
export async function runImport(api: InvoiceApi, rows: CheckedRow[], options: RunOptions): Promise<RowResult[]> {
  const results: RowResult[] = []
  let next = 0
  let fatal: SvcError | undefined
  const record = (result: RowResult) => {
    results.push(result)
    options.onResult?.(result)
  }
  const worker = async () => {
    for (;;) {
      if (fatal || options.signal?.aborted) return
      const row = rows[next++]
      if (!row) return
      record(await runRow(api, row, options, (error) => (fatal ??= error)))
    }
  }
  await Promise.all(Array.from({length: Math.max(1, options.concurrency)}, worker))
  const done = new Set(results.map((r) => r.row))
  for (const row of rows) {
    if (done.has(row.row)) continue
    record({row: row.row, line: row.line, customer_name: row.draft?.customer_name, external_reference: row.draft?.external_reference, status: 'not_attempted', idempotency_key: row.key, error_code: fatal?.code ?? 'interrupted', error: fatal?.message})
  }
  if (fatal) throw fatal
  return results.sort((a, b) => a.row - b.row)
}

/** The service gone: no answer at all, or a 5xx the client's retries did not get past. */
export function serviceGone(error: unknown): error is SvcError {
  return error instanceof NetworkError || (error instanceof ApiError && (error.status ?? 0) >= 500)
}

async function runRow(api: InvoiceApi, row: CheckedRow, options: RunOptions, onFatal: (error: SvcError) => void): Promise<RowResult> {
  const base: RowResult = {row: row.row, line: row.line, customer_name: row.draft!.customer_name, external_reference: row.draft!.external_reference, status: 'failed', idempotency_key: row.key}
  let result: RowResult = base
  try {
    const number = await options.numberFor?.(row.draft!, row.key!)
    const created = await createInvoice(api, number ? {...row.draft!, external_reference: number} : row.draft!, row.key!, options.signal)
    const invoice = created.invoice
    result = {
      ...base,
      status: created.replayed ? 'existing' : 'created',
      // The reference the invoice carries: the file's, or the invoice number given it.
      external_reference: invoice.external_reference ?? number ?? base.external_reference,
      invoice_id: invoice.id,
      invoice_status: invoice.status,
      checkout_url: invoice.checkout_url,
      total_amount: invoice.total_amount,
    }
    // A replayed create answers with the invoice as it was created (a DRAFT): read it as it is now.
    if (options.publish && created.replayed) {
      const current = await getInvoice(api, invoice.id)
      if (current.status !== 'DRAFT') {
        return {...result, invoice_status: current.status, checkout_url: current.checkout_url ?? result.checkout_url, published: true, already_published: true}
      }
    }
    if (options.publish) {
      const published = await publishInvoice(api, invoice.id, options.publish, options.signal)
      result = {...result, invoice_status: published.status, checkout_url: published.checkout_url ?? result.checkout_url, published: true, channel: options.publish.channel}
    }
    return result
  } catch (error) {
    if (!(error instanceof SvcError)) throw error
    // Every other row would fail the same way: stop (the key or its scope, or Ctrl-C).
    if (error.exitCode === ExitCode.AUTH || error.exitCode === ExitCode.INTERRUPTED) onFatal(error)
    if (serviceGone(error)) onFatal(error)
    const failed: RowResult = {...result, error_code: error.code, error: error.message}
    if (result.invoice_id) failed.published = false
    else failed.status = 'failed'
    if (error instanceof ApiError && error.errors?.length) failed.error += ` (${error.errors.map((e) => `${e.field}: ${e.message}`).join('; ')})`
    return failed
  }
}
