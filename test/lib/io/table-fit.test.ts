/**
 * Tables that fit (docs/conventions.md, "Tables"): on a terminal, a table takes the terminal's width (COLUMNS
 * when set); free text is cut with `…` first, then the least important columns go; ids and
 * amounts are never cut; --wide and pipes print every value in full.
 */
import {describe, expect, it} from 'vitest'

import {displayWidth, plainTable, type Column} from '../../../src/lib/io/table.js'
import {IO, tableWidth} from '../../../src/lib/io/terminal.js'

const HEAD = ['ID', 'STATUS', 'CUSTOMER', 'TOTAL', 'DUE DATE', 'PAID']
const ROWS = [
  ['inv_test_7Hq2xYb91kLm', 'UNPAID', 'Boulangerie Awa et Fils, Marché Central de Douala', '1\u202f250\u202f000 XAF', '31/12/2026', '0 XAF'],
  ['inv_test_3k2', 'PAID', 'Ndolo', '5\u202f000 XAF', '01/01/2027', '5\u202f000 XAF'],
]
const COLUMNS: Column[] = [{kind: 'id'}, {priority: 1}, {kind: 'text', priority: 2}, {kind: 'amount'}, {priority: 3}, {priority: 4}]
const widest = (text: string) => Math.max(...text.split('\n').map(displayWidth))

describe('tables fitted to a width', () => {
  it('leaves a table that fits as it is', () => {
    expect(plainTable(HEAD, ROWS, {columns: COLUMNS, width: 200})).toBe(plainTable(HEAD, ROWS))
  })

  for (const width of [120, 100, 80, 60]) {
    it(`fits ${width} columns, ids and amounts whole`, () => {
      const text = plainTable(HEAD, ROWS, {columns: COLUMNS, width})
      expect(widest(text)).toBeLessThanOrEqual(width)
      expect(text).toContain('inv_test_7Hq2xYb91kLm')
      expect(text).toContain('1\u202f250\u202f000 XAF')
      // no rule between rows: a header and one line per row
      expect(text.split('\n')).toHaveLength(3)
    })
  }

  it('cuts free text with … before dropping a column', () => {
    const text = plainTable(HEAD, ROWS, {columns: COLUMNS, width: 80})
    expect(text).toMatch(/Boulanger[^\n]*…/)
    expect(text.split('\n')[0]).toContain('PAID')
  })

  it('drops the lowest-priority columns when cutting text is not enough', () => {
    const text = plainTable(HEAD, ROWS, {columns: COLUMNS, width: 60})
    const header = text.split('\n')[0]!
    expect(header).not.toContain('PAID')
    expect(header).toContain('STATUS')
    expect(header).toContain('TOTAL')
  })

  it('never cuts an id or an amount, even past the width', () => {
    const text = plainTable(HEAD, ROWS, {columns: COLUMNS, width: 20})
    expect(text).toContain('inv_test_7Hq2xYb91kLm')
    expect(text).toContain('1\u202f250\u202f000 XAF')
  })

  it('measures coloured cells by what shows', () => {
    const green = (s: string) => `\u001b[32m${s}\u001b[39m`
    const plain = plainTable(['A', 'B'], [['x', 'SUCCESS']], {width: 40})
    const coloured = plainTable(['A', 'B'], [[green('x'), 'SUCCESS']], {width: 40})
    expect(coloured.replaceAll(/\u001b\[\d+m/g, '')).toBe(plain)
  })
})

describe('the width a table fits', () => {
  const streams = (tty: boolean, columns?: number) =>
    ({stdin: {isTTY: tty}, stdout: {isTTY: tty, columns, write: () => true}, stderr: {isTTY: tty, write: () => true}}) as never

  it('is the terminal width on a terminal, COLUMNS when set, none when piped or with --wide', () => {
    expect(tableWidth(false, {}, streams(true, 97))).toBe(97)
    expect(tableWidth(false, {COLUMNS: '80'}, streams(true, 97))).toBe(80)
    expect(tableWidth(false, {}, streams(false))).toBeUndefined()
    expect(tableWidth(false, {COLUMNS: '80'}, streams(false))).toBe(80)
    expect(tableWidth(true, {COLUMNS: '80'}, streams(true, 97))).toBeUndefined()
    expect(tableWidth(false, {COLUMNS: 'wide'}, streams(true, 97))).toBe(97)
  })

  it('IO.table fits with colour, a bold header and no borders', async () => {
    const io = new IO(streams(true, 60), {interactive: true, color: true, json: false, tableWidth: 60})
    const text = await io.table(HEAD, ROWS, COLUMNS)
    expect(text).not.toMatch(/[┌─│]/)
    expect(text.startsWith('\u001b[1mID')).toBe(true)
    expect(widest(text.replaceAll(/\u001b\[\d+m/g, ''))).toBeLessThanOrEqual(60)
  })
})

describe('names before ids', () => {
  const ids = ['inv_test_0VcFtBzIBMRvSIUgl7Ow7ynY', 'inv_test_0VcFtBtYToz73HnVlYwip1hs', 'inv_test_0VcFqq8ZkT2mN4pR7sW1xY3b']
  const head = ['ID', 'STATUS', 'CUSTOMER', 'TOTAL', 'DUE DATE', 'PAID']
  const rows = ids.map((id, i) => [id, 'UNPAID', ['Boulangerie Émilie', 'Boulangerie Awa', 'Quincaillerie du Marché Central de Douala'][i]!, '1 250 000 XAF', '2026-12-28', '0 XAF'])
  const columns: Column[] = [{kind: 'id', shorten: true}, {priority: 2}, {kind: 'text', priority: 1, min: 24}, {kind: 'amount'}, {priority: 3}, {priority: 4}]

  it('shortens ids to the prefix that tells the rows apart before cutting a name, and says so', () => {
    let fit: {dropped: number[]; shortened: number[]} | undefined
    const text = plainTable(head, rows, {columns, width: 80, onFit: (f) => (fit = f)})
    expect(widest(text)).toBeLessThanOrEqual(80)
    // 0VcFtB is shared by two: one more character tells them apart.
    expect(text).toContain('inv_test_0VcFtBz…')
    expect(text).toContain('inv_test_0VcFtBt…')
    expect(text).toContain('Boulangerie Émilie')
    expect(fit).toEqual({dropped: [5], shortened: [0]})
  })

  it('never cuts a name below its minimum; columns go instead, and are named', () => {
    let fit: {dropped: number[]; shortened: number[]} | undefined
    const text = plainTable(head, rows, {columns, width: 60, onFit: (f) => (fit = f)})
    expect(widest(text)).toBeLessThanOrEqual(60)
    expect(text).toMatch(/Quincaillerie du Marché[^\n]*…/)
    expect(text).toContain('inv_test_0VcFqq8…')
    expect(fit!.dropped).toEqual([1, 4, 5])
  })

  it('IO.fittedTable adds a line naming the columns left out and --wide, and says which it shows', async () => {
    const io = new IO({stdin: process.stdin, stdout: {write: () => true, isTTY: false} as never, stderr: {write: () => true} as never}, {interactive: false, color: false, json: false, tableWidth: 60})
    const {text, shown} = await io.fittedTable(head, rows, columns)
    expect(text).toMatch(/Not shown at this width: STATUS, DUE DATE, PAID \(--wide\s+shows every column\)\./)
    expect(text).toMatch(/Ids ending in … are shortened/)
    expect(shown(3)).toBe(true)
    expect(shown(5)).toBe(false)
  })
})
