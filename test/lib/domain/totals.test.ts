import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {computeTotals, computeTotalsExact} from '../../../src/contract/totals.js'

const totals = (subtotal: number, discount: number, total: number) => ({
  subtotal_amount: subtotal,
  discount_amount: discount,
  total_amount: total,
})

describe('computeTotals: examples', () => {
  it.each([
    [[{price: 500, quantity: 3}, {price: 2500, quantity: 1}], 10, totals(4000, 400, 3600)],
    [[{price: 500, quantity: 3}], 0, totals(1500, 0, 1500)],
    [[{price: 500, quantity: 3}], undefined, totals(1500, 0, 1500)],
    [[{price: 500, quantity: 3}], 100, totals(1500, 1500, 0)],
    [[{price: 5, quantity: 1}], 10, totals(5, 1, 4)], // 0.5 rounds away from zero
    [[{price: 15, quantity: 1}], 10, totals(15, 2, 13)], // 1.5 → 2
    [[{price: 25, quantity: 1}], 10, totals(25, 3, 22)], // 2.5 → 3 (not banker's 2)
    [[{price: 14, quantity: 1}], 10, totals(14, 1, 13)], // 1.4 → 1
    [[{price: 1, quantity: 1}], 50, totals(1, 1, 0)],
    [[{price: 1000, quantity: 1}], 12.5, totals(1000, 125, 875)],
    [[{price: 5, quantity: 1}], 0.1, totals(5, 0, 5)], // 0.005
    [[{price: 3, quantity: 1}], 33.333, totals(3, 1, 2)], // 0.99999
    // Where the binary double gives x.4999…: the decimal discount is exact.
    [[{price: 250, quantity: 1}], 64.6, totals(250, 162, 88)], // 161.5
    [[{price: 375, quantity: 1}], 9.2, totals(375, 35, 340)], // 34.5
    [[{price: 125, quantity: 3}], 16.4, totals(375, 62, 313)], // 61.5
    [[{price: 100, quantity: 1}], 1e-7, totals(100, 0, 100)], // String(1e-7) is exponent form
    [[{price: 0, quantity: 5}], 50, totals(0, 0, 0)],
    [[], 10, totals(0, 0, 0)],
    [[{price: 3002399751580330, quantity: 3}], 10, totals(9007199254740990, 900719925474099, 8106479329266891)],
    [[{price: Number.MAX_SAFE_INTEGER, quantity: 1}], 50, totals(Number.MAX_SAFE_INTEGER, 4503599627370496, 4503599627370495)],
  ])('%j with %s %%', (items, discount, expected) => {
    expect(computeTotals(items, discount)).toEqual(expected)
  })
})

describe('computeTotals: refusals (programming errors)', () => {
  it.each([
    [[{price: 1.5, quantity: 1}], 0],
    [[{price: -1, quantity: 1}], 0],
    [[{price: Number.NaN, quantity: 1}], 0],
    [[{price: 1, quantity: 0}], 0],
    [[{price: 1, quantity: 1.5}], 0],
    [[{price: 1, quantity: 1}], -1],
    [[{price: 1, quantity: 1}], 100.5],
    [[{price: 1, quantity: 1}], Number.NaN],
    [[{price: 1, quantity: 1}], Number.POSITIVE_INFINITY],
    [[{price: Number.MAX_SAFE_INTEGER, quantity: 2}], 0], // subtotal beyond safe integers
  ])('%j with %s → RangeError', (items, discount) => {
    expect(() => computeTotals(items, discount)).toThrow(RangeError)
  })
  it('computeTotalsExact handles any size', () => {
    const subtotal = BigInt(Number.MAX_SAFE_INTEGER) ** 2n // ends in …081: 10 % is …208.1, rounded down
    expect(subtotal % 10n).toBe(1n)
    expect(computeTotalsExact([{price: Number.MAX_SAFE_INTEGER, quantity: Number.MAX_SAFE_INTEGER}], 10)).toEqual({
      subtotal_amount: subtotal,
      discount_amount: subtotal / 10n,
      total_amount: subtotal - subtotal / 10n,
    })
    // …081 × 50 % = …040.5, rounded away from zero.
    expect(computeTotalsExact([{price: Number.MAX_SAFE_INTEGER, quantity: Number.MAX_SAFE_INTEGER}], 50).discount_amount).toBe(
      subtotal / 2n + 1n,
    )
  })
})

/** Independent reference: discount given as k hundredths of a percent, i.e. k / 10000 of the subtotal. */
function reference(items: Array<{price: number; quantity: number}>, k: number) {
  const subtotal = items.reduce((sum, item) => sum + BigInt(item.price) * BigInt(item.quantity), 0n)
  const product = subtotal * BigInt(k)
  let discount = product / 10000n
  if ((product % 10000n) * 2n >= 10000n) discount += 1n
  return {subtotal, discount, total: subtotal - discount}
}

describe('computeTotals: properties', () => {
  const item = fc.record({price: fc.integer({min: 0, max: 1e9}), quantity: fc.integer({min: 1, max: 1000})})
  const items = fc.array(item, {minLength: 1, maxLength: 8})
  const hundredths = fc.oneof(fc.integer({min: 0, max: 10000}), fc.constantFrom(0, 50, 1000, 5000, 10000))

  it('0 ≤ discount ≤ subtotal, total = subtotal − discount, all integers, matching a BigInt reference', () => {
    fc.assert(
      fc.property(items, hundredths, (list, k) => {
        const result = computeTotals(list, k / 100)
        const ref = reference(list, k)
        expect(Number.isSafeInteger(result.subtotal_amount)).toBe(true)
        expect(Number.isSafeInteger(result.discount_amount)).toBe(true)
        expect(result.discount_amount).toBeGreaterThanOrEqual(0)
        expect(result.discount_amount).toBeLessThanOrEqual(result.subtotal_amount)
        expect(result.total_amount).toBe(result.subtotal_amount - result.discount_amount)
        expect(BigInt(result.subtotal_amount)).toBe(ref.subtotal)
        expect(BigInt(result.discount_amount)).toBe(ref.discount)
        expect(BigInt(result.total_amount)).toBe(ref.total)
      }),
      {numRuns: 1500},
    )
  })

  it('the exact version agrees with the reference for huge values too', () => {
    const big = fc.record({
      price: fc.integer({min: 0, max: Number.MAX_SAFE_INTEGER}),
      quantity: fc.integer({min: 1, max: Number.MAX_SAFE_INTEGER}),
    })
    fc.assert(
      fc.property(fc.array(big, {minLength: 1, maxLength: 4}), hundredths, (list, k) => {
        const result = computeTotalsExact(list, k / 100)
        const ref = reference(list, k)
        expect(result).toEqual({subtotal_amount: ref.subtotal, discount_amount: ref.discount, total_amount: ref.total})
      }),
      {numRuns: 500},
    )
  })

  it('a bigger discount never gives a bigger total', () => {
    fc.assert(
      fc.property(items, hundredths, hundredths, (list, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a]
        expect(computeTotals(list, high / 100).total_amount).toBeLessThanOrEqual(computeTotals(list, low / 100).total_amount)
      }),
      {numRuns: 500},
    )
  })
})

describe('totals.ts stays pure', () => {
  it('imports nothing (the local sandbox imports it too)', async () => {
    const {readFile} = await import('node:fs/promises')
    const source = await readFile(new URL('../../../src/contract/totals.ts', import.meta.url), 'utf8')
    expect(source).not.toMatch(/^\s*import\s/m)
    expect(source).not.toMatch(/\bimport\(|\brequire\(/)
  })
})
