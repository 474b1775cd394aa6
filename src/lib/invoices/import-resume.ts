/**
 * `svc invoice import`, resuming: the results file of an earlier run, read back so that a re-run
 * skips, without a request, the rows it records as done. A row is matched by its Idempotency-Key,
 * which is derived from the row's content (import-rows.ts `rowKey`): an edited row has another key
 * and is sent. Done means created (or replayed), and, when this run publishes, published, and
 * delivered by the same channel when one is asked. `--recheck` skips this and asks the service.
 * A results file that is missing or unreadable resumes nothing: every row goes to the service,
 * whose idempotency keys still keep it from creating anything twice.
 */
import {detectDelimiter, parseCsv} from './csv.js'
import {RESULT_COLUMNS, resultsFormat} from './import-results.js'
import {decodeImportFile} from './import-text.js'
import type {RowResult} from './import-run.js'
import type {Delivery} from './types.js'

function asRecord(raw: Record<string, unknown>): RowResult | undefined {
  const text = (name: string) => {
    const value = raw[name]
    return value === undefined || value === null || value === '' ? undefined : String(value)
  }
  const flag = (name: string) => {
    const value = raw[name]
    return value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined
  }
  const status = text('status')
  const key = text('idempotency_key')
  if (!key || (status !== 'created' && status !== 'existing')) return undefined
  const total = Number(text('total_amount'))
  return {
    row: Number(text('row')) || 0,
    status,
    invoice_id: text('invoice_id'),
    invoice_status: text('invoice_status'),
    checkout_url: text('checkout_url'),
    total_amount: Number.isFinite(total) ? total : undefined,
    published: flag('published'),
    channel: text('channel'),
    idempotency_key: key,
  }
}

/** Rows of an earlier run that created (or replayed) an invoice, by Idempotency-Key. */
export async function readEarlierResults(path: string): Promise<Map<string, RowResult>> {
  const out = new Map<string, RowResult>()
  let text: string
  try {
    // In the dialect it was written in (its input's): a BOM, else UTF-8 or Windows-1252; its separator.
    text = decodeImportFile(await (await import('node:fs/promises')).readFile(path), path).text
  } catch {
    return out
  }
  let records: Array<Record<string, unknown>> = []
  try {
    const format = resultsFormat(path)
    if (format === 'json') records = JSON.parse(text) as Array<Record<string, unknown>>
    else if (format === 'jsonl') records = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>)
    else {
      const [header, ...rows] = parseCsv(text, detectDelimiter(text, RESULT_COLUMNS))
      const names = header?.fields ?? []
      records = rows.map((r) => Object.fromEntries(names.map((name, i) => [name, r.fields[i]])))
    }
  } catch {
    // A results file cut short by a kill: use what could be read, or nothing.
  }
  if (!Array.isArray(records)) return out
  for (const raw of records) {
    if (!raw || typeof raw !== 'object') continue
    const record = asRecord(raw)
    if (record?.invoice_id) out.set(record.idempotency_key!, record)
  }
  return out
}

/** Whether an earlier run's record of the row is all this run would do. */
export function isDone(earlier: RowResult, publish: Delivery | undefined): boolean {
  if (!earlier.invoice_id) return false
  if (!publish) return true
  if (earlier.published !== true) return false
  return publish.channel === undefined || earlier.channel === publish.channel
}
