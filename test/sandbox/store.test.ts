/**
 * The one store interface, run against both implementations: in memory (MemoryStore, the default
 * sandbox) and on disk (SqliteStore, `--data FILE`).
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeEach, describe, expect, it} from 'vitest'
import {MemoryStore, type Store} from '../../src/sandbox/store.js'
import {openSqliteStore} from '../../src/sandbox/store-sqlite.js'

interface Thing {
  id: string
  n: number
  colour: string
}

const dir = mkdtempSync(join(tmpdir(), 'svc-store-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))
let files = 0

const implementations: Array<[string, () => Promise<Store>]> = [
  ['in memory', async () => new MemoryStore()],
  ['on disk (SQLite)', async () => openSqliteStore(join(dir, `store-${++files}.db`))],
]

function define(store: Store): void {
  store.defineCollection<Thing>('environment', 'things', {colour: (x) => x.colour, parity: (x) => (x.n % 2 ? 'odd' : 'even')})
}

function fill(store: Store, count = 5): void {
  const things = store.env('SANDBOX').collection<Thing>('things')
  for (let n = 1; n <= count; n++) things.insert({id: `t${n}`, n, colour: n <= 2 ? 'red' : 'blue'})
}

/** The end of this turn: the SQLite store commits there. */
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe.each(implementations)('store %s', (_name, open) => {
  let store: Store
  beforeEach(async () => {
    store = await open()
    define(store)
    return () => store.close()
  })

  it('keeps objects by id, in insertion order, with updates and deletes', () => {
    fill(store)
    const things = store.env('SANDBOX').collection<Thing>('things')
    expect(things.size).toBe(5)
    expect(things.get('t3')).toEqual({id: 't3', n: 3, colour: 'blue'})
    expect(things.get('nope')).toBeUndefined()
    expect(() => things.insert({id: 't1', n: 0, colour: 'red'})).toThrow(/duplicate id t1/)
    const held = things.get('t4')!
    const updated = things.update('t4', (x) => {
      x.colour = 'red'
    })
    // The object a domain holds is the one that changed.
    expect(updated).toBe(held)
    expect(held.colour).toBe('red')
    expect(things.update('nope', () => {})).toBeUndefined()
    expect(things.delete('t2')).toBe(true)
    expect(things.delete('t2')).toBe(false)
    expect(things.size).toBe(4)
    expect(things.values().map((x) => x.id)).toEqual(['t1', 't3', 't4', 't5'])
    expect(store.env('LIVE').collection('things').size).toBe(0)
  })

  it('pages newest first, filtered by index keys, with totals', () => {
    fill(store)
    const things = store.env('SANDBOX').collection<Thing>('things')
    expect(things.newestFirst(1, 2)).toEqual({items: [things.get('t4'), things.get('t3')], total: 5})
    expect(things.newestFirst(0, 10, {parity: 'odd'}).items.map((x) => x.n)).toEqual([5, 3, 1])
    expect(things.newestFirst(0, 10, {parity: 'odd'}).total).toBe(3)
    expect(things.newestFirst(1, 1, {colour: 'blue', parity: 'odd'})).toEqual({items: [things.get('t3')], total: 2})
    expect(things.newestFirst(0, 10, {colour: undefined}).total).toBe(5)
    expect(things.newestFirst(0, 2, {colour: 'blue'}, 3).total).toBe(3)
    // An update moves the object between filters.
    things.update('t5', (x) => {
      x.colour = 'red'
    })
    expect(things.find({colour: 'red'}).map((x) => x.id)).toEqual(['t1', 't2', 't5'])
    expect(things.countBy('colour')).toEqual({red: 3, blue: 2})
    expect(things.countBy('parity')).toEqual({odd: 3, even: 2})
    expect(() => things.find({size: 'big'})).toThrow(/not an index key/)
  })

  it('keeps settings, the task log and persisted extras', async () => {
    const db = store.env('LIVE')
    expect(db.setting('balance', 0)).toBe(0)
    db.setSetting('balance', 1500)
    expect(db.setting('balance', 0)).toBe(1500)
    expect(store.env('SANDBOX').setting('balance')).toBeUndefined()
    store.tasks.add({id: 1, at: 10, kind: 'k', payload: {a: 1}})
    store.tasks.add({id: 2, at: 5, kind: 'k', payload: null})
    store.tasks.remove(1)
    expect(store.tasks.all()).toEqual([{id: 2, at: 5, kind: 'k', payload: null}])
    let value = 1
    const loaded: unknown[] = []
    store.persist('counter', () => value, (v) => loaded.push(v))
    value = 2
    store.markDirty()
    await turn()
    const snapshot = await store.saveSnapshot('one')
    expect(snapshot).toMatchObject({name: 'one', created_at: expect.any(String)})
    value = 3
    await store.restoreSnapshot('one')
    expect(loaded).toEqual([2])
  })

  it('reset empties both environments and the queue, keeping the business unless all', () => {
    fill(store)
    store.business.collection<{id: string}>('api_keys').insert({id: 'key_1'})
    store.business.setSetting('fees', {mode: 'fixed'})
    store.env('SANDBOX').setSetting('balance', 10)
    store.tasks.add({id: 1, at: 10, kind: 'k', payload: null})
    let reloads = 0
    store.onReload(() => reloads++)
    store.reset(false)
    expect(store.env('SANDBOX').collection('things').size).toBe(0)
    expect(store.env('SANDBOX').collection('things').get('t1')).toBeUndefined()
    expect(store.env('SANDBOX').setting('balance')).toBeUndefined()
    expect(store.tasks.all()).toEqual([])
    expect(store.business.collection('api_keys').size).toBe(1)
    expect(store.business.setting('fees')).toEqual({mode: 'fixed'})
    store.reset(true)
    expect(store.business.collection('api_keys').size).toBe(0)
    expect(store.business.setting('fees')).toBeUndefined()
    expect(reloads).toBe(2)
  })

  it('snapshots: save, list, restore everything as it was, delete', async () => {
    fill(store, 3)
    store.env('SANDBOX').setSetting('balance', 10)
    store.tasks.add({id: 7, at: 70, kind: 'k', payload: 'x'})
    await turn()
    await store.saveSnapshot('before')
    const things = store.env('SANDBOX').collection<Thing>('things')
    things.insert({id: 't9', n: 9, colour: 'red'})
    things.update('t1', (x) => {
      x.n = 100
    })
    store.env('SANDBOX').setSetting('balance', 99)
    store.tasks.remove(7)
    await turn()
    expect(store.listSnapshots().map((s) => s.name)).toEqual(['before'])
    expect(await store.restoreSnapshot('before')).toBe(true)
    expect(things.values().map((x) => [x.id, x.n])).toEqual([
      ['t1', 1],
      ['t2', 2],
      ['t3', 3],
    ])
    expect(things.find({colour: 'red'}).map((x) => x.id)).toEqual(['t1', 't2'])
    expect(store.env('SANDBOX').setting('balance')).toBe(10)
    expect(store.tasks.all()).toEqual([{id: 7, at: 70, kind: 'k', payload: 'x'}])
    // Changes after a restore do not reach the snapshot.
    things.insert({id: 't10', n: 10, colour: 'red'})
    await turn()
    await store.restoreSnapshot('before')
    expect(things.size).toBe(3)
    expect(await store.restoreSnapshot('missing')).toBe(false)
    expect(store.deleteSnapshot('before')).toBe(true)
    expect(store.deleteSnapshot('before')).toBe(false)
    expect(store.listSnapshots()).toEqual([])
  })

  it('a restore leaves the credentials (the business’s api_keys) as they are: keys made after the snapshot stay, in their order, beside the restored data', async () => {
    const keys = store.business.collection<{id: string; n: number}>('api_keys')
    keys.insert({id: 'k1', n: 1})
    fill(store, 2)
    await turn()
    await store.saveSnapshot('before')
    keys.insert({id: 'k2', n: 2})
    keys.update('k1', (k) => {
      k.n = 10
    })
    store.env('SANDBOX').collection<Thing>('things').insert({id: 't9', n: 9, colour: 'red'})
    await turn()
    expect(await store.restoreSnapshot('before')).toBe(true)
    expect(keys.values().map((k) => [k.id, k.n])).toEqual([
      ['k1', 10],
      ['k2', 2],
    ])
    expect(store.env('SANDBOX').collection<Thing>('things').values().map((x) => x.id)).toEqual(['t1', 't2'])
    expect(store.env('SANDBOX').collection<Thing>('things').newestFirst(0, 10).items.map((x) => x.id)).toEqual(['t2', 't1'])
  })
})

