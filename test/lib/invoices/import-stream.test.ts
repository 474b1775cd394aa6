/**
 * The import's streaming reader (src/lib/invoices/import-stream.ts) against the whole-text reader
 * it replaces for files (csv.ts's parseCsv): the same records and lines for any text cut into
 * chunks anywhere (a CRLF, a `""` or a closing quote split between two chunks included), the caps
 * on a cell and a row, and UTF-8 checked across chunk boundaries.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {CsvSyntaxError, parseCsv} from '../../../src/lib/invoices/csv.js'
import {CELL_CAP, csvRecords, LINE_CAP, NotUtf8Error, textChunks, textLines, UnterminatedQuoteError} from '../../../src/lib/invoices/import-stream.js'

async function* chunked(text: string, cuts: number[]): AsyncGenerator<string> {
  let at = 0
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (cut > at && cut < text.length) {
      yield text.slice(at, cut)
      at = cut
    }
  }
  yield text.slice(at)
}

async function records(text: string, cuts: number[], delimiter = ',') {
  const out = []
  for await (const batch of csvRecords(chunked(text, cuts), delimiter)) out.push(...batch)
  return out
}

describe('import-stream', () => {
  it('reads what parseCsv reads, cut into chunks anywhere', async () => {
    const text = fc.string({unit: fc.constantFrom('a', 'é', ',', ';', '"', '\r', '\n', ' ', '☕'), maxLength: 60})
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(60), {maxLength: 6}), fc.constantFrom(',', ';'), async (input, cuts, delimiter) => {
        let expected: unknown
        try {
          expected = parseCsv(input, delimiter)
        } catch (error) {
          expect(error).toBeInstanceOf(CsvSyntaxError)
          await expect(records(input, cuts, delimiter)).rejects.toBeInstanceOf(UnterminatedQuoteError)
          return
        }
        expect(await records(input, cuts, delimiter)).toEqual(expected)
      }),
      {numRuns: 1000},
    )
  })

  it('keeps a cell up to its cap and a row up to its own, then marks it with its length', async () => {
    const big = 'x'.repeat(CELL_CAP + 10)
    const [header, over, after] = await records(`a,b\r\n1,"${big}"\r\n2,3\r\n`, [7, 1000, 70_000])
    expect(header!.fields).toEqual(['a', 'b'])
    expect(over).toMatchObject({line: 2, over: {kind: 'cell', column: 1, length: CELL_CAP + 10}})
    expect(after).toEqual({line: 3, fields: ['2', '3']})
    const cells = Array.from({length: 20}, () => 'y'.repeat(CELL_CAP - 1)).join(',')
    const [row] = await records(`${cells}\n`, [])
    expect(row!.over).toMatchObject({kind: 'line'})
    expect(row!.over!.length).toBeGreaterThan(LINE_CAP)
    const lines = []
    for await (const batch of textLines(chunked(`{"a":1}\r\n${'z'.repeat(LINE_CAP + 1)}\n\n{"b":2}`, [3, 9, 10]))) lines.push(...batch)
    expect(lines.map((l) => [l.line, l.text.length, l.over?.kind])).toEqual([
      [1, 7, undefined],
      [2, 0, 'line'],
      [4, 7, undefined],
    ])
  })

  it('finds bytes that are not UTF-8 at their line, across chunks of 64 KiB', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-stream-'))
    try {
      const file = join(dir, 'f.csv')
      // A two-byte é split across the first chunk boundary is fine; a lone 0xE9 on line 3 is not.
      const head = Buffer.from(`${'a'.repeat(64 * 1024 - 1)}é\nline two\n`)
      writeFileSync(file, Buffer.concat([head, Buffer.from([0x42, 0xe9, 0x42, 0x0a])]))
      let text = ''
      const read = async () => {
        for await (const chunk of textChunks(file, 'utf-8', {skip: 0, checkUtf8: true})) text += chunk
      }
      const error = await read().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(NotUtf8Error)
      expect((error as NotUtf8Error).line).toBe(3)
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
