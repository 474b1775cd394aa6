/**
 * `svc invoice import`, the file as a source of rows, read again on each pass (the check pass,
 * then the run or the dry run's listing), each pass a stream (import-stream.ts).
 *
 * The file's dialect, found by the passes themselves and then kept: its format (from the name),
 * its encoding (a BOM, `--encoding`, else UTF-8 until a byte says otherwise, then Windows-1252 with
 * a warning: the pass starts again), its separator (from the header line), and the order of its
 * dates (import-dates.ts: the flag, else day first for a French-looking file or by default, month
 * first when the column says so: the pass starts again once it is known). The results file is
 * written in the same dialect (import-results.ts).
 */
import {readFile} from 'node:fs/promises'

import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {detectDelimiter} from './csv.js'
import {chooseDateOrder, noteDateEvidence, type DateEvidence, type DateOrder} from './import-dates.js'
import {csvRecords, JSON_FILE_CAP, NotUtf8Error, readStart, textChunks, textLines, UnterminatedQuoteError, CELL_CAP, LINE_CAP, type Over, type RawRecord} from './import-stream.js'
import type {InvoiceDraft} from './draft.js'
import type {Encoding} from './import-text.js'
import {textDecoder} from './windows-1252.js'
import {checkColumns, csvRowBuilder, formatOf, jsonRowBuilder, type ImportFormat, type RowLabel, type SourceRow} from './import-rows.js'
import {DRAFT_FIELDS} from './input.js'

export interface Dialect {
  format: ImportFormat
  encoding: Encoding
  /** The file began with a BOM (UTF-8's is the one that may be absent). */
  bom: boolean
  /** CSV: `,` `;` or tab. */
  delimiter: string
  dateOrder: DateOrder
  /** The file was not UTF-8 and is read as Windows-1252 without being asked: the first such line. */
  guessedAt?: number
}

export interface SourceOptions {
  encoding?: Encoding
  dateOrder?: DateOrder
}

function over(error: Over, columns: readonly string[] | undefined): string {
  const fmt = (n: number) => n.toLocaleString('en-US')
  if (error.kind === 'cell') return t('invoice.import.cellOver', {column: columns?.[error.column ?? 0] ?? String((error.column ?? 0) + 1), length: fmt(error.length), max: fmt(CELL_CAP)})
  return t('invoice.import.lineOver', {length: fmt(error.length), max: fmt(LINE_CAP)})
}

export class ImportSource {
  readonly dialect: Dialect
  /** What the due_date column said of its order on the last full pass. */
  private evidence: DateEvidence = {firstOver12: false, secondOver12: false}
  private readonly skip: number
  private readonly encodingChosen: boolean
  private readonly orderChosen: boolean

  private constructor(
    readonly path: string,
    dialect: Dialect,
    skip: number,
    chosen: SourceOptions,
  ) {
    this.dialect = dialect
    this.skip = skip
    this.encodingChosen = chosen.encoding !== undefined
    this.orderChosen = chosen.dateOrder !== undefined
  }

  static async open(path: string, options: SourceOptions = {}): Promise<ImportSource> {
    const start = await readStart(path)
    const encoding: Encoding = options.encoding ?? start.bomEncoding ?? 'utf-8'
    // A chosen encoding drops only its own BOM.
    const skip = options.encoding === undefined || options.encoding === start.bomEncoding ? start.bomLength : 0
    const headText = textDecoder(encoding).decode(start.head.subarray(skip))
    const format = formatOf(path, headText)
    if (format === 'json' && start.size > JSON_FILE_CAP) {
      throw new InputError(t('invoice.import.jsonTooLarge', {path, size: Math.round(start.size / 1048576), max: JSON_FILE_CAP / 1048576}), {field: 'file'})
    }
    const delimiter = format === 'csv' ? detectDelimiter(headText, DRAFT_FIELDS) : ','
    return new ImportSource(path, {format, encoding, bom: start.bomLength > 0 && skip > 0, delimiter, dateOrder: options.dateOrder ?? 'dmy'}, skip, options)
  }

  /** A French spreadsheet's marks in the file itself: `;`, Windows-1252 (its column's days are import-dates.ts's). */
  private frenchLooking(): boolean {
    return this.dialect.delimiter === ';' || this.dialect.encoding === 'windows-1252'
  }

  /**
   * After a full pass: the date order the column showed, when it differs from the one read with.
   * True when it changed (the pass is then run again, in the file's order).
   */
  settleDateOrder(): boolean {
    if (this.orderChosen) return false
    const order = chooseDateOrder(undefined, this.frenchLooking(), this.evidence)
    if (order === this.dialect.dateOrder) return false
    this.dialect.dateOrder = order
    return true
  }

  /**
   * A pass found bytes that are not UTF-8: read as Windows-1252 from now on (true), unless the
   * encoding was chosen (the bytes are then refused: false).
   */
  fallBackToWindows1252(error: NotUtf8Error): boolean {
    if (this.encodingChosen || this.dialect.encoding !== 'utf-8' || this.dialect.bom) return false
    this.dialect.encoding = 'windows-1252'
    this.dialect.guessedAt = error.line
    return true
  }

