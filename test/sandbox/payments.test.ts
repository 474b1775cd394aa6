import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {TEST_NUMBERS} from '../../src/contract/test-numbers.js'
import {FAILURE_CODES} from '../../src/sandbox/payments.js'
import {harness, type Harness} from './helpers.js'

describe('payments', () => {
  let h: Harness
  beforeAll(async () => {
    h = await harness({settleAfterMs: 2000, seed: 42})
  })
  afterAll(() => h.close())

  describe('test numbers settle to their fixed outcome once the sandbox clock passes settleAfterMs', () => {
    it.each(TEST_NUMBERS.map((row) => [row.phone, row.operator, row.outcome] as const))('%s with %s → %s', async (phone, operator, outcome) => {
      const created = await h.createPayment({amount: 1500, phone_number: phone, operator})
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({status: 'PENDING', amount: 1500, currency: 'XAF', payment_method: 'mobile_money', environment: 'SANDBOX', phone_number: phone})
      expect(created.body.id).toMatch(/^svcpay_test_/)
      expect(typeof created.body.internal_transaction_id).toBe('string')
      expect(created.body.failure_code).toBeUndefined()
      // Before settleAfterMs: still pending.
      await h.sb.clock.advance(1000)
      expect((await h.api('GET', `/v1/payments/${created.body.id}/status`)).body.status).toBe('PENDING')
      await h.sb.clock.advance(1000)
      const status = await h.api('GET', `/v1/payments/${created.body.id}/status`)
      expect(status.status).toBe(200)
      expect(status.body.status).toBe(outcome)
      if (outcome === 'FAILED') expect(status.body.failure_code).toBe('CUSTOMER_DECLINED')
      else expect(status.body.failure_code).toBeUndefined()
    })
  })

  it('never exposes the provider or the operator, only the Payment fields', async () => {
    const created = await h.createPayment({amount: 10, phone_number: '237670000001', operator: 'MTN'})
    expect(Object.keys(created.body).sort()).toEqual(
      ['amount', 'created_at', 'currency', 'environment', 'id', 'internal_transaction_id', 'payment_method', 'phone_number', 'status'].sort(),
    )
  })

  describe('amount validation', () => {
    it.each([
      ['zero', 0],
      ['negative', -5],
      ['fractional', 1.5],
      ['a string', '100'],
      ['null', null],
      ['missing', undefined],
      ['a boolean', true],
    ])('amount %s is a 400 naming amount', async (_label, amount) => {
      const body: Record<string, unknown> = {phone_number: '237670000001', operator: 'MTN'}
      if (amount !== undefined) body.amount = amount
      const reply = await h.createPayment(body)
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe('validation_error')
      expect(reply.body.errors).toEqual([{field: 'amount', message: expect.stringContaining('amount')}])
      expect(reply.body.message).toContain('amount')
    })

    it.each([1, 100, 5_000_000])('amount %d is accepted and never rescaled', async (amount) => {
      const reply = await h.createPayment({amount, phone_number: '237670000001', operator: 'MTN'})
      expect(reply.status).toBe(201)
      expect(reply.body.amount).toBe(amount)
    })
  })

  describe('phone numbers', () => {
    it.each([
      ['670000001', '237670000001'],
      ['237670000001', '237670000001'],
      ['+237670000001', '237670000001'],
      ['+237 6 70 00 00 01', '237670000001'],
      ['6 70 00 00 01', '237670000001'],
      ['237 650 000 001', '237650000001'],
      // Portable numbers: a Nexttel-range prefix with MTN is the customer's choice, not refused.
      ['661234567', '237661234567'],
      ['242123456', '237242123456'],
    ])('%s is accepted and returned as %s', async (input, normalised) => {
      const reply = await h.createPayment({amount: 100, phone_number: input, operator: 'MTN'})
      expect(reply.status).toBe(201)
      expect(reply.body.phone_number).toBe(normalised)
    })

    it.each(['12345', '33670000001', '+33 6 12 34 56 78', '770000001', '2376700000011', '67000000a', '', '+ 237'])('%j is a 400 naming phone_number', async (input) => {
      const reply = await h.createPayment({amount: 100, phone_number: input, operator: 'MTN'})
      expect(reply.status).toBe(400)
      expect(reply.body.errors.map((e: {field: string}) => e.field)).toEqual(['phone_number'])
    })
  })

  describe('other request rules', () => {
    it.each([
      ['operator not in the enum', {amount: 100, phone_number: '670000001', operator: 'NEXTTEL'}, ['operator']],
      ['operator lower case', {amount: 100, phone_number: '670000001', operator: 'mtn'}, ['operator']],
      ['operator missing', {amount: 100, phone_number: '670000001'}, ['operator']],
      ['phone missing', {amount: 100, operator: 'MTN'}, ['phone_number']],
      ['payment_method other than mobile_money', {amount: 100, phone_number: '670000001', operator: 'MTN', payment_method: 'card'}, ['payment_method']],
      ['an unknown field', {amount: 100, phone_number: '670000001', operator: 'MTN', currency: 'XAF'}, ['currency']],
      ['several faults at once', {amount: 0, operator: 'X'}, ['amount', 'operator', 'phone_number']],
    ])('%s → 400 with per-field errors', async (_label, body, fields) => {
      const reply = await h.createPayment(body)
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe('validation_error')
      expect(reply.body.errors.map((e: {field: string}) => e.field).sort()).toEqual([...fields].sort())
    })

    it.each([
      ['invalid JSON', '{"amount": 100,'],
      ['a JSON array', '[1,2]'],
      ['a JSON string', '"hello"'],
      ['an empty body', ''],
    ])('%s → 400 on the body', async (_label, rawBody) => {
      const reply = await h.api('POST', '/v1/payments', {rawBody})
      expect(reply.status).toBe(400)
      expect(reply.body.errors[0].field).toBe('body')
    })

    it('payment_method defaults to mobile_money', async () => {
      const reply = await h.createPayment({amount: 100, phone_number: '670000001', operator: 'MTN', payment_method: 'mobile_money'})
      expect(reply.status).toBe(201)
      expect(reply.body.payment_method).toBe('mobile_money')
    })
  })

  it('an unknown id of this environment is 404 not_found', async () => {
    const reply = await h.api('GET', '/v1/payments/svcpay_test_doesnotexist/status')
    expect(reply.status).toBe(404)
    expect(reply.body.code).toBe('not_found')
    const other = await h.api('GET', '/v1/payments/inv_test_123/status')
    expect(other.status).toBe(404)
  })
})

