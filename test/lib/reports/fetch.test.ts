import {PassThrough} from 'node:stream'
import {describe, expect, it} from 'vitest'

import {FALLBACK_FIELDS, FALLBACK_LISTS, FALLBACK_OPERATIONS, type ApiClient, type RequestOptions, type ServiceDescription} from '../../../src/lib/api/index.js'
import {IO} from '../../../src/lib/io/terminal.js'
import {fetchOpenInvoices, fetchPaymentsSince} from '../../../src/lib/reports/fetch.js'
import {reportProgress} from '../../../src/lib/reports/progress.js'
import {systemClock} from '../../../src/contract/clock.js'

const service: ServiceDescription = {
  operations: Object.fromEntries(Object.entries(FALLBACK_OPERATIONS).map(([k, v]) => [k, {...v, source: 'fallback'}])) as ServiceDescription['operations'],
  lists: {payments: {...FALLBACK_LISTS.payments}, invoices: {...FALLBACK_LISTS.invoices}},
  fields: {...FALLBACK_FIELDS},
  source: 'fallback',
}

/** A client whose list answers come from `answer`, recording every request. */
function fakeClient(answer: (options: RequestOptions) => unknown): {client: ApiClient; requests: RequestOptions[]} {
  const requests: RequestOptions[] = []
  const client = {
    async request(options: RequestOptions) {
      requests.push(options)
      return {status: 200, headers: {}, data: answer(options), replayed: false}
    },
  } as unknown as ApiClient
  return {client, requests}
}

describe('fetchOpenInvoices', () => {
  const store: Record<string, Array<{id: string; status: string}>> = {
    UNPAID: [1, 2, 3].map((i) => ({id: `u${i}`, status: 'UNPAID'})),
    PAST_DUE: [1, 2].map((i) => ({id: `p${i}`, status: 'PAST_DUE'})),
  }
  const pages = (o: RequestOptions) => {
    const {status, page, page_size} = o.query as {status: string; page: number; page_size: number}
    const all = store[status]!
    return {data: all.slice((page - 1) * page_size, page * page_size), page, page_size, total: all.length, total_pages: Math.ceil(all.length / page_size)}
  }

  it('reads every page of UNPAID then PAST_DUE at the page size asked for', async () => {
    const {client, requests} = fakeClient(pages)
    const seen: number[] = []
    const items = await fetchOpenInvoices(client, service, {pageSize: 1, onPage: (n) => seen.push(n)})
    expect(items.map((i) => i.id)).toEqual(['u1', 'u2', 'u3', 'p1', 'p2'])
    expect(requests.map((r) => [r.method, r.path, r.operation, r.query])).toEqual([
      ['GET', '/v1/invoices', 'invoice.list', {status: 'UNPAID', page: 1, page_size: 1}],
      ['GET', '/v1/invoices', 'invoice.list', {status: 'UNPAID', page: 2, page_size: 1}],
      ['GET', '/v1/invoices', 'invoice.list', {status: 'UNPAID', page: 3, page_size: 1}],
      ['GET', '/v1/invoices', 'invoice.list', {status: 'PAST_DUE', page: 1, page_size: 1}],
      ['GET', '/v1/invoices', 'invoice.list', {status: 'PAST_DUE', page: 2, page_size: 1}],
    ])
    expect(seen).toEqual([1, 2, 3, 4, 5])
  })

  it('follows a bare array (no envelope) until a short page', async () => {
    const {client, requests} = fakeClient((o) => (pages(o) as {data: unknown[]}).data)
    const items = await fetchOpenInvoices(client, service, {pageSize: 2})
    expect(items).toHaveLength(5)
    expect(requests).toHaveLength(4) // UNPAID: a full page, then a short one; PAST_DUE: a full page, then an empty one
  })
})

describe('fetchPaymentsSince', () => {
  // Newest first, one per hour back from 12:00.
  const payments = Array.from({length: 10}, (_, i) => ({id: `p${i}`, created_at: new Date(Date.UTC(2026, 5, 1, 12 - i)).toISOString()}))
  const pages = (o: RequestOptions) => {
    const {limit, offset} = o.query as {limit: number; offset: number}
    const data = payments.slice(offset, offset + limit)
    return {data, limit, offset, total: payments.length, has_more: offset + data.length < payments.length}
  }

  it('stops at the first page that ends before --since', async () => {
    const {client, requests} = fakeClient(pages)
    const items = await fetchPaymentsSince(client, service, new Date(Date.UTC(2026, 5, 1, 8, 30)), {pageSize: 3})
    // 12, 11, 10 | 9, 8, 7: the second page ends before 08:30, so the third is never asked for.
    expect(items.map((p) => p.id)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5'])
    expect(requests.map((r) => r.query)).toEqual([
      {limit: 3, offset: 0},
      {limit: 3, offset: 3},
    ])
    expect(requests.every((r) => r.operation === 'payment.list' && r.path === '/v1/payments')).toBe(true)
  })

  it('reads to the end, one at a time, when everything is recent enough', async () => {
    const {client, requests} = fakeClient(pages)
    const items = await fetchPaymentsSince(client, service, new Date(Date.UTC(2026, 4, 1)), {pageSize: 1})
    expect(items).toHaveLength(10)
    expect(requests).toHaveLength(10)
  })
})

describe('reportProgress', () => {
  const io = (interactive: boolean, json = false) => {
    const stderr = Object.assign(new PassThrough(), {isTTY: false})
    let text = ''
    stderr.on('data', (d: Buffer) => (text += d.toString()))
    const s = () => Object.assign(new PassThrough(), {isTTY: false})
    return {io: new IO({stdin: s(), stdout: s(), stderr}, {interactive, color: false, json}), text: () => text}
  }

  it('off a terminal: quiet for a short run, then a line at most every quietMs', async () => {
    let now = 0
    const {io: out, text} = io(false)
    const progress = await reportProgress(out, 'start', {quietMs: 1000, clock: {...systemClock, now: () => now}})
    progress.update('a')
    now = 999
    progress.update('b')
    now = 1000
    progress.update('c')
    now = 1500
    progress.update('d')
    now = 2000
    progress.update('e')
    progress.stop()
    await new Promise((r) => setImmediate(r))
    expect(text()).toBe('c\ne\n')
  })

  it('nothing at all with --json', async () => {
    let now = 0
    const {io: out, text} = io(false, true)
    const progress = await reportProgress(out, 'start', {quietMs: 0, clock: {...systemClock, now: () => now}})
    now = 10
    progress.update('a')
    await new Promise((r) => setImmediate(r))
    expect(text()).toBe('')
  })
})
