/**
 * `svc invoice import`, the passes over the file. The first checks every row and keeps only the
 * bad ones and counts (the file's dialect settles there: a pass that finds the file is not UTF-8,
 * or that its dates are month first, starts again); the second streams the good rows, checked
 * again, to the run or to the dry run's listing. Neither holds the file or its rows: memory grows
 * with the bad rows and the distinct cover URLs only.
 */
import type {InvoiceDraft} from './draft.js'
import {checkRow, Occurrences, type CheckedRow} from './import-rows.js'
import type {ImportSource} from './import-source.js'
import {NotUtf8Error} from './import-stream.js'

export interface RowChecks {
  /** Whether a cover URL may be used (checked once per URL, asynchronously). */
  cover?: (url: string) => Promise<Error | undefined>
  /** What else a row needs (a channel's address); throws InputError. */
  extra?: (draft: InvoiceDraft) => void
}

/** Thrown inside a row check when a cover URL has not been looked at yet (never escapes `checked`). */
class CoverPending extends Error {
  constructor(readonly url: string) {
    super(url)
  }
}

/**
 * Every row of the file, checked, in order, in batches. `keyed: false` (the first pass, which
 * only looks for errors) leaves out the Idempotency-Keys, half of a row's cost.
 */
export async function* checkedRows(source: ImportSource, checks: RowChecks = {}, keyed = true): AsyncGenerator<CheckedRow[]> {
  const occurrences = new Occurrences()
  const covers = new Map<string, Error | undefined>()
  const extra = (draft: InvoiceDraft) => {
    const url = draft.cover_image_url
    if (url && checks.cover) {
      if (!covers.has(url)) throw new CoverPending(url)
      const error = covers.get(url)
      if (error) throw error
    }
    checks.extra?.(draft)
  }
  for await (const rows of source.rows()) {
    const batch: CheckedRow[] = []
    for (const row of rows) {
      for (;;) {
        try {
          batch.push(checkRow(row, occurrences, extra, keyed))
          break
        } catch (error) {
          if (!(error instanceof CoverPending)) throw error
          covers.set(error.url, await checks.cover!(error.url))
        }
      }
    }
    yield batch
  }
}

export interface CheckOutcome {
  rows: number
  good: number
  bad: CheckedRow[]
}

/** The first pass: every row checked, the bad ones kept; the dialect settled on the way. */
export async function checkPass(source: ImportSource, checks: RowChecks = {}): Promise<CheckOutcome> {
  for (;;) {
    const outcome: CheckOutcome = {rows: 0, good: 0, bad: []}
    try {
      for await (const rows of checkedRows(source, checks, false)) {
        for (const row of rows) {
          outcome.rows += 1
          if (row.errors) outcome.bad.push(row)
          else outcome.good += 1
        }
      }
    } catch (error) {
      if (error instanceof NotUtf8Error && source.fallBackToWindows1252(error)) continue
      throw error
    }
    if (source.settleDateOrder()) continue
    return outcome
  }
}
