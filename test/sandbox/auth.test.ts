import {describe, expect, test as base} from 'vitest'
import {ipInRange, parseCidr} from '../../src/sandbox/auth.js'
import type {StartOptions} from '../helpers/sandbox.js'
import {harness, withHarness, type Harness} from './helpers.js'

const pay = {amount: 1000, phone_number: '237670000001', operator: 'MTN'}

const it = withHarness({settleAfterMs: 100})
/** The allowlist tests: each starts sandboxes of its own (bound to the host it tests), closed after it. */
const itOwn = base.extend<{start: (options?: StartOptions) => Promise<Harness>}>({
  // eslint-disable-next-line no-empty-pattern
  start: async ({}, use) => {
    const started: Harness[] = []
    try {
      await use(async (options) => {
        const h = await harness(options)
        started.push(h)
        return h
      })
    } finally {
      await Promise.all(started.map((h) => h.close()))
    }
  },
})

describe('authentication', () => {
  it.for([
    ['no key', null],
    ['an empty key', ''],
    ['an unknown sandbox key', 'svc_sk_test_unknownunknownunknown'],
    ['an unknown live key', 'svc_sk_live_unknownunknownunknown'],
    ['another prefix', 'sk_test_abcdefghijklmnop'],
    ['a publishable-looking key', 'svc_pk_test_abcdefghijklmnop'],
  ] as const)('%s → 401 unauthorized on every endpoint', async ([_label, key], {h}) => {
    for (const [method, path, body] of [
      ['POST', '/v1/payments', pay],
      ['GET', '/v1/payments', undefined],
      ['GET', '/v1/payments/svcpay_test_x/status', undefined],
    ] as const) {
      const reply = await h.api(method, path, {key, body})
      expect(reply.status).toBe(401)
      expect(reply.body.code).toBe('unauthorized')
      expect(reply.body.message).toMatch(/X-API-Key|key/)
    }
  })

  it('the start keys carry their environment prefix and select it', async ({h}) => {
    expect(h.sb.keys.sandbox).toMatch(/^svc_sk_test_[A-Za-z0-9]{32}$/)
    expect(h.sb.keys.live).toMatch(/^svc_sk_live_[A-Za-z0-9]{32}$/)
    const test = await h.createPayment(pay, h.sb.keys.sandbox)
    const live = await h.createPayment(pay, h.sb.keys.live)
    expect(test.body).toMatchObject({environment: 'SANDBOX', id: expect.stringMatching(/^svcpay_test_/)})
    expect(live.body).toMatchObject({environment: 'LIVE', id: expect.stringMatching(/^svcpay_(?!test_)/)})
  })

  it('environments are separate databases, both ways', async ({h}) => {
    const test = (await h.createPayment(pay, h.sb.keys.sandbox)).body.id
    const live = (await h.createPayment(pay, h.sb.keys.live)).body.id
    // A sandbox id under a live key, and a live id under a sandbox key: 401 (wrong environment).
    const crossA = await h.api('GET', `/v1/payments/${test}/status`, {key: h.sb.keys.live})
    const crossB = await h.api('GET', `/v1/payments/${live}/status`, {key: h.sb.keys.sandbox})
    for (const reply of [crossA, crossB]) {
      expect(reply.status).toBe(401)
      expect(reply.body.code).toBe('unauthorized')
      expect(reply.body.message).toContain('other environment')
    }
    const testList = (await h.api('GET', '/v1/payments?limit=100', {key: h.sb.keys.sandbox})).body.data
    const liveList = (await h.api('GET', '/v1/payments?limit=100', {key: h.sb.keys.live})).body.data
    expect(testList.every((p: {environment: string}) => p.environment === 'SANDBOX')).toBe(true)
    expect(liveList.every((p: {environment: string}) => p.environment === 'LIVE')).toBe(true)
    expect(testList.map((p: {id: string}) => p.id)).toContain(test)
    expect(testList.map((p: {id: string}) => p.id)).not.toContain(live)
    expect(liveList.map((p: {id: string}) => p.id)).toContain(live)
    // Same-environment reads work.
    expect((await h.api('GET', `/v1/payments/${live}/status`, {key: h.sb.keys.live})).status).toBe(200)
  })

  it('a revoked key is refused at once; other keys keep working', async ({h}) => {
    const minted = await h.admin('POST', '/_admin/keys', {environment: 'sandbox'})
    expect(minted.status).toBe(201)
    expect(minted.body.secret).toMatch(/^svc_sk_test_/)
    expect(minted.body.key).toBe(`svc_sk_test_…${minted.body.secret.slice(-4)}`)
    expect((await h.createPayment(pay, minted.body.secret)).status).toBe(201)
    const revoked = await h.admin('POST', `/_admin/keys/${minted.body.id}/revoke`)
    expect(revoked.body).toMatchObject({id: minted.body.id, revoked: true})
    const reply = await h.createPayment(pay, minted.body.secret)
    expect(reply.status).toBe(401)
    expect(reply.body.message).toContain('revoked')
    expect((await h.createPayment(pay, h.sb.keys.sandbox)).status).toBe(201)
    // The list never shows a secret or a hash.
    const list = await h.admin('GET', '/_admin/keys')
    expect(JSON.stringify(list.body)).not.toContain(minted.body.secret)
    expect(list.body.data.find((k: {id: string}) => k.id === minted.body.id)).toMatchObject({revoked: true, revoked_at: expect.any(String)})
    expect(list.body.data.every((k: Record<string, unknown>) => !('hash' in k))).toBe(true)
  })

  describe('scopes', () => {
    it.for([
      // scopes, create, list, status
      [['payments:read'], 403, 200, 200],
      [['payments:write'], 201, 403, 403],
      [['invoices:read', 'invoices:write', 'invoices:send', 'files:write'], 403, 403, 403],
      [['payments:read', 'payments:write'], 201, 200, 200],
    ])('a key with %j: create %d, list %d, status %d', async ([scopes, create, list, status], {h}) => {
      const minted = (await h.admin('POST', '/_admin/keys', {environment: 'SANDBOX', scopes})).body
      expect(minted.scopes).toEqual(scopes)
      const existing = (await h.createPayment(pay)).body.id
      const replies = [
        await h.createPayment(pay, minted.secret),
        await h.api('GET', '/v1/payments', {key: minted.secret}),
        await h.api('GET', `/v1/payments/${existing}/status`, {key: minted.secret}),
      ]
      expect(replies.map((r) => r.status)).toEqual([create, list, status])
      for (const reply of replies.filter((r) => r.status === 403)) {
        expect(reply.body.code).toBe('insufficient_scope')
        expect(reply.body.message).toMatch(/payments:(read|write)/)
      }
    })

    it('a key minted with no scope list has them all', async ({h}) => {
      const minted = (await h.admin('POST', '/_admin/keys', {environment: 'LIVE'})).body
      expect(minted.scopes).toEqual(['payments:read', 'payments:write', 'invoices:read', 'invoices:write', 'invoices:send', 'files:write'])
    })

    it.for([[{environment: 'TEST'}], [{environment: 'SANDBOX', scopes: ['payments:admin']}], [{}]] as const)('admin key creation refuses %j', async ([body], {h}) => {
      expect((await h.admin('POST', '/_admin/keys', body)).status).toBe(400)
    })
  })

  it('GET /v1/openapi.json needs no key', async ({h}) => {
    const reply = await h.api('GET', '/v1/openapi.json', {key: null})
    expect(reply.status).toBe(200)
    expect(reply.body.openapi).toBe('3.1.0')
  })

  it('the admin surface needs its token and is not under /v1', async ({h}) => {
    expect((await h.admin('GET', '/_admin/clock', undefined, 'wrong')).status).toBe(401)
    expect((await h.api('GET', '/_admin/clock', {unchecked: true})).status).toBe(401)
    expect((await h.admin('GET', '/_admin/clock')).status).toBe(200)
    expect((await h.api('GET', '/v1/_admin/clock', {unchecked: true})).status).toBe(404)
  })
})

