import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {inferOperator, networkOf, parseOperator, resolveOperator} from '../../../src/lib/payments/operator.js'
import {TEST_NUMBERS} from '../../../src/contract/test-numbers.js'
import {expectRefused, onlyInputErrors} from './refusal.js'

const mtnPrefixes = ['650', '651', '652', '653', '654', ...range(670, 679), '680', '681', '682', '683']
const orangePrefixes = ['655', '656', '657', '658', '659', ...range(690, 699), '686', '687', '688', '689', '640', '641', '642']
const nexttelPrefixes = [...range(660, 669), '684', '685']
const camtelPrefixes = [...range(620, 629), '242', '243', '222', '233']
const unknownPrefixes = [...range(600, 619), ...range(630, 639), ...range(643, 649)]

function range(from: number, to: number): string[] {
  return Array.from({length: to - from + 1}, (_, i) => String(from + i))
}

describe('networkOf', () => {
  it('covers every prefix from 600 to 699 exactly once', () => {
    const all = [...mtnPrefixes, ...orangePrefixes, ...nexttelPrefixes, ...camtelPrefixes.filter((p) => p.startsWith('6')), ...unknownPrefixes]
    expect(new Set(all).size).toBe(all.length)
    expect(all.length).toBe(100)
  })
  it.each([
    ...mtnPrefixes.map((p) => [p, 'MTN']),
    ...orangePrefixes.map((p) => [p, 'ORANGE']),
    ...nexttelPrefixes.map((p) => [p, 'Nexttel']),
    ...camtelPrefixes.map((p) => [p, 'Camtel']),
    ...unknownPrefixes.map((p) => [p, undefined]),
  ])('prefix %s → %s', (prefix, network) => {
    expect(networkOf(`${prefix}123456`)).toEqual(network ? {prefix, network} : {prefix})
  })
})

describe('inferOperator', () => {
  it.each(TEST_NUMBERS.map((row) => [row.phone, row.operator]))('test number %s → %s from the spec table', (phone, operator) => {
    expect(inferOperator(phone)).toEqual({operator, source: 'test-number'})
  })
  it('237650000001 is ORANGE although 650 is an MTN prefix', () => {
    expect(inferOperator('+237 6 50 00 00 01')).toEqual({operator: 'ORANGE', source: 'test-number'})
    expect(inferOperator('650000003')).toEqual({operator: 'MTN', source: 'prefix'})
  })
  it.each([
    ...mtnPrefixes.map((p) => [p, 'MTN']),
    ...orangePrefixes.map((p) => [p, 'ORANGE']),
  ])('prefix %s → %s', (prefix, operator) => {
    expect(inferOperator(`${prefix}123456`)).toEqual({operator, source: 'prefix'})
  })
  it.each(nexttelPrefixes.map((p) => [p, 'Nexttel']).concat(camtelPrefixes.map((p) => [p, 'Camtel'])))(
    'prefix %s is refused as %s',
    (prefix, network) => {
      const error = expectRefused(() => inferOperator(`${prefix}123456`), 'phone')
      expect(error.message).toContain(network)
      expect(error.message).toMatch(/only MTN and ORANGE/)
    },
  )
  it.each(unknownPrefixes)('unknown prefix %s is refused, asking for --operator', (prefix) => {
    const error = expectRefused(() => inferOperator(`${prefix}123456`), 'phone')
    expect(error.message).toContain(prefix)
    expect(error.message).toContain('--operator')
  })
  it('refuses an invalid number as the phone', () => {
    expectRefused(() => inferOperator('12'), 'phone')
  })
})

describe('parseOperator', () => {
  it.each([
    ['MTN', 'MTN'],
    ['mtn', 'MTN'],
    ['Mtn', 'MTN'],
    [' orange ', 'ORANGE'],
    ['ORANGE', 'ORANGE'],
  ])('%j → %s', (input, expected) => {
    expect(parseOperator(input)).toBe(expected)
  })
  it.each(['', 'ORANG', 'MTN ORANGE', 'Nexttel', 'CAMTEL', 'mtn1', 'MOOV'])('%j is refused', (input) => {
    const error = expectRefused(() => parseOperator(input), 'operator')
    expect(error.message).toMatch(/MTN or ORANGE/)
  })
})

describe('resolveOperator', () => {
  it('infers when no operator is given, without warnings', () => {
    expect(resolveOperator('670000003')).toEqual({operator: 'MTN', source: 'prefix', warnings: []})
    expect(resolveOperator('237650000001')).toEqual({operator: 'ORANGE', source: 'test-number', warnings: []})
  })
  it('takes a given operator that agrees, case-insensitively, without warnings', () => {
    expect(resolveOperator('670000003', 'mtn')).toEqual({operator: 'MTN', source: 'given', warnings: []})
    expect(resolveOperator('690000003', 'Orange')).toEqual({operator: 'ORANGE', source: 'given', warnings: []})
    expect(resolveOperator('237650000001', 'ORANGE')).toEqual({operator: 'ORANGE', source: 'given', warnings: []})
  })
  it('warns, not refuses, when the operator contradicts the prefix (numbers are portable)', () => {
    const result = resolveOperator('670000003', 'ORANGE')
    expect(result.operator).toBe('ORANGE')
    expect(result.warnings).toHaveLength(1)
    expect(result.warnings[0]).toContain('237670000003')
    expect(result.warnings[0]).toContain('MTN')
    expect(result.warnings[0]).toContain('ORANGE')
  })
  it('warns when a test number is given with the other operator: it settles randomly', () => {
    for (const row of TEST_NUMBERS) {
      const other = row.operator === 'MTN' ? 'ORANGE' : 'MTN'
      const result = resolveOperator(row.phone, other)
      expect(result.operator).toBe(other)
      expect(result.warnings).toHaveLength(1)
      expect(result.warnings[0]).toMatch(/test number/)
      expect(result.warnings[0]).toMatch(/randomly/)
      expect(resolveOperator(row.phone, row.operator).warnings).toEqual([])
    }
  })
  it('uses a given operator for an unknown prefix, with a warning', () => {
    const result = resolveOperator('600000001', 'MTN')
    expect(result).toMatchObject({operator: 'MTN', source: 'given'})
    expect(result.warnings[0]).toContain('600')
  })
  it.each([
    ['660000001', 'MTN', 'Nexttel'],
    ['684000001', 'ORANGE', 'Nexttel'],
    ['620000001', 'MTN', 'Camtel'],
    ['242000001', 'ORANGE', 'Camtel'],
    ['243000001', undefined, 'Camtel'],
    ['665000001', undefined, 'Nexttel'],
  ])('%s with %s is refused as %s', (phone, given, network) => {
    const error = expectRefused(() => resolveOperator(phone, given), 'phone')
    expect(error.message).toContain(network)
  })
  it('refuses an invalid operator with field operator', () => {
    expectRefused(() => resolveOperator('670000003', 'VODAFONE'), 'operator')
    expectRefused(() => resolveOperator('670000003', ''), 'operator')
  })
  it('never throws anything but InputError, and always returns MTN or ORANGE', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.stringMatching(/^(\+237)?[62]\d{8}$/)),
        fc.option(fc.oneof(fc.constantFrom('MTN', 'ORANGE', 'mtn', 'orange'), fc.string()), {nil: undefined}),
        (phone, given) => {
          onlyInputErrors(() => {
            const result = resolveOperator(phone, given)
            expect(['MTN', 'ORANGE']).toContain(result.operator)
          })
        },
      ),
      {numRuns: 1000},
    )
  })
})
