import {describe, expect, it as plain} from 'vitest'
import {TEST_NUMBERS} from '../../src/contract/test-numbers.js'
import {FAILURE_CODES} from '../../src/sandbox/payments.js'
import {harness, withHarness, type Harness} from './helpers.js'

const it = withHarness({settleAfterMs: 2000, seed: 42})
// The list tests: 27 payments, 2 of them still pending.
const itList = withHarness({settleAfterMs: 1000, seed: 7}).extend<{seeded: Harness}>({
  seeded: [
    async ({h}, use) => {
      for (let i = 1; i <= 25; i++) await h.createPayment({amount: i, phone_number: i % 2 ? '237670000001' : '237670000099', operator: 'MTN'})
      await h.sb.clock.advance(1000)
      for (let i = 26; i <= 27; i++) await h.createPayment({amount: i, phone_number: '237670000001', operator: 'MTN'})
      await use(h)
    },
    {scope: 'file'},
  ],
})
const itUnspecified = withHarness({settleAfterMs: 1000, faults: {unspecified: true}})
const itQuick = withHarness({settleAfterMs: 100})
const itRealTime = withHarness({settleAfterMs: 50})

describe('payments', () => {
  describe('test numbers settle to their fixed outcome once the sandbox clock passes settleAfterMs', () => {
    it.for(TEST_NUMBERS.map((row) => [row.phone, row.operator, row.outcome] as const))('%s with %s → %s', async ([phone, operator, outcome], {h}) => {
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

  it('never exposes the provider or the operator, only the Payment fields', async ({h}) => {
    const created = await h.createPayment({amount: 10, phone_number: '237670000001', operator: 'MTN'})
    expect(Object.keys(created.body).sort()).toEqual(
      ['amount', 'created_at', 'currency', 'environment', 'id', 'internal_transaction_id', 'payment_method', 'phone_number', 'status'].sort(),
    )
  })

  describe('amount validation', () => {
    it.for([
      ['zero', 0],
      ['negative', -5],
      ['fractional', 1.5],
      ['a string', '100'],
      ['null', null],
      ['missing', undefined],
      ['a boolean', true],
    ] as const)('amount %s is a 400 naming amount', async ([_label, amount], {h}) => {
      const body: Record<string, unknown> = {phone_number: '237670000001', operator: 'MTN'}
      if (amount !== undefined) body.amount = amount
      const reply = await h.createPayment(body)
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe('validation_error')
      expect(reply.body.errors).toEqual([{field: 'amount', message: expect.stringContaining('amount')}])
      expect(reply.body.message).toContain('amount')
    })

    it.for([1, 100, 5_000_000])('amount %d is accepted and never rescaled', async (amount, {h}) => {
      const reply = await h.createPayment({amount, phone_number: '237670000001', operator: 'MTN'})
      expect(reply.status).toBe(201)
      expect(reply.body.amount).toBe(amount)
    })
  })

  describe('phone numbers', () => {
    it.for([
      ['670000001', '237670000001'],
      ['237670000001', '237670000001'],
      ['+237670000001', '237670000001'],
      ['+237 6 70 00 00 01', '237670000001'],
      ['6 70 00 00 01', '237670000001'],
      ['237 650 000 001', '237650000001'],
      // Portable numbers: a Nexttel-range prefix with MTN is the customer's choice, not refused.
      ['661234567', '237661234567'],
      ['242123456', '237242123456'],
    ] as const)('%s is accepted and returned as %s', async ([input, normalised], {h}) => {
      const reply = await h.createPayment({amount: 100, phone_number: input, operator: 'MTN'})
      expect(reply.status).toBe(201)
      expect(reply.body.phone_number).toBe(normalised)
    })

    it.for(['12345', '33670000001', '+33 6 12 34 56 78', '770000001', '2376700000011', '67000000a', '', '+ 237'])('%j is a 400 naming phone_number', async (input, {h}) => {
      const reply = await h.createPayment({amount: 100, phone_number: input, operator: 'MTN'})
      expect(reply.status).toBe(400)
      expect(reply.body.errors.map((e: {field: string}) => e.field)).toEqual(['phone_number'])
    })
  })

  describe('other request rules', () => {
    it.for([
      ['operator not in the enum', {amount: 100, phone_number: '670000001', operator: 'NEXTTEL'}, ['operator']],
      ['operator lower case', {amount: 100, phone_number: '670000001', operator: 'mtn'}, ['operator']],
      ['operator missing', {amount: 100, phone_number: '670000001'}, ['operator']],
      ['phone missing', {amount: 100, operator: 'MTN'}, ['phone_number']],
      ['payment_method other than mobile_money', {amount: 100, phone_number: '670000001', operator: 'MTN', payment_method: 'card'}, ['payment_method']],
      ['an unknown field', {amount: 100, phone_number: '670000001', operator: 'MTN', currency: 'XAF'}, ['currency']],
      ['several faults at once', {amount: 0, operator: 'X'}, ['amount', 'operator', 'phone_number']],
    ] as const)('%s → 400 with per-field errors', async ([_label, body, fields], {h}) => {
      const reply = await h.createPayment(body)
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe('validation_error')
      expect(reply.body.errors.map((e: {field: string}) => e.field).sort()).toEqual([...fields].sort())
    })

    it.for([
      ['invalid JSON', '{"amount": 100,'],
      ['a JSON array', '[1,2]'],
      ['a JSON string', '"hello"'],
      ['an empty body', ''],
    ] as const)('%s → 400 on the body', async ([_label, rawBody], {h}) => {
      const reply = await h.api('POST', '/v1/payments', {rawBody})
      expect(reply.status).toBe(400)
      expect(reply.body.errors[0].field).toBe('body')
    })

    it('payment_method defaults to mobile_money', async ({h}) => {
      const reply = await h.createPayment({amount: 100, phone_number: '670000001', operator: 'MTN', payment_method: 'mobile_money'})
      expect(reply.status).toBe(201)
      expect(reply.body.payment_method).toBe('mobile_money')
    })
  })

  it('an unknown id of this environment is 404 not_found', async ({h}) => {
    const reply = await h.api('GET', '/v1/payments/svcpay_test_doesnotexist/status')
    expect(reply.status).toBe(404)
    expect(reply.body.code).toBe('not_found')
    const other = await h.api('GET', '/v1/payments/inv_test_123/status')
    expect(other.status).toBe(404)
  })
})

describe('payments list', () => {
  itList('is an envelope, newest first, limit 20 by default', async ({seeded: h}) => {
    const reply = await h.api('GET', '/v1/payments')
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({limit: 20, offset: 0, total: 27, has_more: true})
    expect(reply.body.data.map((p: {amount: number}) => p.amount)).toEqual(Array.from({length: 20}, (_, i) => 27 - i))
  })

  itList('pages with limit and offset', async ({seeded: h}) => {
    const reply = await h.api('GET', '/v1/payments?limit=10&offset=20')
    expect(reply.body).toMatchObject({limit: 10, offset: 20, total: 27, has_more: false})
    expect(reply.body.data.map((p: {amount: number}) => p.amount)).toEqual([7, 6, 5, 4, 3, 2, 1])
  })

  itList.for([
    ['SUCCESS', 13],
    ['FAILED', 12],
    ['PENDING', 2],
    ['UNSPECIFIED', 0],
  ] as const)('filters by status %s', async ([status, total], {seeded: h}) => {
    const reply = await h.api('GET', `/v1/payments?status=${status}&limit=100`)
    expect(reply.body.total).toBe(total)
    expect(reply.body.data.every((p: {status: string}) => p.status === status)).toBe(true)
  })

  itList.for([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['offset=-1', 'offset'],
    ['status=success', 'status'],
    ['status=DONE', 'status'],
  ] as const)('%s is a 400 naming %s', async ([query, field], {seeded: h}) => {
    const reply = await h.api('GET', `/v1/payments?${query}`)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{field, message: expect.stringContaining(field)}])
  })

  itList.for([1, 100])('limit=%d is allowed', async (limit, {seeded: h}) => {
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

  // Three sandboxes, each started and closed by the test with its own seed.
  plain('are reproducible with the same seed, differ with another, mix SUCCESS and FAILED, and draw codes from the contract list', async () => {
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
  itUnspecified('answers UNSPECIFIED first, then resolves to the real outcome with its event', async ({h}) => {
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
  })

  itQuick('never happens without the option', async ({h}) => {
    await h.createPayment({amount: 500, phone_number: '237670000001', operator: 'MTN'})
    await h.sb.clock.advance(100)
    expect((await h.api('GET', '/v1/payments?status=SUCCESS')).body.total).toBe(1)
  })
})

describe('real-time settlement', () => {
  itRealTime('settles by itself after settleAfterMs of real time', async ({h}) => {
    const id = (await h.createPayment({amount: 500, phone_number: '237650000001', operator: 'ORANGE'})).body.id
    // Real time is the point here: wait for the settlement itself (bounded), not a fixed time.
    const status = async () => {
      await h.sb.clock.idle()
      return (await h.api('GET', `/v1/payments/${id}/status`)).body.status
    }
    await expect.poll(status, {timeout: 10_000, interval: 25}).toBe('SUCCESS')
  })
})
