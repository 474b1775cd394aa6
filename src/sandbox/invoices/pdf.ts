/**
 * The invoice as a PDF, rendered on request from the invoice's current state (spec, Invoice rule
 * 7), with pdfkit's built-in Helvetica so that nothing is downloaded. The same document is linked
 * from every delivery in the outbox. Every sentence comes from the catalogue.
 */
import PDFDocument from 'pdfkit'
import {t as translate, type Locale, type MessageKey, type Params} from '../i18n/index.js'
import {formatDay, formatXaf as formatAmount} from './format.js'
import type {Invoice} from './schemas.js'

export interface PdfInput {
  invoice: Invoice
  businessName: string
  /** The cover image, when it is PNG or JPEG (pdfkit cannot embed WebP). */
  cover?: Buffer
  /** The business's language (dashboard setting); English by default. */
  locale?: Locale
}

/** Helvetica's built-in encoding is WinAnsi: characters outside it would print as garbage. */
function printable(text: string): string {
  return text.replace(/[\u2212]/g, '-').replace(/[^\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u20ac\n]/g, '?')
}

export function renderInvoicePdf({invoice, businessName, cover, locale = 'en'}: PdfInput): Promise<Buffer> {
  // Always the document's language, never the process's.
  const t = (key: MessageKey, params?: Params) => translate(key, params, locale)
  const formatXaf = (amount: number) => formatAmount(amount, locale)
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({size: 'A4', margin: 50, info: {Title: t('sandboxInvoices.pdf.title', {id: invoice.id}), Author: businessName}, lang: locale})
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
    const text = (value: string) => printable(value)
    const left = 50
    const width = doc.page.width - 100

    if (cover) {
      try {
        doc.image(cover, left, doc.y, {fit: [width, 120], align: 'center'})
        doc.moveDown(8)
      } catch {
        // An image pdfkit cannot read is left out rather than failing the document.
      }
    }
    doc.font('Helvetica-Bold').fontSize(20).text(text(businessName), left)
    doc.font('Helvetica').fontSize(12).text(text(t('sandboxInvoices.pdf.heading', {id: invoice.id})))
    if (invoice.environment === 'SANDBOX') doc.fillColor('#a00').text(text(t('sandboxInvoices.pdf.sandbox'))).fillColor('#000')
    doc.moveDown()
    doc.text(text(t('sandboxInvoices.pdf.status', {status: invoice.status})))
    doc.text(text(t('sandboxInvoices.pdf.due', {due: formatDay(invoice.due_date, locale)})))
    if (invoice.published_at) doc.text(text(t('sandboxInvoices.pdf.issued', {date: formatDay(invoice.published_at, locale)})))
    doc.moveDown()
    doc.font('Helvetica-Bold').text(text(t('sandboxInvoices.pdf.billTo')))
    doc.font('Helvetica').text(text(invoice.customer_name))
    if (invoice.customer_email) doc.text(text(invoice.customer_email))
    if (invoice.customer_phone) doc.text(text(invoice.customer_phone))
    doc.moveDown()

    // Line items: name (and description), quantity, unit price, line total.
    const columns = [left, left + 270, left + 320, left + 410]
    const row = (cells: string[], bold = false) => {
      const y = doc.y
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica')
      doc.text(text(cells[0]), columns[0], y, {width: 260})
      const after = doc.y
      doc.text(text(cells[1]), columns[1], y, {width: 40, align: 'right'})
      doc.text(text(cells[2]), columns[2], y, {width: 85, align: 'right'})
      doc.text(text(cells[3]), columns[3], y, {width: width - 410 + 50 - 1, align: 'right'})
      doc.x = left
      doc.y = Math.max(after, doc.y) + 4
    }
    row([t('sandboxInvoices.pdf.item'), t('sandboxInvoices.pdf.quantity'), t('sandboxInvoices.pdf.price'), t('sandboxInvoices.pdf.lineTotal')], true)
    for (const item of invoice.items) {
      const name = item.description ? `${item.name}\n${item.description}` : item.name
      row([name, String(item.quantity), formatXaf(item.price), formatXaf(item.price * item.quantity)])
    }
    doc.moveDown()
    const total = (label: string, value: string, bold = false) => {
      const y = doc.y
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica')
      doc.text(text(label), columns[1] - 100, y, {width: 230})
      doc.text(text(value), columns[3], y, {width: width - 410 + 50 - 1, align: 'right'})
      doc.x = left
      doc.moveDown(0.3)
    }
    total(t('sandboxInvoices.pdf.subtotal'), formatXaf(invoice.subtotal_amount))
    if (invoice.discount_percent > 0)
      total(t('sandboxInvoices.pdf.discount', {percent: invoice.discount_percent}), `-${formatXaf(invoice.discount_amount)}`)
    total(t('sandboxInvoices.pdf.total'), formatXaf(invoice.total_amount), true)
    total(t('sandboxInvoices.pdf.paid'), formatXaf(invoice.amount_paid))
    total(t('sandboxInvoices.pdf.due_amount'), formatXaf(invoice.amount_due), true)
    doc.x = left
    doc.moveDown()
    if (invoice.notes) {
      doc.font('Helvetica-Bold').text(text(t('sandboxInvoices.pdf.notes')), left)
      doc.font('Helvetica').text(text(invoice.notes), left, doc.y, {width})
      doc.moveDown()
    }
    if (invoice.status === 'UNPAID' || invoice.status === 'PAST_DUE') {
      doc.font('Helvetica-Bold').text(text(t('sandboxInvoices.pdf.payOnline')), left)
      doc.font('Helvetica').fillColor('#0645ad').text(text(invoice.checkout_url), left, doc.y, {width, link: invoice.checkout_url}).fillColor('#000')
    } else if (invoice.status === 'PAID') {
      doc.font('Helvetica-Bold').text(text(t('sandboxInvoices.pdf.paidInFull', {date: formatDay(invoice.paid_at, locale)})), left)
    } else if (invoice.status === 'CANCELLED') {
      doc.font('Helvetica-Bold').text(text(t('sandboxInvoices.pdf.cancelled')), left)
    }
    doc.end()
  })
}