describe('IP allowlist', () => {
  itOwn.for([
    // host bound, allowlist, expected status of a request from that host's loopback
    ['127.0.0.1', [], 201],
    ['127.0.0.1', ['127.0.0.1'], 201],
    ['127.0.0.1', ['127.0.0.0/8'], 201],
    ['127.0.0.1', ['10.0.0.0/8'], 403],
    ['127.0.0.1', ['10.0.0.0/8', '127.0.0.1/32'], 201],
    ['127.0.0.1', ['::1'], 403],
    // An IPv4 client matches an IPv4-mapped IPv6 entry.
    ['127.0.0.1', ['::ffff:127.0.0.1/128'], 201],
    ['127.0.0.1', ['::ffff:127.0.0.0/104'], 201],
    ['127.0.0.1', ['::ffff:10.0.0.0/104'], 403],
    ['::1', ['::1/128'], 201],
    ['::1', ['::/0'], 201],
    ['::1', ['2001:db8::/32'], 403],
    ['::1', ['127.0.0.1'], 403],
  ] as const)('server on %s, allowlist %j → %d', async ([host, entries, expected], {start}) => {
    const h = await start({host})
    for (const cidr of entries) expect((await h.admin('POST', '/_admin/allowlist', {cidr})).status).toBe(201)
    const reply = await h.createPayment(pay)
    expect(reply.status).toBe(expected)
    if (expected === 403) {
      expect(reply.body.code).toBe('ip_not_allowed')
      expect(reply.body.message).toContain(host)
    }
  })

  itOwn('removing the last entry allows everyone again; invalid CIDRs are refused', async ({start}) => {
    const h = await start()
    expect((await h.admin('POST', '/_admin/allowlist', {cidr: '10.0.0.0/8'})).body).toMatchObject({cidr: '10.0.0.0/8'})
    expect((await h.admin('GET', '/_admin/allowlist')).body.data).toHaveLength(1)
    expect((await h.createPayment(pay)).status).toBe(403)
    for (const cidr of ['10.0.0.0/33', 'not-an-ip', '300.1.1.1', '::1/129']) {
      const reply = await h.admin('POST', '/_admin/allowlist', {cidr})
      expect(reply.status).toBe(400)
      expect(reply.body.errors[0].field).toBe('cidr')
    }
    expect((await h.admin('DELETE', `/_admin/allowlist?cidr=${encodeURIComponent('10.0.0.0/8')}`)).status).toBe(200)
    expect((await h.admin('DELETE', `/_admin/allowlist?cidr=${encodeURIComponent('10.0.0.0/8')}`)).status).toBe(404)
    expect((await h.createPayment(pay)).status).toBe(201)
  })
})

describe('ipInRange', () => {
  it.each([
    ['127.0.0.1', '127.0.0.0/8', true],
    ['::ffff:127.0.0.1', '127.0.0.0/8', true],
    ['::ffff:127.0.0.1', '::ffff:127.0.0.1/128', true],
    ['127.0.0.1', '::ffff:127.0.0.0/120', true],
    ['::ffff:192.168.1.5', '192.168.0.0/16', true],
    ['::ffff:192.168.1.5', '10.0.0.0/8', false],
    ['2001:db8::1', '2001:db8::/32', true],
    ['2001:db9::1', '2001:db8::/32', false],
    ['fe80::1%lo0', 'fe80::/10', true],
    ['::1', '127.0.0.1/32', false],
    ['garbage', '0.0.0.0/0', false],
  ])('%s in %s: %s', (ip, cidr, expected) => {
    expect(ipInRange(ip, parseCidr(cidr)!.range)).toBe(expected)
  })
})