  private chunks(): AsyncIterable<string> {
    const {encoding} = this.dialect
    return textChunks(this.path, encoding, {skip: this.skip, checkUtf8: encoding === 'utf-8'})
  }

  /** Every row of the file, in order, as a stream of batches; a file-level problem throws InputError. */
  async *rows(): AsyncGenerator<SourceRow[]> {
    this.evidence = {firstOver12: false, secondOver12: false}
    try {
      if (this.dialect.format === 'csv') yield* this.csvRows()
      else if (this.dialect.format === 'jsonl') yield* this.jsonLineRows()
      else yield* this.jsonArrayRows()
    } catch (error) {
      if (error instanceof NotUtf8Error && (this.encodingChosen || this.dialect.bom)) {
        throw new InputError(t('invoice.import.notEncoding', {path: this.path, line: error.line, encoding: 'UTF-8'}), {field: 'encoding'})
      }
      if (error instanceof UnterminatedQuoteError) throw new InputError(t('invoice.import.csvSyntax', {line: error.line, reason: error.message}), {field: 'file'})
      throw error
    }
  }

  private replacementCheck(line: number, text: string): void {
    if (text.includes('\uFFFD')) throw new InputError(t('invoice.import.replacementChar', {path: this.path, line}), {field: 'file'})
  }

  private async *csvRows(): AsyncGenerator<SourceRow[]> {
    let columns: string[] | undefined
    let dueColumn = -1
    let build: ReturnType<typeof csvRowBuilder> | undefined
    let row = 0
    for await (const records of csvRecords(this.chunks(), this.dialect.delimiter)) {
      const batch: SourceRow[] = []
      for (const record of records) {
        for (const field of record.fields) this.replacementCheck(record.line, field)
        if (!columns) {
          if (record.over) throw new InputError(t('invoice.import.csvSyntax', {line: record.line, reason: over(record.over, undefined)}), {field: 'file'})
          columns = checkColumns(record.fields)
          dueColumn = columns.indexOf('due_date')
          build = csvRowBuilder(columns, () => this.dialect.dateOrder)
          continue
        }
        row += 1
        const due = record.fields[dueColumn]
        if (due !== undefined) noteDateEvidence(due, this.evidence)
        batch.push(new CsvRow(row, record, columns, build!))
      }
      if (batch.length > 0) yield batch
    }
    if (!columns) throw new InputError(t('invoice.import.empty', {field: 'file'}), {field: 'file'})
  }

  private async *jsonLineRows(): AsyncGenerator<SourceRow[]> {
    let row = 0
    const build = jsonRowBuilder(() => this.dialect.dateOrder)
    for await (const lines of textLines(this.chunks())) {
      yield lines.map((line): SourceRow => {
        this.replacementCheck(line.line, line.text)
        row += 1
        const problem = line.over ? over(line.over, undefined) : undefined
        return {
          row,
          line: line.line,
          label: () => labelOfJson(line.text),
          build: problem
            ? () => {
                throw new InputError(problem, {field: 'file'})
              }
            : () => build(line.text),
        }
      })
    }
  }

  private async *jsonArrayRows(): AsyncGenerator<SourceRow[]> {
    const bytes = await readFile(this.path)
    const text = textDecoder(this.dialect.encoding).decode(bytes.subarray(this.skip))
    if (text.includes('\uFFFD')) this.replacementCheck(text.slice(0, text.indexOf('\uFFFD')).split(/\r\n|\n|\r/).length, text)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new InputError(t('invoice.import.badJson', {reason: (error as Error).message}), {field: 'file'})
    }
    if (!Array.isArray(value)) throw new InputError(t('invoice.import.badJson', {reason: 'not an array'}), {field: 'file'})
    const build = jsonRowBuilder(() => this.dialect.dateOrder)
    yield value.map((item, index): SourceRow => ({row: index + 1, label: () => labelOf(item), build: () => build(item, true)}))
  }
}

/**
 * A CSV record as a row: its label and its body read when asked (a class, not two closures a row:
 * an import makes millions).
 */
class CsvRow implements SourceRow {
  readonly line: number

  constructor(
    readonly row: number,
    private readonly record: RawRecord,
    private readonly columns: string[],
    private readonly builder: (fields: string[]) => InvoiceDraft,
  ) {
    this.line = record.line
  }

  label(): RowLabel {
    return {customer_name: this.cell('customer_name'), external_reference: this.cell('external_reference')}
  }

  build(): InvoiceDraft {
    const {over: problem} = this.record
    if (problem) throw new InputError(over(problem, this.columns), {field: problem.kind === 'cell' ? this.columns[problem.column ?? 0] : 'file'})
    return this.builder(this.record.fields)
  }

  private cell(name: string): string | undefined {
    const value = this.record.fields[this.columns.indexOf(name)]
    return value === undefined || value.trim() === '' ? undefined : value.trim()
  }
}

function labelOf(value: unknown): RowLabel {
  if (!value || typeof value !== 'object') return {}
  const record = value as Record<string, unknown>
  const text = (name: string) => (typeof record[name] === 'string' ? (record[name] as string) : undefined)
  return {customer_name: text('customer_name'), external_reference: text('external_reference')}
}

function labelOfJson(line: string): RowLabel {
  try {
    return labelOf(JSON.parse(line))
  } catch {
    return {}
  }
}

