/** Shared by the invoice command tests: reads of the sandbox's state, a PNG, an import file. */
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

/** A tiny valid PNG header (the sandbox checks magic bytes, not the image). */
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)])

/** An import CSV of `n` distinct rows. */
export function importCsv(n: number, prefix = 'Customer'): string {
  let text = 'customer_name,due_date,items,external_reference\r\n'
  for (let i = 1; i <= n; i++) text += `"${prefix} ${i}",2026-12-31,"Bread:${100 + i}:2; Cake:1 000:1",REF-${i}\r\n`
  return text
}
