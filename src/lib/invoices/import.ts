/**
 * `svc invoice import FILE`: many invoices from a CSV or JSON-lines file.
 *
 * 1. Read and check EVERY row locally first (the same checks as `invoice create`); bad rows are
 *    all listed with their line numbers and nothing is created, unless --skip-invalid.
 * 2. One Idempotency-Key per row, derived from the row itself (see `rowKey`), so running the same
 *    file again, after a crash, a Ctrl-C or a SIGKILL, replays the rows already created instead of
 *    creating them twice, and creates the missing ones.
 * 3. Requests go through the client's pacer (SVC_RATE_LIMIT or --rate, requests per minute) with a
 *    few in flight; a 429 is retried by the client with the same key (Retry-After honoured).
 * 4. A results file (row → invoice id and checkout_url, or the error), appended as rows finish so
 *    a killed run leaves what it did, then rewritten in row order at the end.
 *
 * CSV columns (header row, any order, case-insensitive): customer_name, due_date, items (required);
 * customer_email, customer_phone, discount_percent, notes, external_reference, cover_image_url,
 * currency (optional). `items` holds one or more NAME:PRICE:QTY separated by `;`
 * ("Bread:500:3; Cake:2500:1"). JSON lines: one create body per line, as `--from-file` takes.
 */
import {createHash} from 'node:crypto'

import {ApiError, ExitCode, InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import {parseCsv, CsvSyntaxError, csvLine} from './csv.js'
import type {InvoiceDraft} from './draft.js'
import {createInvoice, publishInvoice, type InvoiceApi} from './flows.js'
import {DRAFT_FIELDS, draftFromJson, finishDraft} from './input.js'
import {parseItemSpec} from './items.js'
import type {Totals} from '../../contract/totals.js'
import type {Delivery} from './types.js'

export type ImportFormat = 'csv' | 'jsonl' | 'json'

export interface SourceRow {
  /** 1-based position among the data rows. */
  row: number
  /** 1-based line of the file where the row starts (undefined for a JSON array). */
  line?: number
  /** Turns the raw row into a body; throws InputError. */
  build: () => InvoiceDraft
}

export interface CheckedRow {
  row: number
  line?: number
  draft?: InvoiceDraft
  totals?: Totals
  key?: string
  error?: {field?: string; message: string}
}

export const REQUIRED_COLUMNS = ['customer_name', 'due_date', 'items'] as const

export function formatOf(path: string, text: string): ImportFormat {
  const lower = path.toLowerCase()
  if (lower.endsWith('.csv')) return 'csv'
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl'
  if (lower.endsWith('.json')) return text.replace(/^\uFEFF/, '').trimStart().startsWith('[') ? 'json' : 'jsonl'
  throw new InputError(t('invoice.import.format', {field: 'file', path}), {field: 'file'})
}

/** `items` cell: NAME:PRICE:QTY entries separated by `;`. */
export function parseItemsCell(cell: string) {
  const specs = cell.split(';').map((s) => s.trim()).filter((s) => s !== '')
  return specs.map((spec) => parseItemSpec(spec, 'item'))
}

export function readSourceRows(path: string, text: string): {format: ImportFormat; rows: SourceRow[]} {
  const format = formatOf(path, text)
  if (format === 'csv') return {format, rows: csvRows(text)}
  if (format === 'json') return {format, rows: jsonArrayRows(text)}
  return {format, rows: jsonLineRows(text)}
}

function csvRows(text: string): SourceRow[] {
  let records
  try {
    records = parseCsv(text)
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new InputError(t('invoice.import.csvSyntax', {line: error.line, reason: error.message}), {field: 'file'})
    throw error
  }
  const header = records.shift()
  if (!header) throw new InputError(t('invoice.import.empty', {field: 'file'}), {field: 'file'})
  const columns = header.fields.map((name) => name.trim().toLowerCase())
  const unknown = columns.filter((c) => !(DRAFT_FIELDS as readonly string[]).includes(c))
  if (unknown.length > 0) {
    throw new InputError(t('invoice.import.unknownColumns', {columns: unknown.map((c) => quoteInput(c, 30)).join(', '), allowed: DRAFT_FIELDS.join(', ')}), {field: 'file'})
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c))
  if (missing.length > 0) throw new InputError(t('invoice.import.missingColumns', {columns: missing.join(', ')}), {field: 'file'})
  const duplicated = columns.filter((c, i) => columns.indexOf(c) !== i)
  if (duplicated.length > 0) throw new InputError(t('invoice.import.duplicateColumns', {columns: duplicated.join(', ')}), {field: 'file'})

  return records.map((record, index) => ({
    row: index + 1,
    line: record.line,
    build: () => {
      if (record.fields.length !== columns.length) {
        throw new InputError(t('invoice.import.fieldCount', {count: record.fields.length, expected: columns.length}), {field: 'file'})
      }
      const body: Record<string, unknown> = {}
      columns.forEach((column, i) => {
        const cell = record.fields[i]!.trim()
        if (cell === '') return
        if (column === 'items') body.items = parseItemsCell(cell)
        else if (column === 'discount_percent') {
          if (!/^\d+(\.\d+)?$/.test(cell)) throw new InputError(t('domain.draft.discount', {field: 'discount', value: quoteInput(cell)}), {field: 'discount'})
          body.discount_percent = Number(cell)
        } else body[column] = cell
      })
      return draftFromJson(body, 'file')
    },
  }))
}