describe('payments list', () => {
  let h: Harness
  beforeAll(async () => {
    h = await harness({settleAfterMs: 1000, seed: 7})
    for (let i = 1; i <= 25; i++) await h.createPayment({amount: i, phone_number: i % 2 ? '237670000001' : '237670000099', operator: 'MTN'})
    await h.sb.clock.advance(1000)
    for (let i = 26; i <= 27; i++) await h.createPayment({amount: i, phone_number: '237670000001', operator: 'MTN'})
  })
  afterAll(() => h.close())

  it('is an envelope, newest first, limit 20 by default', async () => {
    const reply = await h.api('GET', '/v1/payments')
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({limit: 20, offset: 0, total: 27, has_more: true})
    expect(reply.body.data.map((p: {amount: number}) => p.amount)).toEqual(Array.from({length: 20}, (_, i) => 27 - i))
  })

  it('pages with limit and offset', async () => {
    const reply = await h.api('GET', '/v1/payments?limit=10&offset=20')
    expect(reply.body).toMatchObject({limit: 10, offset: 20, total: 27, has_more: false})
    expect(reply.body.data.map((p: {amount: number}) => p.amount)).toEqual([7, 6, 5, 4, 3, 2, 1])
  })

  it.each([
    ['SUCCESS', 13],
    ['FAILED', 12],
    ['PENDING', 2],
    ['UNSPECIFIED', 0],
  ])('filters by status %s', async (status, total) => {
    const reply = await h.api('GET', `/v1/payments?status=${status}&limit=100`)
    expect(reply.body.total).toBe(total)
    expect(reply.body.data.every((p: {status: string}) => p.status === status)).toBe(true)
  })

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['offset=-1', 'offset'],
    ['status=success', 'status'],
    ['status=DONE', 'status'],
  ])('%s is a 400 naming %s', async (query, field) => {
    const reply = await h.api('GET', `/v1/payments?${query}`)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{field, message: expect.stringContaining(field)}])
  })

  it.each([1, 100])('limit=%d is allowed', async (limit) => {
    const reply = await h.api('GET', `/v1/payments?limit=${limit}`)
    expect(reply.status).toBe(200)
    expect(reply.body.data).toHaveLength(Math.min(limit, 27))
  })
})

