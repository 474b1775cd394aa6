/**
 * The customer-facing sandbox in French and English: the checkout page per request (the browser's
 * Accept-Language, its own switch, the business's language as fallback), and the PDF and
 * email/WhatsApp texts in the business's language (dashboard setting, GET/PUT /_admin/business).
 */
import type {Browser, Page} from 'playwright-core'
import {describe, expect} from 'vitest'

import {POLL_MS} from '../../src/sandbox/invoices/checkout.js'
import {fileBrowser, pdfText} from '../helpers/documents.js'
import {withHarness, type Harness} from './helpers.js'
import {getInvoice, pay, publishInvoice, submitCheckout} from './invoices-helpers.js'

// Payments settle only when the test moves the sandbox clock (a minute after creation); a page
// follows them on its own clock (Playwright's), which the test moves too.
const SETTLE_MS = 60_000
const it = withHarness({settleAfterMs: SETTLE_MS, businessName: 'Boulangerie Awa'}).extend<{english: void; browser: Browser}>({
  // Every test leaves the business speaking English, whatever it set.
  english: [
    async ({h}, use) => {
      await use()
      await h.admin('PUT', '/_admin/business', {language: 'en'})
    },
    {auto: true},
  ],
  browser: [fileBrowser, {scope: 'file'}],
})

const page = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, {headers})
  return {status: response.status, headers: response.headers, text: await response.text()}
}

describe('the business language (dashboard stand-in)', () => {
  it('GET/PUT /_admin/business: English by default, fr or en accepted, anything else 400', async ({h}) => {
    expect((await h.admin('GET', '/_admin/business')).body).toEqual({name: 'Boulangerie Awa', language: 'en', logo: null})
    const put = await h.admin('PUT', '/_admin/business', {language: 'fr'})
    expect(put.status).toBe(200)
    expect(put.body).toEqual({name: 'Boulangerie Awa', language: 'fr', logo: null})
    expect((await h.admin('GET', '/_admin')).body.language).toBe('fr')
    const notAnImage = Buffer.from('GIF89a not accepted').toString('base64')
    for (const body of [{language: 'de'}, {}, {language: 'fr', colour: 'x'}, {name: ''}, {name: 'Bad\u0007Bell'}, {name: 'Never Applied', logo_base64: notAnImage}]) {
      expect((await h.admin('PUT', '/_admin/business', body)).status, JSON.stringify(body)).toBe(400)
    }
    expect((await h.admin('GET', '/_admin/business')).body).toMatchObject({language: 'fr', name: 'Boulangerie Awa'})
    expect((await h.admin('PUT', '/_admin/business', {language: 'fr'}, 'wrong-token')).status).toBe(401)
  })
})

