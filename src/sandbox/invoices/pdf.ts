/**
 * The invoice as a PDF, rendered on request from the invoice's current state (spec, Invoice rule
 * 7), with pdfkit (nothing is downloaded). The same document is linked
 * from every delivery in the outbox. Every sentence comes from the catalogue.
 *
 * It is what the shop's customer receives and prints, so: A4 with margins of 1.8 cm on every side
 * (printers clip the outer few millimetres), columns wide enough for 12-digit amounts on one line,
 * the table's header repeated on each page it runs onto, and a QR code of the checkout_url beside
 * the pay link so a customer holding the paper pays from their phone.
 *
 * Every page carries "Invoice INV_ID · Page n/N" at its foot, so a page filed alone still says
 * what it belongs to; the totals, the pay link and the QR code are kept on one page (a page never
 * holds the pay block alone). Text is drawn in Helvetica when it can be, else in DejaVu Sans
 * (pdf-fonts.ts) of the same weight; a character neither can draw (an emoji) prints as a visible
 * placeholder, never as "?", and is reported to the caller (the sandbox logs it).
 *
 * A function of (invoice, business settings, images) to PDF bytes: no store, no clock, no I/O but
 * reading the fonts once, so it can run anywhere (a worker thread included).
 */
import PDFDocument from 'pdfkit'
import QRCode from 'qrcode'
import {t as translate, type Locale, type MessageKey, type Params} from '../i18n/index.js'
import {formatDay, formatXaf as formatAmount} from './format.js'
import {pdfFonts} from './pdf-fonts.js'
import type {Invoice} from './schemas.js'

export interface PdfInput {
  invoice: Invoice
  businessName: string
  /** The cover image, when it is PNG or JPEG (pdfkit cannot embed WebP). */
  cover?: Buffer
  /** The business's logo (PNG or JPEG, checked when it was set). */
  logo?: Buffer
  /** The business's language (dashboard setting); English by default. */
  locale?: Locale
}

/** 1.8 cm: above the 1.5 cm printers need, on every side. */
const MARGIN = 51
const TABLE_FONT = 10
const ROW_GAP = 4
const QR_SIZE = 96

/** fontkit's font object, as pdfkit holds it: reused across documents, asked which glyphs it has. */
interface FontkitFont {
  hasGlyphForCodePoint?: (codePoint: number) => boolean
}
const parsed: {regular?: FontkitFont; bold?: FontkitFont} = {}

/** Room kept at the foot of each page for "Invoice … · Page n/N". */
const FOOTER = 16

/** Helvetica's built-in encoding is WinAnsi: what it can draw when DejaVu is not there. */
const WIN_ANSI = /[\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u20ac]/u
let graphemes: Intl.Segmenter | undefined
/** Invisible joiners and variation selectors: part of an emoji sequence, nothing to draw alone. */
const INVISIBLE = new Set([0x200d, 0xfe0e, 0xfe0f])

/**
 * `value` with every grapheme the font cannot draw replaced by `placeholder` (one per grapheme, so
 * an emoji of several code points is one mark), the code points missing added to `missing`.
 */
function printable(value: string, canDraw: (codePoint: number) => boolean, placeholder: string, missing: Set<string>): string {
  let out = ''
  for (const {segment} of (graphemes ??= new Intl.Segmenter('en', {granularity: 'grapheme'})).segment(value.replace(/\u2212/g, '-'))) {
    if (/[\r\n]/.test(segment)) {
      out += '\n'
      continue
    }
    const points = [...segment].map((c) => c.codePointAt(0)!).filter((cp) => !INVISIBLE.has(cp))
    const absent = points.filter((cp) => !canDraw(cp))
    if (absent.length === 0) out += String.fromCodePoint(...points)
    else {
      out += placeholder
      for (const cp of absent) missing.add(`U+${cp.toString(16).toUpperCase().padStart(4, '0')}`)
    }
  }
  return out
}

const STATUS_KEYS: Record<Invoice['status'], MessageKey> = {
  DRAFT: 'sandboxInvoices.pdf.statusName.DRAFT',
  UNPAID: 'sandboxInvoices.pdf.statusName.UNPAID',
  PAST_DUE: 'sandboxInvoices.pdf.statusName.PAST_DUE',
  PAID: 'sandboxInvoices.pdf.statusName.PAID',
  CANCELLED: 'sandboxInvoices.pdf.statusName.CANCELLED',
}

