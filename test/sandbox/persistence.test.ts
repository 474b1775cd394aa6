import {copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {harness} from './helpers.js'

describe('persistence with dataFile (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sandbox-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))

  it('keeps payments, keys, settings, the clock and pending work across a restart', async () => {
    const dataFile = join(dir, 'sandbox.db')
    const first = await harness({dataFile, settleAfterMs: 60_000, seed: 5})
    const settled = (await first.createPayment({amount: 1000, phone_number: '237670000001', operator: 'MTN'})).body.id
    await first.sb.clock.advance(60_000)
    const pending = (await first.createPayment({amount: 2000, phone_number: '237650000099', operator: 'ORANGE'})).body.id
    const livePending = (await first.createPayment({amount: 3000, phone_number: '237670000001', operator: 'MTN'}, first.sb.keys.live)).body.id
    const readOnly = (await first.admin('POST', '/_admin/keys', {environment: 'SANDBOX', scopes: ['payments:read']})).body.secret
    const revoked = (await first.admin('POST', '/_admin/keys', {environment: 'SANDBOX'})).body
    await first.admin('POST', `/_admin/keys/${revoked.id}/revoke`)
    await first.admin('PUT', '/_admin/fees', {mode: 'fixed', value: 10, absorb_fees: true})
    const offset = first.sb.clock.state().offset_ms
    const oldKey = first.sb.keys.sandbox
    await first.close()
    expect(readFileSync(dataFile).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0')
    // Customer data: readable by its owner only.
    expect(statSync(dataFile).mode & 0o777).toBe(0o600)

    const second = await harness({dataFile, settleAfterMs: 60_000})
    try {
      expect(second.sb.clock.state().offset_ms).toBeGreaterThanOrEqual(offset)
      // Keys minted before the restart still work (stored hashed), revoked stays revoked.
      expect((await second.api('GET', `/v1/payments/${settled}/status`, {key: oldKey})).body.status).toBe('SUCCESS')
      expect((await second.api('GET', '/v1/payments', {key: readOnly})).body.total).toBe(2)
      expect((await second.createPayment({amount: 1, phone_number: '670000001', operator: 'MTN'}, readOnly)).status).toBe(403)
      expect((await second.api('GET', '/v1/payments', {key: revoked.secret})).status).toBe(401)
      // The pending settlement and live expiry resume on the restored scheduler.
      expect((await second.api('GET', `/v1/payments/${pending}/status`)).body.status).toBe('PENDING')
      await second.sb.clock.advance(60_000)
      expect((await second.api('GET', `/v1/payments/${pending}/status`)).body).toMatchObject({status: 'FAILED', failure_code: 'CUSTOMER_DECLINED'})
      await second.sb.clock.advance(5 * 60_000)
      expect((await second.api('GET', `/v1/payments/${livePending}/status`, {key: second.sb.keys.live})).body.failure_code).toBe('EXPIRED')
      expect((await second.admin('GET', '/_admin/fees')).body).toEqual({mode: 'fixed', value: 10, absorb_fees: true})
      // Only the first payment succeeded (2 % paid by the customer): the balance survived the restart.
      expect((await second.admin('GET', '/_admin/balance?environment=SANDBOX')).body.data[0].balance).toBe(1000)
    } finally {
      await second.close()
    }
  })

  it('imports a JSON data file of the previous format once, with a message, and keeps the JSON beside it', async () => {
    const dataFile = join(dir, 'legacy.json')
    copyFileSync(new URL('./fixtures/legacy-v1.json', import.meta.url), dataFile)
    const ids = JSON.parse(readFileSync(new URL('./fixtures/legacy-v1.ids.json', import.meta.url), 'utf8'))
    const first = await harness({dataFile, settleAfterMs: 60_000})
    try {
      expect(first.sb.notices).toEqual([{code: 'json_imported', file: dataFile, count: expect.any(Number), backup: `${dataFile}.v1.json`}])
      expect((first.sb.notices[0] as {count: number}).count).toBeGreaterThan(5)
      expect(existsSync(`${dataFile}.v1.json`)).toBe(true)
      expect((await first.api('GET', `/v1/payments/${ids.settled}/status`, {key: ids.key})).body.status).toBe('SUCCESS')
      expect((await first.api('GET', `/v1/invoices/${ids.invoice}`, {key: ids.key})).body.id).toBe(ids.invoice)
      // The pending settlement came over with the scheduler's queue (due 60 s after the file was
      // made, so due by now: it runs at start, or within this advance).
      await first.sb.clock.advance(60_000)
      expect((await first.api('GET', '/v1/payments?status=FAILED', {key: ids.key})).body.data.map((p: {id: string}) => p.id)).toEqual([ids.pending])
      expect((await first.api('GET', '/v1/payments?status=PENDING', {key: ids.key})).body.total).toBe(0)
      expect((await first.api('GET', `/v1/payments/${ids.pending}/status`, {key: ids.key})).body.status).toBe('FAILED')
    } finally {
      await first.close()
    }
    expect(readFileSync(dataFile).subarray(0, 15).toString('latin1')).toBe('SQLite format 3')
    const second = await harness({dataFile})
    try {
      expect(second.sb.notices).toEqual([])
      expect((await second.api('GET', `/v1/payments/${ids.pending}/status`, {key: ids.key})).body.status).toBe('FAILED')
    } finally {
      await second.close()
    }
  })

  it('in memory by default: a new sandbox starts empty', async () => {
    const a = await harness()
    await a.createPayment({amount: 1000, phone_number: '237670000001', operator: 'MTN'})
    await a.close()
    const b = await harness()
    try {
      expect((await b.api('GET', '/v1/payments')).body.total).toBe(0)
    } finally {
      await b.close()
    }
  })
})
