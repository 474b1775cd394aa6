// The one CSV writer (RFC 4180: CRLF line ends, fields quoted when they must be). PURE: no imports.

/**
 * The dialect a CSV is written in: the separator (`,`; `;` as Excel and LibreOffice in a French
 * locale read and write it; a tab) and whether a UTF-8 BOM leads (French Excel reads a file without
 * one as Windows-1252, and shows every accent as two letters). With `;`, a number with a fraction
 * is written with a decimal comma (`12,5`), as the spreadsheet that reads `;` expects.
 */
export interface CsvDialect {
  sep: ',' | ';' | '\t'
  bom: boolean
}

export const RFC4180: CsvDialect = {sep: ',', bom: false}

/**
 * A value svc itself validated, whose text a spreadsheet would not show as it is: a phone
 * `+237690000001` is read as the number 237690000001 (or 2.3769E+11), and an apostrophe in front
 * shows in the cell. Written `="+237690000001"`, which Excel and LibreOffice both show as the text
 * +237690000001. Only a value of the validated shape (a `+` and digits) is written so; anything
 * else goes through the usual neutralisation.
 */
export class SheetText {
  constructor(readonly text: string) {}
}

/** A phone svc validated, for a CSV: shown by a spreadsheet as it is. */
export function phoneCell(value: unknown): unknown {
  return typeof value === 'string' && /^\+?\d{6,15}$/.test(value) ? new SheetText(value) : value
}

/**
 * One CSV field, quoted when it must be (RFC 4180). Every CSV svc writes goes through here, so
 * every one is safe to open in a spreadsheet: a text that begins with `=`, `+`, `-` or `@` (or a
 * tab or carriage return) would be read as a formula there (CSV injection: a customer named
 * `=HYPERLINK(…)`), so it is written with a `'` in front, as OWASP advises. Numbers stay numbers;
 * a `SheetText` (a value svc validated) is the one formula svc writes, a constant text.
 */
export function csvField(value: unknown, sep: CsvDialect['sep'] = ','): string {
  let text: string
  if (value instanceof SheetText) text = `="${value.text}"`
  else if (typeof value === 'number' && sep === ';' && !Number.isInteger(value)) text = String(value).replace('.', ',')
  else {
    text = value === undefined || value === null ? '' : String(value)
    if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`
  }
  const special = sep === ',' ? /[",\r\n]/ : sep === ';' ? /[";\r\n]/ : /["\t\r\n]/
  return special.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const FORMULA_START = /^[=+\-@\t\r]/

export function csvLine(values: unknown[], sep: CsvDialect['sep'] = ','): string {
  return `${values.map((value) => csvField(value, sep)).join(sep)}\r\n`
}

/** A whole CSV: the header, the rows, in the dialect (a BOM first when it has one). */
export function csvDocument(header: readonly string[], rows: Iterable<unknown[]>, dialect: CsvDialect = RFC4180): string {
  let out = (dialect.bom ? '\uFEFF' : '') + csvLine([...header], dialect.sep)
  for (const row of rows) out += csvLine(row, dialect.sep)
  return out
}
