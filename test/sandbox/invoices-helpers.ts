// Helpers of the invoice-domain tests (invoices, files, checkout, inventory): build bodies, move an
// invoice into each state through the real API and the real checkout form.
import type {Harness, Reply} from './helpers.js'

export const ITEMS = [
  {name: 'Bread', price: 500, quantity: 3},
  {name: 'Cake', description: 'Chocolate', price: 2500, quantity: 1},
]

export function invoiceBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {customer_name: 'Awa Bakery', due_date: '2099-12-31', items: ITEMS, customer_email: 'awa@example.cm', customer_phone: '670000001', ...overrides}
}

export async function createInvoice(h: Harness, overrides: Record<string, unknown> = {}, key?: string): Promise<any> {
  const reply = await h.api('POST', '/v1/invoices', {body: invoiceBody(overrides), key})
  if (reply.status !== 201) throw new Error(`create: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body
}

export async function publishInvoice(h: Harness, overrides: Record<string, unknown> = {}, key?: string): Promise<any> {
  const created = await createInvoice(h, overrides, key)
  const reply = await h.api('POST', `/v1/invoices/${created.id}/publish`, {key})
  if (reply.status !== 200) throw new Error(`publish: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body
}

/** Submit the hosted checkout form, as the customer's browser does. Returns the status and Location. */
export async function submitCheckout(
  h: Harness,
  invoice: {id: string; checkout_url: string},
  form: {phone: string; operator: string; amount?: number | string},
): Promise<{status: number; location: string | null; text: string}> {
  const url = new URL(invoice.checkout_url)
  url.pathname = `${url.pathname}/pay`
  const body = new URLSearchParams({phone: form.phone, operator: form.operator, ...(form.amount !== undefined ? {amount: String(form.amount)} : {})})
  const response = await fetch(url, {method: 'POST', body, redirect: 'manual', headers: {'content-type': 'application/x-www-form-urlencoded'}})
  return {status: response.status, location: response.headers.get('location'), text: await response.text()}
}

/** Pay `amount` (default: all that is due) with an always-SUCCESS number and let it settle on the sandbox clock. */
export async function pay(h: Harness, invoice: {id: string; checkout_url: string; amount_due: number}, amount = invoice.amount_due, phone = '670000001'): Promise<void> {
  const submitted = await submitCheckout(h, invoice, {phone, operator: 'MTN', amount})
  if (submitted.status !== 303) throw new Error(`checkout: ${submitted.status} ${submitted.text.slice(0, 500)}`)
  await h.sb.clock.advance(h.sb.context.options.settleAfterMs)
}

export async function getInvoice(h: Harness, id: string, key?: string): Promise<Reply> {
  return h.api('GET', `/v1/invoices/${id}`, {key})
}

/** An invoice in each status, reached through the API and the checkout. */
export async function invoiceIn(h: Harness, status: 'DRAFT' | 'UNPAID' | 'PAST_DUE' | 'PAID' | 'CANCELLED'): Promise<any> {
  if (status === 'DRAFT') return createInvoice(h)
  if (status === 'PAST_DUE') return publishInvoice(h, {due_date: '2020-01-31'})
  const published = await publishInvoice(h)
  if (status === 'PAID') await pay(h, published)
  if (status === 'CANCELLED') await h.api('POST', `/v1/invoices/${published.id}/cancel`)
  const reply = await getInvoice(h, published.id)
  if (reply.body.status !== status) throw new Error(`wanted ${status}, got ${reply.body.status}`)
  return reply.body
}

export async function mintKey(h: Harness, scopes: string[], environment = 'SANDBOX'): Promise<string> {
  const reply = await h.admin('POST', '/_admin/keys', {environment, scopes})
  if (reply.status !== 201) throw new Error(`mint: ${reply.status}`)
  return reply.body.secret
}
