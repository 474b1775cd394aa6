import {describe, expect} from 'vitest'
import {pdfText} from '../helpers/documents.js'
import {withHarness, type Harness} from './helpers.js'
import {createInvoice, pay, publishInvoice} from './invoices-helpers.js'

const it = withHarness({businessName: 'Boulangerie Awa', settleAfterMs: 100})

describe('invoice PDF', () => {
  const fetchPdf = async (h: Harness, id: string) => {
    const link = await h.api('GET', `/v1/invoices/${id}/pdf`)
    expect(link.status).toBe(200)
    const response = await fetch(link.body.pdf_url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    return {link: link.body, text: pdfText(Buffer.from(await response.arrayBuffer()))}
  }

  it('shows business, customer, lines, discount, totals, amounts, status and the pay link', async ({h}) => {
    const invoice = await publishInvoice(h, {
      customer_name: 'Jean Mbarga',
      customer_email: 'jean@example.cm',
      discount_percent: 10,
      notes: 'Delivery on Saturday',
      items: [
        {name: 'Croissant', price: 350, quantity: 12},
        {name: 'Wedding cake', description: 'Three tiers', price: 45000, quantity: 1},
      ],
    })
    const {link, text} = await fetchPdf(h, invoice.id)
    expect(link.expires_at).toMatch(/Z$/)
    for (const expected of [
      'Boulangerie Awa',
      `Invoice ${invoice.id}`,
      'Status: Unpaid',
      'Due date: 2099-12-31',
      'Jean Mbarga',
      'jean@example.cm',
      'Croissant',
      'Wedding cake',
      'Three tiers',
      '4 200 XAF', // 12 × 350
      '45 000 XAF',
      'Subtotal',
      '49 200 XAF',
      'Discount (10%)',
      '-4 920 XAF',
      'Total',
      '44 280 XAF',
      'Amount paid',
      'Amount due',
      'Delivery on Saturday',
      invoice.checkout_url,
    ])
      expect(text).toContain(expected)
  })

  it('is rendered from the current state: after a partial payment, then once paid', async ({h}) => {
    const invoice = await publishInvoice(h, {items: [{name: 'Bread', price: 1000, quantity: 2}]})
    await pay(h, invoice, 500)
    let {text} = await fetchPdf(h, invoice.id)
    expect(text).toMatch(/Amount paid\s+500 XAF/)
    expect(text).toMatch(/Amount due\s+1 500 XAF/)
    expect(text).toContain('Status: Unpaid')
    await pay(h, {...invoice, amount_due: 1500})
    ;({text} = await fetchPdf(h, invoice.id))
    expect(text).toContain('Status: Paid')
    expect(text).toMatch(/Amount due\s+0 XAF/)
    expect(text).toContain('Paid in full')
    expect(text).not.toContain(invoice.checkout_url)
  })

  it('the pdf_url works without the API key, is refused when tampered with, and expires on the sandbox clock', async ({h}) => {
    const invoice = await publishInvoice(h)
    const link = (await h.api('GET', `/v1/invoices/${invoice.id}/pdf`)).body
    const other = await createInvoice(h)
    const forged = link.pdf_url.replace(invoice.id, other.id)
    expect((await fetch(forged)).status).toBe(403)
    // One character of the signature changed (to another: a signature starting with A stays valid under 'A').
    const tampered = link.pdf_url.replace(/signature=(.)/, (_: string, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`)
    expect(tampered).not.toBe(link.pdf_url)
    expect((await fetch(tampered)).status).toBe(403)
    await h.sb.clock.advance(Date.parse(link.expires_at) - h.sb.clock.now() + 1000)
    const expired = await fetch(link.pdf_url)
    expect(expired.status).toBe(403)
    expect(((await expired.json()) as any).code).toBe('url_expired')
  })

  it('a draft has no PDF (409), and publish carries a pdf_url that renders', async ({h}) => {
    const draft = await createInvoice(h)
    const refused = await h.api('GET', `/v1/invoices/${draft.id}/pdf`)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('invalid_state')
    const published = await h.api('POST', `/v1/invoices/${draft.id}/publish`)
    const response = await fetch(published.body.pdf_url)
    expect(response.status).toBe(200)
    expect(pdfText(Buffer.from(await response.arrayBuffer()))).toContain(draft.id)
  })

  it('a cancelled invoice says so', async ({h}) => {
    const invoice = await publishInvoice(h)
    await h.api('POST', `/v1/invoices/${invoice.id}/cancel`)
    const {text} = await fetchPdf(h, invoice.id)
    expect(text).toContain('Status: Cancelled')
    expect(text).toContain('cancelled')
  })
})
