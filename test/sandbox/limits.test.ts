import {afterEach, describe, expect, it} from 'vitest'
import {harness, type Harness} from './helpers.js'

describe('rate limit', () => {
  let h: Harness | undefined
  afterEach(async () => {
    await h?.close()
    h = undefined
  })

  it('counts per key over a rolling minute and answers 429 with Retry-After and RateLimit headers', async () => {
    h = await harness({rateLimit: 5})
    const seen: Array<[number, string | null]> = []
    for (let i = 0; i < 5; i++) {
      const reply = await h.api('GET', '/v1/payments')
      seen.push([reply.status, reply.headers.get('ratelimit-remaining')])
      expect(reply.headers.get('ratelimit-limit')).toBe('5')
      expect(Number(reply.headers.get('ratelimit-reset'))).toBeGreaterThan(0)
      expect(Number(reply.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60)
    }
    expect(seen).toEqual([[200, '4'], [200, '3'], [200, '2'], [200, '1'], [200, '0']])
    const limited = await h.api('POST', '/v1/payments', {body: {amount: 1, phone_number: '670000001', operator: 'MTN'}})
    expect(limited.status).toBe(429)
    expect(limited.body.code).toBe('rate_limited')
    expect(limited.body.message).toContain('5')
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(limited.headers.get('ratelimit-remaining')).toBe('0')
    expect(limited.headers.get('ratelimit-reset')).toBe(String(retryAfter))
    // Another key has its own window.
    expect((await h.api('GET', '/v1/payments', {key: h.sb.keys.live})).status).toBe(200)
    // The window rolls with the sandbox clock.
    await h.sb.clock.advance(60_000)
    const after = await h.api('GET', '/v1/payments')
    expect(after.status).toBe(200)
    expect(after.headers.get('ratelimit-remaining')).toBe('4')
  })

  it('a rolling window frees slots one by one, not all at once', async () => {
    h = await harness({rateLimit: 2})
    await h.api('GET', '/v1/payments')
    await h.sb.clock.advance(30_000)
    await h.api('GET', '/v1/payments')
    expect((await h.api('GET', '/v1/payments')).status).toBe(429)
    await h.sb.clock.advance(30_000)
    const reply = await h.api('GET', '/v1/payments')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('ratelimit-remaining')).toBe('0')
    expect((await h.api('GET', '/v1/payments')).status).toBe(429)
  })

  it('headers are on every /v1 response, errors and the document included', async () => {
    h = await harness({rateLimit: 100})
    for (const reply of [
      await h.api('GET', '/v1/payments', {key: null}),
      await h.api('GET', '/v1/payments?limit=0'),
      await h.api('GET', '/v1/openapi.json', {key: null}),
      await h.api('GET', '/v1/payments/svcpay_test_nope/status'),
    ]) {
      expect(reply.headers.get('ratelimit-limit')).toBe('100')
      expect(reply.headers.get('ratelimit-remaining')).not.toBeNull()
      expect(reply.headers.get('ratelimit-reset')).not.toBeNull()
    }
  })

  it('0 turns it off (no 429, no headers); the admin surface is never limited', async () => {
    h = await harness({rateLimit: 0})
    for (let i = 0; i < 150; i++) expect((await h.api('GET', '/v1/payments?limit=1')).status).toBe(200)
    expect((await h.api('GET', '/v1/payments')).headers.get('ratelimit-limit')).toBeNull()
    await h.close()
    h = await harness({rateLimit: 1})
    for (let i = 0; i < 5; i++) expect((await h.admin('GET', '/_admin/clock')).status).toBe(200)
  })

  it('defaults to 100 per minute', async () => {
    const {startTestSandbox} = await import('../helpers/sandbox.js')
    // No rateLimit: the sandbox's own default, not the tests' 0.
    const {sb} = await startTestSandbox({rateLimit: undefined})
    try {
      const response = await fetch(`${sb.url}/v1/payments`, {headers: {'x-api-key': sb.keys.sandbox}})
      expect(response.headers.get('ratelimit-limit')).toBe('100')
    } finally {
      await sb.close()
    }
  })
})
