/**
 * An invoice PDF you can file: "Page 2/4" and the invoice number on every page; the totals, the
 * pay link and the QR code kept together (no page holds the pay block alone); characters no font
 * can draw never print as "??" (a font with wide coverage draws accents, Greek, Cyrillic; what it
 * cannot draw, emoji, shows a visible placeholder and the sandbox's log says so). Read with
 * pdftotext, a tool independent of ours.
 */
import {describe, expect} from 'vitest'

import {pdfText} from '../helpers/documents.js'
import {withHarness, type Harness} from './helpers.js'
import {publishInvoice} from './invoices-helpers.js'

const logged: string[] = []
const it = withHarness({businessName: 'Boulangerie Awa', log: (line: string) => void logged.push(line)})

async function fetchPdf(h: Harness, id: string): Promise<Buffer> {
  const link = await h.api('GET', `/v1/invoices/${id}/pdf`)
  expect(link.status).toBe(200)
  const response = await fetch(link.body.pdf_url)
  expect(response.status).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

const items = (n: number) => Array.from({length: n}, (_, i) => ({name: `Article numéro ${i + 1}`, price: 1000 + i, quantity: 1}))

describe('invoice PDF: pages you can file', () => {
  it('a 46-item invoice: "Page n/N" and the invoice number on every page', async ({h}) => {
    const invoice = await publishInvoice(h, {items: items(46)})
    const pages = pdfText(await fetchPdf(h, invoice.id)).split('\f').filter((p) => p.trim() !== '')
    expect(pages.length).toBeGreaterThan(1)
    pages.forEach((page, i) => {
      expect(page, `page ${i + 1}`).toContain(`Page ${i + 1}/${pages.length}`)
      expect(page, `page ${i + 1}`).toContain(invoice.id)
    })
  })

  it('the pay block (link and QR) is never alone on a page: the totals are with it, whatever the number of items', async ({h}) => {
    for (let n = 20; n <= 56; n += 1) {
      const invoice = await publishInvoice(h, {items: items(n)})
      const pages = pdfText(await fetchPdf(h, invoice.id)).split('\f').filter((p) => p.trim() !== '')
      const payPage = pages.findIndex((p) => /Pay online/.test(p))
      expect(payPage, `${n} items`).toBeGreaterThanOrEqual(0)
      expect(pages[payPage], `${n} items: the totals on the pay block's page`).toMatch(/Total/)
      expect(pages[payPage], `${n} items: the amount due on the pay block's page`).toMatch(/Amount due|Due/)
    }
  }, 60_000)

  it('in French too: "Page 1/1" and the number', async ({h}) => {
    await h.admin('PUT', '/_admin/business', {language: 'fr'})
    try {
      const invoice = await publishInvoice(h, {items: items(3)})
      const text = pdfText(await fetchPdf(h, invoice.id))
      expect(text).toMatch(/Page 1\/1/)
      expect(text).toContain(invoice.id)
    } finally {
      await h.admin('PUT', '/_admin/business', {language: 'en'})
    }
  })

  it('characters beyond Latin-1 are drawn, emoji get a visible placeholder and a line in the log, never "??"', async ({h}) => {
    logged.length = 0
    const invoice = await publishInvoice(h, {
      customer_name: 'Awa 🍞 Boulangerie Ωmega',
      items: [
        {name: 'Хлеб Ŝtefan — “quoted”', price: 500, quantity: 2},
        {name: 'Café ☕ 🥐', price: 1500, quantity: 1},
      ],
    })
    const text = pdfText(await fetchPdf(h, invoice.id))
    expect(text).not.toContain('??')
    expect(text).toContain('Ωmega')
    expect(text).toContain('Хлеб Ŝtefan')
    expect(text).toContain('Café')
    // The placeholder: a white square, where the emoji was.
    expect(text).toMatch(/Awa □ Boulangerie/)
    expect(logged.join('\n')).toMatch(new RegExp(`${invoice.id}.*(U\\+1F35E|🍞)`))
  })
})