describe('checkout page language, over HTTP', () => {
  it.for([
    ['fr-CM,fr;q=0.9,en;q=0.8', 'fr'],
    ['fr', 'fr'],
    ['en-US,en;q=0.9', 'en'],
    ['en-US,fr;q=0.5', 'en'],
    ['de-DE,fr;q=0.7,en;q=0.3', 'fr'],
    ['en;q=0.2,fr-FR;q=0.8', 'fr'],
    ['de-DE', 'en'],
  ] as const)('Accept-Language %s → %s', async ([header, lang], {h}) => {
    const invoice = await publishInvoice(h)
    const reply = await page(invoice.checkout_url, {'accept-language': header})
    expect(reply.status).toBe(200)
    expect(reply.text).toContain(`<html lang="${lang}">`)
    expect(reply.headers.get('content-language')).toBe(lang)
    expect(reply.headers.get('vary')).toMatch(/Accept-Language/i)
    expect(reply.text).toContain(lang === 'fr' ? 'Payer par Mobile Money' : 'Pay with mobile money')
  })

  it('French: amounts in FCFA, the due date as dd/mm/yyyy, every label translated', async ({h}) => {
    const invoice = await publishInvoice(h, {discount_percent: 10})
    const {text} = await page(invoice.checkout_url, {'accept-language': 'fr'})
    for (const fragment of ['Facture pour Awa Bakery', 'Échéance : 31/12/2099', 'Remise (10 %)', '-400 FCFA', 'Reste à payer', '3 600 FCFA', 'Numéro Mobile Money', 'Montant à payer (FCFA)', 'Payer maintenant']) {
      expect(text).toContain(fragment)
    }
    expect(text).not.toMatch(/XAF<|Amount due|Pay now|2099-12-31/)
  })

  it('no preference, or *: the business’s language; ?lang= beats Accept-Language', async ({h}) => {
    const invoice = await publishInvoice(h)
    expect((await page(invoice.checkout_url, {'accept-language': 'de'})).text).toContain('<html lang="en">')
    await h.admin('PUT', '/_admin/business', {language: 'fr'})
    expect((await page(invoice.checkout_url, {'accept-language': 'de'})).text).toContain('<html lang="fr">')
    expect((await page(invoice.checkout_url, {'accept-language': '*'})).text).toContain('<html lang="fr">')
    expect((await page(`${invoice.checkout_url}&lang=en`, {'accept-language': 'fr'})).text).toContain('<html lang="en">')
    expect((await page(`${invoice.checkout_url}&lang=fr`, {'accept-language': 'en'})).text).toContain('<html lang="fr">')
    // An unknown ?lang= is ignored, not an error.
    expect((await page(`${invoice.checkout_url}&lang=xx`, {'accept-language': 'en'})).status).toBe(200)
  })

  it('the switch links keep type=sandbox; a chosen language stays on the form, its errors and its redirect', async ({h}) => {
    const invoice = await publishInvoice(h)
    const {text} = await page(invoice.checkout_url, {'accept-language': 'en'})
    expect(text).toMatch(new RegExp(`href="/pay/i/${invoice.id}\\?type=sandbox&amp;lang=fr"[^>]*>Français<`))
    expect(text).toMatch(new RegExp(`href="/pay/i/${invoice.id}\\?type=sandbox&amp;lang=en"[^>]*aria-current="true"[^>]*>English<`))
    const french = await page(`${invoice.checkout_url}&lang=fr`)
    expect(french.text).toContain(`action="/pay/i/${invoice.id}/pay?type=sandbox&amp;lang=fr"`)

    const frInvoice = {id: invoice.id, checkout_url: `${invoice.checkout_url}&lang=fr`}
    const bad = await submitCheckout(h, frInvoice, {phone: '12', operator: 'MTN', amount: 100})
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('Saisissez un numéro mobile camerounais')
    const tooMuch = await submitCheckout(h, frInvoice, {phone: '670000001', operator: 'MTN', amount: 999_999})
    expect(tooMuch.text).toContain('Saisissez un montant entier de 1 à 4000 FCFA.')
    const ok = await submitCheckout(h, frInvoice, {phone: '670000001', operator: 'MTN', amount: 1000})
    expect(ok.status).toBe(303)
    expect(ok.location).toMatch(/\?type=sandbox&payment=\w+&lang=fr$/)
    const busy = await submitCheckout(h, frInvoice, {phone: '670000001', operator: 'MTN', amount: 1000})
    expect(busy.text).toContain('Un paiement de cette facture attend déjà une validation')
  })

  it('the 404 page speaks the browser’s language', async ({h}) => {
    const reply = await page(`${h.sb.url}/pay/i/inv_test_unknown?type=sandbox`, {'accept-language': 'fr-CM'})
    expect(reply.status).toBe(404)
    expect(reply.text).toContain('Facture introuvable')
  })

  it('one server, both languages at once: concurrent requests each get their own', async ({h}) => {
    const invoice = await publishInvoice(h)
    const replies = await Promise.all(
      Array.from({length: 20}, (_, i) => page(invoice.checkout_url, {'accept-language': i % 2 ? 'fr' : 'en'})),
    )
    replies.forEach((reply, i) => expect(reply.text).toContain(i % 2 ? 'Payer maintenant' : 'Pay now'))
  })
})

