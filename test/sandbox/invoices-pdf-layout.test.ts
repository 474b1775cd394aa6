/**
 * The invoice PDF as the shop's customer receives it (issue 19 point 2, issue 23): margins a
 * printer keeps, 12-digit amounts on one line, 100 items over pages with the table header
 * repeated, statuses in the document's language, and a QR code of the checkout_url that a phone
 * can read. Read with poppler (pdftotext -bbox, pdftoppm) and jsQR: tools independent of ours.
 */
import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import jsQRModule from 'jsqr'
import {describe, expect} from 'vitest'

import {pdfText} from '../helpers/documents.js'
import {withHarness, type Harness} from './helpers.js'
import {publishInvoice} from './invoices-helpers.js'

const it = withHarness({businessName: 'Boulangerie Awa'})

const A4_WIDTH = 595.28
const A4_HEIGHT = 841.89
const MARGIN = 42.52 // 1.5 cm

// jsqr is a webpack UMD bundle: under Node's ESM interop its function is the module or its default.
const jsQR = ((jsQRModule as unknown as {default?: typeof jsQRModule}).default ?? jsQRModule) as unknown as typeof jsQRModule.default

interface Word {page: number; xMin: number; yMin: number; xMax: number; yMax: number; text: string}

function withPdfFile<T>(bytes: Buffer, use: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pdf-layout-'))
  try {
    const file = join(dir, 'invoice.pdf')
    writeFileSync(file, bytes)
    return use(file, dir)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

/** Every word with its box, page by page (pdftotext -bbox writes XHTML). */
function words(bytes: Buffer): Word[] {
  const html = withPdfFile(bytes, (file) => execFileSync('/usr/bin/pdftotext', ['-bbox', file, '-'], {encoding: 'utf8'}))
  const out: Word[] = []
  html.split(/<page /).slice(1).forEach((page, index) => {
    for (const m of page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g))
      out.push({page: index + 1, xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]), text: m[5]})
  })
  return out
}

/**
 * The pixels of a binary PPM (P6, 8 bits), as pdftoppm writes it, in RGBA: the page as rendered,
 * without the PNG encoding and decoding (most of the time a PNG of the page took).
 */
function readPpm(bytes: Buffer): {width: number; height: number; data: Uint8ClampedArray} {
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 64).toString('latin1'))
  if (!header) throw new Error(`not a binary 8-bit PPM: ${JSON.stringify(bytes.subarray(0, 16).toString('latin1'))}`)
  const width = Number(header[1])
  const height = Number(header[2])
  const rgb = bytes.subarray(header[0].length)
  expect(rgb.length).toBe(width * height * 3)
  const data = new Uint8ClampedArray(width * height * 4)
  for (let i = 0, o = 0; i < rgb.length; i += 3, o += 4) {
    data[o] = rgb[i]!
    data[o + 1] = rgb[i + 1]!
    data[o + 2] = rgb[i + 2]!
    data[o + 3] = 255
  }
  return {width, height, data}
}

/**
 * The QR code on the first page, decoded from a 150 dpi rendering, as printed (dark on light: a
 * code drawn inverted would not read).
 */
function decodeQr(bytes: Buffer): string | undefined {
  return withPdfFile(bytes, (file, dir) => {
    execFileSync('/usr/bin/pdftoppm', ['-r', '150', '-f', '1', '-l', '1', '-singlefile', file, join(dir, 'page')])
    const page = readPpm(readFileSync(join(dir, 'page.ppm')))
    return jsQR(page.data, page.width, page.height, {inversionAttempts: 'dontInvert'})?.data
  })
}

describe('invoice PDF layout', () => {
  const fetchPdf = async (h: Harness, id: string): Promise<Buffer> => {
    const link = await h.api('GET', `/v1/invoices/${id}/pdf`)
    expect(link.status).toBe(200)
    const response = await fetch(link.body.pdf_url)
    expect(response.status).toBe(200)
    return Buffer.from(await response.arrayBuffer())
  }

  it('keeps every word at least 1.5 cm from each edge, and 12-digit amounts on one line', async ({h}) => {
    const invoice = await publishInvoice(h, {
      customer_name: 'Établissements Mbarga & Fils, Société de distribution alimentaire du Littoral',
      items: [
        {name: 'Groupe électrogène industriel 500 kVA avec inverseur de source automatique et installation', price: 999_999_999_999, quantity: 1},
        {name: 'Pain', price: 500, quantity: 3},
      ],
    })
    const pdf = await fetchPdf(h, invoice.id)
    const all = words(pdf)
    expect(all.length).toBeGreaterThan(20)
    for (const w of all) {
      expect(w.xMax, `${w.text} ends at x=${w.xMax}`).toBeLessThanOrEqual(A4_WIDTH - MARGIN)
      expect(w.xMin, `${w.text} starts at x=${w.xMin}`).toBeGreaterThanOrEqual(MARGIN)
      expect(w.yMax, `${w.text} ends at y=${w.yMax}`).toBeLessThanOrEqual(A4_HEIGHT - MARGIN)
      expect(w.yMin, `${w.text} starts at y=${w.yMin}`).toBeGreaterThanOrEqual(MARGIN)
    }
    // The line total, 999 999 999 999 XAF, on one line of the layout text (no wrap).
    const text = pdfText(pdf)
    expect(text).toMatch(/999 999 999 999 XAF/)
    expect(text).toMatch(/1 000 000 001 499 XAF/)
  })

  it('puts 100 items on several pages, the table header on each', async ({h}) => {
    const items = Array.from({length: 100}, (_, i) => ({name: `Article numéro ${i + 1}`, price: 1000 + i, quantity: 1}))
    const invoice = await publishInvoice(h, {items})
    const pdf = await fetchPdf(h, invoice.id)
    const text = pdfText(pdf)
    const pages = text.split('\f').filter((p) => p.trim() !== '')
    expect(pages.length).toBeGreaterThan(1)
    for (const page of pages) expect(page).toMatch(/Item\s+Qty\s+Unit price\s+Amount/)
    for (const i of [1, 50, 100]) expect(text).toContain(`Article numéro ${i}`)
    for (const w of words(pdf)) expect(w.yMax, `${w.text} on page ${w.page}`).toBeLessThanOrEqual(A4_HEIGHT - MARGIN)
  })

  it('says the status in the business language', async ({h}) => {
    await h.admin('PUT', '/_admin/business', {language: 'fr'})
    try {
      const invoice = await publishInvoice(h, {items: [{name: 'Groupe électrogène', price: 999_999_999_999, quantity: 1}]})
      const pdf = await fetchPdf(h, invoice.id)
      const text = pdfText(pdf)
      expect(text).toContain('Statut : À payer')
      // FCFA is longer than XAF: still one line, still inside the margins.
      expect(text).toMatch(/999 999 999 999 FCFA/)
      for (const w of words(pdf)) expect(w.xMax, w.text).toBeLessThanOrEqual(A4_WIDTH - MARGIN)
      expect(text).not.toContain('UNPAID')
    } finally {
      await h.admin('PUT', '/_admin/business', {language: 'en'})
    }
    const english = pdfText(await fetchPdf(h, (await publishInvoice(h)).id))
    expect(english).toContain('Status: Unpaid')
  })

  it('carries a QR code that reads as the checkout_url, type=sandbox kept', async ({h}) => {
    const invoice = await publishInvoice(h)
    expect(invoice.checkout_url).toContain('type=sandbox')
    expect(decodeQr(await fetchPdf(h, invoice.id))).toBe(invoice.checkout_url)
  })
})
