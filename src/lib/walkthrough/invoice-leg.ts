/**
 * The walkthrough's invoice leg: create (with an Idempotency-Key), publish, pay on the hosted
 * checkout page as a customer's browser would (the page's own form, no API key), then see PAID.
 * It uses the service's description for the paths the spec does not show.
 */
import {randomUUID} from 'node:crypto'

import {sleep} from '../../contract/clock.js'
import type {ApiClient} from '../api/index.js'
import type {Context} from '../context.js'
import {getLocale, statusLabel, t, type MessageKey} from '../i18n/index.js'
import {formatXaf} from '../payments/amount.js'

export interface InvoiceLeg {
  skipped: boolean
}

interface LegIo {
  say(key: MessageKey, params?: Record<string, string | number>): void
  record(step: MessageKey, expected: string, got: string, ok: boolean): void
  patienceMs: number
}

interface Invoice {
  id: string
  status: string
  total_amount: number
  checkout_url: string
  amount_due?: number
}

const SUCCESS_NUMBER = '237670000001'

/** The first form of a page: its action, method and fields (inputs with values, selects with options). */
export function readForm(html: string, pageUrl: string): {action: string; method: string; fields: Map<string, string[]>} | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html)
  if (!form) return undefined
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)?.slice(2).find((v) => v !== undefined)
  const fields = new Map<string, string[]>()
  for (const input of form[2].matchAll(/<input\b([^>]*)>/gi)) {
    const name = attr(input[1], 'name')
    if (name) fields.set(name, [...(fields.get(name) ?? []), decodeEntities(attr(input[1], 'value') ?? '')])
  }
  for (const select of form[2].matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)) {
    const name = attr(select[1], 'name')
    if (name) fields.set(name, [...select[2].matchAll(/<option\b([^>]*)>([^<]*)/gi)].map((o) => decodeEntities(attr(o[1], 'value') ?? o[2].trim())))
  }
  return {
    action: new URL(decodeEntities(attr(form[1], 'action') ?? ''), pageUrl).toString(),
    method: (attr(form[1], 'method') ?? 'GET').toUpperCase(),
    fields,
  }
}

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>')
}

export async function payInvoiceOnCheckout(ctx: Context, client: ApiClient, io: LegIo): Promise<InvoiceLeg> {
  const {discoverService, fillPath} = await import('../api/index.js')
  const service = await discoverService(client, {})
  if (service.source === 'fallback' || service.operations['invoice.create'].source === 'fallback') return {skipped: true}
  const op = service.operations

  io.say('walk.invoice.create')
  // Two weeks from the service's today (the sandbox clock may have been moved on), so it is UNPAID.
  const due = new Date((client.serviceNow()?.getTime() ?? ctx.clock.now()) + 14 * 86_400_000).toISOString().slice(0, 10)
  const created = await client.request<Invoice>({
    method: op['invoice.create'].method,
    path: op['invoice.create'].path,
    operation: 'invoice.create',
    idempotencyKey: randomUUID(),
    body: {
      customer_name: 'Awa Bakery',
      customer_email: 'awa@example.com',
      due_date: due,
      items: [
        {name: 'Bread', price: 500, quantity: 3},
        {name: 'Cake', price: 2500, quantity: 1},
      ],
      discount_percent: 10,
    },
  })
  const invoice = created.data
  const total = formatXaf(invoice.total_amount, getLocale())
  io.record('walk.step.invoiceCreated', `${statusLabel('DRAFT')}, ${formatXaf(3600, getLocale())}`, `${statusLabel(invoice.status)}, ${total} ${invoice.id}`, invoice.status === 'DRAFT' && invoice.total_amount === 3600)

  io.say('walk.invoice.publish')
  const published = await client.request<Invoice>({
    method: op['invoice.publish'].method,
    path: fillPath(op['invoice.publish'].path, invoice.id),
    operation: 'invoice.publish',
    body: {},
  })
  io.record('walk.step.invoicePublished', statusLabel('UNPAID'), statusLabel(published.data.status), published.data.status === 'UNPAID')

  io.say('walk.invoice.checkout', {url: invoice.checkout_url})
  const page = await fetch(invoice.checkout_url)
  const html = await page.text()
  const form = page.ok ? readForm(html, invoice.checkout_url) : undefined
  if (!form) {
    io.record('walk.step.checkout', t('walk.invoice.formExpected'), `HTTP ${page.status}`, false)
    return {skipped: false}
  }
  const body = new URLSearchParams()
  for (const [name, values] of form.fields) {
    if (/phone|msisdn|number/i.test(name)) body.set(name, SUCCESS_NUMBER)
    else if (/operator/i.test(name)) body.set(name, values.find((v) => v.toUpperCase() === 'MTN') ?? 'MTN')
    else if (values.length > 0) body.set(name, values[0])
  }
  const submitted = await fetch(form.action, {
    method: form.method,
    headers: {'content-type': 'application/x-www-form-urlencoded'},
    body: body.toString(),
  })
  await submitted.arrayBuffer()
  io.say('walk.invoice.paying', {phone: SUCCESS_NUMBER})

  const deadline = ctx.clock.now() + io.patienceMs
  let current = published.data
  while (current.status !== 'PAID' && ctx.clock.now() < deadline) {
    await sleep(ctx.clock, 250)
    current = (
      await client.request<Invoice>({method: op['invoice.get'].method, path: fillPath(op['invoice.get'].path, invoice.id), operation: 'invoice.get'})
    ).data
  }
  io.record('walk.invoice.paid', statusLabel('PAID'), statusLabel(current.status), current.status === 'PAID')
  return {skipped: false}
}
