import {describe, expect} from 'vitest'
import {withHarness, type Harness} from './helpers.js'
import {createInvoice, getInvoice, invoiceBody, invoiceIn, mintKey, pay, publishInvoice} from './invoices-helpers.js'

const DAY = 24 * 60 * 60 * 1000

const it = withHarness({settleAfterMs: 200, seed: 7})
// The list tests: a sandbox of their own, holding exactly these seven invoices.
const itList = withHarness({settleAfterMs: 200}).extend<{fresh: Harness}>({
  fresh: [
    async ({h: fresh}, use) => {
      for (let i = 0; i < 5; i++) await createInvoice(fresh, {external_reference: `n${i}`})
      await publishInvoice(fresh, {external_reference: 'p0'})
      await publishInvoice(fresh, {external_reference: 'p1'})
      await use(fresh)
    },
    {scope: 'file'},
  ],
})

describe('invoices', () => {
  describe('create', () => {
    it('answers 201 with a DRAFT carrying the contract fields and a sandbox checkout_url', async ({h}) => {
      const reply = await h.api('POST', '/v1/invoices', {
        body: invoiceBody({discount_percent: 10, notes: 'Thanks', external_reference: 'ORD-1', customer_phone: '+237 6 70 00 00 01'}),
      })
      expect(reply.status).toBe(201)
      const invoice = reply.body
      expect(invoice.id).toMatch(/^inv_test_/)
      expect(invoice).toMatchObject({
        status: 'DRAFT',
        customer_name: 'Awa Bakery',
        customer_email: 'awa@example.cm',
        customer_phone: '+237670000001',
        due_date: '2099-12-31',
        subtotal_amount: 4000,
        discount_percent: 10,
        discount_amount: 400,
        total_amount: 3600,
        amount_paid: 0,
        amount_due: 3600,
        currency: 'XAF',
        notes: 'Thanks',
        external_reference: 'ORD-1',
        cover_image_url: null,
        environment: 'SANDBOX',
      })
      expect(invoice.checkout_url).toBe(`${h.sb.payUrl}/i/${invoice.id}?type=sandbox`)
      expect(invoice.published_at).toBeUndefined()
      expect(invoice.pdf_url).toBeUndefined()
      expect((await getInvoice(h, invoice.id)).body).toEqual(invoice)
    })

    it('creates live invoices with a live key: inv_ ids and a checkout_url without type=sandbox', async ({h}) => {
      const invoice = await createInvoice(h, {}, h.sb.keys.live)
      expect(invoice.id).toMatch(/^inv_(?!test_)/)
      expect(invoice.environment).toBe('LIVE')
      expect(invoice.checkout_url).toBe(`${h.sb.payUrl}/i/${invoice.id}`)
      // The environments are separate databases, and an id of the other one is an invalid key for it.
      expect((await getInvoice(h, invoice.id)).status).toBe(401)
      expect((await h.api('GET', '/v1/invoices', {key: h.sb.keys.live})).body.data.map((i: any) => i.id)).toContain(invoice.id)
      expect((await h.api('GET', '/v1/invoices?page_size=100')).body.data.map((i: any) => i.id)).not.toContain(invoice.id)
    })

    it.for([
      ['one item', [{name: 'A', price: 100, quantity: 1}], 0, {subtotal_amount: 100, discount_amount: 0, total_amount: 100}],
      ['price × quantity summed', [{name: 'A', price: 500, quantity: 3}, {name: 'B', price: 250, quantity: 2}], 0, {subtotal_amount: 2000, discount_amount: 0, total_amount: 2000}],
      ['10 means 10 percent, not 10 XAF', [{name: 'A', price: 1000, quantity: 1}], 10, {subtotal_amount: 1000, discount_amount: 100, total_amount: 900}],
      ['halves rounded away from zero', [{name: 'A', price: 301, quantity: 1}], 50, {subtotal_amount: 301, discount_amount: 151, total_amount: 150}],
      ['decimal percentages are exact', [{name: 'A', price: 1000, quantity: 1}], 12.5, {subtotal_amount: 1000, discount_amount: 125, total_amount: 875}],
      ['a free item next to a paid one', [{name: 'Gift', price: 0, quantity: 5}, {name: 'A', price: 150, quantity: 1}], 0, {subtotal_amount: 150, discount_amount: 0, total_amount: 150}],
      ['exactly 100 after discount', [{name: 'A', price: 200, quantity: 1}], 50, {subtotal_amount: 200, discount_amount: 100, total_amount: 100}],
    ] as const)('totals: %s', async ([_label, items, discount_percent, totals], {h}) => {
      const invoice = await createInvoice(h, {items, discount_percent})
      expect(invoice).toMatchObject({...totals, amount_due: totals.total_amount, amount_paid: 0})
    })

    it.for([
      ['total_amount supplied', {total_amount: 5000}, 'total_amount'],
      ['subtotal supplied', {subtotal: 5000}, 'subtotal'],
      ['subtotal_amount supplied', {subtotal_amount: 5000}, 'subtotal_amount'],
      ['amount_due supplied', {amount_due: 5000}, 'amount_due'],
      ['a business id', {business_id: 'biz_1'}, 'business_id'],
      ['a status', {status: 'UNPAID'}, 'status'],
      ['total under 100 XAF', {items: [{name: 'A', price: 99, quantity: 1}]}, 'total_amount'],
      ['under 100 XAF after discount', {items: [{name: 'A', price: 150, quantity: 1}], discount_percent: 50}, 'total_amount'],
      ['100 percent off', {discount_percent: 100}, 'total_amount'],
      ['no items', {items: []}, 'items'],
      ['items missing', {items: undefined}, 'items'],
      ['negative price', {items: [{name: 'A', price: -1, quantity: 1}]}, 'items[0].price'],
      ['fractional price', {items: [{name: 'A', price: 100.5, quantity: 1}]}, 'items[0].price'],
      ['quantity 0', {items: [{name: 'A', price: 100, quantity: 0}]}, 'items[0].quantity'],
      ['fractional quantity', {items: [{name: 'A', price: 100, quantity: 1.5}]}, 'items[0].quantity'],
      ['item without name', {items: [{price: 100, quantity: 1}]}, 'items[0].name'],
      ['blank item name', {items: [{name: '   ', price: 100, quantity: 1}]}, 'items[0].name'],
      ['discount above 100', {discount_percent: 101}, 'discount_percent'],
      ['negative discount', {discount_percent: -1}, 'discount_percent'],
      ['a currency other than XAF', {currency: 'EUR'}, 'currency'],
      ['customer_name missing', {customer_name: undefined}, 'customer_name'],
      ['due_date missing', {due_date: undefined}, 'due_date'],
      ['due_date not ISO 8601', {due_date: '31/12/2099'}, 'due_date'],
      ['due_date not a real date', {due_date: '2099-02-30'}, 'due_date'],
      ['a bad email', {customer_email: 'awa-at-example'}, 'customer_email'],
      ['a bad phone', {customer_phone: '12'}, 'customer_phone'],
      ['cover on another host', {cover_image_url: 'https://example.com/cover.png'}, 'cover_image_url'],
    ] as const)('400 validation_error naming the field: %s', async ([_label, overrides, field], {h}) => {
      const before = (await h.api('GET', '/v1/invoices?page_size=1')).body.total
      const reply = await h.api('POST', '/v1/invoices', {body: invoiceBody(overrides)})
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe('validation_error')
      expect(reply.body.errors.map((e: any) => e.field)).toContain(field)
      expect(reply.body.message).toContain(field)
      expect((await h.api('GET', '/v1/invoices?page_size=1')).body.total).toBe(before)
    })

    it('says why a computed field is refused', async ({h}) => {
      const reply = await h.api('POST', '/v1/invoices', {body: invoiceBody({total_amount: 1})})
      expect(reply.body.errors).toEqual([{field: 'total_amount', message: expect.stringMatching(/computed by the service/)}])
    })
  })

  describe('list', () => {

    itList('is newest first in the {data, page, page_size, total, total_pages} envelope, page_size 20 by default', async ({fresh}) => {
      const reply = await fresh.api('GET', '/v1/invoices')
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({page: 1, page_size: 20, total: 7, total_pages: 1})
      expect(reply.body.data.map((i: any) => i.external_reference)).toEqual(['p1', 'p0', 'n4', 'n3', 'n2', 'n1', 'n0'])
      expect(reply.body.data[0].pdf_url).toBeUndefined()
    })

    itList.for([
      ['?page=1&page_size=3', ['p1', 'p0', 'n4'], 7, 3],
      ['?page=3&page_size=3', ['n0'], 7, 3],
      ['?page=4&page_size=3', [], 7, 3],
      ['?status=UNPAID', ['p1', 'p0'], 2, 1],
      ['?status=DRAFT&page_size=2&page=2', ['n2', 'n1'], 5, 3],
      ['?status=PAID', [], 0, 0],
    ] as const)('%s', async ([query, refs, total, pages], {fresh}) => {
      const reply = await fresh.api('GET', `/v1/invoices${query}`)
      expect(reply.status).toBe(200)
      expect(reply.body.data.map((i: any) => i.external_reference)).toEqual(refs)
      expect(reply.body.total).toBe(total)
      expect(reply.body.total_pages).toBe(pages)
    })

    itList.for(['?page_size=0', '?page_size=101', '?page=0', '?page=x', '?status=OPEN'])('%s is a 400', async (query, {fresh}) => {
      const reply = await fresh.api('GET', `/v1/invoices${query}`)
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe('validation_error')
    })

    itList('page_size 100 is allowed', async ({fresh}) => {
      expect((await fresh.api('GET', '/v1/invoices?page_size=100')).body.page_size).toBe(100)
    })
  })

  describe('reading by id', () => {
    it.for([
      ['an unknown sandbox id', 'inv_test_doesnotexist', 404, 'not_found'],
      ['a live id with a sandbox key', 'inv_0VbzsukXDVabcdefghijklmn', 401, 'unauthorized'],
      // Shaped as no id the service makes: a typo, not the other environment's.
      ['a mistyped id with the live prefix', 'inv_doesnotexist', 404, 'not_found'],
      ['no invoice id at all', 'svcpay_test_abc', 404, 'not_found'],
    ] as const)('%s → %d', async ([_label, id, status, code], {h}) => {
      const reply = await getInvoice(h, id)
      expect(reply.status).toBe(status)
      expect(reply.body.code).toBe(code)
    })
  })

  describe('state rules (docs/service.md, invoice "Statuses")', () => {
    type Status = 'DRAFT' | 'UNPAID' | 'PAST_DUE' | 'PAID' | 'CANCELLED'
    const rules: Array<[string, Status, number, Status | null, string?]> = [
      ['publish', 'DRAFT', 200, 'UNPAID'],
      ['publish', 'UNPAID', 200, 'UNPAID'],
      ['publish', 'PAST_DUE', 200, 'PAST_DUE'],
      ['publish', 'PAID', 409, 'PAID', 'invalid_state'],
      ['publish', 'CANCELLED', 409, 'CANCELLED', 'invalid_state'],
      ['send', 'DRAFT', 409, 'DRAFT', 'invalid_state'],
      ['send', 'UNPAID', 200, 'UNPAID'],
      ['send', 'PAST_DUE', 200, 'PAST_DUE'],
      ['send', 'PAID', 409, 'PAID', 'invalid_state'],
      ['send', 'CANCELLED', 409, 'CANCELLED', 'invalid_state'],
      ['cancel', 'DRAFT', 200, 'CANCELLED'],
      ['cancel', 'UNPAID', 200, 'CANCELLED'],
      ['cancel', 'PAST_DUE', 200, 'CANCELLED'],
      ['cancel', 'PAID', 409, 'PAID', 'invalid_state'],
      ['cancel', 'CANCELLED', 200, 'CANCELLED'],
      ['pdf', 'DRAFT', 409, 'DRAFT', 'invalid_state'],
      ['pdf', 'UNPAID', 200, 'UNPAID'],
      ['pdf', 'PAST_DUE', 200, 'PAST_DUE'],
      ['pdf', 'PAID', 200, 'PAID'],
      ['pdf', 'CANCELLED', 200, 'CANCELLED'],
    ]
    it.for(rules)('%s of %s → %d, then %s', async ([action, from, status, after, code], {h}) => {
      const invoice = await invoiceIn(h, from)
      const reply =
        action === 'pdf' ? await h.api('GET', `/v1/invoices/${invoice.id}/pdf`) : await h.api('POST', `/v1/invoices/${invoice.id}/${action}`)
      expect(reply.status).toBe(status)
      if (code) expect(reply.body.code).toBe(code)
      const now = (await getInvoice(h, invoice.id)).body
      expect(now.status).toBe(after)
      // Refusals and repeats change nothing.
      if (status !== 200 || from === after) expect(now.updated_at).toBe(invoice.updated_at)
    })

    it('publish makes a draft payable and answers the invoice plus published and pdf_url', async ({h}) => {
      const created = await createInvoice(h, {discount_percent: 5})
      const reply = await h.api('POST', `/v1/invoices/${created.id}/publish`)
      expect(reply.body).toMatchObject({id: created.id, status: 'UNPAID', published: true, total_amount: created.total_amount, amount_due: created.amount_due})
      expect(reply.body.published_at).toBe(reply.body.updated_at)
      expect(reply.body.pdf_url).toMatch(new RegExp(`^${h.sb.url}/storage/invoices/${created.id}/invoice\\.pdf\\?expires=\\d+&signature=`))
      // pdf_url is never part of a read.
      expect((await getInvoice(h, created.id)).body.pdf_url).toBeUndefined()
    })

    it('publishing again delivers nothing, even with a channel', async ({h}) => {
      const published = await publishInvoice(h)
      const before = (await h.admin('GET', `/_admin/outbox?invoice_id=${published.id}`)).body.total
      const again = await h.api('POST', `/v1/invoices/${published.id}/publish`, {body: {channel: 'EMAIL'}})
      expect(again.status).toBe(200)
      expect(again.body.published_at).toBe(published.published_at)
      expect((await h.admin('GET', `/_admin/outbox?invoice_id=${published.id}`)).body.total).toBe(before)
    })

    it('cancel keeps the history and the invoice can no longer be paid', async ({h}) => {
      const published = await publishInvoice(h)
      const cancelled = await h.api('POST', `/v1/invoices/${published.id}/cancel`)
      expect(cancelled.body).toMatchObject({status: 'CANCELLED', published_at: published.published_at, total_amount: published.total_amount})
      expect(cancelled.body.cancelled_at).toBe(cancelled.body.updated_at)
      const again = await h.api('POST', `/v1/invoices/${published.id}/cancel`)
      expect(again.body).toEqual(cancelled.body)
    })

    it('an UNPAID invoice becomes PAST_DUE once its due day has passed on the sandbox clock', async ({h}) => {
      const today = new Date(h.sb.clock.now()).toISOString().slice(0, 10)
      const published = await publishInvoice(h, {due_date: today})
      expect(published.status).toBe('UNPAID')
      await h.sb.clock.advance(DAY)
      const read = await getInvoice(h, published.id)
      expect(read.body.status).toBe('PAST_DUE')
      expect((await h.api('GET', '/v1/invoices?status=PAST_DUE&page_size=100')).body.data.map((i: any) => i.id)).toContain(published.id)
    })

    it('a due date-time passes at that instant', async ({h}) => {
      const due = new Date(h.sb.clock.now() + 60 * 60 * 1000).toISOString()
      const published = await publishInvoice(h, {due_date: due})
      await h.sb.clock.advance(30 * 60 * 1000)
      expect((await getInvoice(h, published.id)).body.status).toBe('UNPAID')
      await h.sb.clock.advance(31 * 60 * 1000)
      expect((await getInvoice(h, published.id)).body.status).toBe('PAST_DUE')
    })

    it('a DRAFT never goes PAST_DUE (it is not a receivable)', async ({h}) => {
      const draft = await createInvoice(h, {due_date: '2020-01-01'})
      expect((await getInvoice(h, draft.id)).body.status).toBe('DRAFT')
    })

    it('partly paid: stays UNPAID, then PAST_DUE, with amount_paid and amount_due; PAID with paid_at when nothing is due', async ({h}) => {
      const today = new Date(h.sb.clock.now()).toISOString().slice(0, 10)
      const published = await publishInvoice(h, {due_date: today})
      expect(published.total_amount).toBe(4000)
      await pay(h, published, 1500)
      let read = (await getInvoice(h, published.id)).body
      expect(read).toMatchObject({status: 'UNPAID', amount_paid: 1500, amount_due: 2500})
      expect(read.paid_at).toBeUndefined()
      await h.sb.clock.advance(DAY)
      read = (await getInvoice(h, published.id)).body
      expect(read).toMatchObject({status: 'PAST_DUE', amount_paid: 1500, amount_due: 2500})
      await pay(h, read, 2500)
      read = (await getInvoice(h, published.id)).body
      expect(read).toMatchObject({status: 'PAID', amount_paid: 4000, amount_due: 0})
      expect(read.paid_at).toBe(read.updated_at)
    })

    it('a partly paid invoice may be cancelled', async ({h}) => {
      const published = await publishInvoice(h)
      await pay(h, published, 1000)
      const reply = await h.api('POST', `/v1/invoices/${published.id}/cancel`)
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({status: 'CANCELLED', amount_paid: 1000, amount_due: 3000})
    })

    it('a failed payment changes nothing', async ({h}) => {
      const published = await publishInvoice(h)
      await pay(h, published, published.amount_due, '670000099')
      expect((await getInvoice(h, published.id)).body).toMatchObject({status: 'UNPAID', amount_paid: 0, amount_due: published.amount_due})
    })
  })

  it('the OpenAPI document covers every invoice and file endpoint with its scope, and nothing of /pay, /storage or /_admin', ({h}) => {
    const paths = h.spec.document.paths
    const expected: Array<[string, string, string, string]> = [
      ['/v1/invoices', 'post', 'createInvoice', 'invoices:write'],
      ['/v1/invoices', 'get', 'listInvoices', 'invoices:read'],
      ['/v1/invoices/{invoiceId}', 'get', 'getInvoice', 'invoices:read'],
      ['/v1/invoices/{invoiceId}/publish', 'post', 'publishInvoice', 'invoices:write'],
      ['/v1/invoices/{invoiceId}/send', 'post', 'sendInvoice', 'invoices:send'],
      ['/v1/invoices/{invoiceId}/cancel', 'post', 'cancelInvoice', 'invoices:write'],
      ['/v1/invoices/{invoiceId}/pdf', 'get', 'getInvoicePdf', 'invoices:read'],
      ['/v1/files/upload-url', 'post', 'createUploadUrl', 'files:write'],
    ]
    for (const [path, method, operationId, scope] of expected) {
      expect(paths[path]?.[method], `${method} ${path}`).toMatchObject({operationId, 'x-required-scope': scope})
    }
    expect(Object.keys(paths).filter((path) => !path.startsWith('/v1/'))).toEqual([])
    const create = paths['/v1/invoices'].post.requestBody.content['application/json'].schema
    expect(create.required).toEqual(['customer_name', 'due_date', 'items'])
    expect(create.properties.total_amount).toBeUndefined()
    expect(JSON.stringify(h.spec.document)).not.toContain('x-refused')
    expect(h.spec.checked).toBeGreaterThan(0)
  })

  describe('scopes', () => {
    it.for([
      ['POST', '/v1/invoices', ['invoices:read'], 'invoices:write'],
      ['GET', '/v1/invoices', ['invoices:write'], 'invoices:read'],
      ['POST', '/v1/invoices/{id}/publish', ['invoices:read'], 'invoices:write'],
      ['POST', '/v1/invoices/{id}/cancel', ['invoices:read'], 'invoices:write'],
      ['GET', '/v1/invoices/{id}', ['payments:read'], 'invoices:read'],
      ['GET', '/v1/invoices/{id}/pdf', ['invoices:write'], 'invoices:read'],
      ['POST', '/v1/invoices/{id}/send', ['invoices:write', 'invoices:read'], 'invoices:send'],
    ] as const)('%s %s needs %s', async ([method, template, scopes, needed], {h}) => {
      const invoice = await publishInvoice(h)
      const key = await mintKey(h, [...scopes])
      const reply = await h.api(method, template.replace('{id}', invoice.id), {key, body: method === 'POST' && template === '/v1/invoices' ? invoiceBody() : undefined})
      expect(reply.status).toBe(403)
      expect(reply.body.code).toBe('insufficient_scope')
      expect(reply.body.message).toContain(needed)
    })

    it('invoices:write does not imply invoices:send: publish with a channel delivers, so it needs invoices:send', async ({h}) => {
      const key = await mintKey(h, ['invoices:write', 'invoices:read'])
      const draft = await createInvoice(h, {}, key)
      const withChannel = await h.api('POST', `/v1/invoices/${draft.id}/publish`, {key, body: {channel: 'EMAIL'}})
      expect(withChannel.status).toBe(403)
      expect(withChannel.body.code).toBe('insufficient_scope')
      expect((await getInvoice(h, draft.id)).body.status).toBe('DRAFT')
      const quiet = await h.api('POST', `/v1/invoices/${draft.id}/publish`, {key})
      expect(quiet.status).toBe(200)
    })
  })
})
