/**
 * The inspector's admin routes over real HTTP, without a browser: the handset (PIN 1234, three
 * wrong PINs, decline, a payment that no longer waits), redeliver, the outbox as read, the
 * session's cookie and CSRF rules, the login link, the pages' Content-Security-Policy.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {startReceiver, waitFor, type Receiver} from '../helpers/receiver.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

let h: TestSandbox
let receiver: Receiver

beforeAll(async () => {
  receiver = await startReceiver({path: '/hooks'})
  h = await startTestSandbox({webhookEndpoints: [{url: receiver.url, environment: 'LIVE'}]})
})
afterAll(async () => {
  await h?.close()
  await receiver?.close()
})

const livePayment = async (amount: number) => {
  const response = await fetch(`${h.sb.url}/v1/payments`, {
    method: 'POST',
    headers: {'x-api-key': h.sb.keys.live, 'content-type': 'application/json'},
    body: JSON.stringify({amount, phone_number: '670000001', operator: 'MTN'}),
  })
  return ((await response.json()) as {id: string}).id
}

describe('the customer’s handset', () => {
  it('rings for a LIVE payment; decline fails it with CUSTOMER_DECLINED; then it no longer rings and a PIN is refused', async () => {
    const id = await livePayment(1200)
    const ringing = await h.admin('GET', '/phone')
    expect(ringing.data.find((c: {payment_id: string}) => c.payment_id === id)).toMatchObject({operator: 'MTN', amount: 1200, currency: 'XAF', merchant: 'Sandbox Business', tries_left: 3})
    expect(await h.admin('POST', `/phone/${id}/pin`, {decline: true})).toMatchObject({payment_id: id})
    await h.sb.clock.advance(1000)
    expect((await h.get(`/v1/payments/${id}/status`, h.sb.keys.live))).toMatchObject({status: 'FAILED', failure_code: 'CUSTOMER_DECLINED'})
    expect((await h.admin('GET', '/phone')).data.some((c: {payment_id: string}) => c.payment_id === id)).toBe(false)
    const late = await fetch(`${h.sb.adminUrl}/phone/${id}/pin`, {method: 'POST', headers: {authorization: `Bearer ${h.sb.adminToken}`, 'content-type': 'application/json'}, body: '{"pin":"1234"}'})
    expect(late.status).toBe(409)
  })
})

describe('the handset’s PIN', () => {
  const pin = (id: string, value: string) => h.admin('POST', `/phone/${id}/pin`, {pin: value})
  const status = async (id: string) => {
    await h.sb.clock.advance(1000)
    return h.get(`/v1/payments/${id}/status`, h.sb.keys.live)
  }

  it('a wrong PIN approves nothing and says the tries left; 1234 then approves', async () => {
    const id = await livePayment(1500)
    expect(await pin(id, '0000')).toMatchObject({status: 'PENDING', tries_left: 2})
    expect(await pin(id, '4321')).toMatchObject({status: 'PENDING', tries_left: 1})
    expect(await status(id)).toMatchObject({status: 'PENDING'})
    await pin(id, '1234')
    expect(await status(id)).toMatchObject({status: 'SUCCESS'})
  })

  it('three wrong PINs fail the payment with ACCOUNT_INACTIVE, and it no longer rings', async () => {
    const id = await livePayment(1600)
    await pin(id, '0000')
    await pin(id, '0000')
    expect(await pin(id, '0000')).toMatchObject({tries_left: 0, failure_code: 'ACCOUNT_INACTIVE'})
    expect(await status(id)).toMatchObject({status: 'FAILED', failure_code: 'ACCOUNT_INACTIVE'})
    expect((await h.admin('GET', '/phone')).data.some((c: {payment_id: string}) => c.payment_id === id)).toBe(false)
  })
})

describe('events', () => {
  it('delivers an event again to its endpoints', async () => {
    const id = await livePayment(800)
    await h.admin('POST', `/phone/${id}/pin`, {pin: '1234'})
    await h.sb.clock.advance(1000)
    await waitFor(() => receiver.received.some((r) => (r.event.data as {id: string}).id === id), 10_000, 'the first delivery')
    const events = await h.admin('GET', '/events?environment=LIVE')
    const event = events.data.find((e: {data: {id: string}}) => e.data.id === id)
    const again = await h.admin('POST', `/events/${event.id}/redeliver`)
    expect(again.data).toHaveLength(1)
    await waitFor(() => receiver.received.filter((r) => r.event.id === event.id).length === 2, 10_000, 'the second delivery')
  })
})

describe('the outbox as the customer reads it', () => {
  it('gives an email’s subject, text, pay link and the pay link’s QR code', async () => {
    const key = h.sb.keys.sandbox
    const draft = await fetch(`${h.sb.url}/v1/invoices`, {
      method: 'POST',
      headers: {'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': 'inspector-api-outbox'},
      body: JSON.stringify({customer_name: 'Awa Ngo', customer_email: 'awa@example.cm', due_date: '2030-12-31', items: [{name: 'Savon', price: 1500, quantity: 2}]}),
    }).then((r) => r.json() as Promise<{id: string}>)
    const published = await fetch(`${h.sb.url}/v1/invoices/${draft.id}/publish`, {method: 'POST', headers: {'x-api-key': key, 'content-type': 'application/json'}, body: '{"channel":"EMAIL"}'})
    expect(published.status).toBe(200)
    const outbox = await h.admin('GET', `/outbox?invoice_id=${draft.id}`)
    const [sent] = outbox.data as Array<{id: string}>
    const message = await h.admin('GET', `/outbox/${sent.id}/message`)
    expect(message).toMatchObject({channel: 'EMAIL', recipient: 'awa@example.cm', language: 'en'})
    expect(message.subject).toMatch(/\S/)
    expect(message.text).toContain(message.pay_url)
    expect(message.pay_url).toContain(`/pay/i/${draft.id}`)
    expect(message.qr).toMatch(/^data:image\/png;base64,/)
    expect((await fetch(`${h.sb.adminUrl}/outbox/msg_nothing/message`, {headers: {authorization: `Bearer ${h.sb.adminToken}`}})).status).toBe(404)
  })
})

describe('the inspector’s pages', () => {
  it('carry a Content-Security-Policy without inline script or style, and the page has no inline script', async () => {
    for (const path of ['/_inspector/', '/_inspector/app.js', '/_inspector/app.css']) {
      const response = await fetch(`${h.sb.url}${path}`)
      expect(response.status, path).toBe(200)
      const csp = response.headers.get('content-security-policy') ?? ''
      expect(csp, path).toContain("default-src 'none'")
      expect(csp, path).toContain("script-src 'self'")
      expect(csp, path).toContain("frame-ancestors 'none'")
      expect(csp, path).not.toContain('unsafe-inline')
      expect(csp, path).not.toContain('unsafe-eval')
      const body = await response.text()
      if (path === '/_inspector/') {
        expect(body.match(/<script\b[^>]*>/g)?.every((tag) => / src=/.test(tag))).toBe(true)
        expect(body).not.toMatch(/\son[a-z]+=|<style\b|\sstyle=/i)
      }
    }
  })
})

describe('the inspector’s session', () => {
  it('a login link logs in once; the cookie reads; a change needs the CSRF token and the sandbox’s own origin', async () => {
    const {url} = await h.admin('POST', '/inspector/login-links')
    const login = await fetch(url, {redirect: 'manual'})
    expect(login.status).toBe(303)
    const cookie = login.headers.get('set-cookie')!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    expect((await fetch(url, {redirect: 'manual'})).status).toBe(401)
    const session = cookie.split(';')[0]
    const read = await fetch(`${h.sb.url}/_admin/inspector/session?language=fr`, {headers: {cookie: session}})
    const body = (await read.json()) as {csrf: string; messages: Record<string, string>}
    expect(body.messages['inspector.nav.requests']).toBe('Requêtes')
    const post = (headers: Record<string, string>) =>
      fetch(`${h.sb.url}/_admin/keys`, {method: 'POST', headers: {cookie: session, 'content-type': 'application/json', ...headers}, body: '{"environment":"SANDBOX"}'})
    expect((await post({})).status).toBe(401)
    expect((await post({'x-svc-csrf': body.csrf, origin: 'http://evil.example'})).status).toBe(401)
    expect((await post({'x-svc-csrf': body.csrf, origin: h.sb.url})).status).toBe(201)
    // The inspector's own traffic is not in the journal.
    const journal = await h.admin('GET', '/requests?path=/_admin/keys&method=POST&status=201')
    expect(journal.data).toEqual([])
  })

  it('creates a key and revokes it as the Settings page does: the API then refuses the key', async () => {
    const {url} = await h.admin('POST', '/inspector/login-links')
    const session = (await fetch(url, {redirect: 'manual'})).headers.get('set-cookie')!.split(';')[0]
    const {csrf} = (await (await fetch(`${h.sb.url}/_admin/inspector/session`, {headers: {cookie: session}})).json()) as {csrf: string}
    const change = (path: string, body?: unknown) =>
      fetch(`${h.sb.url}${path}`, {method: 'POST', headers: {cookie: session, 'x-svc-csrf': csrf, origin: h.sb.url, 'content-type': 'application/json'}, body: body === undefined ? undefined : JSON.stringify(body)})
    const created = (await (await change('/_admin/keys', {environment: 'SANDBOX'})).json()) as {id: string; secret: string}
    const read = () => fetch(`${h.sb.url}/v1/payments?limit=1`, {headers: {'x-api-key': created.secret}})
    expect((await read()).status).toBe(200)
    expect((await change(`/_admin/keys/${created.id}/revoke`)).status).toBe(200)
    const refused = await read()
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as {code: string}).code).toBe('unauthorized')
  })
})

describe('the handset’s PIN tries with --data', () => {
  it('outlive a restart: two wrong PINs, a restart, one more wrong PIN fails the payment with ACCOUNT_INACTIVE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-pin-tries-'))
    const dataFile = join(dir, 'sandbox.db')
    let sandbox = await startTestSandbox({dataFile})
    try {
      const created = await fetch(`${sandbox.sb.url}/v1/payments`, {
        method: 'POST',
        headers: {'x-api-key': sandbox.sb.keys.live, 'content-type': 'application/json'},
        body: JSON.stringify({amount: 1700, phone_number: '670000001', operator: 'MTN'}),
      })
      const {id} = (await created.json()) as {id: string}
      expect(await sandbox.admin('POST', `/phone/${id}/pin`, {pin: '0000'})).toMatchObject({tries_left: 2})
      expect(await sandbox.admin('POST', `/phone/${id}/pin`, {pin: '0000'})).toMatchObject({tries_left: 1})
      await sandbox.close()
      sandbox = await startTestSandbox({dataFile})
      expect((await sandbox.admin('GET', '/phone')).data.find((c: {payment_id: string}) => c.payment_id === id)).toMatchObject({tries_left: 1})
      expect(await sandbox.admin('POST', `/phone/${id}/pin`, {pin: '0000'})).toMatchObject({status: 'FAILED', tries_left: 0, failure_code: 'ACCOUNT_INACTIVE'})
      await sandbox.sb.clock.advance(1000)
      const live = sandbox.sb.keys.live
      expect(await sandbox.get(`/v1/payments/${id}/status`, live)).toMatchObject({status: 'FAILED', failure_code: 'ACCOUNT_INACTIVE'})
    } finally {
      await sandbox.close()
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
