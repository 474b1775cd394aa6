import {randomUUID} from 'node:crypto'
import {describe, expect} from 'vitest'
import {invoiceDomainOf} from '../../src/sandbox/invoices/index.js'
import {withHarness, type Harness} from './helpers.js'
import {invoiceBody} from './invoices-helpers.js'

const HOUR = 60 * 60 * 1000

const it = withHarness()

describe('Idempotency-Key on POST /v1/invoices', () => {
  const create = (h: Harness, key: string | undefined, body: unknown = invoiceBody(), apiKey?: string) =>
    fetch(`${h.sb.url}/v1/invoices`, {
      method: 'POST',
      headers: {'x-api-key': apiKey ?? h.sb.keys.sandbox, 'content-type': 'application/json', ...(key === undefined ? {} : {'idempotency-key': key})},
      body: JSON.stringify(body),
    }).then(async (response) => {
      const body: any = await response.json()
      h.spec.check('POST', '/v1/invoices', response.status, body, response.headers)
      return {status: response.status, headers: response.headers, body}
    })
  const count = async (h: Harness, apiKey?: string) => (await h.api('GET', '/v1/invoices?page_size=1', {key: apiKey})).body.total as number

  it('a completed key replays the original status and body with Idempotent-Replayed: true, creating nothing', async ({h}) => {
    const key = randomUUID()
    const first = await create(h, key)
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const total = await count(h)
    // Even after the invoice has changed, the replay is the original response.
    await h.api('POST', `/v1/invoices/${first.body.id}/publish`)
    const again = await create(h, key)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(await count(h)).toBe(total)
  })

  it('the body is compared by meaning: key order and defaults do not make it different', async ({h}) => {
    const key = randomUUID()
    const first = await create(h, key, {customer_name: 'A', due_date: '2099-01-01', items: [{name: 'X', price: 500, quantity: 1}]})
    const again = await create(h, key, {items: [{quantity: 1, price: 500, name: 'X'}], due_date: '2099-01-01', customer_name: 'A', discount_percent: 0, currency: 'XAF'})
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body.id).toBe(first.body.id)
  })

  it('the same key with another body is 422 idempotency_key_reused', async ({h}) => {
    const key = randomUUID()
    await create(h, key)
    const total = await count(h)
    const other = await create(h, key, invoiceBody({customer_name: 'Someone else'}))
    expect(other.status).toBe(422)
    expect(other.body.code).toBe('idempotency_key_reused')
    expect(other.body.message).toContain(key)
    expect(await count(h)).toBe(total)
  })

  it('the same key while the first request is still in flight is 409 idempotency_in_progress', async ({h}) => {
    const domain = invoiceDomainOf(h.sb.context)
    let release!: () => void
    let entered!: () => void
    const inside = new Promise<void>((resolve) => (entered = resolve))
    domain.invoices.beforeCreate = () => {
      entered()
      return new Promise<void>((resolve) => (release = resolve))
    }
    try {
      const key = randomUUID()
      const first = create(h, key)
      await inside
      domain.invoices.beforeCreate = undefined
      const second = await create(h, key)
      expect(second.status).toBe(409)
      expect(second.body.code).toBe('idempotency_in_progress')
      // Another body under the same key is still a reuse, in flight or not.
      expect((await create(h, key, invoiceBody({customer_name: 'Other'}))).status).toBe(422)
      release()
      const done = await first
      expect(done.status).toBe(201)
      const third = await create(h, key)
      expect(third.headers.get('idempotent-replayed')).toBe('true')
      expect(third.body.id).toBe(done.body.id)
    } finally {
      domain.invoices.beforeCreate = undefined
    }
  })

  it('a request that fails while holding its key frees the key', async ({h}) => {
    const domain = invoiceDomainOf(h.sb.context)
    domain.invoices.beforeCreate = async () => {
      throw new Error('simulated crash')
    }
    const key = randomUUID()
    try {
      expect((await create(h, key)).status).toBe(500)
    } finally {
      domain.invoices.beforeCreate = undefined
    }
    const retry = await create(h, key)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBeNull()
  })

  it('a 400 is not remembered: the same key works once the body is fixed', async ({h}) => {
    const key = randomUUID()
    const bad = await create(h, key, invoiceBody({items: [{name: 'A', price: 10, quantity: 1}]}))
    expect(bad.status).toBe(400)
    const good = await create(h, key, invoiceBody())
    expect(good.status).toBe(201)
    expect(good.headers.get('idempotent-replayed')).toBeNull()
  })

  it('keys are forgotten after 24 hours of the sandbox clock', async ({h}) => {
    const key = randomUUID()
    const first = await create(h, key)
    await h.sb.clock.advance(23 * HOUR)
    expect((await create(h, key)).headers.get('idempotent-replayed')).toBe('true')
    await h.sb.clock.advance(HOUR)
    const later = await create(h, key)
    expect(later.status).toBe(201)
    expect(later.headers.get('idempotent-replayed')).toBeNull()
    expect(later.body.id).not.toBe(first.body.id)
    // Forgotten means forgotten: another body is now fine too.
    await h.sb.clock.advance(24 * HOUR)
    expect((await create(h, key, invoiceBody({customer_name: 'New'}))).status).toBe(201)
  })

  it('keys are scoped to the environment: the same key in live creates a live invoice', async ({h}) => {
    const key = randomUUID()
    const sandbox = await create(h, key)
    const live = await create(h, key, invoiceBody(), h.sb.keys.live)
    expect(live.status).toBe(201)
    expect(live.headers.get('idempotent-replayed')).toBeNull()
    expect(live.body.id).toMatch(/^inv_(?!test_)/)
    expect(sandbox.body.id).toMatch(/^inv_test_/)
  })

  it('a create without a key is accepted, and each one creates an invoice', async ({h}) => {
    const total = await count(h)
    expect((await create(h, undefined)).status).toBe(201)
    expect((await create(h, undefined)).status).toBe(201)
    expect(await count(h)).toBe(total + 2)
  })

  it.for([['', 'empty'], ['x'.repeat(256), 'too long']] as const)('a key that is %s is a 400', async ([key], {h}) => {
    const reply = await create(h, key)
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0].field).toBe('Idempotency-Key')
  })

  it('the OpenAPI document declares the header and the replay header', ({h}) => {
    const op = h.spec.document.paths['/v1/invoices'].post
    expect(op.parameters).toContainEqual(expect.objectContaining({name: 'Idempotency-Key', in: 'header'}))
    expect(op.responses['201'].headers['Idempotent-Replayed']).toBeDefined()
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']))
  })
})
