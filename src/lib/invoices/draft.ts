/**
 * The CLI's local checks on an invoice before it is sent (`invoice create`, `invoice import`,
 * `--from-file`), so that a bad draft is refused with exit 2 before any request. Every refusal is
 * an InputError whose `field` is the flag at fault: 'customer-name', 'due-date', 'email', 'item',
 * 'discount' or 'total'. The values may come from a parsed JSON or CSV file, so their runtime
 * types are checked too.
 */
import {InputError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {formatNumber, formatXaf} from '../payments/amount.js'
import {quoteInput} from '../io/quote.js'
import {parseDueDate} from '../time/date.js'
import type {LineItem} from './items.js'
import {computeTotalsExact, type Totals} from '../../contract/totals.js'
import {hasControlCharacter, MAX_LENGTH, MAX_PRICE, MAX_QUANTITY, MAX_TOTAL} from '../../contract/limits.js'

/** The service refuses invoices whose total after discount is below this (docs/service.md, "Limits"). */
export const MIN_INVOICE_TOTAL = 100

/** The create-request body the CLI builds (totals are computed by the service, never sent). */
export interface InvoiceDraft {
  customer_name: string
  due_date: string
  items: LineItem[]
  discount_percent?: number
  customer_email?: string
  customer_phone?: string
  notes?: string
  currency?: 'XAF'
  cover_image_url?: string
  external_reference?: string
}

const MAX_TOTAL_EXACT = BigInt(MAX_TOTAL)

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The free-text fields a draft checks on their own: flag, body field, longest length. */
const TEXT_FIELDS = {
  'customer-name': ['customer_name', MAX_LENGTH.customerName],
  email: ['customer_email', MAX_LENGTH.email],
  notes: ['notes', MAX_LENGTH.notes],
  'external-reference': ['external_reference', MAX_LENGTH.externalReference],
} as const
type TextFlag = keyof typeof TEXT_FIELDS
const TEXT_FLAGS = Object.keys(TEXT_FIELDS) as TextFlag[]

/**
 * One free-text value against the contract's length and its no-control-character rule (an
 * import checks each cell with it, so that a row lists this error with its others).
 */
export function checkText(flag: TextFlag, text: unknown): void {
  if (typeof text !== 'string') return
  const max = TEXT_FIELDS[flag][1]
  // In characters (code points), as the service counts them.
  const length = codePoints(text, max)
  if (length > max) throw new InputError(t('domain.draft.tooLong', {field: flag, length, max}), {field: flag})
  if (hasControlCharacter(text)) throw new InputError(t('domain.draft.control', {field: flag}), {field: flag})
}

/**
 * How many characters (code points) `text` has: its length when that is at most `max` (a text has
 * no more code points than UTF-16 units, so it is within bounds), else counted.
 */
function codePoints(text: string, max: number): number {
  if (text.length <= max) return text.length
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    // A high surrogate followed by a low one is one character.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
    count++
  }
  return count
}

/**
 * Checks the draft and returns its totals (for the preview the CLI prints before sending):
 * customer name non-empty, due date a real date, email (when given) shaped like one, at least
 * one item with a name, an integer price ≥ 0 and an integer quantity ≥ 1, discount 0–100, and a
 * total after discount of at least 100 XAF (and within Number.MAX_SAFE_INTEGER).
 */
export function validateInvoiceDraft(draft: InvoiceDraft): Totals {
  const value = draft as unknown as Partial<Record<keyof InvoiceDraft, unknown>>

  if (typeof value.customer_name !== 'string' || value.customer_name.trim() === '') {
    throw new InputError(t('domain.draft.customerName', {field: 'customer-name'}), {field: 'customer-name'})
  }
  parseDueDate(typeof value.due_date === 'string' ? value.due_date : '', 'due-date', {relative: false})
  if (value.customer_email !== undefined && value.customer_email !== null && value.customer_email !== '') {
    if (typeof value.customer_email !== 'string' || !EMAIL.test(value.customer_email.trim())) {
      throw new InputError(t('domain.draft.email', {field: 'email', value: quoteInput(value.customer_email)}), {field: 'email'})
    }
  }

  // The contract's longest strings, and no control characters (docs/service.md, "Limits").
  for (const flag of TEXT_FLAGS) checkText(flag, value[TEXT_FIELDS[flag][0]])

  const field = 'item'
  const items = value.items
  if (!Array.isArray(items) || items.length === 0) {
    throw new InputError(t('domain.draft.noItems', {field}), {field})
  }
  items.forEach((raw: unknown, i) => {
    const item = (raw ?? {}) as Partial<Record<keyof LineItem, unknown>>
    const index = i + 1
    if (typeof item.name !== 'string' || item.name.trim() === '') {
      throw new InputError(t('domain.draft.itemName', {field, index}), {field})
    }
    // Quoted only for an error: a good item, the usual case, needs none (an import checks a million).
    const name = () => quoteInput(item.name, 40)
    if (typeof item.price !== 'number' || !Number.isSafeInteger(item.price) || item.price < 0 || item.price > MAX_PRICE) {
      throw new InputError(t('domain.draft.itemPrice', {field, index, name: name(), value: quoteInput(String(item.price)), max: formatNumber(MAX_PRICE)}), {field})
    }
    if (typeof item.quantity !== 'number' || !Number.isSafeInteger(item.quantity) || item.quantity < 1 || item.quantity > MAX_QUANTITY) {
      throw new InputError(t('domain.draft.itemQuantity', {field, index, name: name(), value: quoteInput(String(item.quantity)), max: formatNumber(MAX_QUANTITY)}), {field})
    }
    const checkPart = (part: 'name' | 'description', text: unknown, max: number) => {
      if (typeof text !== 'string') return
      const length = codePoints(text, max)
      if (length > max) throw new InputError(t('domain.draft.itemTooLong', {field, index, part, length, max}), {field})
      if (hasControlCharacter(text)) throw new InputError(t('domain.draft.control', {field}), {field})
    }
    checkPart('name', item.name, MAX_LENGTH.itemName)
    checkPart('description', item.description, MAX_LENGTH.itemDescription)
  })

  const discount = value.discount_percent ?? 0
  if (typeof discount !== 'number' || !Number.isFinite(discount) || discount < 0 || discount > 100) {
    throw new InputError(t('domain.draft.discount', {field: 'discount', value: quoteInput(String(discount))}), {field: 'discount'})
  }

  const exact = computeTotalsExact(items as LineItem[], discount)
  if (exact.subtotal_amount > MAX_TOTAL_EXACT) {
    throw new InputError(
      t('domain.draft.totalTooLarge', {
        field: 'total',
        subtotal: exact.subtotal_amount.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' '),
        max: formatNumber(MAX_TOTAL),
      }),
      {field: 'total'},
    )
  }
  const totals: Totals = {
    subtotal_amount: Number(exact.subtotal_amount),
    discount_amount: Number(exact.discount_amount),
    total_amount: Number(exact.total_amount),
  }
  if (totals.total_amount < MIN_INVOICE_TOTAL) {
    throw new InputError(
      t('domain.draft.totalTooLow', {field: 'total', total: formatXaf(totals.total_amount, getLocale()), min: formatXaf(MIN_INVOICE_TOTAL, getLocale())}),
      {field: 'total'},
    )
  }
  return totals
}
