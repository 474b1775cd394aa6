// Examples that are live: every path parameter of /v1/openapi.json says its shape (pattern, minimum
// length) and has an example, and every object id the document shows exists in a fresh sandbox,
// as the sandbox's example objects (src/sandbox/examples.ts): no list, count or report of the
// merchant's has them, and a reset brings them back as they were.
import {describe, expect} from 'vitest'

import {withHarness} from './helpers.js'

type Json = Record<string, any>

const it = withHarness({rateLimit: 0}).extend<{doc: Json}>({
  doc: [async ({h}, use) => use((await h.api('GET', '/v1/openapi.json', {key: null})).body), {scope: 'file'}],
})

/** Every object id of the SANDBOX the document writes anywhere (examples, parameters, descriptions). */
const idsIn = (doc: Json) => [...new Set(JSON.stringify(doc).match(/\b(?:svcpay|inv|file)_test_[0-9A-Za-z]{24}\b/g) ?? [])].sort()

describe('live examples', () => {
  it('every path parameter has a pattern, a minimum length and an example its own schema takes', ({doc}) => {
    const params = Object.values<Json>(doc.paths).flatMap((item) => Object.values<Json>(item).flatMap((op) => (op.parameters ?? []).filter((p: Json) => p.in === 'path')))
    expect(params.length).toBeGreaterThanOrEqual(6)
    for (const p of params) {
      expect(p.schema.pattern, p.name).toBeTypeOf('string')
      expect(p.schema.minLength, p.name).toBeGreaterThan(0)
      expect(p.example, p.name).toMatch(new RegExp(p.schema.pattern, 'u'))
      expect(p.example.length).toBeGreaterThanOrEqual(p.schema.minLength)
    }
  })

  it('every id the document shows exists in a fresh sandbox, where no list has it', async ({h, doc}) => {
    const ids = idsIn(doc)
    expect(ids).toHaveLength(5)
    for (const id of ids) {
      if (id.startsWith('svcpay_')) expect((await h.api('GET', `/v1/payments/${id}/status`)).status, id).toBe(200)
      if (id.startsWith('inv_')) expect((await h.api('GET', `/v1/invoices/${id}`)).status, id).toBe(200)
    }
    // The file: the file_url the upload example shows is served, and takes as a cover.
    const fileUrl = doc.paths['/v1/files/upload-url'].post.responses['201'].content['application/json'].examples.signed.value.file_url as string
    const served = await fetch(fileUrl)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    const covered = await h.api('POST', '/v1/invoices', {body: {customer_name: 'Awa', due_date: '2099-12-31', items: [{name: 'Bread', price: 500, quantity: 1}], cover_image_url: fileUrl}})
    expect(covered.status).toBe(201)
    // The merchant's lists have only what was made here.
    expect((await h.api('GET', '/v1/invoices')).body).toMatchObject({total: 1})
    expect((await h.api('GET', '/v1/payments')).body).toMatchObject({data: [], total: 0})
    // Asked for by name, they are there.
    const asked = (await h.admin('GET', '/_admin/examples')).body.data.map((o: Json) => o.id).sort()
    expect(asked).toEqual(ids)
    // Nor does the LIVE environment have them.
    for (const id of ids.filter((i) => i.startsWith('inv_'))) expect((await h.api('GET', `/v1/invoices/${id.replace('_test_', '_')}`, {key: h.sb.keys.live})).status).toBe(404)
  })

  it("each operation's example works on its example object, again after a retry, and a reset brings them back", async ({h, doc}) => {
    const example = (path: string, method: string) => (doc.paths[path][method].parameters as Json[]).find((p) => p.in === 'path')!.example as string
    const draft = example('/v1/invoices/{invoiceId}/publish', 'post')
    const toCancel = example('/v1/invoices/{invoiceId}/cancel', 'post')
    const unpaid = example('/v1/invoices/{invoiceId}/send', 'post')
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await h.api('POST', `/v1/invoices/${draft}/publish`, {body: {channel: 'EMAIL'}})).body.status).toBe('UNPAID')
      expect((await h.api('POST', `/v1/invoices/${toCancel}/cancel`)).body.status).toBe('CANCELLED')
      expect((await h.api('POST', `/v1/invoices/${unpaid}/send`, {body: {channel: 'WHATSAPP', override_phone: '+237 6 99 00 00 01'}})).status).toBe(200)
      expect((await h.api('GET', `/v1/invoices/${unpaid}/pdf`)).status).toBe(200)
    }
    // Publishing reserved no stock of the merchant's; the lists stay empty.
    const listed = (await h.api('GET', '/v1/invoices?page_size=100')).body.data.map((i: Json) => i.id)
    expect(listed.filter((id: string) => idsIn(doc).includes(id))).toEqual([])
    expect((await h.admin('GET', '/_admin/inventory/reservations')).body.data).toEqual([])
    await h.admin('POST', '/_admin/reset', {})
    expect((await h.api('GET', `/v1/invoices/${draft}`)).body.status).toBe('DRAFT')
    expect((await h.api('GET', `/v1/invoices/${toCancel}`)).body.status).toBe('DRAFT')
  })
})
