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

/**
 * How a column behaves when the table must fit a terminal's width. `id` and `amount` columns are
 * never cut nor dropped (a person copies ids, reads amounts); `text` (names, descriptions) is
 * truncated with `…` first; then `fixed` and `text` columns are dropped, the highest `priority`
 * number first (1 = most important; the rightmost first among equals).
 */
export interface Column {
  kind?: 'id' | 'amount' | 'text' | 'fixed'
  priority?: number
  /** A text column (a customer's name) is never cut below this many columns (or its longest value). */
  min?: number
  /**
   * An id column that may be cut to the shortest prefix telling its rows apart (at least four
   * characters after its type prefix, `inv_test_0VcF…`), before any name is cut: for ids the
   * commands take back as a prefix.
   */
  shorten?: boolean
}

/** What fitting the table did: the columns left out, the id columns shortened (indexes). */
export interface TableFit {
  dropped: number[]
  shortened: number[]
}

export interface TableOptions {
  /** Per column, in order; a column without one is `fixed`, with its position as its priority. */
  columns?: Column[]
  /** Fit into this many display columns; undefined: every value in full. */
  width?: number
  /** Applied to the header cells once laid out (bold, in colour). */
  paintHead?: (text: string) => string
  /** Told what fitting the table did (to say which columns were left out). */
  onFit?: (fit: TableFit) => void
}

/** The narrowest a text column is cut to (its header's width when wider). */
const MIN_TEXT = 8
const NARROW_GAP = '  '
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g

/** Display width of a cell that may carry our colour codes. */
function cellWidth(text: string): number {
  return displayWidth(text.includes('\u001b') ? text.replace(SGR, '') : text)
}

/** `text` cut to `width` display columns, ending in `…` (its colour dropped: a cut value is plain). */
export function truncate(text: string, width: number): string {
  if (cellWidth(text) <= width) return text
  const plain = text.replace(SGR, '')
  let out = ''
  let used = 0
  for (const char of plain) {
    const w = displayWidth(char)
    if (used + w > width - 1) break
    out += char
    used += w
  }
  return `${out}…`
}

interface Layout {
  visible: number[]
  widths: number[]
  gap: string
}

/**
 * The width of an id column cut to the shortest prefix that tells its values apart, `…` included:
 * at least four characters after the id's type prefix (`inv_test_`), so that the prefix is very
 * likely unique beyond the rows shown too.
 */
function prefixWidth(values: string[]): number {
  const ids = values.filter((v) => v !== '')
  if (ids.length === 0) return 0
  const typePrefix = Math.max(...ids.map((id) => id.lastIndexOf('_') + 1))
  for (let length = typePrefix + 4; ; length++) {
    const prefixes = new Set(ids.map((id) => id.slice(0, length)))
    if (prefixes.size === new Set(ids).size || ids.every((id) => id.length <= length)) return Math.min(Math.max(...ids.map(displayWidth)), length + 1)
  }
}

/** Which columns to show, how wide, and the gap between them, for `width` (docs/conventions.md, "Tables"). */
function layout(cells: string[][][], columns: Array<Required<Column>>, width: number | undefined): Layout {
  const count = columns.length
  const natural = Array.from({length: count}, (_, c) => Math.max(0, ...cells.flatMap((row) => (row[c] ?? []).map(cellWidth))))
  let visible = Array.from({length: count}, (_, c) => c)
  if (width === undefined) return {visible, widths: natural, gap: GAP}
  const total = (widths: number[], gap: string) => visible.reduce((sum, c) => sum + widths[c]!, 0) + gap.length * Math.max(0, visible.length - 1)
  if (total(natural, GAP) <= width) return {visible, widths: natural, gap: GAP}
  const shortened = columns.map((column, c) =>
    column.kind === 'id' && column.shorten ? Math.max(cellWidth(cells[0]![c]?.[0] ?? ''), prefixWidth(cells.slice(1).map((row) => (row[c] ?? []).join('')))) : natural[c]!,
  )
  for (;;) {
    const widths = [...natural]
    let excess = total(widths, NARROW_GAP) - width
    if (excess <= 0) return {visible, widths, gap: NARROW_GAP}
    // Ids the commands take back as a prefix are cut first (names before ids), to that prefix.
    for (const c of visible) {
      if (excess <= 0) break
      if (shortened[c]! >= widths[c]!) continue
      excess -= widths[c]! - shortened[c]!
      widths[c] = shortened[c]!
    }
    if (excess <= 0) return {visible, widths, gap: NARROW_GAP}
    // Free text next: the widest text column gives a column at a time, down to its minimum.
    const texts = visible.filter((c) => columns[c]!.kind === 'text')
    const floor = (c: number) => Math.min(natural[c]!, Math.max(MIN_TEXT, columns[c]!.min, cellWidth(cells[0]![c]?.[0] ?? '')))
    while (excess > 0) {
      const widest = texts.filter((c) => widths[c]! > floor(c)).sort((a, b) => widths[b]! - widths[a]!)[0]
      if (widest === undefined) break
      widths[widest]!--
      excess--
    }
    if (excess <= 0) return {visible, widths, gap: NARROW_GAP}
    // Then the least important column that may go.
    const droppable = visible.filter((c) => columns[c]!.kind !== 'id' && columns[c]!.kind !== 'amount')
    if (droppable.length === 0) return {visible, widths, gap: NARROW_GAP}
    const drop = droppable.reduce((a, b) => (columns[b]!.priority >= columns[a]!.priority ? b : a))
    visible = visible.filter((c) => c !== drop)
  }
}

/**
 * Rows of cells (a cell may span lines) under a header, as aligned text: four spaces between
 * columns, no borders, no trailing spaces. With `width`, fitted to it (see Column).
 */
export function plainTable(head: string[], rows: string[][], options: TableOptions = {}): string {
  const all = [head, ...rows].map((row) => row.map((cell) => String(cell ?? '').split('\n')))
  const count = Math.max(0, ...all.map((row) => row.length))
  const columns: Array<Required<Column>> = Array.from({length: count}, (_, c) => ({
    kind: options.columns?.[c]?.kind ?? 'fixed',
    priority: options.columns?.[c]?.priority ?? c + 1,
    min: options.columns?.[c]?.min ?? 0,
    shorten: options.columns?.[c]?.shorten ?? false,
  }))
  const {visible, widths, gap} = layout(all, columns, options.width)
  if (options.onFit) {
    const natural = (c: number) => Math.max(0, ...all.flatMap((row) => (row[c] ?? []).map(cellWidth)))
    options.onFit({
      dropped: columns.map((_, c) => c).filter((c) => !visible.includes(c)),
      shortened: visible.filter((c) => columns[c]!.shorten && widths[c]! < natural(c)),
    })
  }
  const lines: string[] = []
  all.forEach((row, r) => {
    const height = Math.max(1, ...row.map((cell) => cell.length))
    for (let l = 0; l < height; l++) {
      const cells = visible.map((c) => {
        const width = widths[c]!
        const text = truncate(row[c]?.[l] ?? '', width)
        const padded = text + ' '.repeat(Math.max(0, width - cellWidth(text)))
        return r === 0 && options.paintHead ? options.paintHead(padded.trimEnd()) + padded.slice(padded.trimEnd().length) : padded
      })
      lines.push(cells.join(gap).trimEnd())
    }
  })
  return lines.join('\n')
}
