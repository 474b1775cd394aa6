/**
 * The inspector's admin routes over real HTTP, without a browser: the handset (decline, a payment
 * that no longer waits), redeliver, the session's cookie and CSRF rules, the login link.
 */
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
})