describe('store on disk (SQLite) only', () => {
  let store: Store
  beforeEach(async () => {
    store = await implementations[1][1]()
    define(store)
    return () => store.close()
  })

  it('a restore from a damaged snapshot fails and changes nothing', async () => {
    fill(store, 2)
    await turn()
    await store.saveSnapshot('good')
    const file = (store as unknown as {file: string}).file
    writeFileSync(`${file}.snapshots/bad.sqlite`, 'SQLite format 3\0 but not really a database, only its first bytes')
    await expect(store.restoreSnapshot('bad')).rejects.toThrow()
    expect(store.env('SANDBOX').collection<Thing>('things').values().map((x) => x.id)).toEqual(['t1', 't2'])
  })

  it('what was committed is there after reopening', async () => {
    fill(store, 4)
    store.env('SANDBOX').collection<Thing>('things').delete('t2')
    store.tasks.add({id: 3, at: 30, kind: 'k', payload: [1]})
    await turn()
    const file = (store as unknown as {file: string}).file
    await store.close()
    store = await openSqliteStore(file)
    define(store)
    expect(store.restored).toBe(true)
    const things = store.env('SANDBOX').collection<Thing>('things')
    expect(things.values().map((x) => x.id)).toEqual(['t1', 't3', 't4'])
    expect(things.newestFirst(0, 5, {colour: 'blue'}).items.map((x) => x.id)).toEqual(['t4', 't3'])
    expect(store.tasks.all()).toEqual([{id: 3, at: 30, kind: 'k', payload: [1]}])
  })
})
