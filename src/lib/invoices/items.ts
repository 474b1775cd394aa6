/**
 * `--item NAME:PRICE:QTY`, one invoice line item.
 *
 * The LAST two colon-separated fields are the price and the quantity; everything before them is
 * the name, colons included, so a name with a colon is written as is:
 * "Cable 2:1 HDMI:1500:2" is name "Cable 2:1 HDMI", price 1500, quantity 2.
 * `NAME:PRICE` (exactly one colon) means quantity 1: "Bread:500". A name that contains a colon
 * must be followed by both PRICE and QTY ("Ratio 16:9:1500" reads as name "Ratio 16", price 9,
 * quantity 1500; write "Ratio 16:9:1500:1").
 * PRICE is whole XAF ≥ 0, written as amounts are ("1500", "1 500", "1,500", "1500 XAF"); QTY is a
 * whole number ≥ 1. The name is trimmed and must not be empty.
 */
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {MAX_PRICE, MAX_QUANTITY, MIN_PRICE, MIN_QUANTITY} from '../../contract/limits.js'
import {formatNumber, parseWholeXaf} from '../payments/amount.js'
import {quoteInput} from '../io/quote.js'

/** One line item as the service takes it (docs/service.md, "Invoices"). */
export interface LineItem {
  name: string
  description?: string
  /** Whole XAF, ≥ 0. */
  price: number
  /** Integer, ≥ 1. */
  quantity: number
}

/** Help text for `--item`, quotable by the command. */
export const ITEM_SPEC_HELP =
  'NAME:PRICE:QTY, e.g. "Bread:500:3". The last two fields are price (whole XAF) and quantity, so a name may contain colons; NAME:PRICE means quantity 1 when the name has no colon.'

export function parseItemSpec(spec: string, field = 'item'): LineItem {
  const text = typeof spec === 'string' ? spec : ''
  // The last colon, and the one before it: found without splitting (an import reads millions).
  const last = text.lastIndexOf(':')
  // Quoted back only in an error (a good item, the usual case, needs none).
  if (last < 0) throw new InputError(t('domain.item.invalid', {field, input: quoteInput(spec)}), {field})
  const before = last > 0 ? text.lastIndexOf(':', last - 1) : -1
  // NAME:PRICE (one colon) is quantity 1.
  const [name, priceText, quantityText] =
    before < 0 ? [text.slice(0, last).trim(), text.slice(last + 1), '1'] : [text.slice(0, before).trim(), text.slice(before + 1, last), text.slice(last + 1)]
  if (name === '') throw new InputError(t('domain.item.emptyName', {field, input: quoteInput(spec)}), {field})

  let price: number
  try {
    price = parseWholeXaf(priceText, {min: MIN_PRICE, max: MAX_PRICE, field})
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    throw new InputError(t('domain.item.price', {field, input: quoteInput(spec), price: quoteInput(priceText.trim(), 24), max: formatNumber(MAX_PRICE)}), {field})
  }
  let quantity: number
  try {
    quantity = parseWholeXaf(quantityText, {min: MIN_QUANTITY, max: MAX_QUANTITY, field, unit: false})
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    throw new InputError(t('domain.item.quantity', {field, input: quoteInput(spec), quantity: quoteInput(quantityText.trim(), 24), max: formatNumber(MAX_QUANTITY)}), {field})
  }
  return {name, price, quantity}
}

/** The `--item` spelling of an item, which `parseItemSpec` reads back. */
export function formatItemSpec(item: Pick<LineItem, 'name' | 'price' | 'quantity'>): string {
  return `${item.name}:${item.price}:${item.quantity}`
}
