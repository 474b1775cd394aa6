/**
 * A merchant's app against the service, through a client generated from its OpenAPI description
 * with openapi-typescript's defaults and called with openapi-fetch: collect, poll, list with
 * filters and pages, invoice from draft to cancelled, the two errors an app meets most (400, 404),
 * and the settlement events, typed, on a webhook endpoint.
 *
 *   npx openapi-typescript "$SVC_BASE_URL/v1/openapi.json" -o api.ts
 *   SVC_BASE_URL=… SVC_API_KEY=svc_sk_test_… SVC_WEBHOOK_PORT=… SVC_WEBHOOK_SECRET=whsec_… node merchant-flow.js
 *
 * The webhook endpoint (http://127.0.0.1:$SVC_WEBHOOK_PORT/webhooks) is registered beforehand,
 * as in the dashboard (`svc sandbox webhooks add URL` for the local sandbox), which gives its
 * secret. Prints one JSON summary on stdout; any surprise throws (exit 1).
 */
import {randomUUID} from 'node:crypto'
import {createServer} from 'node:http'

import createClient from 'openapi-fetch'

import type {components, paths} from './api.js'
import {handleEvent, verifyEvent, type Event} from './webhook-handler.js'

type Payment = components['schemas']['Payment']
type Invoice = components['schemas']['Invoice']

function need(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set`)
  return value
}

const client = createClient<paths>({baseUrl: need('SVC_BASE_URL'), headers: {'X-API-Key': need('SVC_API_KEY')}})
const DEADLINE = Date.now() + 60_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// Events arrive on our endpoint; each verified one is kept by payment id (webhook-id dedupes).
const events = new Map<string, Event>()
const seen = new Set<string>()
const receiver = createServer((req, res) => {
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (chunk: string) => (body += chunk))
  req.on('end', () => {
    const event = verifyEvent(need('SVC_WEBHOOK_SECRET'), req.headers, body)
    if (!event) return void res.writeHead(400).end()
    const id = String(req.headers['webhook-id'])
    if (!seen.has(id)) {
      seen.add(id)
      events.set(event.data.id, event)
    }
    res.writeHead(204).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(Number(need('SVC_WEBHOOK_PORT')), '127.0.0.1', resolve))

async function collect(amount: number, phone_number: string, operator: 'MTN' | 'ORANGE'): Promise<Payment> {
  // Not idempotent: never retried blindly (a retry prompts the customer again).
  const {data, error} = await client.POST('/v1/payments', {body: {amount, phone_number, operator}})
  if (error) throw new Error(`collect: ${error.code}: ${error.message}`)
  return data
}

async function settled(paymentId: string): Promise<Payment> {
  while (Date.now() < DEADLINE) {
    const {data, error} = await client.GET('/v1/payments/{paymentId}/status', {params: {path: {paymentId}}})
    if (error) throw new Error(`status: ${error.code}: ${error.message}`)
    if (data.status === 'SUCCESS' || data.status === 'FAILED') return data
    await sleep(200)
  }
  throw new Error(`${paymentId} did not settle in time`)
}

async function eventFor(paymentId: string): Promise<Event> {
  while (Date.now() < DEADLINE) {
    const event = events.get(paymentId)
    if (event) return event
    await sleep(100)
  }
  throw new Error(`no event for ${paymentId}`)
}

// 1. Collect with the sandbox's test numbers (always SUCCESS, always FAILED), and poll.
const paid = await settled((await collect(5000, '237670000001', 'MTN')).id)
const declined = await settled((await collect(2500, '237650000099', 'ORANGE')).id)

// 2. List with a filter, one page at a time.
const successIds: string[] = []
for (let offset = 0; ; ) {
  const {data, error} = await client.GET('/v1/payments', {params: {query: {status: 'SUCCESS', limit: 1, offset}}})
  if (error) throw new Error(`list payments: ${error.message}`)
  successIds.push(...data.data.map((p) => p.id))
  if (!data.has_more) break
  offset += data.data.length
}

// 3. An invoice: create (with an Idempotency-Key, sent twice), publish, send, cancel.
const idempotencyKey = randomUUID()
const draft = {
  customer_name: 'Awa Bakery',
  customer_email: 'awa@example.com',
  due_date: '2026-12-31',
  items: [{name: 'Bread', price: 500, quantity: 3}, {name: 'Cake', price: 2500, quantity: 1}],
  discount_percent: 10,
}
const created = await client.POST('/v1/invoices', {params: {header: {'Idempotency-Key': idempotencyKey}}, body: draft})
if (created.error) throw new Error(`create invoice: ${created.error.message}`)
const again = await client.POST('/v1/invoices', {params: {header: {'Idempotency-Key': idempotencyKey}}, body: draft})
if (again.error || again.data.id !== created.data.id) throw new Error('the replay made a second invoice')
const invoiceId = created.data.id
const statuses: Invoice['status'][] = [created.data.status]

const published = await client.POST('/v1/invoices/{invoiceId}/publish', {params: {path: {invoiceId}}})
if (published.error) throw new Error(`publish: ${published.error.message}`)
statuses.push(published.data.status)
const sent = await client.POST('/v1/invoices/{invoiceId}/send', {params: {path: {invoiceId}}, body: {}})
if (sent.error) throw new Error(`send: ${sent.error.message}`)
const cancelled = await client.POST('/v1/invoices/{invoiceId}/cancel', {params: {path: {invoiceId}}})
if (cancelled.error) throw new Error(`cancel: ${cancelled.error.message}`)
statuses.push(cancelled.data.status)

const drafts: string[] = []
for (let page = 1; ; page++) {
  const {data, error} = await client.GET('/v1/invoices', {params: {query: {status: 'CANCELLED', page, page_size: 1}}})
  if (error) throw new Error(`list invoices: ${error.message}`)
  drafts.push(...data.data.map((i) => i.id))
  if (page >= data.total_pages) break
}

// 4. The errors an app handles: a 400 names the field; a 404 is an unknown id.
const invalid = await client.POST('/v1/payments', {body: {amount: 0, phone_number: '237670000001', operator: 'MTN'}})
const missing = await client.GET('/v1/payments/{paymentId}/status', {params: {path: {paymentId: 'svcpay_test_doesnotexist'}}})

// 5. The settlement events, verified and typed.
const handled = [handleEvent(await eventFor(paid.id)), handleEvent(await eventFor(declined.id))]
receiver.close()

console.log(
  JSON.stringify({
    payments: [paid, declined].map((p) => ({id: p.id, status: p.status, failure_code: p.failure_code ?? null})),
    listed_success: successIds,
    invoice: {id: invoiceId, statuses, replayed: again.response.headers.get('Idempotent-Replayed'), delivered_to: sent.data.recipient},
    cancelled_invoices: drafts,
    errors: [
      {status: invalid.response.status, code: invalid.error?.code, fields: invalid.error?.errors?.map((e) => e.field) ?? []},
      {status: missing.response.status, code: missing.error?.code},
    ],
    events: handled,
  }),
)
