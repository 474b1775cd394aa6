/**
 * `svc invoice import`, the rows: the file read (CSV, JSON lines or a JSON array) into rows, every
 * row built and checked locally (the same checks as `invoice create`), each good row given its
 * Idempotency-Key (`rowKey`), and the bad ones listed together (`ImportValidationError`).
 *
 * CSV columns (header row, any order, case-insensitive): customer_name, due_date, items (required);
 * customer_email, customer_phone, discount_percent, notes, external_reference, cover_image_url,
 * currency (optional). `items` holds one or more NAME:PRICE:QTY separated by `;`
 * ("Bread:500:3; Cake:2500:1"). JSON lines: one create body per line, as `--from-file` takes.
 */
import {createHash} from 'node:crypto'

import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import {detectDelimiter, parseCsv, CsvSyntaxError} from './csv.js'
import type {InvoiceDraft} from './draft.js'
import {DRAFT_FIELDS, draftFromJson, finishDraft} from './input.js'
import {parseItemSpec} from './items.js'
import type {Totals} from '../../contract/totals.js'

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
    records = parseCsv(text, detectDelimiter(text, DRAFT_FIELDS))
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
          // A French spreadsheet writes 12,5.
          const decimal = cell.replace(/\s*%$/, '').replace(',', '.')
          if (!/^\d+(\.\d+)?$/.test(decimal)) throw new InputError(t('domain.draft.discount', {field: 'discount', value: quoteInput(cell)}), {field: 'discount'})
          body.discount_percent = Number(decimal)
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

/**
 * The checks are the same as `invoice create`'s, whose messages name flags (`--customer-name`);
 * in a file the person wrote columns (`customer_name`), so a row's error names the column.
 */
const COLUMN_OF_FLAG: Record<string, string> = {
  'customer-name': 'customer_name',
  'due-date': 'due_date',
  email: 'customer_email',
  phone: 'customer_phone',
  item: 'items',
  discount: 'discount_percent',
  notes: 'notes',
  'external-reference': 'external_reference',
  cover: 'cover_image_url',
}

function inColumnTerms(error: InputError): {field?: string; message: string} {
  const column = error.field === undefined ? undefined : COLUMN_OF_FLAG[error.field]
  if (!column) return {field: error.field, message: error.message}
  return {field: column, message: error.message.split(`--${error.field}`).join(column)}
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
      return {row: source.row, line: source.line, error: inColumnTerms(error)}
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