function jsonLineRows(text: string): SourceRow[] {
  const rows: SourceRow[] = []
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/)
  lines.forEach((content, i) => {
    if (content.trim() === '') return
    rows.push({
      row: rows.length + 1,
      line: i + 1,
      build: () => {
        let value: unknown
        try {
          value = JSON.parse(content)
        } catch (error) {
          throw new InputError(t('invoice.import.badJson', {reason: (error as Error).message}), {field: 'file'})
        }
        return draftFromJson(value, 'file')
      },
    })
  })
  return rows
}

function jsonArrayRows(text: string): SourceRow[] {
  let value: unknown
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new InputError(t('invoice.import.badJson', {reason: (error as Error).message}), {field: 'file'})
  }
  if (!Array.isArray(value)) throw new InputError(t('invoice.import.badJson', {reason: 'not an array'}), {field: 'file'})
  return value.map((item, index) => ({row: index + 1, build: () => draftFromJson(item, 'file')}))
}

/** JSON with keys sorted at every level: the same body always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * The row's Idempotency-Key: SHA-256 of the row's canonical body and its occurrence number among
 * identical bodies in the file (the 2nd identical row is another invoice), shaped as a UUID.
 *
 * Deliberately NOT the hash of the whole file: after `--skip-invalid`, fixing the bad rows and
 * running the file again must not re-create (with new keys) every row that was already created;
 * nor must inserting, removing or reordering rows. A row edited between runs gets a new key (it
 * is a different invoice). The service keeps keys 24 hours.
 */
export function rowKey(draft: InvoiceDraft, occurrence: number): string {
  const hex = createHash('sha256').update(`svc-invoice-import/1\n${canonicalJson(draft)}\n${occurrence}`).digest('hex')
  // UUID layout, version 8 (custom), RFC 9562 variant.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** Every row built and checked; keys assigned to the good ones. Never throws for a bad row. */
export function checkRows(rows: SourceRow[], extraCheck?: (draft: InvoiceDraft) => void): CheckedRow[] {
  const seen = new Map<string, number>()
  return rows.map((source) => {
    try {
      const built = source.build()
      const {draft, totals} = finishDraft(built)
      extraCheck?.(draft)
      const canonical = canonicalJson(draft)
      const occurrence = (seen.get(canonical) ?? 0) + 1
      seen.set(canonical, occurrence)
      return {row: source.row, line: source.line, draft, totals, key: rowKey(draft, occurrence)}
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      return {row: source.row, line: source.line, error: {field: error.field, message: error.message}}
    }
  })
}

export function where(row: {row: number; line?: number}): string {
  return row.line === undefined ? t('invoice.import.atRow', {row: row.row}) : t('invoice.import.atLine', {line: row.line})
}

/** Every bad row at once, exit 2, nothing created. `--json`: the rows under `error.rows`. */
export class ImportValidationError extends InputError {
  constructor(
    readonly rows: CheckedRow[],
    total: number,
  ) {
    const list = rows.map((r) => `  ${where(r)}: ${r.error!.message}`).join('\n')
    super(`${t('invoice.import.invalidRows', {count: rows.length, total})}\n${list}`, {
      field: 'file',
      code: 'invalid_rows',
      hint: t('invoice.import.invalidHint'),
    })
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      rows: this.rows.map((r) => ({row: r.row, line: r.line ?? null, field: r.error?.field ?? null, message: r.error?.message})),
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Running

export type RowStatus = 'created' | 'existing' | 'invalid' | 'failed' | 'not_attempted'

export interface RowResult {
  row: number
  line?: number
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
}

export interface RunOptions {
  /** Publish each invoice after creating it (with a channel: delivered too). */
  publish?: Delivery
  /** Requests in flight at once (the pacer still spaces them). */
  concurrency: number
  signal?: AbortSignal
  onResult?: (result: RowResult) => void
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
    record({row: row.row, line: row.line, status: 'not_attempted', idempotency_key: row.key, error_code: fatal?.code ?? 'interrupted', error: fatal?.message})
  }
  if (fatal) throw fatal
  return results.sort((a, b) => a.row - b.row)
}

async function runRow(api: InvoiceApi, row: CheckedRow, options: RunOptions, onFatal: (error: SvcError) => void): Promise<RowResult> {
  const base: RowResult = {row: row.row, line: row.line, status: 'failed', idempotency_key: row.key}
  let result: RowResult = base
  try {
    const created = await createInvoice(api, row.draft!, row.key!, options.signal)
    const invoice = created.invoice
    result = {
      ...base,
      status: created.replayed ? 'existing' : 'created',
      invoice_id: invoice.id,
      invoice_status: invoice.status,
      checkout_url: invoice.checkout_url,
      total_amount: invoice.total_amount,
    }
    if (options.publish) {
      const published = await publishInvoice(api, invoice.id, options.publish, options.signal)
      result = {...result, invoice_status: published.status, checkout_url: published.checkout_url ?? result.checkout_url, published: true}
    }
    return result
  } catch (error) {
    if (!(error instanceof SvcError)) throw error
    // Every other row would fail the same way: stop (the key or its scope, or Ctrl-C).
    if (error.exitCode === ExitCode.AUTH || error.exitCode === ExitCode.INTERRUPTED) onFatal(error)
    const failed: RowResult = {...result, error_code: error.code, error: error.message}
    if (result.invoice_id) failed.published = false
    else failed.status = 'failed'
    if (error instanceof ApiError && error.errors?.length) failed.error += ` (${error.errors.map((e) => `${e.field}: ${e.message}`).join('; ')})`
    return failed
  }
}

// ---------------------------------------------------------------------------------------------
// Results file

export const RESULT_COLUMNS = ['row', 'line', 'status', 'invoice_id', 'invoice_status', 'checkout_url', 'total_amount', 'published', 'idempotency_key', 'error_code', 'error'] as const

export function resultsFormat(path: string): 'csv' | 'json' | 'jsonl' {
  const lower = path.toLowerCase()
  if (lower.endsWith('.json')) return 'json'
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl'
  return 'csv'
}

function resultRecord(result: RowResult): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const column of RESULT_COLUMNS) out[column] = result[column] ?? null
  return out
}

