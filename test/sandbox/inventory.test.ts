import {afterAll, beforeEach, describe, expect, it} from 'vitest'
import {harness, type Harness} from './helpers.js'
import {createInvoice, pay, publishInvoice} from './invoices-helpers.js'

const DAY = 24 * 60 * 60 * 1000

describe('inventory link (admin routes only)', () => {
  let h: Harness
  const open: Harness[] = []
  beforeEach(async () => {
    h = await harness({settleAfterMs: 100})
    open.push(h)
  })
  afterAll(async () => {
    for (const sandbox of open) await sandbox.close()
  })

  const items = async () => {
    const reply = await h.admin('GET', '/_admin/inventory')
    expect(reply.status).toBe(200)
    return Object.fromEntries(reply.body.data.map((item: any) => [item.name, item]))
  }
  const stock = (quantity: number, reserved: number) => ({quantity, reserved_quantity: reserved, available_quantity: quantity - reserved})
  const body = {items: [{name: 'Bread', price: 500, quantity: 3}, {name: 'Cake', price: 2500, quantity: 1}, {name: 'bread ', price: 500, quantity: 2}]}

  it('create syncs line items into the catalogue by name (case and spacing ignored), with nothing reserved', async () => {
    await createInvoice(h, body)
    const catalogue = await items()
    expect(Object.keys(catalogue).sort()).toEqual(['Bread', 'Cake'])
    expect(catalogue.Bread).toMatchObject({sku: 'BREAD', ...stock(0, 0)})
  })

  it('PUT sets the quantity by SKU or by name, and creates a new item by name', async () => {
    await createInvoice(h, body)
    expect((await h.admin('PUT', '/_admin/inventory/BREAD', {quantity: 20})).body).toMatchObject({name: 'Bread', ...stock(20, 0)})
    expect((await h.admin('PUT', `/_admin/inventory/${encodeURIComponent('cake')}`, {quantity: 4})).body).toMatchObject({sku: 'CAKE', ...stock(4, 0)})
    const created = await h.admin('PUT', `/_admin/inventory/${encodeURIComponent('Pain au chocolat')}`, {quantity: 7})
    expect(created.body).toMatchObject({sku: 'PAIN-AU-CHOCOLAT', name: 'Pain au chocolat', ...stock(7, 0)})
    expect((await h.admin('GET', '/_admin/inventory/PAIN-AU-CHOCOLAT')).body.quantity).toBe(7)
    expect((await h.admin('GET', '/_admin/inventory/nothing')).status).toBe(404)
    expect((await h.admin('PUT', '/_admin/inventory/BREAD', {quantity: -1})).status).toBe(400)
    expect((await h.admin('PUT', '/_admin/inventory/BREAD', {quantity: 1.5})).status).toBe(400)
  })

  it('publish reserves for 7 days; payment confirms the reservation and deducts the stock', async () => {
    await h.admin('PUT', '/_admin/inventory/Bread', {quantity: 20})
    await h.admin('PUT', '/_admin/inventory/Cake', {quantity: 4})
    const invoice = await publishInvoice(h, body)
    let catalogue = await items()
    expect(catalogue.Bread).toMatchObject(stock(20, 5))
    expect(catalogue.Cake).toMatchObject(stock(4, 1))
    const [reservation] = (await h.admin('GET', `/_admin/inventory/reservations?invoice_id=${invoice.id}`)).body.data
    expect(reservation).toMatchObject({status: 'active', lines: [{sku: 'BREAD', quantity: 5}, {sku: 'CAKE', quantity: 1}]})
    expect(Date.parse(reservation.expires_at) - Date.parse(reservation.created_at)).toBe(7 * DAY)
    // A partial payment confirms nothing yet.
    await pay(h, invoice, 1000)
    expect((await items()).Bread).toMatchObject(stock(20, 5))
    await pay(h, {...invoice, amount_due: invoice.amount_due - 1000})
    catalogue = await items()
    expect(catalogue.Bread).toMatchObject(stock(15, 0))
    expect(catalogue.Cake).toMatchObject(stock(3, 0))
    expect((await h.admin('GET', `/_admin/inventory/reservations?invoice_id=${invoice.id}`)).body.data[0]).toMatchObject({status: 'confirmed', ended_by: 'paid'})
    // The reservation's expiry no longer does anything.
    await h.sb.clock.advance(8 * DAY)
    expect((await items()).Bread).toMatchObject(stock(15, 0))
  })

  it('an unpaid reservation is released after 7 days of the sandbox clock; the invoice stays payable', async () => {
    await h.admin('PUT', '/_admin/inventory/Bread', {quantity: 10})
    const invoice = await publishInvoice(h, body)
    await h.sb.clock.advance(7 * DAY - 60_000)
    expect((await items()).Bread).toMatchObject(stock(10, 5))
    await h.sb.clock.advance(60_000)
    expect((await items()).Bread).toMatchObject(stock(10, 0))
    expect((await h.admin('GET', `/_admin/inventory/reservations?invoice_id=${invoice.id}`)).body.data[0]).toMatchObject({status: 'released', ended_by: 'expired'})
    expect((await h.api('GET', `/v1/invoices/${invoice.id}`)).body.status).toBe('UNPAID')
    // Paid after the release: the sale still takes the stock.
    await pay(h, invoice)
    expect((await items()).Bread).toMatchObject(stock(5, 0))
  })

  it('cancel releases the reservation; drafts reserve nothing', async () => {
    await h.admin('PUT', '/_admin/inventory/Cake', {quantity: 2})
    await createInvoice(h, body)
    expect((await items()).Cake).toMatchObject(stock(2, 0))
    const invoice = await publishInvoice(h, body)
    expect((await items()).Cake).toMatchObject(stock(2, 1))
    await h.api('POST', `/v1/invoices/${invoice.id}/cancel`)
    expect((await items()).Cake).toMatchObject(stock(2, 0))
    expect((await h.admin('GET', '/_admin/inventory/reservations?status=released')).body.data[0]).toMatchObject({invoice_id: invoice.id, ended_by: 'cancelled'})
  })

  it('more reserved than on hand shows as negative availability', async () => {
    await h.admin('PUT', '/_admin/inventory/Cake', {quantity: 1})
    await publishInvoice(h, body)
    await publishInvoice(h, body)
    expect((await items()).Cake).toMatchObject(stock(1, 2))
  })

  it('environments have separate catalogues; nothing of inventory is on the public API', async () => {
    await createInvoice(h, {items: [{name: 'Live only', price: 500, quantity: 1}]}, h.sb.keys.live)
    expect(Object.keys(await items())).not.toContain('Live only')
    expect((await h.admin('GET', '/_admin/inventory?environment=live')).body.data.map((i: any) => i.name)).toEqual(['Live only'])
    expect(Object.keys(h.spec.document.paths).some((path) => /inventor/i.test(path))).toBe(false)
    expect((await h.api('GET', '/v1/inventory', {unchecked: true})).status).toBe(404)
  })
})
