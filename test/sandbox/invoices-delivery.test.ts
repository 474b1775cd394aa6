import {describe, expect} from 'vitest'
import {withHarness, type Harness} from './helpers.js'
import {createInvoice, getInvoice, publishInvoice} from './invoices-helpers.js'

const it = withHarness()

describe('delivery: publish with a channel, send, and the outbox', () => {
  const outbox = async (h: Harness, invoiceId: string) => (await h.admin('GET', `/_admin/outbox?invoice_id=${invoiceId}`)).body

  it('publish without a channel publishes quietly', async ({h}) => {
    const published = await publishInvoice(h)
    expect((await outbox(h, published.id)).total).toBe(0)
  })

  it.for([
    [{channel: 'EMAIL'}, 'EMAIL', 'awa@example.cm', false],
    [{channel: 'WHATSAPP'}, 'WHATSAPP', '+237670000001', false],
    [{channel: 'EMAIL', override_email: 'boss@example.cm'}, 'EMAIL', 'boss@example.cm', true],
    [{channel: 'WHATSAPP', override_phone: '690000001'}, 'WHATSAPP', '+237690000001', true],
  ] as const)('publish %j delivers in the same call to %s %s', async ([body, channel, recipient, overridden], {h}) => {
    const draft = await createInvoice(h)
    const reply = await h.api('POST', `/v1/invoices/${draft.id}/publish`, {body})
    expect(reply.status).toBe(200)
    expect(reply.body.status).toBe('UNPAID')
    const messages = await outbox(h, draft.id)
    expect(messages.total).toBe(1)
    expect(messages.data[0]).toMatchObject({channel, recipient, overridden, trigger: 'publish', pay_url: draft.checkout_url, invoice_id: draft.id})
    expect(messages.data[0].text).toContain(draft.checkout_url)
    expect(messages.data[0].text).toContain(messages.data[0].pdf_url)
    // Overrides never change the invoice's stored contact.
    const read = (await getInvoice(h, draft.id)).body
    expect(read.customer_email).toBe('awa@example.cm')
    expect(read.customer_phone).toBe('+237670000001')
  })

  it('send is repeatable, leaves the status alone and answers {invoice_id, channel, recipient, sent_at}', async ({h}) => {
    const published = await publishInvoice(h)
    const first = await h.api('POST', `/v1/invoices/${published.id}/send`)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({invoice_id: published.id, channel: 'EMAIL', recipient: 'awa@example.cm', sent_at: expect.any(String)})
    const second = await h.api('POST', `/v1/invoices/${published.id}/send`, {body: {channel: 'WHATSAPP', override_phone: '+33 6 12 34 56 78'}})
    expect(second.body).toMatchObject({channel: 'WHATSAPP', recipient: '+33612345678'})
    const read = (await getInvoice(h, published.id)).body
    expect(read.status).toBe('UNPAID')
    expect(read.updated_at).toBe(published.updated_at)
    expect(read.customer_phone).toBe('+237670000001')
    const messages = await outbox(h, published.id)
    expect(messages.data.map((m: any) => [m.trigger, m.channel, m.recipient, m.invoice_contact])).toEqual([
      ['send', 'WHATSAPP', '+33612345678', '+237670000001'],
      ['send', 'EMAIL', 'awa@example.cm', 'awa@example.cm'],
    ])
  })

  it('the PDF link of a delivery opens without the API key and is a PDF', async ({h}) => {
    const published = await publishInvoice(h)
    await h.api('POST', `/v1/invoices/${published.id}/send`)
    const [message] = (await outbox(h, published.id)).data
    const response = await fetch(message.pdf_url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(Buffer.from(await response.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-')
  })

  it.for([
    ['EMAIL with no address', {customer_email: undefined}, {channel: 'EMAIL'}, 'override_email'],
    ['EMAIL by default with no address', {customer_email: undefined}, {}, 'override_email'],
    ['WHATSAPP with no phone', {customer_phone: undefined}, {channel: 'WHATSAPP'}, 'override_phone'],
    ['override_phone with EMAIL', {}, {channel: 'EMAIL', override_phone: '670000001'}, 'override_phone'],
    ['override_email with WHATSAPP', {}, {channel: 'WHATSAPP', override_email: 'a@b.cm'}, 'override_email'],
    ['a bad override_email', {}, {channel: 'EMAIL', override_email: 'nope'}, 'override_email'],
    ['an unknown channel', {}, {channel: 'SMS'}, 'channel'],
  ] as const)('send: %s is a 400 and delivers nothing', async ([, contact, body, field], {h}) => {
    const published = await publishInvoice(h, contact)
    const reply = await h.api('POST', `/v1/invoices/${published.id}/send`, {body})
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe('validation_error')
    expect(reply.body.errors.map((e: any) => e.field)).toContain(field)
    expect((await outbox(h, published.id)).total).toBe(0)
  })

  it.for([
    ['EMAIL with no address', {customer_email: undefined}, {channel: 'EMAIL'}],
    ['WHATSAPP with no phone', {customer_phone: undefined}, {channel: 'WHATSAPP'}],
    ['an override without a channel', {}, {override_email: 'a@b.cm'}],
  ] as const)('publish: %s is a 400 and the invoice stays a DRAFT', async ([, contact, body], {h}) => {
    const draft = await createInvoice(h, contact)
    const reply = await h.api('POST', `/v1/invoices/${draft.id}/publish`, {body})
    expect(reply.status).toBe(400)
    expect((await getInvoice(h, draft.id)).body.status).toBe('DRAFT')
    expect((await outbox(h, draft.id)).total).toBe(0)
  })

  it('the outbox filters by channel and pages newest first', async ({h}) => {
    const published = await publishInvoice(h)
    await h.api('POST', `/v1/invoices/${published.id}/send`, {body: {channel: 'EMAIL'}})
    await h.api('POST', `/v1/invoices/${published.id}/send`, {body: {channel: 'WHATSAPP'}})
    const whatsapp = await h.admin('GET', `/_admin/outbox?invoice_id=${published.id}&channel=WHATSAPP`)
    expect(whatsapp.body.data.map((m: any) => m.channel)).toEqual(['WHATSAPP'])
    const page = await h.admin('GET', '/_admin/outbox?limit=1')
    expect(page.body).toMatchObject({limit: 1, offset: 0, has_more: true})
    expect(page.body.data[0].channel).toBe('WHATSAPP')
    expect((await h.admin('GET', '/_admin/outbox', undefined, 'wrong')).status).toBe(401)
  })
})