/** A tab whose timers (the page's poll of the payment) run on a clock the test moves. */
async function newTab(browser: Browser, locale: string) {
  const context = await browser.newContext({locale, viewport: {width: 375, height: 740}})
  const tab = await context.newPage()
  await tab.clock.install()
  return {context, tab}
}

/** The payment the page waits for settles (sandbox time), then the page polls it (its time). */
async function settleAndPoll(h: Harness, tab: Page): Promise<void> {
  await h.sb.clock.advance(SETTLE_MS)
  await tab.clock.runFor(POLL_MS)
}

describe('checkout in headless Chromium, in French', () => {
  it('a French browser (Accept-Language fr) pays in French and sees the invoice paid', async ({h, browser}) => {
    const invoice = await publishInvoice(h)
    const {context, tab} = await newTab(browser, 'fr-FR')
    try {
      await tab.goto(invoice.checkout_url)
      expect(await tab.locator('html').getAttribute('lang')).toBe('fr')
      await tab.getByLabel('Opérateur').selectOption('MTN')
      await tab.getByLabel('Numéro Mobile Money').fill('670000001')
      await expect(tab.getByLabel('Montant à payer (FCFA)').inputValue()).resolves.toBe('4000')
      await tab.getByRole('button', {name: 'Payer maintenant'}).click()
      await tab.getByText(/En attente de votre validation de 4 000 FCFA/).waitFor({timeout: 10_000})
      await settleAndPoll(h, tab)
      await tab.getByText('Cette facture est payée', {exact: false}).waitFor({timeout: 10_000})
      expect(await tab.getByText('Paiement de 4 000 FCFA reçu. Merci.').isVisible()).toBe(true)
      expect(await tab.locator('#invoice-status').textContent()).toMatch(/\(le \d{2}\/\d{2}\/\d{4}\)/)
    } finally {
      await context.close()
    }
  })

  it('an English browser switches to French with the page’s link, and stays French through a failed payment', async ({h, browser}) => {
    const invoice = await publishInvoice(h)
    const {context, tab} = await newTab(browser, 'en-US')
    try {
      await tab.goto(invoice.checkout_url)
      expect(await tab.locator('html').getAttribute('lang')).toBe('en')
      await tab.getByRole('link', {name: 'Français'}).click()
      await tab.waitForURL(/lang=fr/)
      expect(new URL(tab.url()).searchParams.get('type')).toBe('sandbox')
      expect(await tab.locator('html').getAttribute('lang')).toBe('fr')
      await tab.getByLabel('Opérateur').selectOption('ORANGE')
      await tab.getByLabel('Numéro Mobile Money').fill('650000099')
      await tab.getByRole('button', {name: 'Payer maintenant'}).click()
      await tab.getByText(/En attente de votre validation de 4 000 FCFA/).waitFor({timeout: 10_000})
      await settleAndPoll(h, tab)
      const alert = tab.getByRole('alert')
      await alert.waitFor({timeout: 10_000})
      expect(await alert.textContent()).toContain('Le paiement a échoué : le paiement a été refusé sur le téléphone.')
      expect(await tab.getByRole('button', {name: 'Payer maintenant'}).isVisible()).toBe(true)
      await tab.getByRole('link', {name: 'English'}).click()
      await tab.waitForURL(/lang=en/)
      expect(await tab.getByRole('alert').textContent()).toContain('The payment failed: the payment was declined on the phone.')
    } finally {
      await context.close()
    }
  })
})

