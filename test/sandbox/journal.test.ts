/**
 * The request journal's bounds, in process: the ring keeps the newest N, forgets the rest, drops
 * secret headers, cuts bodies at 64 KiB, and holds at most its body budget (oldest bodies go);
 * on a data file it is written, pruned to its bound and read back.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {JOURNAL_BODY_LIMIT} from '../../src/contract/sandbox-inspector.js'
import {Journal, JOURNAL_BODY_BUDGET, JOURNAL_URL_BUDGET, type Capture} from '../../src/sandbox/journal.js'
import type {Stored} from '../../src/sandbox/journal-ring.js'
import {openStore} from '../../src/sandbox/open-store.js'
import {MemoryStore} from '../../src/sandbox/store.js'

const capture = (n: number, body = ''): Capture => ({
  at: Date.now(),
  started: 0,
  clock: {monotonic: () => 0},
  method: 'POST',
  url: `/v1/payments?n=${n}`,
  ip: '127.0.0.1',
  rawHeaders: ['X-API-Key', 'svc_sk_test_secretsecret', 'Authorization', 'Bearer svc_admin_x', 'Cookie', 'svc_inspector=abc', 'x-webhook-token', 't', 'Content-Type', 'application/json', 'Idempotency-Key', `k${n}`],
  requestBody: Buffer.from(body),
  status: 201,
  responseHeaders: {'content-type': 'application/json', 'set-cookie': 'svc_inspector=abc'},
  responseBody: body,
  durationMs: 1.234,
})

describe('the request journal', () => {
  it('keeps the newest entries up to its size, newest first; older ones are gone', () => {
    const journal = new Journal(new MemoryStore(), 5)
    for (let n = 1; n <= 8; n++) journal.record(capture(n))
    const list = journal.list({})
    expect(list.map((e) => e.query)).toEqual(['n=8', 'n=7', 'n=6', 'n=5', 'n=4'])
    expect(journal.get('req_3')).toBeUndefined()
    expect(journal.get('req_4')?.idempotency_key).toBe('k4')
    expect(journal.get('req_9')).toBeUndefined()
    expect(journal.get('nonsense')).toBeUndefined()
  })

  it('keeps no secret header, and cuts a body at 64 KiB', () => {
    const journal = new Journal(new MemoryStore(), 5)
    journal.record(capture(1, `"${'é'.repeat(40_000)}"`))
    const [entry] = journal.list({})
    expect(Object.keys(entry.request_headers).sort()).toEqual(['content-type', 'idempotency-key'])
    expect(entry.response_headers['set-cookie']).toBeUndefined()
    expect(entry.truncated).toBe(true)
    expect(Buffer.byteLength(entry.request_body!)).toBeLessThanOrEqual(64 * 1024)
    expect(entry.request_body).not.toContain('\uFFFD')
    expect(entry.request_bytes).toBe(80_002)
  })

  it('holds at most its body budget: the oldest entries lose their bodies, not their lines', () => {
    const journal = new Journal(new MemoryStore(), 2000)
    const body = 'x'.repeat(60 * 1024)
    const count = Math.ceil((JOURNAL_BODY_BUDGET * 1.5) / (2 * body.length))
    for (let n = 1; n <= count; n++) journal.record(capture(n, body))
    const list = journal.list({}, count)
    expect(list).toHaveLength(count)
    const held = list.reduce((sum, e) => sum + (e.request_body?.length ?? 0) + (e.response_body?.length ?? 0), 0)
    expect(held).toBeLessThanOrEqual(JOURNAL_BODY_BUDGET)
    expect(list[0].response_body).toBe(body)
    expect(list.at(-1)!.response_body).toBeNull()
    expect(list.at(-1)!.request_headers['content-type']).toBe('application/json')
    expect(list.at(-1)!.truncated).toBe(true)
  })

  it('holds about what its entries take: bodies of requests pushed out of the ring make room for new ones', () => {
    const journal = new Journal(new MemoryStore(), 100)
    const body = 'y'.repeat(1024)
    for (let n = 1; n <= 5000; n++) journal.record(capture(n, body))
    const list = journal.list({}, 100)
    expect(list).toHaveLength(100)
    expect(list.every((e) => e.request_body === body && e.response_body === body && e.request_headers['idempotency-key'] === `k${e.query.slice(2)}`)).toBe(true)
    // 100 entries of 2 KiB of bodies: a few hundred KiB, not the 10 MB written through it.
    expect(journal.heldBytes).toBeLessThanOrEqual(1024 * 1024)
  })

  it('counts URLs and queries in its bound: of 11,000 requests with 7 KB queries it keeps the newest whole and the oldest cut, marked as cut', () => {
    const journal = new Journal(new MemoryStore())
    const query = `q=${'a'.repeat(7 * 1024)}`
    for (let n = 1; n <= 11_000; n++) journal.record({...capture(n), url: `/v1/payments?n=${n}&${query}`})
    const list = journal.list({}, 10_000)
    expect(list).toHaveLength(10_000)
    // What it can give back is what it holds: its 128-byte URL slots and JOURNAL_URL_BUDGET, not 70 MB.
    const held = list.reduce((sum, e) => sum + e.path.length + 1 + e.query.length, 0)
    expect(held).toBeLessThanOrEqual(JOURNAL_URL_BUDGET + 10_000 * 128)
    expect(journal.heldBytes).toBeGreaterThanOrEqual(held)
    expect(list[0]).toMatchObject({path: '/v1/payments', query: `n=11000&${query}`, truncated: false})
    const oldest = list.at(-1)!
    expect(oldest).toMatchObject({path: '/v1/payments', truncated: true})
    expect(`n=1001&${query}`.startsWith(oldest.query)).toBe(true)
    expect(oldest.query.length).toBeLessThan(128)
    // One longer than a URL is kept whole: cut, and marked.
    journal.record({...capture(0), url: `/v1/payments?${'b'.repeat(12 * 1024)}`})
    const [long] = journal.list({}, 1)
    expect(long.truncated).toBe(true)
    expect(long.query.length).toBeLessThan(12 * 1024)
  })

  it('holds 600 bodies of 900 KB within its budget, each cut at 64 KiB', () => {
    const journal = new Journal(new MemoryStore())
    const body = Buffer.alloc(900 * 1024, 'z')
    for (let n = 1; n <= 600; n++) journal.record({...capture(n), requestBody: body, responseBody: undefined})
    const list = journal.list({}, 600)
    expect(list).toHaveLength(600)
    expect(list.every((e) => e.truncated && e.request_bytes === body.length)).toBe(true)
    expect(list.reduce((sum, e) => sum + (e.request_body?.length ?? 0), 0)).toBeLessThanOrEqual(JOURNAL_BODY_BUDGET)
    expect(list[0].request_body).toHaveLength(64 * 1024)
  })

  it('holds no more of a request body waiting to be written than it keeps: a batch of 256 does not hold 256 bodies of 900 KB', () => {
    const journal = new Journal(new MemoryStore())
    // Each its own Buffer object over one 900 KB of bytes (255 copies were 230 MB to fill): what is
    // checked is the body each capture holds once recorded.
    const bytes = Buffer.alloc(900 * 1024, 'w')
    const waiting = Array.from({length: 255}, (_, n) => ({...capture(n), requestBody: bytes.subarray(), responseBody: undefined}))
    for (const one of waiting) journal.record(one)
    // Not yet written (a batch is written at 256, or 50 ms after its first): what the journal holds of each is what it reads of it.
    expect(Math.max(...waiting.map((one) => one.requestBody.length))).toBeLessThanOrEqual(JOURNAL_BODY_LIMIT + 1024)
    const [newest] = journal.list({}, 1)
    expect(newest).toMatchObject({request_bytes: 900 * 1024, truncated: true})
    expect(newest.request_body).toBe('w'.repeat(JOURNAL_BODY_LIMIT))
  })

  it('filters by method, path, status and age', () => {
    const journal = new Journal(new MemoryStore(), 10)
    // Two minutes old: out of a --since of one minute.
    journal.record({...capture(0), at: Date.now() - 120_000, url: '/v1/payments/old'})
    journal.record({...capture(1), method: 'GET', url: '/v1/invoices', status: 429})
    journal.record(capture(2))
    expect(journal.list({status: '4xx'}).map((e) => e.path)).toEqual(['/v1/invoices'])
    expect(journal.list({status: '201,429'})).toHaveLength(3)
    expect(journal.list({method: 'get'})).toHaveLength(1)
    expect(journal.list({path: '/v1/*ments'})).toHaveLength(2)
    expect(journal.list({path: '/v1/payments/'}).map((e) => e.path)).toEqual(['/v1/payments/old'])
    expect(journal.list({since_ms: 60_000}).map((e) => e.path)).toEqual(['/v1/payments', '/v1/invoices'])
    expect(journal.list({since_ms: 180_000})).toHaveLength(3)
  })

  it('records who made each request: the app, or the part of svc its svc-origin header names; the app’s only unless `all`, on disk too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-journal-'))
    try {
      const store = await openStore(join(dir, 'sandbox.db'))
      const journal = new Journal(store, 50)
      // The same headers object twice in a row (as a client polling sends them), then others.
      const polled = ['svc-origin', 'listen', 'Authorization', 'Bearer x']
      const origins = ['app', 'listen', 'listen', 'stand-in', 'app', 'inspector', 'app']
      const headersOf = (origin: string): string[] =>
        origin === 'listen' ? polled : origin === 'app' ? ['Content-Type', 'application/json'] : ['SVC-Origin', ` ${origin.toUpperCase()} `]
      origins.forEach((origin, n) => journal.record({...capture(n), rawHeaders: headersOf(origin)}))
      // A value svc does not send is the app's.
      journal.record({...capture(99), rawHeaders: ['svc-origin', 'someone-else']})
      expect(journal.list({all: true}).map((e) => e.origin)).toEqual(['app', ...[...origins].reverse()])
      expect(journal.list({}).map((e) => e.query)).toEqual(['n=99', 'n=6', 'n=4', 'n=0'])
      expect(journal.list({all: true, method: 'POST'})).toHaveLength(8)
      journal.close()
      await store.close()
      const reopened = await openStore(join(dir, 'sandbox.db'))
      const again = new Journal(reopened, 50)
      expect(again.list({all: true}).map((e) => e.origin)).toEqual(['app', ...[...origins].reverse()])
      expect(again.list({}).map((e) => e.query)).toEqual(['n=99', 'n=6', 'n=4', 'n=0'])
      again.close()
      await reopened.close()
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })

  it('on a data file (--data): written, pruned to its bound, and read back whole at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-journal-'))
    try {
      const store = await openStore(join(dir, 'sandbox.db'))
      const journal = new Journal(store, 5)
      for (let n = 1; n <= 700; n++) {
        journal.record(capture(n, `{"n":${n}}`))
        if (n % 5 === 0) journal.flush()
      }
      journal.close()
      // Pruned a batch at a time: never more than the bound and one batch (500).
      const disk = store.business.collection<{id: string}>('request_journal')
      expect(disk.size).toBeGreaterThanOrEqual(5)
      expect(disk.size).toBeLessThanOrEqual(505)
      expect(JSON.stringify(disk.newestFirst(0, 600).items)).not.toContain('svc_sk_test_secretsecret')

      const again = new Journal(store, 5)
      expect(again.list({}).map((e) => e.query)).toEqual(['n=700', 'n=699', 'n=698', 'n=697', 'n=696'])
      expect(again.get('req_700')).toMatchObject({idempotency_key: 'k700', request_body: '{"n":700}', response_body: '{"n":700}', request_headers: {'content-type': 'application/json'}})
      expect(again.get('req_700')!.request_headers['x-api-key']).toBeUndefined()
      // The numbering goes on after the entries read back.
      again.record(capture(701))
      expect(again.list({}, 1)[0].id).toBe('req_701')
      again.close()
      await store.close()
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
  it('masks the secrets of an entry an older svc wrote whole to the data file, as it is read back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-journal-old-'))
    try {
      const store = await openStore(join(dir, 'sandbox.db'))
      const journal = new Journal(store, 5)
      journal.record(capture(1, '{}'))
      journal.close()
      const secret = 'svc_sk_live_0123456789abcdefghijKLMN'
      const disk = store.business.collection<Stored>('request_journal')
      const [written] = disk.newestFirst(0, 1).items
      disk.insert({
        ...written!,
        id: 'old',
        seq: 2,
        query: `key=${secret}`,
        request_headers: {'x-note': secret},
        request_body: `{"key":"${secret}","pin":"1234"}`,
        response_body: `{"secret":"${secret}"}`,
      })
      const again = new Journal(store, 5)
      const entry = again.get('req_2')!
      expect(JSON.stringify(entry)).not.toContain(secret)
      expect(entry.query).toBe('key=svc_sk_live_…KLMN')
      expect(entry.request_headers['x-note']).toBe('svc_sk_live_…KLMN')
      expect(JSON.parse(entry.request_body!)).toEqual({key: 'svc_sk_live_…KLMN', pin: '…'})
      again.close()
      await store.close()
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})

/**
 * What a request has in common with the one before (its headers, its answer's headers, its
 * answer's text) is shared, not written again: whatever the order of what repeats and what does
 * not, and however the rings wrap, every entry reads back as it was answered.
 */
