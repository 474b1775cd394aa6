import {describe, expect} from 'vitest'
import {EVENT_TYPES} from '../../src/contract/events.js'
import {eventSchemaName} from '../../src/sandbox/openapi-webhooks.js'
import {CreatePaymentSchema, PaymentSchema} from '../../src/sandbox/payments.js'
import {validateOpenApiDocument} from '../helpers/openapi-response.js'
import {withHarness} from './helpers.js'

/** The file's harness, and the document it publishes (read once, without a key). */
const it = withHarness({rateLimit: 100}).extend<{doc: Record<string, any>}>({
  doc: [async ({h}, use) => use((await h.api('GET', '/v1/openapi.json', {key: null})).body), {scope: 'file'}],
})

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async ({doc}) => {
    const result = await validateOpenApiDocument(structuredClone(doc))
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(result.version).toBe('3.1')
  })

  it('describes every public endpoint with full /v1 paths, and nothing of the admin surface', ({h, doc}) => {
    const operations = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    expect(operations).toEqual(expect.arrayContaining(['GET /v1/openapi.json', 'GET /v1/payments', 'GET /v1/payments/{paymentId}/status', 'POST /v1/payments']))
    // Every public route the router knows is published, and nothing else (other domains register theirs too).
    const publicRoutes = h.sb.context.router
      .routes()
      .filter((r) => r.auth !== 'admin' && r.path.startsWith('/v1/'))
      .map((r) => `${r.method} ${r.path}`)
    expect(operations.sort()).toEqual(publicRoutes.sort())
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/v1/'))).toBe(true)
    expect(JSON.stringify(doc)).not.toContain('_admin')
    expect(doc.servers[0].url).toBe(h.sb.url)
  })

  it('declares the X-API-Key scheme, per-operation scopes, and no key for the document itself', ({doc}) => {
    expect(doc.components.securitySchemes.ApiKey).toEqual(expect.objectContaining({type: 'apiKey', in: 'header', name: 'X-API-Key'}))
    expect(doc.paths['/v1/payments'].post['x-required-scope']).toBe('payments:write')
    expect(doc.paths['/v1/payments'].get['x-required-scope']).toBe('payments:read')
    expect(doc.paths['/v1/payments'].post.security).toEqual([{ApiKey: []}])
    expect(doc.paths['/v1/openapi.json'].get.security).toEqual([])
  })

  it('publishes the same schema objects the server validates with (one source of truth)', ({doc}) => {
    const published = doc.components.schemas.CreatePaymentRequest
    const expected = CreatePaymentSchema
    const strip = (schema: Record<string, any>) =>
      JSON.parse(JSON.stringify(schema, (key, value) => (key === 'x-pattern-message' || key === 'x-name' ? undefined : value)))
    // The one difference: a property's default is said in its description (generators read `default` as "always present").
    const {default: _, ...method} = CreatePaymentSchema.properties.payment_method
    expect(published).toEqual(strip({...expected, properties: {...expected.properties, payment_method: {...method, description: 'Default when omitted: "mobile_money".'}}}))
    expect(doc.components.schemas.Payment.properties.status.enum).toEqual([...PaymentSchema.properties.status.enum])
    expect(doc.paths['/v1/payments'].post.requestBody.content['application/json'].schema).toEqual({$ref: '#/components/schemas/CreatePaymentRequest'})
  })

  it('documents the list envelope, the query limits, the error shape and the rate-limit headers', ({doc}) => {
    const list = doc.components.schemas.PaymentList
    expect(list.required).toEqual(['data', 'limit', 'offset', 'total', 'has_more'])
    const params = Object.fromEntries(doc.paths['/v1/payments'].get.parameters.map((p: any) => [p.name, p]))
    expect(params.limit.schema).toMatchObject({type: 'integer', minimum: 1, maximum: 100, default: 20})
    expect(params.offset.schema).toMatchObject({type: 'integer', minimum: 0, default: 0})
    expect(params.status.schema.enum).toEqual(['PENDING', 'SUCCESS', 'FAILED', 'UNSPECIFIED'])
    expect(doc.components.schemas.Error.required).toEqual(['message', 'code'])
    const create = doc.paths['/v1/payments'].post.responses
    expect(Object.keys(create).sort()).toEqual(['201', '400', '401', '403', '429', '500'])
    expect(create['429'].headers['Retry-After']).toBeDefined()
    expect(create['201'].headers['RateLimit-Remaining']).toEqual({$ref: '#/components/headers/RateLimit-Remaining'})
  })

  it('no request body property has a default (openapi-typescript would make it required): the default is in its description', ({doc}) => {
    const bodies = Object.values<Record<string, any>>(doc.paths)
      .flatMap((item) => Object.values<Record<string, any>>(item))
      .map((op) => op.requestBody?.content?.['application/json']?.schema?.$ref)
      .filter(Boolean)
      .map((ref: string) => doc.components.schemas[ref.split('/').pop()!])
    expect(bodies.length).toBeGreaterThanOrEqual(5)
    const defaults = JSON.stringify(bodies).match(/"default"/g) ?? []
    expect(defaults).toEqual([])
    expect(doc.components.schemas.CreateInvoiceRequest.properties.currency.description).toBe('Default when omitted: "XAF".')
    expect(doc.components.schemas.SendInvoiceRequest.properties.channel.description).toMatch(/Default when omitted: "EMAIL"\.$/)
    expect(doc.components.schemas.CreateInvoiceRequest.required).toEqual(['customer_name', 'due_date', 'items'])
  })

  it('describes its headers once, as components, referenced from the operations', ({doc}) => {
    const ref = (kind: string, name: string) => ({$ref: `#/components/${kind}/${name}`})
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<Record<string, any>>(item)) {
        for (const [status, response] of Object.entries<Record<string, any>>(op.responses)) {
          const where = `${method} ${path} ${status}`
          for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) expect(response.headers?.[name], where).toEqual(ref('headers', name))
          if (status === '429') expect(response.headers['Retry-After'], where).toEqual(ref('headers', 'Retry-After'))
        }
      }
    }
    const create = doc.paths['/v1/invoices'].post
    expect(create.parameters).toContainEqual(ref('parameters', 'Idempotency-Key'))
    expect(doc.components.parameters['Idempotency-Key']).toMatchObject({name: 'Idempotency-Key', in: 'header', required: false})
    expect(create.responses['201'].headers['Idempotent-Replayed']).toEqual(ref('headers', 'Idempotent-Replayed'))
    expect(doc.components.headers['Idempotent-Replayed'].schema).toEqual({type: 'string', enum: ['true']})
  })

  it('describes every event type of the contract under webhooks, with its payload and the Standard Webhooks headers', ({doc}) => {
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_TYPES])
    for (const type of EVENT_TYPES) {
      const post = doc.webhooks[type].post
      expect(post.requestBody.content['application/json'].schema).toEqual({$ref: `#/components/schemas/${eventSchemaName(type)}`})
      expect(post.parameters.map((p: {$ref: string}) => p.$ref)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((n) => `#/components/parameters/${n}`))
      const schema = doc.components.schemas[eventSchemaName(type)]
      expect(schema.required).toEqual(['id', 'type', 'created_at', 'environment', 'data'])
      expect(schema.properties.type.enum).toEqual([type])
    }
  })

  it('the webhooks section is checked by the OpenAPI 3.1 validator (a broken one is refused)', async ({doc}) => {
    const broken = structuredClone(doc)
    broken.webhooks['payment.success'].post.requestBody = {content: 'nothing'}
    const result = await validateOpenApiDocument(broken)
    expect(result.valid).toBe(false)
    expect(JSON.stringify(result.errors)).toContain('/webhooks/payment.success')
  })

  it("publish's channel says what omitting it does, and it does that: published, nothing delivered", async ({h, doc}) => {
    const channel = doc.components.schemas.PublishInvoiceRequest.properties.channel
    expect(channel.description).not.toMatch(/default/i)
    expect(channel.description).toMatch(/Omitted: the invoice is published and nothing is sent/)
    // What a generated client's comment now says, the sandbox does.
    const created = await h.api('POST', '/v1/invoices', {body: {customer_name: 'Awa', customer_email: 'awa@example.com', due_date: '2099-12-31', items: [{name: 'Bread', price: 500, quantity: 1}]}})
    const before = (await h.admin('GET', '/_admin/outbox')).body
    const published = await h.api('POST', `/v1/invoices/${created.body.id}/publish`, {body: {}})
    expect(published.body.status).toBe('UNPAID')
    expect((await h.admin('GET', '/_admin/outbox')).body).toEqual(before)
  })

  it('every response the tests saw matched the document', ({h}) => {
    expect(h.spec.checked).toBeGreaterThan(0)
  })

  it('the response checker itself rejects a body that breaks the document', ({h}) => {
    expect(() => h.spec.check('GET', '/v1/payments/svcpay_test_x/status', 200, {id: 'svcpay_test_x', status: 'DONE'})).toThrow(/does not match/)
    expect(() => h.spec.check('GET', '/v1/payments', 418, {})).toThrow(/not documented/)
    expect(() => h.spec.check('GET', '/v1/nothing', 200, {})).toThrow(/not in the OpenAPI document/)
  })
})
