/**
 * `svc invoice create` with nothing given, at a real terminal (a pty): the guided form, in
 * English and in French, driven key by key; the invoice it creates is read back from the sandbox.
 */
import {describe, expect} from 'vitest'

import {withSandbox} from '../helpers/fixtures.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'

// The file's sandbox (payments settle at once) and a config dir per test (test/helpers/fixtures.ts).
const it = withSandbox({settleAfterMs: 0})

const ENTER = '\r'

describe('invoice create: the guided form on a terminal', {timeout: 60_000}, () => {
  it('English: customer, two items with a running total, discount, due date, summary, publish and send by email', async ({sandbox: sb, temp}) => {
    const s = runInPty(['invoice', 'create', '--lang', 'en'], {configDir: temp.dir, env: {...sb.env(), SVC_RATE_LIMIT: '0'}})
    try {
      await s.waitFor('Customer name')
      s.type(`Awa Bakery${ENTER}`)
      await s.waitFor('Customer email')
      s.type(`not-an-email${ENTER}`)
      await s.waitFor('Not an email address')
      // Clear the refused answer (inquirer keeps it), then a good one.
      s.type('\u0015'.repeat(1) + '\b'.repeat(20) + `awa@example.cm${ENTER}`)
      await s.waitFor('Customer phone')
      s.type(ENTER)
      await s.waitFor('Item 1: name')
      s.type(`Bread${ENTER}`)
      await s.waitFor('Unit price of Bread')
      s.type(`500${ENTER}`)
      await s.waitFor('Quantity of Bread')
      s.type(`3${ENTER}`)
      await s.waitFor('1 item, running total 1 500 XAF')
      s.type(`Cake${ENTER}`)
      await s.waitFor('Unit price of Cake')
      s.type(`2 500${ENTER}`)
      await s.waitFor('Quantity of Cake')
      s.type(ENTER)
      await s.waitFor('2 items, running total 4 000 XAF')
      s.type(ENTER) // no more items
      await s.waitFor('Discount in percent')
      s.type(`\b10${ENTER}`)
      await s.waitFor('Due date')
      for (let i = 0; i < 12; i++) s.type('\b')
      s.type(`2099-12-31${ENTER}`)
      await s.waitFor('Total 3 600 XAF, due 2099-12-31')
      await s.waitFor('Create this invoice?')
      s.type(`y${ENTER}`)
      await s.waitFor('Publish it now')
      s.type(`y${ENTER}`)
      await s.waitFor('Send it to the customer?')
      s.type('\u001b[B') // down: by email
      await s.waitFor('By email to awa@example.cm')
      s.type(ENTER)
      const {exitCode} = await s.exit
      const screen = stripAnsi(s.output())
      expect(exitCode, screen).toBe(0)
      const id = /(inv_test_\w+)/.exec(screen)![1]!
      const invoice = await sb.get(`/v1/invoices/${id}`)
      expect(invoice).toMatchObject({customer_name: 'Awa Bakery', customer_email: 'awa@example.cm', due_date: '2099-12-31', discount_percent: 10, total_amount: 3600, status: 'UNPAID'})
      expect(invoice.items).toEqual([
        {name: 'Bread', price: 500, quantity: 3},
        {name: 'Cake', price: 2500, quantity: 1},
      ])
      const outbox = await sb.admin('GET', `/outbox?invoice_id=${id}`)
      expect(outbox.data.map((m: {channel: string}) => m.channel)).toEqual(['EMAIL'])
    } finally {
      s.kill()
    }
  })

  it('French: the same form in French; declining the summary sends nothing', async ({sandbox: sb, temp}) => {
    const before = (await sb.get('/v1/invoices?page=1&page_size=1')).total
    const s = runInPty(['invoice', 'create', '--due-date', '2099-06-30'], {configDir: temp.dir, env: {...sb.env(), SVC_RATE_LIMIT: '0', LANG: 'fr_CM.UTF-8'}})
    try {
      await s.waitFor('Nom du client')
      s.type(`Boulangerie Awa${ENTER}`)
      await s.waitFor('E-mail du client')
      s.type(ENTER)
      await s.waitFor('Téléphone du client')
      s.type(`12345${ENTER}`)
      await s.waitFor('« 12345 » invalide')
      for (let i = 0; i < 6; i++) s.type('\b')
      s.type(`670000001${ENTER}`)
      await s.waitFor('Article 1 : nom')
      s.type(`Pain${ENTER}`)
      await s.waitFor('Prix unitaire de Pain')
      s.type(`500${ENTER}`)
      await s.waitFor('Quantité de Pain')
      s.type(`4${ENTER}`)
      await s.waitFor('1 article, total provisoire 2 000 FCFA')
      s.type(ENTER)
      await s.waitFor('Remise en pourcentage')
      s.type(ENTER)
      await s.waitFor('Total 2 000 FCFA, échéance 30/06/2099')
      await s.waitFor('Créer cette facture ?')
      s.type(`n${ENTER}`)
      const {exitCode} = await s.exit
      expect(exitCode).toBe(2)
      expect(stripAnsi(s.output())).toContain('rien n’a été envoyé')
      expect((await sb.get('/v1/invoices?page=1&page_size=1')).total).toBe(before)
    } finally {
      s.kill()
    }
  })
})
