/**
 * `svc invoice import`, the rows: each row of the file built into a create body and checked
 * locally (the same checks as `invoice create`), every error of a row listed (a bad phone does not
 * hide an impossible date), each good row given its Idempotency-Key (`rowKey`), and the bad ones
 * listed together (`ImportValidationError`). The file itself is read as a stream by
 * import-source.ts; `readSourceRows` reads a text already in memory the same way.
 *
 * CSV columns (header row, any order, case-insensitive): customer_name, due_date, items (required);
 * customer_email, customer_phone, discount_percent, notes, external_reference, cover_image_url,
 * currency (optional). `items` holds one or more NAME:PRICE:QTY separated by `;`
 * ("Bread:500:3; Cake:2500:1"). JSON lines: one create body per line, as `--from-file` takes.
 * A due_date is read in the file's own order (import-dates.ts), whatever language svc speaks.
 */
import {hash} from 'node:crypto'

import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import {normalisePhone} from '../payments/phone.js'
import {detectDelimiter, parseCsv, CsvSyntaxError} from './csv.js'
import {checkText, type InvoiceDraft} from './draft.js'
import {parseFileDate, type DateOrder} from './import-dates.js'
import {DRAFT_FIELDS, draftFromJson, finishDraft} from './input.js'
import {parseItemSpec} from './items.js'
import type {Totals} from '../../contract/totals.js'
import {hasControlCharacter} from '../../contract/limits.js'

export type ImportFormat = 'csv' | 'jsonl' | 'json'

/** Who a row is for, as the file says it: repeated in the results file next to the outcome. */
export interface RowLabel {
  customer_name?: string
  external_reference?: string
}

export interface SourceRow {
  /** 1-based position among the data rows. */
  row: number
  /** 1-based line of the file where the row starts (undefined for a JSON array). */
  line?: number
  /** The row's customer and reference, read when they are needed. */
  label: () => RowLabel
  /** Turns the raw row into a body; throws InputError (RowErrors for several). */
  build: () => InvoiceDraft
}

export interface RowError {
  field?: string
  message: string
}

export interface CheckedRow {
  row: number
  line?: number
  label?: RowLabel
  draft?: InvoiceDraft
  totals?: Totals
  key?: string
  /** Every error of the row, in column order. */
  errors?: RowError[]
  /** The errors as one: the first's field, every message. */
  error?: RowError
}

/** A row with several errors: each one, with its column. */
export class RowErrors extends InputError {
  constructor(readonly errors: RowError[]) {
    super(errors.map((e) => e.message).join(' '), {field: errors[0]?.field})
  }
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
  const items = []
  for (const part of cell.split(';')) {
    const spec = part.trim()
    if (spec !== '') items.push(parseItemSpec(spec, 'item'))
  }
  return items
}

/** The header's column names, lower-cased; throws for unknown, missing or repeated ones. */
export function checkColumns(header: string[]): string[] {
  const columns = header.map((name) => name.trim().toLowerCase())
  const unknown = columns.filter((c) => !(DRAFT_FIELDS as readonly string[]).includes(c))
  if (unknown.length > 0) {
    throw new InputError(t('invoice.import.unknownColumns', {columns: unknown.map((c) => quoteInput(c, 30)).join(', '), allowed: DRAFT_FIELDS.join(', ')}), {field: 'file'})
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c))
  if (missing.length > 0) throw new InputError(t('invoice.import.missingColumns', {columns: missing.join(', ')}), {field: 'file'})
  const duplicated = columns.filter((c, i) => columns.indexOf(c) !== i)
  if (duplicated.length > 0) throw new InputError(t('invoice.import.duplicateColumns', {columns: duplicated.join(', ')}), {field: 'file'})
  return columns
}

/** The free-text columns checked cell by cell (length, control characters), by their flag. */
const FLAG_OF_TEXT_COLUMN: Record<string, Parameters<typeof checkText>[0]> = {
  customer_name: 'customer-name',
  customer_email: 'email',
  notes: 'notes',
  external_reference: 'external-reference',
}

