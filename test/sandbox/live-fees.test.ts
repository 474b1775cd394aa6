import {afterEach, describe, expect, it} from 'vitest'
import {computeFee} from '../../src/sandbox/fees.js'
import {harness, type Harness} from './helpers.js'

describe('live payments: the simulated handset', () => {
  let h: Harness | undefined
  afterEach(async () => {
    await h?.close()
    h = undefined
  })

  it('stay PENDING whatever the number (test numbers mean nothing in live) until approved', async () => {
    h = await harness({settleAfterMs: 10})
    const live = h.sb.keys.live
    const failing = (await h.createPayment({amount: 900, phone_number: '237670000099', operator: 'MTN'}, live)).body
    expect(failing).toMatchObject({status: 'PENDING', environment: 'LIVE'})
    await h.sb.clock.advance(60_000)
    expect((await h.api('GET', `/v1/payments/${failing.id}/status`, {key: live})).body.status).toBe('PENDING')
    const approved = await h.admin('POST', `/_admin/payments/${failing.id}/approve`)
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({id: failing.id, status: 'SUCCESS'})
    expect((await h.api('GET', `/v1/payments/${failing.id}/status`, {key: live})).body.status).toBe('SUCCESS')
    // Not pending any more: a second decision is refused.
    const again = await h.admin('POST', `/_admin/payments/${failing.id}/decline`)
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('invalid_state')
  })

  it('decline → FAILED with CUSTOMER_DECLINED', async () => {
    h = await harness()
    const id = (await h.createPayment({amount: 900, phone_number: '237670000001', operator: 'MTN'}, h.sb.keys.live)).body.id
    expect((await h.admin('POST', `/_admin/payments/${id}/decline`)).body).toMatchObject({status: 'FAILED', failure_code: 'CUSTOMER_DECLINED'})
  })

  it('expire after five minutes of sandbox time → FAILED with EXPIRED and a payment.failed event', async () => {
    h = await harness()
    const id = (await h.createPayment({amount: 900, phone_number: '237690000001', operator: 'ORANGE'}, h.sb.keys.live)).body.id
    await h.sb.clock.advance(5 * 60_000 - 1000)
    expect((await h.api('GET', `/v1/payments/${id}/status`, {key: h.sb.keys.live})).body.status).toBe('PENDING')
    await h.sb.clock.advance(1000)
    expect((await h.api('GET', `/v1/payments/${id}/status`, {key: h.sb.keys.live})).body).toMatchObject({status: 'FAILED', failure_code: 'EXPIRED'})
    const events = (await h.admin('GET', '/_admin/events?environment=live')).body
    expect(events.data.map((e: {type: string}) => e.type)).toEqual(['payment.failed'])
    expect((await h.admin('POST', `/_admin/payments/${id}/approve`)).status).toBe(409)
  })

  it('approve of a sandbox payment or an unknown id is refused', async () => {
    h = await harness()
    const id = (await h.createPayment({amount: 900, phone_number: '237670000001', operator: 'MTN'})).body.id
    expect((await h.admin('POST', `/_admin/payments/${id}/approve`)).status).toBe(409)
    expect((await h.admin('POST', '/_admin/payments/svcpay_nope/approve')).status).toBe(404)
    expect((await h.admin('POST', '/_admin/payments/whatever/approve')).status).toBe(404)
  })
})

describe('fees and the ledger', () => {
  it.each([
    // mode, value, absorb, amount → fee, customer debit, merchant credit
    ['percent', 2, false, 10_000, 200, 10_200, 10_000],
    ['percent', 2, true, 10_000, 200, 10_000, 9_800],
    ['percent', 1.5, false, 1_001, 15, 1_016, 1_001],
    ['percent', 2.5, true, 100, 3, 100, 97], // 2.5 rounds half away from zero
    ['percent', 0, true, 5_000, 0, 5_000, 5_000],
    ['fixed', 150, false, 1_000, 150, 1_150, 1_000],
    ['fixed', 150, true, 1_000, 150, 1_000, 850],
    ['fixed', 150, true, 100, 100, 100, 0], // capped at the amount
  ] as const)('%s %d absorb=%s on %d: fee %d, debit %d, credit %d', (mode, value, absorb, amount, fee, debit, net) => {
    expect(computeFee(amount, {mode, value, absorb_fees: absorb})).toEqual({fee, customer_debit: debit, net_amount: net})
  })

  it('credits each environment balance net of fees on SUCCESS only, with a ledger entry', async () => {
    const h = await harness({settleAfterMs: 100})
    try {
      expect((await h.admin('GET', '/_admin/fees')).body).toEqual({mode: 'percent', value: 2, absorb_fees: false})
      await h.createPayment({amount: 10_000, phone_number: '237670000001', operator: 'MTN'})
      await h.createPayment({amount: 7_000, phone_number: '237670000099', operator: 'MTN'}) // fails: nothing moves
      await h.sb.clock.advance(100)
      expect((await h.admin('PUT', '/_admin/fees', {mode: 'fixed', value: 250, absorb_fees: true})).body).toEqual({mode: 'fixed', value: 250, absorb_fees: true})
      await h.createPayment({amount: 5_000, phone_number: '237650000001', operator: 'ORANGE'})
      await h.sb.clock.advance(100)
      const live = (await h.createPayment({amount: 3_000, phone_number: '237670000001', operator: 'MTN'}, h.sb.keys.live)).body.id
      await h.admin('POST', `/_admin/payments/${live}/approve`)

      const balances = (await h.admin('GET', '/_admin/balance')).body.data
      expect(balances).toEqual([
        {environment: 'SANDBOX', balance: 10_000 + 4_750, currency: 'XAF', fees_total: 200 + 250, collections: 2},
        {environment: 'LIVE', balance: 2_750, currency: 'XAF', fees_total: 250, collections: 1},
      ])
      const ledger = (await h.admin('GET', '/_admin/ledger?environment=sandbox')).body
      expect(ledger.total).toBe(2)
      expect(ledger.data.map((e: Record<string, unknown>) => [e.amount, e.fee, e.fee_paid_by, e.customer_debit, e.net_amount, e.balance_after])).toEqual([
        [5_000, 250, 'merchant', 5_000, 4_750, 14_750],
        [10_000, 200, 'customer', 10_200, 10_000, 10_000],
      ])
      // Fees never appear on the API.
      const payments = (await h.api('GET', '/v1/payments')).body.data
      expect(JSON.stringify(payments)).not.toMatch(/fee/i)
    } finally {
      await h.close()
    }
  })

  it.each([
    [{mode: 'percent', value: 101}],
    [{mode: 'percent', value: -1}],
    [{mode: 'fixed', value: 1.5}],
    [{mode: 'tiered', value: 1}],
    [{mode: 'fixed'}],
    [{mode: 'fixed', value: 10, absorb_fees: 'yes'}],
  ])('refuses fee settings %j', async (body) => {
    const h = await harness()
    try {
      const reply = await h.admin('PUT', '/_admin/fees', body)
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe('validation_error')
    } finally {
      await h.close()
    }
  })
})
