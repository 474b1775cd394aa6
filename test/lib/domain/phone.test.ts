import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {nationalDigits, normalisePhone} from '../../../src/lib/payments/phone.js'
import {expectRefused, onlyInputErrors} from './refusal.js'

describe('normalisePhone: accepted forms', () => {
  it.each([
    ['670000001', '237670000001'],
    ['237670000001', '237670000001'],
    ['+237670000001', '237670000001'],
    ['+237 6 70 00 00 01', '237670000001'],
    ['+237 670 00 00 01', '237670000001'],
    ['00237670000001', '237670000001'],
    ['00 237 670 000 001', '237670000001'],
    ['6 70 00 00 01', '237670000001'],
    ['670.00.00.01', '237670000001'],
    ['670-00-00-01', '237670000001'],
    ['670\u201300\u201300\u201301', '237670000001'], // en dashes
    ['(+237) 670 000 001', '237670000001'],
    ['(237) 670-000-001', '237670000001'],
    ['+237 (6) 70.00.00.01', '237670000001'],
    ['+237\u00a0670\u00a0000\u00a0001', '237670000001'],
    ['  690000001  ', '237690000001'],
    ['650000001', '237650000001'],
    ['222123456', '237222123456'], // fixed line: the shape is valid (operator.ts refuses it)
    ['+237 242 00 00 00', '237242000000'],
  ])('%j → %s', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected)
  })
})

describe('normalisePhone: refused forms', () => {
  it.each([
    ['', /Missing --phone/],
    ['   ', /Missing --phone/],
    ['67000000', /9 digits/], // 8 digits
    ['6700000011', /9 digits/], // 10 digits
    ['0670000001', /9 digits/], // no trunk prefix in Cameroon
    ['770000001', /9 digits/], // national numbers start with 6 or 2
    ['170000001', /9 digits/],
    ['23767000000', /9 digits/], // 11 digits
    ['2376700000011', /9 digits/], // 13 digits
    ['237770000001', /9 digits/],
    ['+23767000001', /9 digits/],
    ['+2376700000011', /9 digits/],
    ['00237 67000001', /9 digits/],
    ['+33612345678', /not a Cameroon/],
    ['+1 555 123 4567', /not a Cameroon/],
    ['0033612345678', /not a Cameroon/],
    ['+', /9 digits/],
    ['++237670000001', /9 digits/],
    ['670+000001', /9 digits/],
    ['670000001a', /9 digits/],
    ['abc', /9 digits/],
    ['tel:+237670000001', /9 digits/],
    ['670_000_001', /9 digits/],
    ['670/000/001', /9 digits/],
    ['６７００００００１', /9 digits/], // full-width digits
  ])('%j is refused (%s)', (input, message) => {
    const error = expectRefused(() => normalisePhone(input), 'phone')
    expect(error.message).toMatch(message)
  })

  it('lists the accepted forms in the message', () => {
    const {message} = expectRefused(() => normalisePhone('12345'), 'phone')
    for (const form of ['670000001', '237670000001', '+237 6 70 00 00 01', '00237670000001']) expect(message).toContain(form)
  })

  it('names the flag it was given', () => {
    expectRefused(() => normalisePhone('nope', 'to-phone'), 'to-phone')
  })
})

describe('nationalDigits', () => {
  it('drops the country code of a normalised number', () => {
    expect(nationalDigits('237670000001')).toBe('670000001')
  })
})

const national = fc
  .tuple(fc.constantFrom('6', '2'), fc.stringMatching(/^\d{8}$/))
  .map(([first, rest]) => first + rest)
const layout = fc.constantFrom(' ', '.', '-', '', '\u00a0', '\u2013')

describe('normalisePhone: properties', () => {
  it('every accepted form gives 237 + the national digits, and normalising is idempotent', () => {
    fc.assert(
      fc.property(national, fc.constantFrom('', '237', '+237', '00237', '(+237) ', '+237 '), layout, (digits, prefix, sep) => {
        const spaced = digits.replace(/(\d{3})(\d{2})(\d{2})(\d{2})/, `$1${sep}$2${sep}$3${sep}$4`)
        const normalised = normalisePhone(prefix + spaced)
        expect(normalised).toBe('237' + digits)
        expect(normalised).toMatch(/^237\d{9}$/)
        expect(normalisePhone(normalised)).toBe(normalised)
      }),
      {numRuns: 1000},
    )
  })

  it('arbitrary strings give /^237\\d{9}$/ (idempotently) or an InputError', () => {
    const noisy = fc.oneof(fc.string(), fc.stringMatching(/^[+0-9 ().-]{0,20}$/))
    fc.assert(
      fc.property(noisy, (input) => {
        onlyInputErrors(() => {
          const normalised = normalisePhone(input)
          expect(normalised).toMatch(/^237[62]\d{8}$/)
          expect(normalisePhone(normalised)).toBe(normalised)
        })
      }),
      {numRuns: 1500},
    )
  })
})