/**
 * A CSV record's cells → a create body. Each cell is read on its own, so that every cell's error
 * is listed (RowErrors); the rules over the whole row (finishDraft) come after.
 */
export function csvRowBuilder(columns: string[], dateOrder: () => DateOrder): (fields: string[]) => InvoiceDraft {
  return (fields) => {
    if (fields.length !== columns.length) {
      throw new InputError(t('invoice.import.fieldCount', {count: fields.length, expected: columns.length}), {field: 'file'})
    }
    const body: Record<string, unknown> = {}
    const errors: RowError[] = []
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i]!
      const cell = fields[i]!.trim()
      if (cell === '') continue
      try {
        if (column === 'items') {
          body.items = parseItemsCell(cell)
          if (hasControlCharacter(cell)) throw new InputError(t('domain.draft.control', {field: 'item'}), {field: 'item'})
        } else if (column === 'discount_percent') {
          // A French spreadsheet writes 12,5.
          const decimal = cell.replace(/\s*%$/, '').replace(',', '.')
          if (!/^\d+(\.\d+)?$/.test(decimal)) throw new InputError(t('domain.draft.discount', {field: 'discount', value: quoteInput(cell)}), {field: 'discount'})
          body.discount_percent = Number(decimal)
        } else if (column === 'due_date') body.due_date = parseFileDate(cell, dateOrder())
        else {
          // Checked here so that its error is listed with the others; finishDraft normalises it.
          if (column === 'customer_phone') normalisePhone(cell, 'phone')
          const flag = FLAG_OF_TEXT_COLUMN[column]
          if (flag) checkText(flag, cell)
          body[column] = cell
        }
      } catch (error) {
        if (!(error instanceof InputError)) throw error
        errors.push(inColumnTerms(error))
      }
    }
    if (errors.length > 0) throw new RowErrors(errors)
    return draftFromJson(body, 'file')
  }
}

/** A JSON line's text (or a JSON array's element) → a create body; its due_date read in the file's order. */
export function jsonRowBuilder(dateOrder: () => DateOrder): (input: unknown, parsed?: boolean) => InvoiceDraft {
  return (input, parsed = false) => {
    let value = input
    if (!parsed) {
      try {
        value = JSON.parse(input as string)
      } catch (error) {
        throw new InputError(t('invoice.import.badJson', {reason: (error as Error).message}), {field: 'file'})
      }
    }
    const draft = draftFromJson(value, 'file')
    // Its text fields and its date each checked on their own, so that the row lists every error.
    const errors: RowError[] = []
    const check = (step: () => void) => {
      try {
        step()
      } catch (error) {
        if (!(error instanceof InputError)) throw error
        errors.push(inColumnTerms(error))
      }
    }
    const fields = draft as unknown as Record<string, unknown>
    for (const [column, flag] of Object.entries(FLAG_OF_TEXT_COLUMN)) check(() => checkText(flag, fields[column]))
    if (typeof draft.due_date === 'string' && draft.due_date.trim() !== '') check(() => (draft.due_date = parseFileDate(draft.due_date, dateOrder())))
    if (errors.length > 0) throw new RowErrors(errors)
    return draft
  }
}

/** A text already in memory, read as import-source.ts reads a file (day first unless told). */
export function readSourceRows(path: string, text: string, dateOrder: DateOrder = 'dmy'): {format: ImportFormat; rows: SourceRow[]} {
  const format = formatOf(path, text)
  const order = () => dateOrder
  if (format === 'csv') return {format, rows: csvRows(text, order)}
  const build = jsonRowBuilder(order)
  if (format === 'json') {
    let value: unknown
    try {
      value = JSON.parse(text.replace(/^\uFEFF/, ''))
    } catch (error) {
      throw new InputError(t('invoice.import.badJson', {reason: (error as Error).message}), {field: 'file'})
    }
    if (!Array.isArray(value)) throw new InputError(t('invoice.import.badJson', {reason: 'not an array'}), {field: 'file'})
    return {format, rows: value.map((item, index) => ({row: index + 1, label: () => ({}), build: () => build(item, true)}))}
  }
  const rows: SourceRow[] = []
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((content, i) => {
      if (content.trim() !== '') rows.push({row: rows.length + 1, line: i + 1, label: () => ({}), build: () => build(content)})
    })
  return {format, rows}
}

