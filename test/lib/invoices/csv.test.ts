import {describe, expect, it} from 'vitest'

import {csvLine, parseCsv} from '../../../src/lib/invoices/csv.js'

describe('parseCsv', () => {
  it('reads quoted fields, escaped quotes, CRLF, a BOM, and line breaks inside quotes, with starting lines', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""",3\r\n\r\n"multi\r\nline",,\nlast,"",z'
    expect(parseCsv(text)).toEqual([
      {line: 1, fields: ['a', 'b', 'c']},
      {line: 2, fields: ['x, y', 'say "hi"', '3']},
      {line: 4, fields: ['multi\r\nline', '', '']},
      {line: 6, fields: ['last', '', 'z']},
    ])
  })

  it('handles a lone CR, a trailing newline, and a trailing empty field', () => {
    expect(parseCsv('a,b\rc,\n')).toEqual([
      {line: 1, fields: ['a', 'b']},
      {line: 2, fields: ['c', '']},
    ])
  })

  it('refuses an unterminated quote, naming the line where the record starts', () => {
    expect(() => parseCsv('a\n"open,b\nmore')).toThrowError(expect.objectContaining({line: 2}))
  })

  it('writes what it reads back', () => {
    const values = ['plain', 'with, comma', 'with "quote"', 'two\r\nlines', '', ' padded ']
    expect(parseCsv(csvLine(values))[0]!.fields).toEqual(values)
  })
})
