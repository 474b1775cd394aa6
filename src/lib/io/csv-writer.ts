// The one CSV writer (RFC 4180: CRLF line ends, fields quoted when they must be). PURE: no imports.

/**
 * One CSV field, quoted when it must be (RFC 4180). Every CSV svc writes goes through here, so
 * every one is safe to open in a spreadsheet: a text that begins with `=`, `+`, `-` or `@` (or a
 * tab or carriage return) would be read as a formula there (CSV injection: a customer named
 * `=HYPERLINK(…)`), so it is written with a `'` in front, as OWASP advises. Numbers stay numbers.
 */
export function csvField(value: unknown): string {
  let text = value === undefined || value === null ? '' : String(value)
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const FORMULA_START = /^[=+\-@\t\r]/

export function csvLine(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}
