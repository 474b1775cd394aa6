/**
 * The plain table (no colour) against the layout it replaces on the start-up path: cli-table3
 * with its borders blanked, one space of padding trimmed at line start and end. Same text, byte
 * for byte, for the data our tables hold (amounts with French spacing, accents, empty cells) and
 * for what they could (wide characters, emoji, cells over several lines).
 */
import Table from 'cli-table3'
import {describe, expect, it} from 'vitest'

import {displayWidth, plainTable} from '../../../src/lib/io/table.js'
import {IO} from '../../../src/lib/io/terminal.js'

const BLANK = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '',
  right: '', 'right-mid': '', middle: '  ',
}

/** What IO.table printed without colour before io/table.ts (cli-table3, borders blanked). */
function cliTable3(head: string[], rows: string[][]): string {
  const table = new Table({head, style: {head: [], border: [], compact: true}, chars: BLANK})
  table.push(...rows)
  return table
    .toString()
    .split('\n')
    .map((line) => line.replace(/^ /, '').trimEnd())
    .join('\n')
}

const CASES: Array<[string, string[], string[][]]> = [
  ['test numbers', ['OPERATOR', 'NUMBER', 'OUTCOME'], [['MTN', '237670000001', 'SUCCESS'], ['ORANGE', '237690000002', 'FAILED (CUSTOMER_DECLINED)']]],
  ['French amounts and accents', ['STATUT', 'MONTANT', 'CRÉÉ LE'], [['RÉUSSI', '5\u202f000 FCFA', '22/11/2026 13:05'], ['ÉCHOUÉ', '150 FCFA', '01/01/2026 00:00']]],
  ['empty cells and a short row', ['ID', 'NAME', 'EMAIL'], [['inv_1', '', 'a@example.com'], ['inv_2', 'Awa Bakery', ''], ['inv_3']]],
  ['a header wider than its column', ['A VERY LONG HEADER', 'B'], [['x', 'y']]],
  ['no rows', ['ID', 'STATUS'], []],
  ['wide characters and emoji', ['NAME', 'NOTE'], [['東京', 'ok'], ['café 🎉', 'x'], ['e\u0301te\u0301', 'combining accents']]],
  ['a cell over several lines', ['KEY', 'VALUE'], [['address', 'Rue 1\nDouala\nCameroun'], ['phone', '237670000001']]],
  ['trailing spaces inside the last cell', ['A', 'B'], [['1', 'two  '], ['3', '4']]],
]

describe('plain tables (no colour)', () => {
  for (const [name, head, rows] of CASES) {
    it(`matches cli-table3's layout: ${name}`, () => {
      expect(plainTable(head, rows)).toBe(cliTable3(head, rows))
    })
  }

  it('aligns columns four spaces apart, with no trailing spaces', () => {
    expect(plainTable(['ID', 'STATUS'], [['pay_1', 'SUCCESS'], ['p', 'FAILED']])).toBe(
      ['ID       STATUS', 'pay_1    SUCCESS', 'p        FAILED'].join('\n'),
    )
  })

  it('counts display width, not code units', () => {
    expect(displayWidth('abc')).toBe(3)
    expect(displayWidth('5\u202f000 FCFA')).toBe(10)
    expect(displayWidth('e\u0301')).toBe(1)
    expect(displayWidth('東京')).toBe(4)
    expect(displayWidth('🎉')).toBe(2)
  })

  it('IO.table uses it without colour, and with colour the same layout with a bold header (no borders)', async () => {
    const streams = (tty: boolean) => ({stdin: {isTTY: tty}, stdout: {isTTY: tty, write: () => true}, stderr: {isTTY: tty, write: () => true}})
    const plain = new IO(streams(false) as never, {color: false, interactive: false, json: false})
    expect(await plain.table(['ID', 'STATUS'], [['pay_1', 'SUCCESS']])).toBe('ID       STATUS\npay_1    SUCCESS')
    const coloured = new IO(streams(true) as never, {color: true, interactive: true, json: false})
    const table = await coloured.table(['ID', 'STATUS'], [['pay_1', 'SUCCESS']])
    expect(table).toBe('\u001b[1mID\u001b[22m       \u001b[1mSTATUS\u001b[22m\npay_1    SUCCESS')
  })
})
