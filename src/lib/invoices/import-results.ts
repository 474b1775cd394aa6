/**
 * `svc invoice import`, the results: the results file (row → invoice id and checkout_url, or the
 * error), appended as rows finish so a killed run leaves what it did, then rewritten in row order
 * at the end; and the summary counts.
 */
import {csvLine} from '../io/csv-writer.js'
import type {RowResult, RowStatus} from './import-run.js'

export const RESULT_COLUMNS = ['row', 'line', 'status', 'invoice_id', 'invoice_status', 'checkout_url', 'total_amount', 'published', 'idempotency_key', 'error_code', 'error', 'channel'] as const

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
    const {appendFile, writeFile} = await import('node:fs/promises')
    if (!this.started) {
      this.started = true
      // A file the user asked for: created with the umask, as any tool creates it (0644 under 022),
      // so that whoever shares the folder can open it; a stricter umask keeps it private.
      await writeFile(this.path, this.format === 'csv' ? csvLine([...RESULT_COLUMNS]) : '')
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
    await writeFile(temporary, text)
    await rename(temporary, this.path)
  }
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
