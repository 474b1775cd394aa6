/**
 * Invoice totals (docs/service.md, "Invoices"): subtotal = Σ price × quantity;
 * discount_amount = round(subtotal × discount_percent / 100), half away from zero;
 * total_amount = subtotal − discount_amount.
 *
 * PURE: no imports. The local sandbox computes its invoices with this same module, so the CLI's
 * preview and the sandbox's answer agree to the franc. Arithmetic is in BigInt, and the discount
 * is read as the decimal it was written as (12.5 is 125/1000, 0.1 is 1/10, not the binary double),
 * so the result is exact for any sizes. Inputs outside the rules (non-integer or negative price,
 * quantity below 1, discount outside 0–100) are a programming error here: RangeError. Callers
 * validate first (the CLI with `validateInvoiceDraft`, the sandbox with its 400 checks).
 */

export interface PricedItem {
  /** Whole XAF, ≥ 0. */
  price: number
  /** Integer, ≥ 1. */
  quantity: number
}

export interface Totals {
  subtotal_amount: number
  discount_amount: number
  total_amount: number
}

export interface ExactTotals {
  subtotal_amount: bigint
  discount_amount: bigint
  total_amount: bigint
}

/** Totals in BigInt, for any sizes. */
export function computeTotalsExact(items: readonly PricedItem[], discountPercent: number = 0): ExactTotals {
  let subtotal = 0n
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!
    if (!Number.isSafeInteger(item.price) || item.price < 0) {
      throw new RangeError(`items[${index}].price must be an integer ≥ 0, got ${String(item.price)}`)
    }
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1) {
      throw new RangeError(`items[${index}].quantity must be an integer ≥ 1, got ${String(item.quantity)}`)
    }
    subtotal += BigInt(item.price) * BigInt(item.quantity)
  }
  // No discount, the usual case: nothing to round (the same answer as below).
  if (discountPercent === 0) return {subtotal_amount: subtotal, discount_amount: 0n, total_amount: subtotal}
  const {numerator, denominator} = decimalFraction(discountPercent)
  // subtotal × (numerator / denominator) / 100, rounded half away from zero (all values ≥ 0).
  const scale = denominator * 100n
  const discount = (subtotal * numerator * 2n + scale) / (scale * 2n)
  return {subtotal_amount: subtotal, discount_amount: discount, total_amount: subtotal - discount}
}

/**
 * Totals as numbers, exact while the subtotal is at most Number.MAX_SAFE_INTEGER; a larger
 * subtotal is a RangeError (the CLI refuses it earlier with a message).
 */
export function computeTotals(items: readonly PricedItem[], discountPercent: number = 0): Totals {
  const exact = computeTotalsExact(items, discountPercent)
  if (exact.subtotal_amount > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`subtotal ${exact.subtotal_amount} exceeds Number.MAX_SAFE_INTEGER`)
  }
  return {
    subtotal_amount: Number(exact.subtotal_amount),
    discount_amount: Number(exact.discount_amount),
    total_amount: Number(exact.total_amount),
  }
}

/** A finite number 0–100 as the exact decimal fraction of its shortest representation. */
function decimalFraction(value: number): {numerator: bigint; denominator: bigint} {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
    throw new RangeError(`discount_percent must be a number from 0 to 100, got ${String(value)}`)
  }
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value))
  if (!match) throw new RangeError(`discount_percent ${String(value)} is not a plain decimal`)
  const [, whole = '0', fraction = '', exponentText = '0'] = match
  const exponent = Number(exponentText) - fraction.length
  const digits = BigInt(whole + fraction)
  return exponent >= 0
    ? {numerator: digits * 10n ** BigInt(exponent), denominator: 1n}
    : {numerator: digits, denominator: 10n ** BigInt(-exponent)}
}