function csvRows(text: string, dateOrder: () => DateOrder): SourceRow[] {
  let records
  try {
    records = parseCsv(text, detectDelimiter(text, DRAFT_FIELDS))
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new InputError(t('invoice.import.csvSyntax', {line: error.line, reason: error.message}), {field: 'file'})
    throw error
  }
  const header = records.shift()
  if (!header) throw new InputError(t('invoice.import.empty', {field: 'file'}), {field: 'file'})
  const build = csvRowBuilder(checkColumns(header.fields), dateOrder)
  return records.map((record, index) => ({row: index + 1, line: record.line, label: () => ({}), build: () => build(record.fields)}))
}

/**
 * JSON with keys sorted at every level: the same body always hashes the same. Written out by hand
 * (no entries, filter, sort and join of pairs per object): an import computes it for every row.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value)
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + (canonicalJson(value[i]) ?? '')
    return `${out}]`
  }
  const record = value as Record<string, unknown>
  // Code-unit order, as before: a key's bytes are the same from one version to the next. A few
  // keys: sorted by insertion.
  const keys = Object.keys(record)
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!
    let j = i - 1
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!
    keys[j + 1] = key
  }
  let out = '{'
  for (const key of keys) {
    const field = record[key]
    if (field === undefined) continue
    out += `${out.length === 1 ? '' : ','}${quotedKey(key)}:${canonicalJson(field)}`
  }
  return `${out}}`
}

/** Keys as JSON writes them, kept for the few a body has (a bounded number of them). */
const QUOTED = new Map<string, string>()
function quotedKey(key: string): string {
  let quoted = QUOTED.get(key)
  if (quoted === undefined) {
    quoted = JSON.stringify(key)
    if (QUOTED.size < 1000) QUOTED.set(key, quoted)
  }
  return quoted
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
  return keyOf(keyHash(canonicalJson(draft), occurrence))
}

/** The hash a key is made of: the body's canonical JSON and its occurrence. */
function keyHash(canonical: string, occurrence: number): Buffer {
  return hash('sha256', `svc-invoice-import/1\n${canonical}\n${occurrence}`, 'buffer')
}