describe('random outcomes', () => {
  const run = async (seed: number) => {
    const h = await harness({settleAfterMs: 10, seed})
    try {
      const ids: string[] = []
      for (let i = 0; i < 40; i++) ids.push((await h.createPayment({amount: 100 + i, phone_number: `2376${String(10_000_000 + i * 7919).padStart(8, '0')}`, operator: i % 2 ? 'MTN' : 'ORANGE'})).body.id)
      // A test number with the other operator is "any other number".
      ids.push((await h.createPayment({amount: 99, phone_number: '237650000001', operator: 'MTN'})).body.id)
      await h.sb.clock.advance(10)
      const out: Array<[string, string | undefined]> = []
      for (const id of ids) {
        const p = (await h.api('GET', `/v1/payments/${id}/status`)).body
        out.push([p.status, p.failure_code])
      }
      return out
    } finally {
      await h.close()
    }
  }

  it('are reproducible with the same seed, differ with another, mix SUCCESS and FAILED, and draw codes from the contract list', async () => {
    const a = await run(1234)
    const b = await run(1234)
    const c = await run(99)
    expect(a).toEqual(b)
    expect(a).not.toEqual(c)
    const statuses = new Set(a.map(([s]) => s))
    expect(statuses).toEqual(new Set(['SUCCESS', 'FAILED']))
    for (const [status, code] of a) {
      if (status === 'FAILED') expect(FAILURE_CODES).toContain(code)
      else expect(code).toBeUndefined()
    }
  })
})

describe('UNSPECIFIED under the faults option', () => {
  it('answers UNSPECIFIED first, then resolves to the real outcome with its event', async () => {
    const h = await harness({settleAfterMs: 1000, faults: {unspecified: true}})
    try {
      const ok = (await h.createPayment({amount: 500, phone_number: '237670000001', operator: 'MTN'})).body.id
      const ko = (await h.createPayment({amount: 500, phone_number: '237670000099', operator: 'MTN'})).body.id
      await h.sb.clock.advance(1000)
      expect((await h.api('GET', `/v1/payments/${ok}/status`)).body.status).toBe('UNSPECIFIED')
      expect((await h.api('GET', `/v1/payments?status=UNSPECIFIED`)).body.total).toBe(2)
      expect((await h.admin('GET', '/_admin/events')).body.total).toBe(0)
      await h.sb.clock.advance(1000)
      expect((await h.api('GET', `/v1/payments/${ok}/status`)).body.status).toBe('SUCCESS')
      expect((await h.api('GET', `/v1/payments/${ko}/status`)).body).toMatchObject({status: 'FAILED', failure_code: 'CUSTOMER_DECLINED'})
      const events = (await h.admin('GET', '/_admin/events')).body.data.map((e: {type: string}) => e.type).sort()
      expect(events).toEqual(['payment.failed', 'payment.success'])
    } finally {
      await h.close()
    }
  })

  it('never happens without the option', async () => {
    const h = await harness({settleAfterMs: 100})
    try {
      await h.createPayment({amount: 500, phone_number: '237670000001', operator: 'MTN'})
      await h.sb.clock.advance(100)
      expect((await h.api('GET', '/v1/payments?status=SUCCESS')).body.total).toBe(1)
    } finally {
      await h.close()
    }
  })
})

describe('real-time settlement', () => {
  it('settles by itself after settleAfterMs of real time', async () => {
    const h = await harness({settleAfterMs: 50})
    try {
      const id = (await h.createPayment({amount: 500, phone_number: '237650000001', operator: 'ORANGE'})).body.id
      // Real time is the point here: wait for the settlement itself (bounded), not a fixed time.
      const status = async () => {
        await h.sb.clock.idle()
        return (await h.api('GET', `/v1/payments/${id}/status`)).body.status
      }
      await expect.poll(status, {timeout: 10_000, interval: 25}).toBe('SUCCESS')
    } finally {
      await h.close()
    }
  })
})
