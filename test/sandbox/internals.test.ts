// The building blocks other domains reuse: the schema validator, the scheduler on the sandbox
// clock, the store, ids.
import {describe, expect, it, vi} from 'vitest'
import {SandboxClock, Scheduler} from '../../src/sandbox/clock.js'
import {idEnvironment, newId, newPlainId, randomToken} from '../../src/sandbox/ids.js'
import {normalisePhone} from '../../src/contract/phone.js'
import {validate, type Schema} from '../../src/sandbox/schema.js'
import {MemoryStore} from '../../src/sandbox/store.js'

describe('schema validator', () => {
  const schema: Schema = {
    type: 'object',
    required: ['name', 'items'],
    additionalProperties: false,
    properties: {
      name: {type: 'string', minLength: 1, maxLength: 5},
      due: {type: 'string', format: 'date'},
      note: {type: ['string', 'null']},
      kind: {type: 'string', enum: ['A', 'B'], default: 'A'},
      items: {
        type: 'array',
        minItems: 1,
        items: {type: 'object', required: ['price'], additionalProperties: false, properties: {price: {type: 'integer', minimum: 0}}},
      },
    },
  }
  it.each([
    [{name: 'x', items: [{price: 1}]}, []],
    [{name: '', items: [{price: 1}]}, ['name']],
    [{name: 'toolong', items: [{price: 1}]}, ['name']],
    [{name: 'x', items: []}, ['items']],
    [{name: 'x', items: [{price: -1}, {price: 'a'}, {}]}, ['items[0].price', 'items[1].price', 'items[2].price']],
    [{name: 'x', items: [{price: 1, extra: 1}]}, ['items[0].extra']],
    [{name: 'x', due: '2026-13', items: [{price: 1}]}, ['due']],
    [{name: 'x', note: null, items: [{price: 1}]}, []],
    [{name: 'x', note: 3, items: [{price: 1}]}, ['note']],
    [{items: [{price: 1}], kind: 'C'}, ['name', 'kind']],
    [[], ['body']],
  ])('%j → errors on %j', (value, fields) => {
    expect(validate(schema, value).errors.map((e) => e.field).sort()).toEqual([...fields].sort())
  })

  it('fills in defaults and coerces query strings only when asked', () => {
    expect(validate(schema, {name: 'x', items: [{price: 1}]}).value).toEqual({name: 'x', kind: 'A', items: [{price: 1}]})
    const query: Schema = {type: 'object', properties: {limit: {type: 'integer', default: 20}, on: {type: 'boolean'}}}
    expect(validate(query, {limit: '5', on: 'true'}, {coerce: true}).value).toEqual({limit: 5, on: true})
    expect(validate(query, {limit: '5'}).errors).toHaveLength(1)
    expect(validate(query, {limit: '5.5'}, {coerce: true}).errors[0].field).toBe('limit')
  })
})

describe('scheduler', () => {
  it('advance: time stands still while tasks run, so a follow-up due at the target runs even when the task is slow', async () => {
    const clock = new SandboxClock()
    const scheduler = new Scheduler(clock)
    const ran: string[] = []
    // As a settlement does: real time passes while it runs, then it queues a delivery "now".
    scheduler.define('slow', async () => {
      ran.push('slow')
      // The wait is the premise: real time passes while this task runs.
      await new Promise((resolve) => setTimeout(resolve, 30))
      scheduler.schedule(clock.now(), 'deliver')
    })
    // As a refused delivery does: a retry 5 s after its own due time.
    scheduler.define('deliver', (_payload, task) => {
      ran.push('deliver')
      scheduler.schedule(task.at + 5000, 'follow-up')
    })
    scheduler.define('follow-up', () => {
      ran.push('follow-up')
    })
    const start = clock.now()
    scheduler.schedule(start, 'slow')
    const state = await scheduler.advance(5000)
    expect(ran).toEqual(['slow', 'deliver', 'follow-up'])
    expect(state.now_ms).toBeGreaterThanOrEqual(start + 5000)
    expect(state.now_ms).toBeLessThan(start + 5000 + 1000)
    // After the advance, time flows again from where it stood.
    const before = clock.now()
    await vi.waitFor(() => expect(clock.now()).toBeGreaterThan(before), {timeout: 10_000, interval: 5})
    scheduler.stop()
  })

  it('runs due tasks in time order (ties in scheduling order) as the clock advances, and tasks may schedule more', async () => {
    const clock = new SandboxClock()
    const scheduler = new Scheduler(clock)
    const log: string[] = []
    scheduler.define('log', (payload: {name: string; then?: number}, task) => {
      log.push(`${payload.name}@${task.at - start}`)
      expect(clock.now()).toBeGreaterThanOrEqual(task.at)
      if (payload.then) scheduler.schedule(task.at + payload.then, 'log', {name: `${payload.name}+`})
    })
    const start = clock.now()
    scheduler.schedule(start + 3000, 'log', {name: 'c'})
    scheduler.schedule(start + 1000, 'log', {name: 'a', then: 500})
    scheduler.schedule(start + 1000, 'log', {name: 'b'})
    const cancelled = scheduler.schedule(start + 2000, 'log', {name: 'x'})
    scheduler.cancel(cancelled)
    scheduler.schedule(start + 10_000, 'log', {name: 'late'})
    await scheduler.advance(3000)
    expect(log).toEqual(['a@1000', 'b@1000', 'a+@1500', 'c@3000'])
    expect(scheduler.pending()).toBe(1)
    expect(scheduler.snapshot().map((t) => t.payload)).toEqual([{name: 'late'}])
    await expect(scheduler.advance(-1)).rejects.toThrow(RangeError)
    scheduler.stop()
  })

  it('a throwing task is recorded and does not stop the others', async () => {
    const scheduler = new Scheduler(new SandboxClock())
    const ran: number[] = []
    scheduler.define('boom', () => {
      throw new Error('kaput')
    })
    scheduler.define('ok', (n: number) => void ran.push(n))
    scheduler.schedule(0, 'boom')
    scheduler.schedule(0, 'ok', 1)
    await scheduler.advance(0)
    expect(ran).toEqual([1])
    expect(scheduler.errors).toEqual([{kind: 'boom', message: 'kaput'}])
    expect(() => scheduler.schedule(0, 'unknown')).toThrow()
    scheduler.stop()
  })
})