function keyOf(digest: Buffer): string {
  const hex = digest.toString('hex', 0, 16)
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

function inColumnTerms(error: InputError): RowError {
  const column = error.field === undefined ? undefined : COLUMN_OF_FLAG[error.field]
  if (!column) return {field: error.field, message: error.message}
  return {field: column, message: error.message.split(`--${error.field}`).join(column)}
}

/**
 * Occurrences of each body so far, by 64 bits of a hash of it (`checkRow`: the one its first key is
 * made of), not the body itself (a million rows' bodies
 * would be hundreds of MB), in an open-addressing table of typed arrays (12 bytes a slot, at most
 * half full: a million rows take 24 MB, where a Map took twice that and more while it grew). Two
 * bodies sharing those bits (about 1 in 10⁷ for a million rows) would only number each other's
 * occurrences: their keys still differ, since a key hashes the body.
 */
export class Occurrences {
  private high = new Uint32Array(1024)
  private low = new Uint32Array(1024)
  private counts = new Uint32Array(1024)
  private size = 0

  /** How many times `canonical` has been seen, this one included. */
  next(canonical: string): number {
    return this.nextOf(hash('sha256', canonical, 'buffer'))
  }

  /** The same, for a body known by a hash of it already made (its first 64 bits are used). */
  nextOf(digest: Buffer): number {
    const high = digest.readUInt32BE(0)
    const low = digest.readUInt32BE(4)
    if (this.size * 2 >= this.counts.length) this.grow()
    const slot = this.find(high, low)
    if (this.counts[slot] === 0) {
      this.size += 1
      this.high[slot] = high
      this.low[slot] = low
    }
    this.counts[slot] += 1
    return this.counts[slot]!
  }

  /** The slot holding these bits, or the empty one where they go. */
  private find(high: number, low: number): number {
    const mask = this.counts.length - 1
    let slot = low & mask
    while (this.counts[slot] !== 0 && (this.high[slot] !== high || this.low[slot] !== low)) slot = (slot + 1) & mask
    return slot
  }

  private grow(): void {
    const [high, low, counts] = [this.high, this.low, this.counts]
    this.high = new Uint32Array(counts.length * 2)
    this.low = new Uint32Array(counts.length * 2)
    this.counts = new Uint32Array(counts.length * 2)
    for (let i = 0; i < counts.length; i++) {
      if (counts[i] === 0) continue
      const slot = this.find(high[i]!, low[i]!)
      this.high[slot] = high[i]!
      this.low[slot] = low[i]!
      this.counts[slot] = counts[i]!
    }
  }
}

/** One row built and checked: its body, totals and key, or every one of its errors. Never throws for a bad row. */
export function checkRow(source: SourceRow, occurrences: Occurrences, extraCheck?: (draft: InvoiceDraft) => void, keyed = true): CheckedRow {
  try {
    const built = source.build()
    const {draft, totals} = finishDraft(built)
    extraCheck?.(draft)
    if (!keyed) return {row: source.row, line: source.line, draft, totals}
    // The first occurrence's key hash names the body in the table too: a body seen once, the usual
    // case, is hashed once.
    const canonical = canonicalJson(draft)
    const first = keyHash(canonical, 1)
    const occurrence = occurrences.nextOf(first)
    return {row: source.row, line: source.line, draft, totals, key: keyOf(occurrence === 1 ? first : keyHash(canonical, occurrence))}
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    const errors = error instanceof RowErrors ? error.errors : [inColumnTerms(error)]
    return {row: source.row, line: source.line, label: source.label(), errors, error: {field: errors[0]!.field, message: errors.map((e) => e.message).join(' ')}}
  }
}

/** Every row built and checked; keys assigned to the good ones. Never throws for a bad row. */
export function checkRows(rows: SourceRow[], extraCheck?: (draft: InvoiceDraft) => void): CheckedRow[] {
  const occurrences = new Occurrences()
  return rows.map((source) => checkRow(source, occurrences, extraCheck))
}

export function where(row: {row: number; line?: number}): string {
  return row.line === undefined ? t('invoice.import.atRow', {row: row.row}) : t('invoice.import.atLine', {line: row.line})
}

/**
 * Every bad row at once, each of its errors on a line, exit 2, nothing created. `--json`: the rows
 * under `error.rows`, each with its `errors`. `dateOrder`: said in the hint when a date is wrong.
 */
export class ImportValidationError extends InputError {
  constructor(
    readonly rows: CheckedRow[],
    total: number,
    dateOrder?: DateOrder,
  ) {
    const list = rows.flatMap((r) => (r.errors ?? [r.error!]).map((e) => `  ${t('invoice.import.rowError', {where: where(r), message: e.message})}`)).join('\n')
    const dates = dateOrder && rows.some((r) => (r.errors ?? [r.error]).some((e) => e?.field === 'due_date'))
    const hint = t('invoice.import.invalidHint') + (dates ? ` ${t('invoice.import.dateHint', {order: t(`invoice.import.date.order.${dateOrder}`)})}` : '')
    super(`${t('invoice.import.invalidRows', {count: rows.length, total})}\n${list}`, {field: 'file', code: 'invalid_rows', hint})
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      rows: this.rows.map((r) => ({row: r.row, line: r.line ?? null, field: r.error?.field ?? null, message: r.error?.message, errors: r.errors ?? (r.error ? [r.error] : [])})),
    }
  }
}
