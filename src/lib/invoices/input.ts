/**
 * The create-request body, built from what the user gave (flags, a `--from-file` JSON body, or a
 * row of an import file) and checked locally before any request: `validateInvoiceDraft` (items,
 * integers, discount 0–100, total ≥ 100 after discount), the phone normalised, the channel known.
 */
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import {normalisePhone} from '../payments/phone.js'
import {parseDueDate} from '../time/date.js'
import {validateInvoiceDraft, type InvoiceDraft} from './draft.js'
import {parseItemSpec, type LineItem} from './items.js'
import type {Totals} from '../../contract/totals.js'
import {CHANNELS, type Channel} from './types.js'

/** The fields of the contract's create body, and nothing else (totals are never sent). */
export const DRAFT_FIELDS = [
  'customer_name',
  'due_date',
  'items',
  'discount_percent',
  'customer_email',
  'customer_phone',
  'notes',
  'currency',
  'cover_image_url',
  'external_reference',
] as const

const DRAFT_FIELD_SET: ReadonlySet<string> = new Set(DRAFT_FIELDS)

const ITEM_FIELDS = ['name', 'description', 'price', 'quantity']

/** `--discount 10`, `12.5`, `10%`: a percentage 0–100, never francs. */
export function parseDiscount(raw: string, field = 'discount'): number {
  const text = raw.trim().replace(/\s*%$/, '').replace(',', '.')
  if (!/^\d+(\.\d+)?$/.test(text)) throw new InputError(t('domain.draft.discount', {field, value: quoteInput(raw)}), {field})
  const value = Number(text)
  if (!Number.isFinite(value) || value < 0 || value > 100) throw new InputError(t('domain.draft.discount', {field, value: quoteInput(raw)}), {field})
  return value
}

export function parseChannel(raw: string | undefined, field = 'channel'): Channel | undefined {
  if (raw === undefined || raw === '') return undefined
  const value = raw.trim().toUpperCase()
  if (!(CHANNELS as readonly string[]).includes(value)) throw new InputError(t('invoice.error.channel', {field, value: quoteInput(raw)}), {field})
  return value as Channel
}

/**
 * A JSON value read as a create body: an object with the contract's fields only (a misspelt field
 * would otherwise be dropped silently by a lenient server, or refused by a strict one).
 */
export function draftFromJson(value: unknown, field = 'from-file'): InvoiceDraft {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(t('invoice.error.notObject', {field}), {field})
  }
  const record = value as Record<string, unknown>
  const unknown = Object.keys(record).filter((k) => !DRAFT_FIELD_SET.has(k))
  if (unknown.length > 0) {
    throw new InputError(t('invoice.error.unknownFields', {field, fields: unknown.map((k) => quoteInput(k, 30)).join(', '), allowed: DRAFT_FIELDS.join(', ')}), {field})
  }
  checkShapes(record, field)
  if (Array.isArray(record.items)) {
    record.items.forEach((item, i) => {
      if (typeof item !== 'object' || item === null) return
      const extra = Object.keys(item).filter((k) => !ITEM_FIELDS.includes(k))
      if (extra.length > 0) {
        throw new InputError(t('invoice.error.unknownItemFields', {field, index: i + 1, fields: extra.map((k) => quoteInput(k, 30)).join(', '), allowed: ITEM_FIELDS.join(', ')}), {field})
      }
    })
  }
  if (record.currency !== undefined && record.currency !== 'XAF') {
    throw new InputError(t('invoice.error.currency', {field, value: quoteInput(String(record.currency))}), {field})
  }
  const draft: Record<string, unknown> = {}
  for (const key of DRAFT_FIELDS) if (record[key] !== undefined && record[key] !== null) draft[key] = record[key]
  return draft as unknown as InvoiceDraft
}

type Shape = 'string' | 'list' | 'number' | 'object'

function shapeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return t('invoice.shape.list')
  if (typeof value === 'object') return t('invoice.shape.object')
  if (typeof value === 'boolean') return t('invoice.shape.boolean')
  return t(typeof value === 'number' ? 'invoice.shape.number' : 'invoice.shape.string')
}

/** Shapes in the contract's create body, so that a field of the wrong shape says what it needs ("items must be a list"). */
const FIELD_SHAPES: Record<string, Shape> = {
  customer_name: 'string',
  due_date: 'string',
  items: 'list',
  discount_percent: 'number',
  customer_email: 'string',
  notes: 'string',
  currency: 'string',
  cover_image_url: 'string',
  external_reference: 'string',
}

