/**
 * Large import files written as they are generated (the writing process never holds them): a CSV
 * with one cell of `mb` MB, and one of `rows` distinct rows in a French spreadsheet's forms (dates
 * day first, an accented item). Shared by test/commands/invoice-import-memory.test.ts and
 * bench/import/memory.ts.
 */
import {createWriteStream} from 'node:fs'

export async function writeStreamed(path: string, parts: Iterable<string>): Promise<void> {
  const out = createWriteStream(path)
  for (const part of parts) if (!out.write(part)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
}

/** Three rows; the second's `notes` cell is `mb` MB of `x`. */
export function* bigCellCsv(mb: number): Generator<string> {
  const chunk = 'x'.repeat(1024 * 1024)
  yield 'customer_name,due_date,items,notes\r\nGood Shop,2027-01-21,Bread:500:3,\r\nBig Shop,2027-01-21,Bread:500:3,"'
  for (let i = 0; i < mb; i++) yield chunk
  yield '"\r\nAfter Shop,2027-01-21,Bread:500:3,\r\n'
}

/** `rows` distinct rows (`Client N`, `REF-N`), in blocks of 10,000. */
export function* manyRowsCsv(rows: number): Generator<string> {
  yield 'customer_name,due_date,items,customer_phone,external_reference\r\n'
  let block = ''
  for (let i = 1; i <= rows; i++) {
    block += `Client ${i},21/01/2027,Pain:${100 + (i % 900)}:2; Gâteau:2500:1,6${String(90000000 + (i % 9999999)).padStart(8, '0')},REF-${i}\r\n`
    if (i % 10_000 === 0) {
      yield block
      block = ''
    }
  }
  yield block
}
