/** How invoices look in a terminal: a table, statuses coloured, amounts as `12 500 XAF`. */
import {getLocale, statusLabel, t} from '../i18n/index.js'
import type {IO, Painter} from '../io/terminal.js'
import type {Column} from '../io/table.js'
import {formatXaf} from '../payments/amount.js'
import {formatDate, formatDateTime} from '../time/date.js'
import type {Totals} from '../../contract/totals.js'
import type {Invoice, SendResult} from './types.js'

export function paintInvoiceStatus(paint: Painter, status: string): string {
  const label = statusLabel(status)
  if (status === 'PAID') return paint.green(label)
  if (status === 'CANCELLED') return paint.dim(label)
  if (status === 'PAST_DUE') return paint.red(label)
  if (status === 'UNPAID') return paint.yellow(label)
  return paint.cyan(label)
}

const money = (n: number | undefined) => (typeof n === 'number' ? formatXaf(n, getLocale()) : '')

export async function renderInvoiceTable(io: IO, invoices: Invoice[]): Promise<string> {
  const paint = await io.paint()
  // The invoice number (external_reference) when any invoice of the page has one.
  const numbered = invoices.some((i) => i.external_reference)
  const head = [t('invoice.table.id'), t('invoice.table.number'), t('invoice.table.status'), t('invoice.table.customer'), t('invoice.table.total'), t('invoice.table.due'), t('invoice.table.paid')]
  const rows = invoices.map((i) => [
    i.id,
    i.external_reference ?? '',
    paintInvoiceStatus(paint, i.status),
    i.customer_name,
    money(i.total_amount),
    i.due_date ? formatDate(i.due_date, getLocale()) : '',
    money(i.amount_paid ?? 0),
  ])
  // Names before ids: the id is shortened to a prefix the invoice commands take back, then a name
  // longer than 24 columns is cut (never below that); then the amount paid, the number, the due
  // date and the status are left out, in that order: the customer's name goes last.
  const columns: Column[] = [{kind: 'id', shorten: true}, {kind: 'text', priority: 4, min: 13}, {priority: 2}, {kind: 'text', priority: 1, min: 24}, {kind: 'amount'}, {priority: 3}, {priority: 5}]
  const keep = (_: unknown, c: number) => numbered || c !== 1
  return io.table(head.filter(keep), rows.map((row) => row.filter(keep)), columns.filter(keep))
}

export async function renderInvoice(io: IO, invoice: Invoice): Promise<string> {
  const paint = await io.paint()
  const rows: [string, string][] = [
    [t('invoice.field.id'), invoice.id],
    [t('invoice.field.status'), paintInvoiceStatus(paint, invoice.status)],
    [t('invoice.field.customer'), invoice.customer_name],
  ]
  if (invoice.customer_email) rows.push([t('invoice.field.email'), invoice.customer_email])
  if (invoice.customer_phone) rows.push([t('invoice.field.phone'), invoice.customer_phone])
  rows.push([t('invoice.field.due'), invoice.due_date ? formatDate(invoice.due_date, getLocale()) : ''])
  for (const item of invoice.items ?? []) {
    rows.push([t('invoice.field.item'), t('invoice.itemLine', {name: item.name, quantity: item.quantity, price: money(item.price), amount: money(item.price * item.quantity)})])
  }
  if (invoice.subtotal_amount !== undefined) rows.push([t('invoice.field.subtotal'), money(invoice.subtotal_amount)])
  if (invoice.discount_percent) rows.push([t('invoice.field.discount'), t('invoice.discountLine', {percent: invoice.discount_percent, amount: money(invoice.discount_amount)})])
  rows.push([t('invoice.field.total'), paint.bold(money(invoice.total_amount))])
  if (invoice.amount_paid !== undefined) rows.push([t('invoice.field.paid'), money(invoice.amount_paid)])
  // A cancelled invoice is owed by no one, whatever amount_due the service still reports.
  if (invoice.amount_due !== undefined && invoice.status !== 'CANCELLED') rows.push([t('invoice.field.due_amount'), money(invoice.amount_due)])
  if (invoice.notes) rows.push([t('invoice.field.notes'), invoice.notes])
  if (invoice.external_reference) rows.push([t('invoice.field.reference'), invoice.external_reference])
  if (invoice.cover_image_url) rows.push([t('invoice.field.cover'), invoice.cover_image_url])
  // A pay link only while the invoice can be paid (--json keeps the service's object as it is).
  if (invoice.checkout_url && invoice.status !== 'CANCELLED' && invoice.status !== 'PAID') rows.push([t('invoice.field.checkout'), invoice.checkout_url])
  if (invoice.pdf_url) rows.push([t('invoice.field.pdf'), invoice.pdf_url])
  if (invoice.environment) rows.push([t('invoice.field.environment'), invoice.environment])
  if (invoice.created_at) rows.push([t('invoice.field.created'), formatDateTime(invoice.created_at, getLocale())])
  if (invoice.published_at) rows.push([t('invoice.field.published'), formatDateTime(invoice.published_at, getLocale())])
  if (invoice.paid_at) rows.push([t('invoice.field.paidAt'), formatDateTime(invoice.paid_at, getLocale())])
  if (invoice.cancelled_at) rows.push([t('invoice.field.cancelled'), formatDateTime(invoice.cancelled_at, getLocale())])
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')
}

/** The preview printed (stderr) before a create is sent. */
export function renderTotals(totals: Totals, discountPercent: number | undefined): string {
  if (!discountPercent) return t('invoice.create.total', {total: money(totals.total_amount)})
  return t('invoice.create.totalDiscount', {
    total: money(totals.total_amount),
    subtotal: money(totals.subtotal_amount),
    percent: discountPercent,
    discount: money(totals.discount_amount),
  })
}

export function renderSend(result: SendResult): string {
  return t('invoice.send.done', {id: result.invoice_id, channel: result.channel, recipient: result.recipient, at: formatDateTime(result.sent_at, getLocale())})
}