const SHAPED_FIELDS = Object.entries(FIELD_SHAPES)

function failShape(field: string, name: string, shape: Shape, value: unknown): never {
  throw new InputError(t('invoice.error.shape', {field, name, shape: t(`invoice.shape.${shape}`), got: shapeOf(value)}), {field})
}

function checkShapes(record: Record<string, unknown>, field: string): void {
  for (const [name, shape] of SHAPED_FIELDS) {
    const value = record[name]
    if (value === undefined || value === null) continue
    const ok = shape === 'list' ? Array.isArray(value) : shape === 'number' ? typeof value === 'number' : typeof value === 'string'
    if (!ok) failShape(field, name, shape, value)
  }
  if (Array.isArray(record.items)) {
    for (let i = 0; i < record.items.length; i++) {
      const item: unknown = record.items[i]
      if (typeof item !== 'object' || item === null || Array.isArray(item)) failShape(field, `items[${i + 1}]`, 'object', item)
      const one = item as Record<string, unknown>
      if (one.name !== undefined && typeof one.name !== 'string') failShape(field, `items[${i + 1}].name`, 'string', one.name)
      if (one.price !== undefined && typeof one.price !== 'number') failShape(field, `items[${i + 1}].price`, 'number', one.price)
      if (one.quantity !== undefined && typeof one.quantity !== 'number') failShape(field, `items[${i + 1}].quantity`, 'number', one.quantity)
    }
  }
}

export interface DraftFlags {
  'customer-name'?: string
  'due-date'?: string
  item?: string[]
  discount?: string
  email?: string
  phone?: string
  notes?: string
  'external-reference'?: string
}

/**
 * The draft from a base (a --from-file body, or empty) with the flags given on top: a flag
 * replaces the field (`--item`s replace the file's items).
 */
export function draftFromFlags(flags: DraftFlags, base: Partial<InvoiceDraft> = {}, options: {today?: Date} = {}): InvoiceDraft {
  const draft: Partial<InvoiceDraft> = {...base}
  if (flags['customer-name'] !== undefined) draft.customer_name = flags['customer-name'].trim()
  if (flags['due-date'] !== undefined) draft.due_date = parseDueDate(flags['due-date'], 'due-date', {today: options.today})
  if (flags.item && flags.item.length > 0) draft.items = flags.item.map((spec) => parseItemSpec(spec, 'item'))
  if (flags.discount !== undefined) draft.discount_percent = parseDiscount(flags.discount)
  if (flags.email !== undefined) draft.customer_email = flags.email.trim()
  if (flags.phone !== undefined) draft.customer_phone = flags.phone
  if (flags.notes !== undefined) draft.notes = flags.notes
  if (flags['external-reference'] !== undefined) draft.external_reference = flags['external-reference']
  return draft as InvoiceDraft
}

/**
 * The final local check: the contract's rules (validateInvoiceDraft), the due date in the form
 * the service takes, the phone as `237XXXXXXXXX`. Returns the body to send and its totals.
 */
export function finishDraft(draft: InvoiceDraft): {draft: InvoiceDraft; totals: Totals} {
  const out: InvoiceDraft = {...draft}
  if (typeof out.customer_name === 'string') out.customer_name = out.customer_name.trim()
  if (out.customer_phone !== undefined && out.customer_phone !== '') {
    if (typeof out.customer_phone !== 'string') throw new InputError(t('invoice.error.phoneType', {field: 'phone'}), {field: 'phone'})
    // The spec's customer_phone is in international format: +237XXXXXXXXX.
    out.customer_phone = `+${normalisePhone(out.customer_phone, 'phone')}`
  } else {
    delete out.customer_phone
  }
  if (out.customer_email === '') delete out.customer_email
  if (typeof out.customer_email === 'string') out.customer_email = out.customer_email.trim()
  const totals = validateInvoiceDraft(out)
  // Flags and answers are dates by now; a file's `30d` would be another date on each run.
  out.due_date = parseDueDate(out.due_date, 'due-date', {relative: false})
  if (out.items) out.items = out.items.map((item: LineItem) => ({...item, name: item.name.trim()}))
  for (const key of ['notes', 'external_reference', 'description'] as const) {
    const value = (out as unknown as Record<string, unknown>)[key]
    if (value !== undefined && typeof value !== 'string') {
      throw new InputError(t('invoice.error.fieldType', {field: key.replace('_', '-'), name: key}), {field: key.replace('_', '-')})
    }
  }
  return {draft: out, totals}
}
