/**
 * Terminal charts: horizontal bars in unicode blocks (eighths of a cell) and sparklines. Labels
 * and figures are always printed, so a chart reads the same without colour; colour only tints
 * the bars. Pure: the width and the painter are given.
 */
import type {Painter} from '../io/terminal.js'

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'] as const
const FULL = '█'
const SPARKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const

export type Tone = 'good' | 'warn' | 'bad' | 'info'

export interface BarRow {
  label: string
  value: number
  /** The figures printed after the bar (e.g. `12 000 XAF  3`). */
  figure: string
  tone?: Tone
}

/** Bars never get wider than this, however wide the terminal: long bars are hard to compare. */
export const MAX_BAR_WIDTH = 60
export const MIN_BAR_WIDTH = 5

/** Display width: one column per code point (blocks and dashes are single-width). */
export function width(text: string): number {
  return [...text].length
}

const padEnd = (text: string, size: number) => text + ' '.repeat(Math.max(0, size - width(text)))
const padStart = (text: string, size: number) => ' '.repeat(Math.max(0, size - width(text))) + text

export function tint(paint: Painter, tone: Tone | undefined, text: string): string {
  if (text === '') return text
  switch (tone) {
    case 'good':
      return paint.green(text)
    case 'warn':
      return paint.yellow(text)
    case 'bad':
      return paint.red(text)
    case 'info':
      return paint.cyan(text)
    default:
      return text
  }
}

/** A bar of `cells` columns at most for `value` out of `max`, in eighths; a non-zero value shows at least ▏. */
export function bar(value: number, max: number, cells: number): string {
  if (value <= 0 || max <= 0) return ''
  const eighths = Math.max(1, Math.round((Math.min(value, max) / max) * cells * 8))
  return FULL.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]
}

/**
 * `label  ██████▍      figure` per row, fitted to `columns`: labels left, figures right-aligned
 * at the end, the bars in between scaled to the largest value.
 */
export function renderBarChart(rows: readonly BarRow[], options: {columns: number; paint: Painter}): string {
  const labelWidth = Math.max(0, ...rows.map((r) => width(r.label)))
  const figureWidth = Math.max(0, ...rows.map((r) => width(r.figure)))
  const cells = Math.min(MAX_BAR_WIDTH, Math.max(MIN_BAR_WIDTH, options.columns - labelWidth - figureWidth - 4))
  const max = Math.max(0, ...rows.map((r) => r.value))
  return rows
    .map((row) => {
      const drawn = bar(row.value, max, cells)
      return `${padEnd(row.label, labelWidth)}  ${tint(options.paint, row.tone, drawn)}${' '.repeat(cells - width(drawn))}  ${padStart(row.figure, figureWidth)}`
    })
    .join('\n')
}

/**
 * One character per value: ▁ for nothing, ▂…█ scaled to the largest (so any non-zero value is
 * visibly above an empty day). With more values than `maxWidth`, the latest ones, after `…`.
 */
export function sparkline(values: readonly number[], options: {maxWidth?: number; paint?: Painter; tone?: Tone} = {}): string {
  let shown = values
  let prefix = ''
  if (options.maxWidth !== undefined && values.length > options.maxWidth) {
    const keep = Math.max(1, options.maxWidth - 1)
    shown = values.slice(values.length - keep)
    prefix = '…'
  }
  const max = Math.max(0, ...shown)
  const line = shown
    .map((v) => {
      if (v <= 0 || max <= 0) return SPARKS[0]
      return SPARKS[Math.min(7, Math.max(1, Math.ceil((v / max) * 7)))]
    })
    .join('')
  return prefix + (options.paint ? tint(options.paint, options.tone ?? 'info', line) : line)
}
