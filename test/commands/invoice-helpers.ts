/** Shared by the invoice command tests: reads of the sandbox's state, a PNG, an import file. */
import {realPng} from '../helpers/images.js'
import {expect} from 'vitest'

import type {TestSandbox} from '../helpers/sandbox.js'

/** Every invoice of the key's environment, through the public API (all pages). */
export async function allInvoices({sb}: TestSandbox, key: 'sandbox' | 'live' = 'sandbox'): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = []
  for (let page = 1; ; page++) {
    const response = await fetch(`${sb.url}/v1/invoices?page=${page}&page_size=100`, {headers: {'X-API-Key': sb.keys[key]}})
    if (response.status !== 200) throw new Error(`list invoices: ${response.status} ${await response.text()}`)
    const body = (await response.json()) as {data: Array<Record<string, unknown>>; total_pages: number}
    out.push(...body.data)
    if (page >= body.total_pages || body.data.length === 0) return out
  }
}

/** A tiny real PNG (the sandbox decodes what it stores). */
export const PNG = realPng()

/** An import CSV of `n` distinct rows. */
export function importCsv(n: number, prefix = 'Customer'): string {
  let text = 'customer_name,due_date,items,external_reference\r\n'
  for (let i = 1; i <= n; i++) text += `"${prefix} ${i}",2026-12-31,"Bread:${100 + i}:2; Cake:1 000:1",REF-${i}\r\n`
  return text
}

/** A customer paying `amount` on the invoice's checkout page (the form's POST, MTN's always-SUCCESS number). */
export async function payAtCheckout(invoice: {checkout_url: string}, amount: number): Promise<void> {
  const action = new URL(invoice.checkout_url)
  action.pathname = `${action.pathname}/pay`
  const response = await fetch(action, {
    method: 'POST',
    headers: {'content-type': 'application/x-www-form-urlencoded'},
    body: new URLSearchParams({operator: 'MTN', phone: '670000001', amount: String(amount)}).toString(),
    redirect: 'manual',
  })
  expect(response.status).toBe(303)
}
