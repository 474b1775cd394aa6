/**
 * A small RFC 4180 CSV reader and writer (no dependency: the format needed here is small, and a
 * parser we own reports line numbers the way the import's error list needs them).
 *
 * Reading: a UTF-8 BOM is dropped; fields are separated by `,` unless told (`;`, tab); records end at LF, CRLF or CR; a field in double quotes may hold
 * commas, line breaks and `""` (one quote). Each record carries the 1-based line on which it
 * starts. Blank lines are skipped. A quote inside an unquoted field is kept as is (lenient, like
 * most spreadsheets); an unterminated quoted field is an error naming its line.
 */

export interface CsvRecord {
  /** 1-based line of the file where the record starts. */
  line: number
  fields: string[]
}

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message)
    this.name = 'CsvSyntaxError'
  }
}

export function parseCsv(input: string, delimiter = ','): CsvRecord[] {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
  const records: CsvRecord[] = []
  let fields: string[] = []
  let field = ''
  let line = 1
  let recordLine = 1
  let quoted = false
  let fieldStarted = false
  let i = 0

  const endField = () => {
    fields.push(field)
    field = ''
    fieldStarted = false
  }
  const endRecord = () => {
    endField()
    // A blank line is one empty field: skip it.
    if (!(fields.length === 1 && fields[0] === '')) records.push({line: recordLine, fields})
    fields = []
  }

  while (i < text.length) {
    const c = text[i]!
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i += 2
          continue
        }
        quoted = false
        i += 1
        continue
      }
      if (c === '\r' || c === '\n') {
        // A line break inside quotes belongs to the field; CRLF is kept as one break.
        if (c === '\r' && text[i + 1] === '\n') {
          field += '\r\n'
          i += 2
        } else {
          field += c
          i += 1
        }
        line += 1
        continue
      }
      field += c
      i += 1
      continue
    }
    if (c === '"' && !fieldStarted) {
      quoted = true
      fieldStarted = true
      i += 1
      continue
    }
    if (c === delimiter) {
      endField()
      i += 1
      continue
    }
    if (c === '\r' || c === '\n') {
      endRecord()
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1
      line += 1
      recordLine = line
      continue
    }
    field += c
    fieldStarted = true
    i += 1
  }
  if (quoted) throw new CsvSyntaxError('unterminated quoted field', recordLine)
  if (field !== '' || fields.length > 0 || fieldStarted) endRecord()
  return records
}

// The writer is shared by every CSV svc writes (reports, lists, import results): io/csv-writer.ts.
export {csvField, csvLine} from '../io/csv-writer.js'

/**
 * The separator a spreadsheet used, from the header line: of `,` `;` and tab, the one that splits
 * it into the most names from `known` (Excel in a French locale writes `;`, "Unicode text" tabs);
 * when none does, the one found most often; `,` when the header has none of them.
 */
export function detectDelimiter(text: string, known: readonly string[]): string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const header = body.split(/\r\n|\n|\r/, 1)[0] ?? ''
  let best = ','
  let bestScore = -1
  for (const candidate of [',', ';', '\t']) {
    const parts = header.split(candidate)
    const names = parts.filter((part) => known.includes(part.trim().replace(/^"|"$/g, '').trim().toLowerCase())).length
    const score = names * 1000 + (parts.length - 1)
    if (score > bestScore) {
      best = candidate
      bestScore = score
    }
  }
  return bestScore <= 0 ? ',' : best
}