describe('the request journal, sharing what repeats', () => {
  const requestPools: Array<{raw: string[]; shown: Record<string, string>}> = [
    {raw: ['Host', '127.0.0.1:1', 'X-API-Key', 'svc_sk_test_secret', 'Content-Type', 'application/json'], shown: {host: '127.0.0.1:1', 'content-type': 'application/json'}},
    {raw: ['Host', '127.0.0.1:1', 'Content-Type', 'text/plain', 'Idempotency-Key', 'k1'], shown: {host: '127.0.0.1:1', 'content-type': 'text/plain', 'idempotency-key': 'k1'}},
    // Large enough that the rings wrap within a few entries (they start at 64 KiB).
    {raw: ['Host', '127.0.0.1:1', 'X-Trace', 't'.repeat(6000)], shown: {host: '127.0.0.1:1', 'x-trace': 't'.repeat(6000)}},
    {raw: ['X-Trace', 'u'.repeat(9000)], shown: {'x-trace': 'u'.repeat(9000)}},
  ]
  const responsePools: Array<Record<string, string | number>> = [
    {'content-type': 'application/json', 'content-length': 12},
    {'content-type': 'text/csv', date: 'Wed, 25 Nov 2026 20:00:00 GMT'},
    {'content-type': 'application/json', 'content-length': 13},
    // The first one's names but one.
    {'content-type': 'application/json'},
    {'content-type': 'text/csv', 'x-note': 'n'.repeat(7000)},
    {'content-type': 'text/csv', 'x-note': 'm'.repeat(11_000)},
  ]
  const long = 'z'.repeat(10_000)
  const bodies: Array<string | Buffer | undefined> = ['{"a":1}', '{"x":"é"}', long, 'w'.repeat(12_000), 'v'.repeat(15_000), undefined, Buffer.from('bytes of a file')]
  // A new string of the same text (decoded from its bytes): not the pool's, as a parser's is not.
  const copy = (text: string) => Buffer.from(text).toString()
  const capturing = (r: number, a: number, b: number, n: number): Capture => {
    const body = bodies[b]
    return {
      at: Date.now(),
      started: 0,
      clock: {monotonic: () => 0},
      method: 'GET',
      url: `/v1/payments/p${n % 3}/status`,
      ip: '127.0.0.1',
      // New arrays, objects and strings each time, as the parser and the handlers make them.
      rawHeaders: requestPools[r].raw.map(copy),
      requestBody: r === 1 ? Buffer.from(`body ${n}`) : undefined,
      status: 200,
      responseHeaders: Object.fromEntries(Object.entries(responsePools[a]).map(([name, value]) => [copy(name), typeof value === 'string' ? copy(value) : value])),
      responseBody: typeof body === 'string' ? copy(body) : body,
      durationMs: 1,
    }
  }

  it('reads every entry back as it was answered, whatever repeats and however the rings wrap', () => {
    const step = fc.tuple(fc.nat(requestPools.length - 1), fc.nat(responsePools.length - 1), fc.nat(bodies.length - 1), fc.nat(6))
    fc.assert(
      fc.property(fc.integer({min: 2, max: 9}), fc.array(step, {minLength: 1, maxLength: 120}), (size, steps) => {
        const journal = new Journal(new MemoryStore(), size)
        const expected: Array<{r: number; a: number; b: number; n: number}> = []
        steps.forEach(([r, a, b, repeat], n) => {
          // Runs of the same request, as a client polling a status makes them.
          for (let k = 0; k <= repeat % 4; k++) {
            journal.record(capturing(r, a, b, n))
            expected.push({r, a, b, n})
          }
          // Read now and then (a reader writes what is waiting first).
          if (repeat === 6) journal.list({}, 1)
        })
        const list = journal.list({}, size)
        expect(list).toHaveLength(Math.min(size, expected.length))
        list.forEach((entry, i) => {
          const {r, a, b, n} = expected[expected.length - 1 - i]
          const body = bodies[b]
          expect(entry.path).toBe(`/v1/payments/p${n % 3}/status`)
          expect(entry.request_headers).toEqual(requestPools[r].shown)
          expect(entry.response_headers).toEqual(Object.fromEntries(Object.entries(responsePools[a]).map(([name, value]) => [name, String(value)])))
          expect(entry.request_body).toBe(r === 1 ? `body ${n}` : null)
          expect(entry.response_body).toBe(body === undefined ? null : body.toString())
          expect(entry.truncated).toBe(false)
        })
      }),
      // The first example: an entry whose request headers were shared once lost them early when
      // its headAt did not count them (found by this property).
      {numRuns: 300, examples: [[6, [[0, 4, 0, 3], [2, 5, 0, 3], [0, 0, 0, 1], [3, 5, 0, 0]]]]},
    )
  })

  it('holds no more when every answer is the same: what is shared is written again as the ring turns', () => {
    const journal = new Journal(new MemoryStore(), 100)
    for (let n = 1; n <= 20_000; n++) journal.record(capturing(0, 0, 2, 0))
    const list = journal.list({}, 100)
    expect(list.every((e) => e.response_body === long && e.request_headers['content-type'] === 'application/json')).toBe(true)
    // 100 entries sharing one 10 KB answer: not the 200 MB written through the journal.
    expect(journal.heldBytes).toBeLessThanOrEqual(4 * 1024 * 1024)
  })
})
