import fc from 'fast-check'
import {describe, expect, it, vi} from 'vitest'

import {formatNumber, formatXaf, parseAmount, parseWholeXaf} from '../../../src/lib/payments/amount.js'
import {quoteInput} from '../../../src/lib/io/quote.js'
import {anyCodePoint} from '../../helpers/any-code-point.js'
import {onlyInputErrors, expectRefused} from './refusal.js'

const NBSP = '\u00a0'
const NNBSP = '\u202f'
const THIN = '\u2009'

describe('parseAmount: accepted forms', () => {
  it.each([
    ['5000', 5000],
    ['1', 1],
    ['5 000', 5000],
    ['5,000', 5000],
    [`5${NBSP}000`, 5000],
    [`5${NNBSP}000`, 5000],
    [`5${THIN}000`, 5000],
    [`1${NBSP}234 567`, 1234567], // spaces of different kinds look alike: may be mixed
    ['1,234,567', 1234567],
    ['1 234 567', 1234567],
    ['999', 999],
    ['100,000', 100000],
    ['  5000  ', 5000],
    ['\t5000\n', 5000],
    ['0500', 500],
    ['5000 XAF', 5000],
    ['5000XAF', 5000],
    ['5 000 xaf', 5000],
    ['12 500 XAF', 12500],
    ['5,000 FCFA', 5000],
    ['5000 fcfa', 5000],
    [`12${NBSP}500${NBSP}XAF`, 12500],
    ['1000000000000', 1_000_000_000_000],
    ['1,000,000,000,000', 1_000_000_000_000],
    ['00001000000000000', 1_000_000_000_000],
  ])('%j → %d', (input, expected) => {
    expect(parseAmount(input)).toBe(expected)
  })

  it('refuses an amount over the contract\'s 1 000 000 000 000 (exit 2, naming the flag); parseWholeXaf without a max reads up to MAX_SAFE_INTEGER', () => {
    expect(expectRefused(() => parseAmount('1000000000001'), 'amount').message).toMatch(/at most 1 000 000 000 000/)
    expectRefused(() => parseAmount('9007199254740991'), 'amount')
    expect(parseWholeXaf('9,007,199,254,740,991', {min: 1, field: 'n'})).toBe(Number.MAX_SAFE_INTEGER)
  })

  it('never multiplies by 100', () => {
    expect(parseAmount('50')).toBe(50)
  })
})

describe('parseAmount: refused forms', () => {
  it.each([
    ['', /Missing --amount/],
    ['   ', /Missing --amount/],
    ['50.5', /no decimals/],
    ['5.000', /no decimals/],
    ['1,234.56', /no decimals/],
    ['.5', /no decimals/],
    ['1e3', /no exponent/],
    ['1E3', /no exponent/],
    ['1.5e3', /no exponent/],
    ['-5', /at least 1/],
    ['\u22125', /at least 1/],
    ['-5 000', /at least 1/],
    ['0', /at least 1/],
    ['000', /at least 1/],
    ['0 XAF', /at least 1/],
    ['5,00', /groups of three/],
    ['50,5', /groups of three/],
    ['1,2345', /groups of three/],
    ['12,34,567', /groups of three/],
    ['0,500', /groups of three/],
    ['5 00', /groups of three/],
    ['5  000', /groups of three/],
    ['1,234 567', /groups of three/],
    [',500', /groups of three/],
    ['5000,', /groups of three/],
    ['abc', /Invalid --amount/],
    ['0x10', /Invalid --amount/],
    ['+5', /Invalid --amount/],
    ['-abc', /Invalid --amount/],
    ['XAF', /Invalid --amount/],
    ['5000 EUR', /Invalid --amount/],
    ['XAF 5000', /Invalid --amount/],
    ['$5000', /Invalid --amount/],
    ['Infinity', /Invalid --amount/],
    ['NaN', /Invalid --amount/],
    ['٥٠٠٠', /Invalid --amount/], // Arabic-Indic digits
    ['５０００', /Invalid --amount/], // full-width digits
    ['5_000', /Invalid --amount/],
    ["5'000", /Invalid --amount/],
    ['9007199254740992', /too large/],
    ['9,007,199,254,740,992', /too large/],
    ['1000000000000000000000', /too large/],
  ])('%j is refused (%s)', (input, message) => {
    const error = expectRefused(() => parseAmount(input), 'amount')
    expect(error.message).toMatch(message)
  })

  it('names the flag it was given', () => {
    expectRefused(() => parseAmount('x', 'price'), 'price')
  })

  it('echoes control characters escaped, long input shortened', () => {
    const error = expectRefused(() => parseAmount('\u001b[31m5' + 'x'.repeat(200)), 'amount')
    expect(error.message).not.toContain('\u001b')
    // Shown as its picture, never as an escape a person has to decode.
    expect(error.message).toContain('␛[31m5')
    expect(error.message).not.toContain('\\u001b')
    expect(error.message.length).toBeLessThan(400)
  })

  it('refuses undefined at run time with an InputError', () => {
    expectRefused(() => parseAmount(undefined as unknown as string), 'amount')
  })
})

