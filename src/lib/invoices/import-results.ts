/**
 * `svc invoice import`, the results: the results file (row → its customer and reference, the
 * invoice id and checkout_url, or the error), appended as rows finish so a killed run leaves what
 * it did, then rewritten in row order at the end; and the summary counts.
 *
 * A CSV results file is written in its input's dialect, so that the spreadsheet that saved the
 * input opens it in columns with its accents: the same separator, the same encoding (Windows-1252,
 * UTF-16 with its BOM, UTF-8 with a BOM when the input had one). For a JSON input, the language's
 * (import-cli.ts: `;` and a BOM in French).
 */
import type {FileHandle} from 'node:fs/promises'

import {csvLine, type CsvDialect} from '../io/csv-writer.js'
import type {RowResult, RowStatus} from './import-run.js'
import type {Encoding} from './import-text.js'
import {encodeWindows1252} from './windows-1252.js'

export interface ResultsDialect extends CsvDialect {
  encoding: Encoding
}

export const RESULTS_DEFAULT: ResultsDialect = {sep: ',', bom: false, encoding: 'utf-8'}

export const RESULT_COLUMNS = ['row', 'line', 'customer_name', 'external_reference', 'status', 'invoice_id', 'invoice_status', 'checkout_url', 'total_amount', 'published', 'idempotency_key', 'error_code', 'error', 'channel'] as const

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

/**
 * The results file, appended to as rows finish and rewritten in row order at the end. It stays open
 * from the first row to the end (a row is one write, not an open, a write and a close: an import
 * of many rows spent most of its writing time opening and closing the file).
 */
export class ResultsWriter {
  private readonly format: 'csv' | 'json' | 'jsonl'
  private started = false
  private handle?: FileHandle

  constructor(
    readonly path: string,
    private readonly dialect: ResultsDialect = RESULTS_DEFAULT,
  ) {
    this.format = resultsFormat(path)
  }

  /** The file's first bytes: its BOM, then the header (CSV). */
  private head(): Buffer {
    if (this.format !== 'csv') return Buffer.alloc(0)
    const {encoding, bom} = this.dialect
    const mark = encoding === 'utf-16le' ? Buffer.from([0xff, 0xfe]) : encoding === 'utf-16be' ? Buffer.from([0xfe, 0xff]) : encoding === 'utf-8' && bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0)
    return Buffer.concat([mark, this.encode(csvLine([...RESULT_COLUMNS], this.dialect.sep))])
  }

  private encode(text: string): Buffer {
    return this.format === 'csv' ? encodeText(text, this.dialect.encoding) : Buffer.from(text, 'utf8')
  }

  /** Appends one finished row (CSV and JSON lines; a .json file is written whole at the end). */
  async append(result: RowResult): Promise<void> {
    if (this.format === 'json') return
    const bytes = this.encode(this.encodeOne(result))
    if (!this.started) {
      this.started = true
      // A file the user asked for: created with the umask, as any tool creates it (0644 under 022),
      // so that whoever shares the folder can open it; a stricter umask keeps it private.
      const {open} = await import('node:fs/promises')
      this.handle = await open(this.path, 'w')
      await this.handle.appendFile(this.head())
    }
    if (this.handle) await this.handle.appendFile(bytes)
    // A row that finishes after an interruption's `finish` rewrote the file: added after it.
    else await (await import('node:fs/promises')).appendFile(this.path, bytes)
  }

  private encodeOne(result: RowResult): string {
    const record = resultRecord(result)
    return this.format === 'csv' ? csvLine(RESULT_COLUMNS.map((c) => record[c]), this.dialect.sep) : `${JSON.stringify(record)}\n`
  }

  /** Writes every row in order, atomically (temp file, then rename). */
  async finish(results: RowResult[]): Promise<void> {
    const handle = this.handle
    this.handle = undefined
    await handle?.close()
    const {writeFile, rename} = await import('node:fs/promises')
    const sorted = [...results].sort((a, b) => a.row - b.row)
    let bytes: Buffer
    if (this.format === 'json') bytes = Buffer.from(`${JSON.stringify(sorted.map(resultRecord), null, 2)}\n`)
    else bytes = Buffer.concat([this.head(), this.encode(sorted.map((r) => this.encodeOne(r)).join(''))])
    const temporary = `${this.path}.${process.pid}.tmp`
    await writeFile(temporary, bytes)
    await rename(temporary, this.path)
  }
}

/** Text in the results file's encoding; a character Windows-1252 lacks (never one read from the input) becomes `?` (windows-1252.ts). */
export function encodeText(text: string, encoding: Encoding): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8')
  if (encoding === 'utf-16le') return Buffer.from(text, 'utf16le')
  if (encoding === 'utf-16be') return Buffer.from(text, 'utf16le').swap16()
  return encodeWindows1252(text)
}

export interface ImportSummary {
  rows: number
  created: number
  existing: number
  /** Published this run. */
  published: number
  /** Published by an earlier run of the same file. */
  already_published: number
  invalid: number
  failed: number
  not_attempted: number
  /** Recorded as done by an earlier run's results file: no request. */
  skipped: number
}

export function summarise(all: RowResult[]): ImportSummary {
  const results = all.filter((r) => !r.skipped)
  const count = (status: RowStatus) => results.filter((r) => r.status === status).length
  return {
    rows: all.length,
    skipped: all.length - results.length,
    created: count('created'),
    existing: count('existing'),
    published: results.filter((r) => r.published === true && !r.already_published).length,
    already_published: results.filter((r) => r.already_published === true).length,
    invalid: count('invalid'),
    failed: count('failed') + results.filter((r) => r.published === false).length,
    not_attempted: count('not_attempted'),
  }
}
