/**
 * Tables without colour (pipes, files, CI, `--no-color`): columns aligned with spaces, four
 * between columns, no borders, no trailing spaces; the layout cli-table3 gives with its borders
 * blanked, which colour output still uses. Written here because this path runs in shell loops:
 * cli-table3 with string-width costs every such call ~12 ms to load. test/lib/io/table.test.ts
 * holds the two to the same output.
 */

const GAP = '    '

/** Display width in a terminal: combining marks and zero-width characters take none, wide (East Asian, emoji) two. */
export function displayWidth(text: string): number {
  // Printable ASCII (most cells) is as wide as it is long; the Unicode pattern below costs ~0.3 ms
  // to compile on first use, at every start-up that draws a table.
  if (PRINTABLE_ASCII.test(text)) return text.length
  let width = 0
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue
    if (ZERO_WIDTH.test(char)) continue
    width += isWide(code) ? 2 : 1
  }
  return width
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufeff]$/u

/** Unicode's East Asian Wide and Fullwidth blocks, and the emoji planes, as string-width counts them. */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  )
}

/** Rows of cells (a cell may span lines) under a header, as plain aligned text. */
export function plainTable(head: string[], rows: string[][]): string {
  const all = [head, ...rows].map((row) => row.map((cell) => String(cell ?? '').split('\n')))
  const columns = Math.max(0, ...all.map((row) => row.length))
  const widths = Array.from({length: columns}, (_, c) => Math.max(0, ...all.flatMap((row) => (row[c] ?? []).map(displayWidth))))
  const lines: string[] = []
  for (const row of all) {
    const height = Math.max(1, ...row.map((cell) => cell.length))
    for (let l = 0; l < height; l++) {
      const cells = widths.map((width, c) => {
        const text = row[c]?.[l] ?? ''
        return text + ' '.repeat(width - displayWidth(text))
      })
      lines.push(cells.join(GAP).trimEnd())
    }
  }
  return lines.join('\n')
}