describe('store', () => {
  it('lists newest first with a filtered total', () => {
    const store = new MemoryStore()
    store.defineCollection<{id: string; n: number}>('environment', 'things', {parity: (x) => (x.n % 2 === 1 ? 'odd' : 'even')})
    const c = store.env('SANDBOX').collection<{id: string; n: number}>('things')
    for (let n = 1; n <= 5; n++) c.insert({id: `t${n}`, n})
    expect(c.newestFirst(1, 2).items.map((x) => x.n)).toEqual([4, 3])
    expect(c.newestFirst(0, 10, {parity: 'odd'})).toEqual({items: [{id: 't5', n: 5}, {id: 't3', n: 3}, {id: 't1', n: 1}], total: 3})
    expect(store.env('LIVE').collection('things').size).toBe(0)
    expect(() => c.insert({id: 't1', n: 0})).toThrow()
  })
})

describe('ids and phones', () => {
  it.each([
    ['svcpay', 'SANDBOX', /^svcpay_test_[0-9A-Za-z]{24}$/],
    ['svcpay', 'LIVE', /^svcpay_[0-9A-Za-z]{24}$/],
  ] as const)('%s ids in %s', (prefix, environment, pattern) => {
    const id = newId(prefix, environment)
    expect(id).toMatch(pattern)
    expect(idEnvironment(prefix, id)).toBe(environment)
  })
  it('ids made later sort after those made before (byte order: the id index on disk grows at its end), and never repeat', async () => {
    const first = Array.from({length: 500}, () => newId('svcpay', 'SANDBOX'))
    // A later millisecond than any of the first ids.
    const madeBy = Date.now()
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(madeBy), {timeout: 10_000, interval: 1})
    const later = newPlainId('evt')
    expect(new Set(first).size).toBe(first.length)
    const last = first.reduce((max, id) => (Buffer.compare(Buffer.from(id), Buffer.from(max)) > 0 ? id : max))
    expect(Buffer.compare(Buffer.from(later.slice(4, 12)), Buffer.from(last.slice(12, 20)))).toBe(1)
    // 16 random characters after the 8 of the time: ids of the same millisecond still differ there.
    expect(new Set(first.map((id) => id.slice(20))).size).toBe(first.length)
  })
  it('random tokens: base62, every length, distinct across refills of the byte pool', () => {
    const tokens = Array.from({length: 2000}, (_, i) => randomToken(1 + (i % 40)))
    for (const [i, token] of tokens.entries()) expect(token).toMatch(new RegExp(`^[0-9A-Za-z]{${1 + (i % 40)}}$`))
    const long = tokens.filter((token) => token.length >= 20)
    expect(new Set(long).size).toBe(long.length)
  })
  it.each([
    ['svcpay_test_', undefined],
    ['svcpay_', undefined],
    ['inv_test_abc', undefined],
    ['svcpayment_abc', undefined],
  ])('%s has no svcpay environment', (id, expected) => {
    expect(idEnvironment('svcpay', id)).toBe(expected)
  })
  it.each([
    ['690000001', '237690000001'],
    ['+237690000001', '237690000001'],
    ['0690000001', undefined],
    ['23769000000', undefined],
    ['+1 690000001', undefined],
  ])('normalisePhone(%s) = %s', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected)
  })
})