describe('parseWholeXaf', () => {
  it('accepts 0 for prices (min 0)', () => {
    expect(parseWholeXaf('0', {min: 0, field: 'price'})).toBe(0)
    expect(parseWholeXaf('1 500', {min: 0, field: 'price'})).toBe(1500)
  })
  it('refuses below the minimum', () => {
    expect(expectRefused(() => parseWholeXaf('0', {min: 1, field: 'quantity'}), 'quantity').message).toMatch(/at least 1/)
    expectRefused(() => parseWholeXaf('-1', {min: 0, field: 'price'}), 'price')
  })
  it('refuses a unit when unit: false', () => {
    expectRefused(() => parseWholeXaf('3 XAF', {min: 1, field: 'quantity', unit: false}), 'quantity')
    expect(parseWholeXaf('3', {min: 1, field: 'quantity', unit: false})).toBe(3)
  })
})

describe('formatXaf and formatNumber', () => {
  it.each([
    [0, '0 XAF'],
    [1, '1 XAF'],
    [999, '999 XAF'],
    [1000, '1 000 XAF'],
    [12500, '12 500 XAF'],
    [1234567, '1 234 567 XAF'],
    [-12500, '-12 500 XAF'],
    [Number.MAX_SAFE_INTEGER, '9 007 199 254 740 991 XAF'],
  ])('%d → %j', (n, expected) => {
    expect(formatXaf(n)).toBe(expected)
  })
  it('uses plain spaces only', () => {
    expect(formatXaf(1234567)).not.toMatch(/[\u00a0\u202f]/)
  })
  it('takes the unit from the catalogue per locale (French falls back to English until registered)', async () => {
    // Fresh modules: another file of the worker may have registered French already.
    vi.resetModules()
    const amount = await import('../../../src/lib/payments/amount.js')
    const i18n = await import('../../../src/lib/i18n/index.js')
    const french = (await import('../../../src/lib/i18n/fr/index.js')).fr
    expect(amount.formatXaf(12500, 'en')).toBe('12 500 XAF')
    expect(amount.formatXaf(12500, 'fr')).toBe('12 500 XAF')
    i18n.registerCatalogue('fr', french)
    expect(amount.formatXaf(12500, 'fr')).toBe('12 500 FCFA')
    expect(amount.formatXaf(12500, 'en')).toBe('12 500 XAF')
  })
  it('shows non-integers and non-finite values without grouping rather than hiding them', () => {
    expect(formatNumber(1.5)).toBe('1.5')
    expect(formatNumber(Number.NaN)).toBe('NaN')
  })
})

describe('quoteInput', () => {
  it('shows control characters as their pictures, invisible ones by code point, and shortens', () => {
    expect(quoteInput('a\nb')).toBe('a␤b')
    expect(quoteInput('5\t000')).toBe('5␉000')
    expect(quoteInput('\u202eabc')).toBe('<U+202E>abc')
    expect(quoteInput('a\u200bb\u2066c')).toBe('a<U+200B>b<U+2066>c')
    expect(quoteInput('x'.repeat(100), 10)).toBe('x'.repeat(9) + '…')
  })
})

// Properties.
const group = (n: number, sep: string) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep)
const separator = fc.constantFrom(',', ' ', '\u00a0', '\u202f', '\u2009')
const amount = fc.oneof(fc.integer({min: 1, max: 1e12}), fc.integer({min: 1, max: 9999}), fc.constant(1e12))

describe('parseAmount: properties', () => {
  it('round-trips every integer written plain, grouped with any separator, or as formatXaf prints it', () => {
    fc.assert(
      fc.property(amount, separator, fc.constantFrom('', ' XAF', 'XAF', ' FCFA'), (n, sep, unit) => {
        expect(parseAmount(String(n))).toBe(n)
        expect(parseAmount(group(n, sep) + unit)).toBe(n)
        expect(parseAmount(formatXaf(n))).toBe(n)
      }),
      {numRuns: 2000},
    )
  })

  it('returns only safe integers ≥ 1, and throws only InputError, for arbitrary strings', () => {
    const noisy = fc.oneof(
      fc.string(),
      fc.string({unit: anyCodePoint}),
      fc.string({unit: fc.constantFrom(...'-+0123456789 ,.eExXAFC\u00a0\u202f'), maxLength: 24}),
    )
    fc.assert(
      fc.property(noisy, (input) => {
        onlyInputErrors(() => {
          const n = parseAmount(input)
          expect(Number.isSafeInteger(n)).toBe(true)
          expect(n).toBeGreaterThanOrEqual(1)
        })
      }),
      {numRuns: 1500},
    )
  })

  it('refuses every number with a decimal part', () => {
    fc.assert(
      fc.property(fc.integer({min: 0, max: 1e9}), fc.integer({min: 1, max: 99}), (whole, frac) => {
        expectRefused(() => parseAmount(`${whole}.${frac}`), 'amount')
      }),
      {numRuns: 300},
    )
  })
})
