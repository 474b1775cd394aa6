import {describe, expect} from 'vitest'
import type {Browser, Page} from 'playwright-core'
import {POLL_MS} from '../../src/sandbox/invoices/checkout.js'
import {fileBrowser} from '../helpers/documents.js'
import {withHarness, type Harness} from './helpers.js'
import {createInvoice, getInvoice, invoiceIn, publishInvoice, submitCheckout} from './invoices-helpers.js'

// Payments settle only when the test moves the sandbox clock (a minute after creation), and a
// page follows them on its own clock, which the test moves too (Playwright's): the page's poll
// comes when the test says. One Chromium for the file, launched by the first test that asks for it.
const SETTLE_MS = 60_000
const it = withHarness({settleAfterMs: SETTLE_MS, businessName: 'Awa Bakery Ltd'}).extend<{browser: Browser}>({
  browser: [fileBrowser, {scope: 'file'}],
})

describe('hosted checkout', () => {
  const page = async (url: string) => {
    const response = await fetch(url)
    return {status: response.status, headers: response.headers, text: await response.text()}
  }

  describe('over HTTP', () => {
    it('shows a published sandbox invoice with its form, accessibly and without external assets', async ({h}) => {
      const invoice = await publishInvoice(h)
      const reply = await page(invoice.checkout_url)
      expect(reply.status).toBe(200)
      expect(reply.headers.get('content-type')).toMatch(/^text\/html/)
      expect(reply.headers.get('content-security-policy')).toContain("default-src 'none'")
      expect(reply.text).toMatch(/<html lang="en">/)
      expect(reply.text).toContain('name="viewport"')
      for (const id of ['phone', 'operator', 'amount']) expect(reply.text).toMatch(new RegExp(`<label for="${id}">`))
      expect(reply.text).toContain('Awa Bakery Ltd')
      expect(reply.text).toContain('4 000 XAF')
      // No external assets: no src or href to another origin, no stylesheet or script file.
      expect(reply.text).not.toMatch(/(src|href)="(https?:)?\/\//)
      expect(reply.text).not.toMatch(/<link\b/)
      expect(reply.text).not.toMatch(/<script[^>]+src=/)
    })

    it.for([
      ['without type=sandbox', (url: string) => url.replace('?type=sandbox', '')],
      ['with another type', (url: string) => url.replace('type=sandbox', 'type=live')],
      ['an unknown id', (url: string) => url.replace(/inv_test_\w+/, 'inv_test_unknown')],
    ] as const)('a sandbox invoice %s is 404', async ([_label, change], {h}) => {
      const invoice = await publishInvoice(h)
      const reply = await page(change(invoice.checkout_url))
      expect(reply.status).toBe(404)
      expect(reply.text).toContain('Invoice not found')
      expect(reply.text).not.toContain(invoice.id)
    })

    it('a DRAFT is 404: invisible to the customer, and cannot be paid through the form either', async ({h}) => {
      const draft = await createInvoice(h)
      expect((await page(draft.checkout_url)).status).toBe(404)
      const submitted = await submitCheckout(h, draft, {phone: '670000001', operator: 'MTN', amount: draft.amount_due})
      expect(submitted.status).toBe(404)
      expect((await h.api('GET', '/v1/payments?limit=100', {})).body.data.filter((p: any) => p.amount === draft.amount_due && p.created_at >= draft.created_at)).toEqual([])
    })

    it('live invoices are served without type=sandbox, and not with it', async ({h}) => {
      const invoice = await publishInvoice(h, {}, h.sb.keys.live)
      expect(invoice.checkout_url).not.toContain('type=')
      expect((await page(invoice.checkout_url)).status).toBe(200)
      expect((await page(`${invoice.checkout_url}?type=sandbox`)).status).toBe(404)
    })

    it.for([
      ['PAID', /This invoice is paid/],
      ['CANCELLED', /This invoice has been cancelled/],
      ['PAST_DUE', /was due on 2020-01-31\. It can still be paid/],
    ] as const)('a %s invoice says so', async ([status, sentence], {h}) => {
      const invoice = await invoiceIn(h, status)
      const reply = await page(invoice.checkout_url)
      expect(reply.status).toBe(200)
      expect(reply.text).toMatch(sentence)
      expect(reply.text.includes('<form')).toBe(status === 'PAST_DUE')
    })

    it.for([
      ['a number that is no Cameroon number', {phone: '12345', operator: 'MTN'}, 400, /Cameroon mobile number/],
      ['no operator', {phone: '670000001', operator: 'MOOV'}, 400, /Choose your operator/],
      ['more than is due', {phone: '670000001', operator: 'MTN', amount: 4001}, 400, /from 1 to 4000 XAF/],
      ['zero', {phone: '670000001', operator: 'MTN', amount: 0}, 400, /from 1 to 4000 XAF/],
      ['a fraction', {phone: '670000001', operator: 'MTN', amount: '10.5'}, 400, /from 1 to 4000 XAF/],
    ] as const)('the form refuses %s and shows why, keeping what was typed', async ([_label, form, status, message], {h}) => {
      const invoice = await publishInvoice(h)
      const submitted = await submitCheckout(h, invoice, form)
      expect(submitted.status).toBe(status)
      expect(submitted.text).toMatch(message)
      expect(submitted.text).toContain('role="alert"')
      expect(submitted.text).toContain(`value="${form.phone}"`)
      expect((await getInvoice(h, invoice.id)).body.amount_paid).toBe(0)
    })

    it('a paid form creates a real sandbox payment of the payments domain, one at a time', async ({h}) => {
      // Settlement only when the test moves the sandbox clock, so the first payment is surely pending.
      await payOneAtATime(h)
    })

    async function payOneAtATime(h: Harness): Promise<void> {
      const invoice = await publishInvoice(h)
      const submitted = await submitCheckout(h, invoice, {phone: '237650000001', operator: 'ORANGE', amount: 1000})
      expect(submitted.status).toBe(303)
      const paymentId = new URL(submitted.location!, h.sb.url).searchParams.get('payment')!
      expect(submitted.location).toBe(`/pay/i/${invoice.id}?type=sandbox&payment=${paymentId}`)
      const payment = await h.api('GET', `/v1/payments/${paymentId}/status`)
      expect(payment.body).toMatchObject({amount: 1000, phone_number: '237650000001', environment: 'SANDBOX'})
      // A second payment while the first is pending is refused.
      const second = await submitCheckout(h, invoice, {phone: '670000001', operator: 'MTN', amount: 1000})
      expect(second.status).toBe(409)
      expect(second.text).toMatch(/already waiting for approval/)
      await h.sb.clock.advance(SETTLE_MS)
      expect((await h.api('GET', `/v1/payments/${paymentId}/status`)).body.status).toBe('SUCCESS')
      const status = await fetch(`${h.sb.payUrl}/i/${invoice.id}/payments/${paymentId}?type=sandbox`).then((r) => r.json())
      expect(status).toEqual({payment_id: paymentId, status: 'SUCCESS', invoice_status: 'UNPAID', amount_paid: 1000, amount_due: 3000})
      // The payment endpoint of the page needs the right invoice and environment too.
      expect((await fetch(`${h.sb.payUrl}/i/${invoice.id}/payments/${paymentId}`)).status).toBe(404)
    }
  })

  describe('in headless Chromium', () => {
    async function open(browser: Browser, url: string) {
      const context = await browser.newContext({viewport: {width: 375, height: 740}})
      const tab = await context.newPage()
      // The page's timers (its poll of the payment) on a clock the test moves.
      await tab.clock.install()
      const requests: string[] = []
      tab.on('request', (request) => requests.push(request.url()))
      const response = await tab.goto(url)
      return {tab, context, response, requests}
    }

    /** The payment the page waits for settles (sandbox time), then the page polls it (its time). */
    async function settleAndPoll(h: Harness, tab: Page): Promise<void> {
      await h.sb.clock.advance(SETTLE_MS)
      await tab.clock.runFor(POLL_MS)
    }

    it('pay with an always-SUCCESS number: the page follows the payment and shows PAID', async ({h, browser}) => {
      const invoice = await publishInvoice(h)
      const {tab, context, response, requests} = await open(browser, invoice.checkout_url)
      try {
        expect(response?.status()).toBe(200)
        await tab.getByLabel('Operator').selectOption('MTN')
        await tab.getByLabel('Mobile money number').fill('670000001')
        await expect(tab.getByLabel('Amount to pay (XAF)').inputValue()).resolves.toBe('4000')
        await tab.getByRole('button', {name: 'Pay now'}).click()
        await tab.getByText(/Waiting for you to approve 4 000 XAF/).waitFor({timeout: 10_000})
        await settleAndPoll(h, tab)
        await tab.getByText('This invoice is paid', {exact: false}).waitFor({timeout: 10_000})
        await expect(tab.getByText('Payment of 4 000 XAF received').isVisible()).resolves.toBe(true)
        expect(await tab.locator('form').count()).toBe(0)
        // Everything the page loaded came from the sandbox itself.
        expect(requests.every((url) => url.startsWith(h.sb.url))).toBe(true)
      } finally {
        await context.close()
      }
      const read = (await getInvoice(h, invoice.id)).body
      expect(read).toMatchObject({status: 'PAID', amount_paid: 4000, amount_due: 0})
    })

    it('pay with an always-FAILED number: the page shows the failure and offers the form again', async ({h, browser}) => {
      const invoice = await publishInvoice(h)
      const {tab, context} = await open(browser, invoice.checkout_url)
      try {
        await tab.getByLabel('Operator').selectOption('ORANGE')
        await tab.getByLabel('Mobile money number').fill('650000099')
        await tab.getByRole('button', {name: 'Pay now'}).click()
        await tab.getByText(/Waiting for you to approve 4 000 XAF/).waitFor({timeout: 10_000})
        await settleAndPoll(h, tab)
        const alert = tab.getByRole('alert')
        await alert.waitFor({timeout: 10_000})
        expect(await alert.textContent()).toMatch(/The payment failed: the payment was declined on the phone/)
        expect(await tab.getByRole('button', {name: 'Pay now'}).isVisible()).toBe(true)
      } finally {
        await context.close()
      }
      expect((await getInvoice(h, invoice.id)).body).toMatchObject({status: 'UNPAID', amount_paid: 0})
    })

    it('without type=sandbox the page is 404', async ({h, browser}) => {
      const invoice = await publishInvoice(h)
      const {tab, context, response} = await open(browser, invoice.checkout_url.replace('?type=sandbox', ''))
      try {
        expect(response?.status()).toBe(404)
        expect(await tab.getByRole('heading', {name: 'Invoice not found'}).isVisible()).toBe(true)
      } finally {
        await context.close()
      }
    })
  })
})
