/**
 * Shared by the hardening tests: a fresh sandbox per case (so counts are exact), direct reads and
 * writes of its public API (never through the proxy under test), and the "is this message fit for a
 * person" check.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {test as base} from 'vitest'

import type {TestClock} from '../helpers/clock.js'
import {startFaultProxy, type FaultProxy, type FaultRule} from '../helpers/fault-proxy.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

export type {TestSandbox}

/** A fresh sandbox; `clock`: its time runs on this test clock (shared with the CLI runs). */
export function freshSandbox(clock?: TestClock): Promise<TestSandbox> {
  return startTestSandbox({settleAfterMs: 100, clock})
}

export interface HardeningFixtures {
  /** A fresh sandbox for this test (so counts are exact), closed after it. */
  sb: TestSandbox
  /** A fresh temporary directory for this test (config dir, files), removed after it. */
  dir: string
  /** A fault proxy in front of this test's sandbox, closed after the test. */
  proxy(rules: FaultRule[]): Promise<FaultProxy>
}

/** The hardening tests' set-up as fixtures: `it('…', async ({sb, dir, proxy}) => …)`. */
export const test = base.extend<HardeningFixtures>({
  // eslint-disable-next-line no-empty-pattern
  sb: async ({}, use) => {
    const sb = await freshSandbox()
    try {
      await use(sb)
    } finally {
      await sb.close()
    }
  },
  // eslint-disable-next-line no-empty-pattern
  dir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-hardening-'))
    try {
      await use(dir)
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  },
  proxy: async ({sb}, use) => {
    const started: FaultProxy[] = []
    try {
      await use(async (rules) => {
        const proxy = await startFaultProxy(sb.sb.url, rules)
        started.push(proxy)
        return proxy
      })
    } finally {
      for (const proxy of started) await proxy.close()
    }
  },
})

export const it = test

/** A public-API call straight to the sandbox (not through any proxy). */
export async function direct<T = any>(sb: TestSandbox, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{status: number; data: T}> {
  const response = await fetch(`${sb.sb.url}${path}`, {
    method,
    headers: {'x-api-key': sb.sb.keys.sandbox, ...(body === undefined ? {} : {'content-type': 'application/json'}), ...headers},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return {status: response.status, data: (text ? JSON.parse(text) : undefined) as T}
}

export async function allPayments(sb: TestSandbox, key: 'sandbox' | 'live' = 'sandbox'): Promise<any[]> {
  const out: any[] = []
  for (let offset = 0; ; offset += 100) {
    const page = await sb.get(`/v1/payments?limit=100&offset=${offset}`, sb.sb.keys[key])
    out.push(...page.data)
    if (!page.has_more) return out
  }
}

export async function allInvoices(sb: TestSandbox, key: 'sandbox' | 'live' = 'sandbox'): Promise<any[]> {
  const out: any[] = []
  for (let page = 1; ; page++) {
    const body = await sb.get(`/v1/invoices?page=${page}&page_size=100`, sb.sb.keys[key])
    out.push(...body.data)
    if (page >= body.total_pages || body.data.length === 0) return out
  }
}

let invoiceSeq = 0
/** An invoice made directly: a DRAFT, or published (UNPAID) with `publish`. */
export async function makeInvoice(sb: TestSandbox, options: {publish?: boolean; name?: string; key?: 'sandbox' | 'live'} = {}): Promise<any> {
  const key = sb.sb.keys[options.key ?? 'sandbox']
  invoiceSeq += 1
  const created = await direct(
    sb,
    'POST',
    '/v1/invoices',
    {
      customer_name: options.name ?? `Fixture ${invoiceSeq}`,
      customer_email: 'awa@example.com',
      customer_phone: '+237670000001',
      due_date: '2099-12-31',
      items: [{name: 'Bread', price: 500, quantity: 3}],
    },
    {'idempotency-key': `fixture-${process.pid}-${invoiceSeq}-${Date.now()}`, 'x-api-key': key},
  )
  if (created.status !== 201 && created.status !== 200) throw new Error(`fixture invoice: ${created.status} ${JSON.stringify(created.data)}`)
  if (!options.publish) return created.data
  const published = await direct(sb, 'POST', `/v1/invoices/${created.data.id}/publish`, {}, {'x-api-key': key})
  if (published.status !== 200) throw new Error(`fixture publish: ${published.status} ${JSON.stringify(published.data)}`)
  return published.data
}

export async function makePayment(sb: TestSandbox, phone = '237670000001', amount = 1000): Promise<any> {
  const created = await direct(sb, 'POST', '/v1/payments', {amount, phone_number: phone, operator: 'MTN', payment_method: 'mobile_money'})
  if (created.status !== 201) throw new Error(`fixture payment: ${created.status}`)
  return created.data
}

/**
 * What would make an error unfit for a person: a stack trace, "undefined"/"[object Object]", raw
 * HTML tags, an unfilled {placeholder}, or nothing at all. Returns the problems found.
 */
export function unreadable(stderr: string): string[] {
  const problems: string[] = []
  if (stderr.trim() === '') problems.push('no message on stderr')
  if (/\n\s+at .+:\d+:\d+\)?/.test(stderr)) problems.push('stack trace')
  if (/\bundefined\b|\[object Object\]|\bNaN\b/.test(stderr)) problems.push('undefined/[object Object]/NaN')
  if (/<\/?[a-z!][^>]*>/i.test(stderr)) problems.push('raw HTML tag')
  if (/\{[a-z]\w*\}/.test(stderr)) problems.push('unfilled placeholder')
  return problems
}