describe('PDF and deliveries in the business’s language', () => {
  const fetchPdf = async (h: Harness, id: string) => {
    const link = await h.api('GET', `/v1/invoices/${id}/pdf`)
    expect(link.status).toBe(200)
    const response = await fetch(link.body.pdf_url)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    return pdfText(Buffer.from(await response.arrayBuffer()))
  }

  it('business language fr: the PDF in French (pdftotext), amounts in FCFA, dates dd/mm/yyyy; back to English after', async ({h}) => {
    const invoice = await publishInvoice(h, {discount_percent: 10, notes: 'Livraison comprise'})
    expect(await fetchPdf(h, invoice.id)).toContain('Invoice')
    await h.admin('PUT', '/_admin/business', {language: 'fr'})
    const text = await fetchPdf(h, invoice.id)
    for (const fragment of ['Boulangerie Awa', `Facture ${invoice.id}`, 'SANDBOX : document de test', 'Statut : À payer', 'Échéance : 31/12/2099', 'Facturé à', 'Article', 'Prix unitaire', 'Sous-total', 'Remise (10 %)', 'Reste à payer', 'Remarques', 'Payez en ligne par Mobile Money']) {
      expect(text).toContain(fragment)
    }
    expect(text).toMatch(/Émise le : \d{2}\/\d{2}\/\d{4}/)
    expect(text).toMatch(/Reste à payer\s+3 600 FCFA/)
    expect(text).not.toMatch(/XAF|Amount due|Bill to/)
    await h.admin('PUT', '/_admin/business', {language: 'en'})
    expect(await fetchPdf(h, invoice.id)).toMatch(/Amount due\s+3 600 XAF/)
  })

  it('a paid invoice’s PDF says so in French', async ({h}) => {
    await h.admin('PUT', '/_admin/business', {language: 'fr'})
    const invoice = await publishInvoice(h)
    await pay(h, invoice)
    expect((await getInvoice(h, invoice.id)).body.status).toBe('PAID')
    expect(await fetchPdf(h, invoice.id)).toMatch(/Entièrement payée le \d{2}\/\d{2}\/\d{4}\. Merci\./)
  })

  it('email and WhatsApp texts in French when the business speaks French', async ({h}) => {
    await h.admin('PUT', '/_admin/business', {language: 'fr'})
    const invoice = await publishInvoice(h)
    expect((await h.api('POST', `/v1/invoices/${invoice.id}/send`, {body: {channel: 'EMAIL'}})).status).toBe(200)
    expect((await h.api('POST', `/v1/invoices/${invoice.id}/send`, {body: {channel: 'WHATSAPP'}})).status).toBe(200)
    const outbox = (await h.admin('GET', `/_admin/outbox?invoice_id=${invoice.id}`)).body.data as {channel: string; subject: string | null; text: string}[]
    const email = outbox.find((m) => m.channel === 'EMAIL')!
    const whatsapp = outbox.find((m) => m.channel === 'WHATSAPP')!
    expect(email.subject).toBe('Facture de Boulangerie Awa : 4 000 FCFA à régler avant le 31/12/2099')
    expect(email.text).toMatch(/^Bonjour Awa Bakery,\n\nBoulangerie Awa vous a envoyé la facture \S+ d’un montant de 4 000 FCFA\./)
    expect(email.text).toContain('Payez en ligne par Mobile Money : ')
    expect(whatsapp.subject).toBeNull()
    expect(whatsapp.text).toMatch(/^Boulangerie Awa : facture \S+, 4 000 FCFA à régler avant le 31\/12\/2099\. Payez par Mobile Money : /)
    await h.admin('PUT', '/_admin/business', {language: 'en'})
    expect((await h.api('POST', `/v1/invoices/${invoice.id}/send`, {body: {channel: 'EMAIL'}})).status).toBe(200)
    const latest = (await h.admin('GET', `/_admin/outbox?invoice_id=${invoice.id}&channel=EMAIL&limit=1`)).body.data[0]
    expect(latest.subject).toMatch(/^Invoice from Boulangerie Awa: 4 000 XAF due by 2099-12-31$/)
  })
})