/** The results file, appended to as rows finish and rewritten in row order at the end. */
export class ResultsWriter {
  private readonly format: 'csv' | 'json' | 'jsonl'
  private started = false

  constructor(readonly path: string) {
    this.format = resultsFormat(path)
  }

  /** Appends one finished row (CSV and JSON lines; a .json file is written whole at the end). */
  async append(result: RowResult): Promise<void> {
    if (this.format === 'json') return
    const {appendFile, chmod, writeFile} = await import('node:fs/promises')
    if (!this.started) {
      this.started = true
      // Customers' names, emails and phones: 0600 (mode applies on creation; tighten an old file).
      await writeFile(this.path, this.format === 'csv' ? csvLine([...RESULT_COLUMNS]) : '', {mode: 0o600})
      await chmod(this.path, 0o600)
    }
    await appendFile(this.path, this.encodeOne(result))
  }

  private encodeOne(result: RowResult): string {
    const record = resultRecord(result)
    return this.format === 'csv' ? csvLine(RESULT_COLUMNS.map((c) => record[c])) : `${JSON.stringify(record)}\n`
  }

  /** Writes every row in order, atomically (temp file, then rename). */
  async finish(results: RowResult[]): Promise<void> {
    const {writeFile, rename} = await import('node:fs/promises')
    const sorted = [...results].sort((a, b) => a.row - b.row)
    let text: string
    if (this.format === 'json') text = `${JSON.stringify(sorted.map(resultRecord), null, 2)}\n`
    else text = (this.format === 'csv' ? csvLine([...RESULT_COLUMNS]) : '') + sorted.map((r) => this.encodeOne(r)).join('')
    const temporary = `${this.path}.${process.pid}.tmp`
    await writeFile(temporary, text, {mode: 0o600})
    await rename(temporary, this.path)
  }
}

export interface ImportSummary {
  rows: number
  created: number
  existing: number
  published: number
  invalid: number
  failed: number
  not_attempted: number
}

export function summarise(results: RowResult[]): ImportSummary {
  const count = (status: RowStatus) => results.filter((r) => r.status === status).length
  return {
    rows: results.length,
    created: count('created'),
    existing: count('existing'),
    published: results.filter((r) => r.published === true).length,
    invalid: count('invalid'),
    failed: count('failed') + results.filter((r) => r.published === false).length,
    not_attempted: count('not_attempted'),
  }
}