export function renderInvoicePdf(input: PdfInput): Promise<Buffer> {
  return renderInvoice(input).then((rendered) => rendered.pdf)
}

/** The PDF, and the code points its fonts could not draw (shown as a placeholder), e.g. `U+1F35E`. */
export function renderInvoice({invoice, businessName, cover, logo, locale = 'en'}: PdfInput): Promise<{pdf: Buffer; missing: string[]}> {
  // Always the document's language, never the process's.
  const t = (key: MessageKey, params?: Params) => translate(key, params, locale)
  const formatXaf = (amount: number) => formatAmount(amount, locale)
  // What the customer quotes: the merchant's number (external_reference) when there is one.
  const number = invoice.external_reference || invoice.id
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      info: {Title: t('sandboxInvoices.pdf.title', {id: number}), Author: businessName},
      lang: locale,
      // Kept until the end, to write "Page n/N" on each once N is known.
      bufferPages: true,
    })
    const chunks: Buffer[] = []
    const missing = new Set<string>()
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve({pdf: Buffer.concat(chunks), missing: [...missing]}))
    doc.on('error', reject)
    // Helvetica (built into every PDF reader: nothing embedded, fast) for what it can draw; a string
    // with a character beyond it is drawn in DejaVu Sans, of the same weight, when the font ships.
    const REGULAR = 'Helvetica'
    const BOLD = 'Helvetica-Bold'
    const helvetica = (cp: number) => WIN_ANSI.test(String.fromCodePoint(cp))
    let wide: ((cp: number) => boolean) | undefined
    const current = () => (doc as unknown as {_font?: {name?: string; font?: FontkitFont}})._font
    /** DejaVu, read and registered on the first string that needs it (most invoices never do). */
    const useWide = () => {
      if (!wide) {
        const fonts = pdfFonts()
        if (!fonts) return undefined
        // Parsed once per process, then handed to every document (parsing the files each time cost
        // most of a rendering): pdfkit takes fontkit's font objects as they are.
        doc.registerFont('Wide', (parsed.regular ?? fonts.regular) as Buffer)
        doc.registerFont('Wide-Bold', (parsed.bold ?? fonts.bold) as Buffer)
        const before = current()?.name ?? REGULAR
        const size = (doc as unknown as {_fontSize: number})._fontSize
        doc.font('Wide-Bold')
        parsed.bold ??= current()?.font
        doc.font('Wide')
        parsed.regular ??= current()?.font
        const face = parsed.regular
        wide = typeof face?.hasGlyphForCodePoint === 'function' ? (cp) => cp >= 0x20 && face.hasGlyphForCodePoint!(cp) : () => true
        doc.font(/Bold/.test(before) ? BOLD : REGULAR).fontSize(size)
      }
      return wide
    }
    /**
     * `value` ready to draw, with the font switched to the one that draws it (same weight): called
     * right after `doc.font(…)`, as the argument of the text or measure that follows.
     */
    const text = (value: string) => {
      const bold = /Bold/.test(current()?.name ?? '')
      const plain = [...value.replace(/\u2212/g, '-')].every((c) => c === '\n' || c === '\r' || helvetica(c.codePointAt(0)!))
      // The common case: Helvetica draws all of it, as it is.
      if (plain) {
        if (current()?.name?.startsWith('DejaVu')) doc.font(bold ? BOLD : REGULAR).fontSize((doc as unknown as {_fontSize: number})._fontSize)
        return value.replace(/\u2212/g, '-').replace(/\r\n?/g, '\n')
      }
      const canDraw = useWide()
      if (!canDraw) return printable(value, helvetica, '(?)', missing)
      const size = (doc as unknown as {_fontSize: number})._fontSize
      doc.font(plain ? (bold ? BOLD : REGULAR) : bold ? 'Wide-Bold' : 'Wide').fontSize(size)
      // A white square for what even the wide font lacks: visible, and drawn by DejaVu.
      return printable(value, canDraw, '\u25a1', missing)
    }
    const left = MARGIN
    const right = doc.page.width - MARGIN
    const width = right - left
    const bottom = () => doc.page.height - MARGIN - FOOTER

    // Cover (a banner across the top), then the logo beside the business's name.
    if (cover) {
      try {
        doc.image(cover, left, doc.y, {fit: [width, 120], align: 'center'})
        doc.y += 130
      } catch {
        // An image pdfkit cannot read is left out rather than failing the document.
      }
    }
    const headerTop = doc.y
    let nameLeft = left
    if (logo) {
      try {
        doc.image(logo, left, headerTop, {fit: [56, 56]})
        nameLeft = left + 66
      } catch {
        nameLeft = left
      }
    }
    const nameWidth = right - nameLeft - 180
    doc.font(BOLD).fontSize(20).text(text(businessName), nameLeft, headerTop, {width: nameWidth})
    doc.font(REGULAR).fontSize(11).text(text(t('sandboxInvoices.pdf.heading', {id: number})), nameLeft, doc.y + 2, {width: nameWidth})
    if (number !== invoice.id) doc.fontSize(8).fillColor('#555').text(text(t('sandboxInvoices.pdf.serviceId', {id: invoice.id})), nameLeft, doc.y + 1, {width: nameWidth}).fillColor('#000')
    const afterName = doc.y
    // The status and dates on the right, as on a paper invoice.
    const side = {x: right - 170, w: 170}
    doc.font(BOLD).fontSize(11).text(text(t('sandboxInvoices.pdf.status', {status: t(STATUS_KEYS[invoice.status])})), side.x, headerTop + 4, {width: side.w, align: 'right'})
    doc.font(REGULAR).fontSize(10)
    if (invoice.published_at) doc.text(text(t('sandboxInvoices.pdf.issued', {date: formatDay(invoice.published_at, locale)})), side.x, doc.y + 2, {width: side.w, align: 'right'})
    doc.text(text(t('sandboxInvoices.pdf.due', {due: formatDay(invoice.due_date, locale)})), side.x, doc.y + 2, {width: side.w, align: 'right'})
    // A paid or cancelled invoice says so in large letters under the dates, where the eye lands.
    const stamp = invoice.status === 'PAID' ? {key: 'sandboxInvoices.pdf.stamp.PAID' as const, color: '#1a7f37'} : invoice.status === 'CANCELLED' ? {key: 'sandboxInvoices.pdf.stamp.CANCELLED' as const, color: '#b00020'} : undefined
    if (stamp) {
      const top = doc.y + 6
      doc.font(BOLD).fontSize(18)
      const label = text(t(stamp.key))
      const w = Math.min(side.w, doc.widthOfString(label) + 16)
      doc.save().lineWidth(2).strokeColor(stamp.color).rect(right - w, top, w, 28).stroke().restore()
      doc.fillColor(stamp.color).text(label, right - w, top + 6, {width: w, align: 'center', lineBreak: false}).fillColor('#000')
      doc.y = top + 30
    }
    doc.y = Math.max(afterName, doc.y, logo ? headerTop + 60 : 0) + 8
    if (invoice.environment === 'SANDBOX')
      doc.font(REGULAR).fontSize(9).fillColor('#a00').text(text(t('sandboxInvoices.pdf.sandbox')), left, doc.y, {width}).fillColor('#000')
    doc.moveDown()

    doc.fontSize(11).font(BOLD).text(text(t('sandboxInvoices.pdf.billTo')), left, doc.y, {width})
    doc.font(REGULAR).text(text(invoice.customer_name), left, doc.y, {width: width * 0.6})
    if (invoice.customer_email) doc.text(text(invoice.customer_email), left, doc.y, {width: width * 0.6})
    if (invoice.customer_phone) doc.text(text(invoice.customer_phone), left, doc.y, {width: width * 0.6})
    doc.moveDown()

    // Line items: name (and description), quantity, unit price, line total. The amount columns
    // take "999 999 999 999 FCFA" at 10 pt (about 100 pt in Helvetica), or the widest amount this
    // invoice has in bold (DejaVu's digits are wider); the name takes what is left.
    doc.font(BOLD).fontSize(TABLE_FONT)
    const amounts = [invoice.subtotal_amount, invoice.total_amount, invoice.amount_due, ...invoice.items.flatMap((item) => [item.price, item.price * item.quantity])]
    const amountWidth = Math.ceil(Math.max(112, ...amounts.map((amount) => doc.widthOfString(text(formatXaf(amount))) + 4)))
    const qtyWidth = 50
    const gap = 8
    const cols = {
      name: {x: left, w: width - 2 * amountWidth - qtyWidth - 3 * gap},
      qty: {x: 0, w: qtyWidth},
      price: {x: 0, w: amountWidth},
      total: {x: right - amountWidth, w: amountWidth},
    }
    cols.price.x = cols.total.x - gap - amountWidth
    cols.qty.x = cols.price.x - gap - qtyWidth
    const rowHeight = (cells: string[], bold: boolean) => {
      doc.font(bold ? BOLD : REGULAR).fontSize(TABLE_FONT)
      return Math.max(
        doc.heightOfString(text(cells[0]), {width: cols.name.w}),
        ...[cells[1], cells[2], cells[3]].map((c, i) => doc.heightOfString(text(c), {width: [cols.qty, cols.price, cols.total][i].w})),
      )
    }
    const drawRow = (cells: string[], bold: boolean) => {
      const y = doc.y
      const h = rowHeight(cells, bold)
      doc.text(text(cells[0]), cols.name.x, y, {width: cols.name.w})
      doc.text(text(cells[1]), cols.qty.x, y, {width: cols.qty.w, align: 'right'})
      doc.text(text(cells[2]), cols.price.x, y, {width: cols.price.w, align: 'right'})
      doc.text(text(cells[3]), cols.total.x, y, {width: cols.total.w, align: 'right'})
      doc.x = left
      doc.y = y + h + ROW_GAP
    }
    const header = [t('sandboxInvoices.pdf.item'), t('sandboxInvoices.pdf.quantity'), t('sandboxInvoices.pdf.price'), t('sandboxInvoices.pdf.lineTotal')]
    const drawHeader = () => {
      drawRow(header, true)
      doc.moveTo(left, doc.y - ROW_GAP / 2).lineTo(right, doc.y - ROW_GAP / 2).lineWidth(0.5).strokeColor('#888').stroke()
      doc.y += ROW_GAP
    }
    /** A new page, with the table's header again, when `height` no longer fits. */
    const ensureRoom = (height: number, repeatHeader: boolean) => {
      if (doc.y + height <= bottom()) return
      doc.addPage()
      doc.y = MARGIN
      if (repeatHeader) drawHeader()
    }
    ensureRoom(rowHeight(header, true) * 3, false)
    drawHeader()
    for (const item of invoice.items) {
      const name = item.description ? `${item.name}\n${item.description}` : item.name
      const cells = [name, String(item.quantity), formatXaf(item.price), formatXaf(item.price * item.quantity)]
      ensureRoom(rowHeight(cells, false), true)
      drawRow(cells, false)
    }
    doc.moveTo(left, doc.y).lineTo(right, doc.y).lineWidth(0.5).strokeColor('#888').stroke()
    doc.y += ROW_GAP * 2

    const totals: Array<[string, string, boolean]> = [[t('sandboxInvoices.pdf.subtotal'), formatXaf(invoice.subtotal_amount), false]]
    if (invoice.discount_percent > 0)
      totals.push([t('sandboxInvoices.pdf.discount', {percent: invoice.discount_percent}), `-${formatXaf(invoice.discount_amount)}`, false])
    totals.push([t('sandboxInvoices.pdf.total'), formatXaf(invoice.total_amount), true])
    // A cancelled invoice asks for nothing: no amount due (what was paid, if anything, is said).
    if (invoice.status !== 'CANCELLED' || invoice.amount_paid > 0) totals.push([t('sandboxInvoices.pdf.paid'), formatXaf(invoice.amount_paid), false])
    if (invoice.status !== 'CANCELLED') totals.push([t('sandboxInvoices.pdf.due_amount'), formatXaf(invoice.amount_due), true])
    // The totals and the pay block on one page, so that no page holds the pay block alone (and the
    // notes between them too, when all of it fits on a page).
    const payable = invoice.status === 'UNPAID' || invoice.status === 'PAST_DUE'
    const payHeight = payable ? QR_SIZE + 18 : 30
    doc.font(REGULAR).fontSize(11)
    const notesHeight = invoice.notes ? doc.heightOfString(text(invoice.notes), {width}) + 34 : 0
    const totalsHeight = totals.length * 15 + 14
    const together = totalsHeight + notesHeight + payHeight <= bottom() - MARGIN ? notesHeight : 0
    ensureRoom(totalsHeight + together + payHeight, false)
    const labelX = cols.qty.x - 60
    for (const [label, value, bold] of totals) {
      const y = doc.y
      doc.font(bold ? BOLD : REGULAR).fontSize(TABLE_FONT)
      doc.text(text(label), labelX, y, {width: cols.total.x - gap - labelX})
      doc.text(text(value), cols.total.x, y, {width: cols.total.w, align: 'right'})
      doc.x = left
      doc.y = y + 15
    }
    doc.moveDown()

    if (invoice.notes) {
      doc.fontSize(11)
      ensureRoom(doc.heightOfString(text(invoice.notes), {width}) + 20, false)
      doc.font(BOLD).text(text(t('sandboxInvoices.pdf.notes')), left, doc.y, {width})
      doc.font(REGULAR).text(text(invoice.notes), left, doc.y, {width})
      doc.moveDown()
    }
    doc.fontSize(11)
    if (payable) {
      // The QR code at the right, the words and the link at its left.
      ensureRoom(QR_SIZE + 10, false)
      const top = doc.y
      drawQr(doc, invoice.checkout_url, right - QR_SIZE, top, QR_SIZE)
      const textWidth = width - QR_SIZE - 16
      doc.font(BOLD).text(text(t('sandboxInvoices.pdf.payOnline')), left, top, {width: textWidth})
      doc.font(REGULAR).fontSize(10).text(text(t('sandboxInvoices.pdf.scanToPay')), left, doc.y + 2, {width: textWidth})
      // The link on one line when it can be (a wrapped URL is hard to copy): a smaller size for a
      // long one, down to 7 pt; past that it wraps.
      const link = text(invoice.checkout_url)
      doc.fontSize(Math.max(7, Math.min(10, (10 * textWidth) / doc.fontSize(10).widthOfString(link))))
      doc.fillColor('#0645ad').text(link, left, doc.y + 4, {width: textWidth, link: invoice.checkout_url}).fillColor('#000')
      doc.y = Math.max(doc.y, top + QR_SIZE) + 8
    } else if (invoice.status === 'PAID') {
      doc.font(BOLD).text(text(t('sandboxInvoices.pdf.paidInFull', {date: formatDay(invoice.paid_at, locale)})), left, doc.y, {width})
    } else if (invoice.status === 'CANCELLED') {
      doc.font(BOLD).text(text(t('sandboxInvoices.pdf.cancelled')), left, doc.y, {width})
    }
    // "Invoice INV_ID · Page n/N" at the foot of every page, now that N is known.
    const pages = doc.bufferedPageRange()
    for (let i = pages.start; i < pages.start + pages.count; i++) {
      doc.switchToPage(i)
      const footer = text(t('sandboxInvoices.pdf.footer', {id: number, page: i - pages.start + 1, pages: pages.count}))
      doc.font(REGULAR).fontSize(8).fillColor('#555').text(footer, left, doc.page.height - MARGIN - 10, {width, align: 'right', lineBreak: false}).fillColor('#000')
    }
    doc.end()
  })
}

/** The QR code as vector squares (sharp at any zoom or print size), with its quiet zone inside `size`. */
function drawQr(doc: PDFKit.PDFDocument, data: string, x: number, y: number, size: number): void {
  const qr = QRCode.create(data, {errorCorrectionLevel: 'M'})
  const count = qr.modules.size
  const quiet = 4
  const cell = size / (count + 2 * quiet)
  doc.save().fillColor('#000')
  for (let row = 0; row < count; row++)
    for (let col = 0; col < count; col++)
      if (qr.modules.get(row, col)) doc.rect(x + (col + quiet) * cell, y + (row + quiet) * cell, cell, cell)
  doc.fill().restore()
}
