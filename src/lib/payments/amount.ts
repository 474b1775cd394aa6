/**
 * Whole-XAF amounts: parsing what a person types, and printing what the service returns.
 *
 * Accepted (`parseAmount`): digits, optionally grouped by threes with one kind of separator,
 * a comma or a space (plain, no-break U+00A0, narrow no-break U+202F or thin U+2009, which
 * look alike and may be mixed), and optionally followed by the unit `XAF` or `FCFA` (any case),
 * so that what `formatXaf` prints reads back: "5000", "5 000", "5,000", "1,234,567",
 * "12 500 XAF", "5000fcfa". Leading zeros in ungrouped digits are harmless ("0500" is 500).
 *
 * Refused: decimals and exponents ("50.5", "5.000", "1e3": XAF has no minor unit, and "5.000"
 * reads as 5 in English and 5000 in French), badly grouped separators ("5,00", "50,5", "1,2345",
 * "0,500"), signs ("-5", "+5"), hexadecimal ("0x10"), other units or words, zero or less than the
 * minimum, and anything above the maximum (1 000 000 000 000 for an amount, the contract's bound).
 * Never multiplied by 100.
 */
import {MAX_AMOUNT, MIN_AMOUNT} from '../../contract/limits.js'
import {quoteInput} from '../io/quote.js'
import {InputError} from '../errors.js'
import {t, type Locale, type MessageKey} from '../i18n/index.js'

/** Spaces that may group digits: plain, no-break, narrow no-break, thin. */
const SPACE_CLASS = '[ \\u00a0\\u202f\\u2009]'
const PLAIN_DIGITS = /^\d+$/
/** Digits alone, few enough to be a safe integer whatever they are. */
const SHORT_DIGITS = /^\d{1,15}$/
const GROUPED_BY_COMMA = /^[1-9]\d{0,2}(?:,\d{3})+$/
const GROUPED_BY_SPACE = new RegExp(`^[1-9]\\d{0,2}(?:${SPACE_CLASS}\\d{3})+$`)
const UNIT_SUFFIX = /\s*(?:XAF|FCFA)$/i
/** `5.000`, `1.250.000`: thousands grouped by dots. */
const DOTTED_THOUSANDS = /^[1-9]\d{0,2}(?:\.\d{3})+$/
const LOOKS_DECIMAL = /^[\d,\s]*\d[.,]\d*$|^\d[\d\s,]*\.\d*$|^\.\d+$|^[\d.]+e[+-]?\d+$/i
const MINUS = /^[-\u2212]/

export interface WholeXafOptions {
  /** The smallest accepted value: 1 for amounts and quantities, 0 for prices. */
  min: number
  /** The flag at fault, named in the message and set on the InputError. */
  field: string
  /** Whether a trailing `XAF`/`FCFA` is allowed (true; false for quantities). */
  unit?: boolean
  /** The largest accepted value (the contract's bound, src/contract/limits.ts); default Number.MAX_SAFE_INTEGER. */
  max?: number
}

/** A payment amount: whole XAF, at least 1. See the module comment for the accepted forms. */
export function parseAmount(input: string, field = 'amount'): number {
  return parseWholeXaf(input, {min: MIN_AMOUNT, max: MAX_AMOUNT, field})
}

/**
 * A whole non-negative integer written as a person would: the grammar of `parseAmount` with a
 * chosen minimum (prices 0, quantities 1). Throws InputError (exit 2) naming `field`.
 */
export function parseWholeXaf(input: string, options: WholeXafOptions): number {
  const {min, field} = options
  const fail = (key: MessageKey, extra: Record<string, string | number> = {}): never => {
    throw new InputError(t(key, {field, input: quoteInput(input), min: formatNumber(min), ...extra}), {field})
  }

  // Plain digits, the usual case (an import reads millions), need none of the grammar's checks.
  const digits = typeof input === 'string' && SHORT_DIGITS.test(input) ? input : digitsOf(input, options, fail)
  const significant = digits.replace(/^0+(?=\d)/, '')
  const value = Number(significant)
  // One maximum whatever the size of the number: the caller's bound when it has one.
  if (significant.length > 16 || !Number.isSafeInteger(value)) fail('domain.amount.tooLarge', {max: formatNumber(options.max ?? Number.MAX_SAFE_INTEGER)})
  if (options.max !== undefined && value > options.max) fail('domain.amount.tooLarge', {max: formatNumber(options.max)})
  if (value < min) fail('domain.amount.belowMin')
  return value
}

/** The digits an amount is written with, in any of the accepted forms; `fail` for any other. */
function digitsOf(input: string, options: WholeXafOptions, fail: (key: MessageKey, extra?: Record<string, string | number>) => never): string {
  let text = typeof input === 'string' ? input.trim() : ''
  if (text === '') fail('domain.amount.missing')
  if (options.unit !== false) text = text.replace(UNIT_SUFFIX, '')
  if (text === '') fail('domain.amount.invalid')

  if (MINUS.test(text)) {
    // "-5" and "-5 000" are numbers below the minimum; "-abc" is just not a number.
    const rest = text.slice(1).trim()
    if (PLAIN_DIGITS.test(rest) || GROUPED_BY_COMMA.test(rest) || GROUPED_BY_SPACE.test(rest)) fail('domain.amount.belowMin')
    fail('domain.amount.invalid')
  }

  if (PLAIN_DIGITS.test(text)) return text
  if (GROUPED_BY_COMMA.test(text) || GROUPED_BY_SPACE.test(text)) return text.replace(/[^\d]/g, '')
  if (DOTTED_THOUSANDS.test(text)) {
    // "5.000" is five thousand as many French speakers write it; francs have no decimals anyway.
    const whole = text.replace(/\./g, '')
    return fail('domain.amount.dottedThousands', {plain: whole, spaced: formatNumber(Number(whole))})
  }
  if (LOOKS_DECIMAL.test(text)) {
    // "50,5" and "5,00" are bad grouping (or a French decimal); "50.5" and "1e3" are not whole.
    return text.includes('.') || /e/i.test(text) ? fail('domain.amount.notWhole') : fail('domain.amount.grouping')
  }
  if (/^[\d,\s]+$/.test(text) && /\d/.test(text)) return fail('domain.amount.grouping')
  return fail('domain.amount.invalid')
}

/** `12500` → `12 500` (plain spaces between groups of three; no unit). */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n)
  const sign = n < 0 ? '-' : ''
  const abs = Math.abs(n)
  if (!Number.isInteger(abs) || abs >= 1e21) return String(n)
  return sign + BigInt(abs).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' ')
}

/**
 * `12500` → `12 500 XAF`: plain-space groups and the unit from the catalogue (`domain.xaf.unit`),
 * so a locale may print `FCFA`. The output reads back through `parseAmount`.
 */
export function formatXaf(n: number, locale: Locale = 'en'): string {
  return `${formatNumber(n)} ${t('domain.xaf.unit', undefined, locale)}`
}
