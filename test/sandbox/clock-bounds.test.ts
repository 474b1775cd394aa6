import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {harness} from './helpers.js'

const DAY = 86_400_000

describe('admin clock bounds (docs/service.md "Limits")', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-clock-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))

  it('refuses an advance of 0, over 3650 days, or past 9999-12-31 with a 400 naming ms, and keeps serving', async () => {
    const h = await harness()
    try {
      for (const ms of [0, 3651 * DAY, 100_000_000 * DAY, 2 ** 53 - 1]) {
        const reply = await h.admin('POST', '/_admin/clock/advance', {ms})
        expect(reply.status, `ms ${ms}`).toBe(400)
        expect(JSON.stringify(reply.body)).toContain('ms')
      }
      expect((await h.createPayment({amount: 1000, phone_number: '237670000001', operator: 'MTN'})).status).toBe(201)
      expect((await h.admin('GET', '/_admin/clock')).status).toBe(200)

      // 3650 days is allowed; step by step up to the end of year 9999, then one more step is refused.
      expect((await h.admin('POST', '/_admin/clock/advance', {ms: 3650 * DAY})).status).toBe(200)
      const end = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
      // Most of the way in process (800 calls over HTTP would only be slow), the last steps over HTTP.
      await h.sb.clock.advance(end - h.sb.clock.now() - 7000 * DAY)
      expect((await h.admin('POST', '/_admin/clock/advance', {ms: 3650 * DAY})).status).toBe(200)
      expect((await h.admin('POST', '/_admin/clock/advance', {ms: 3000 * DAY})).status).toBe(200)
      const past = await h.admin('POST', '/_admin/clock/advance', {ms: 3650 * DAY})
      expect(past.status).toBe(400)
      expect(JSON.stringify(past.body)).toContain('9999-12-31')
      const created = await h.createPayment({amount: 1000, phone_number: '237670000001', operator: 'MTN'})
      expect(created.status).toBe(201)
      expect(created.body.created_at.startsWith('99')).toBe(true)
    } finally {
      await h.close()
    }
  }, 60_000)

  it('a saved clock beyond 9999-12-31 does not stop a restart: it is brought back within range', async () => {
    // Today's JSON data file with the clock offset `clock advance 100000000d` used to save.
    const dataFile = join(dir, 'bad-clock.json')
    const business = {collections: {}, settings: {}}
    writeFileSync(
      dataFile,
      JSON.stringify({version: 1, business, environments: {SANDBOX: business, LIVE: business}, extras: {clock_offset_ms: 100_000_000 * DAY}}),
    )
    const h = await harness({dataFile})
    try {
      expect((await h.admin('GET', '/_admin/clock')).status).toBe(200)
      expect(h.sb.clock.now()).toBeLessThanOrEqual(Date.UTC(9999, 11, 31, 23, 59, 59, 999))
      expect((await h.createPayment({amount: 1000, phone_number: '237670000001', operator: 'MTN'})).status).toBe(201)
    } finally {
      await h.close()
    }
  })
})
