/**
 * The sandbox's data: one business, two environments (SANDBOX, LIVE) that are separate databases,
 * each a set of named collections. Domains ask for their collection by name
 * (`store.env('LIVE').collection<Payment>('payments')`); business-wide objects (keys, webhook
 * endpoints, allowlist) live in `store.business`.
 *
 * One interface (`Store`), two implementations that the same tests run against
 * (test/sandbox/store.test.ts): `MemoryStore` here (the default: Maps, as fast as the sandbox
 * was before it had a database) and `SqliteStore` (store-sqlite.ts, `--data FILE`: every write
 * committed before its answer is sent). `openStore` (open-store.ts) picks one.
 *
 * What a domain may rely on, in both:
 * - `get` returns the stored object; `update(id, change)` is the only way to change it (a change
 *   made to an object outside `update` is not saved to disk).
 * - A collection declares up to two index keys (`defineCollection`); `find` and `newestFirst`
 *   filter on them by equality (on disk, through an SQL index).
 * - The scheduler's queue is saved task by task (`tasks`), small extra state (clock offset, the
 *   PRNG states) through `persist`.
 */
import {systemClock} from '../contract/clock.js'
import type {ScheduledTask, TaskLog} from './clock.js'
import type {Environment, JsonValue} from './types.js'

export interface Page<T> {
  items: T[]
  total: number
}

/** Equality on a collection's declared index keys; an undefined value does not filter. */
export type Where = Record<string, string | undefined>

/** Up to two named index keys, each computed from the object (undefined: not indexed). */
export type IndexKeys<T> = Record<string, (item: T) => string | undefined>

export const MAX_INDEX_KEYS = 2

export interface Collection<T extends {id: string}> {
  readonly size: number
  get(id: string): T | undefined
  insert(item: T): T
  /** Apply `change` to the stored object and save it. */
  update(id: string, change: (item: T) => void): T | undefined
  delete(id: string): boolean
  /** Every object, oldest first: for small collections (keys, endpoints, catalogue). */
  values(): readonly T[]
  /** The objects matching `where` on the index keys, oldest first. */
  find(where: Where): T[]
  /**
   * A page of the objects matching `where`, newest first, with the matching total (`knownTotal`
   * when the caller keeps it: a count is a scan on disk too).
   */
  newestFirst(offset: number, limit: number, where?: Where, knownTotal?: number): Page<T>
  /** How many objects have each value of the index key `key` (on disk: from the index, no object read). */
  countBy(key: string): Record<string, number>
}

export interface Database {
  collection<T extends {id: string}>(name: string): Collection<T>
  setting<T extends JsonValue>(name: string): T | undefined
  setting<T extends JsonValue>(name: string, fallback: T): T
  setSetting(name: string, value: JsonValue): void
}

export type {TaskLog} from './clock.js'

export interface SnapshotInfo {
  name: string
  created_at: string
  bytes?: number
}

export interface Store {
  readonly kind: 'memory' | 'sqlite'
  readonly business: Database
  env(environment: Environment): Database
  readonly tasks: TaskLog
  /** True when the store was opened on existing data (a restart). */
  readonly restored: boolean
  /** What opening the store did that a person should know (the CLI words it in its language). */
  readonly notices: StoreNotice[]
  /** Declare a collection's index keys before its first use (a domain does it in its constructor). */
  defineCollection<T extends {id: string}>(scope: 'business' | 'environment', name: string, index: IndexKeys<T>): void
  /**
   * Save extra state under `name` (the clock offset, the PRNG states). When the store holds a
   * value for `name`, `load` is called with it at once, and again after a snapshot is restored.
   */
  persist(name: string, dump: () => JsonValue, load: (value: JsonValue) => void): void
  /** Called after reset and restore, when whatever a domain derived from the data must be rebuilt. */
  onReload(listener: () => void): void
  /** Called once every domain has declared its collections (finishes an import). */
  ready(): void
  /** Empty both environments and the queue; with `all`, the business's keys, endpoints and settings too. */
  reset(all: boolean): void
  saveSnapshot(name: string): Promise<SnapshotInfo>
  /** Replace everything but the credentials (KEPT_BY_RESTORE) with the snapshot, all at once; false when there is no such snapshot. */
  restoreSnapshot(name: string): Promise<boolean>
  listSnapshots(): SnapshotInfo[]
  deleteSnapshot(name: string): boolean
  /** Something saved through `persist` changed (the clock moved): save it with this turn's writes. */
  markDirty(): void
  /**
   * Resolves once every write made so far is committed (rejects if the commit failed): the HTTP
   * layer awaits it before answering, so that an acknowledged write is on disk.
   */
  settled(): Promise<void>
  /** Write what is pending now (before a reply, at close). */
  flush(): void
  /** Done when every file of the store is closed (with --data, the checkpoint thread's connection too). */
  close(): void | Promise<void>
}

/** An old JSON data file was imported into the database (and kept as `backup`). */
export type StoreNotice =
  | {code: 'json_imported'; file: string; count: number; backup: string}
  /** The file holds fewer commits than the sandbox had made (its WAL lost to damage). */
  | {code: 'data_behind'; file: string; committed: number; found: number; at: string}

export const SETTLED: Promise<void> = Promise.resolve()

export type Scope = 'business' | Environment
export const SCOPES_OF_DATA: readonly Scope[] = ['business', 'SANDBOX', 'LIVE']

export {SNAPSHOT_NAME} from '../contract/sandbox-admin.js'

/**
 * The business's collections a restore leaves as they are: the credentials. A snapshot restores
 * data (payments, invoices, events, endpoints, clock, scenarios); a key created after it, and the
 * key the current start minted and saved in its profile, stay valid.
 */
export const KEPT_BY_RESTORE: readonly string[] = ['api_keys']

/** The registry of index keys, shared by both implementations. */
export class IndexRegistry {
  private readonly keys = new Map<string, Array<[string, (item: any) => string | undefined]>>()

  define(scope: 'business' | 'environment', name: string, index: IndexKeys<any>): void {
    const entries = Object.entries(index)
    if (entries.length > MAX_INDEX_KEYS) throw new Error(`collection ${name}: at most ${MAX_INDEX_KEYS} index keys`)
    this.keys.set(`${scope}/${name}`, entries)
  }

  of(scope: Scope, name: string): Array<[string, (item: any) => string | undefined]> {
    return this.keys.get(`${scope === 'business' ? 'business' : 'environment'}/${name}`) ?? []
  }

  /** The index slot (0 or 1) of each key of `where`; throws on an undeclared key (a programming error). */
  slots(scope: Scope, name: string, where: Where): Array<[number, string]> {
    const keys = this.of(scope, name)
    const result: Array<[number, string]> = []
    for (const [key, value] of Object.entries(where)) {
      if (value === undefined) continue
      const slot = keys.findIndex(([k]) => k === key)
      if (slot === -1) throw new Error(`collection ${name}: "${key}" is not an index key`)
      result.push([slot, value])
    }
    return result
  }
}

// In memory ---------------------------------------------------------------------------------------

/** Objects kept in insertion order with an id index: lists are newest first without sorting. */
class MemoryCollection<T extends {id: string}> implements Collection<T> {
  private byId = new Map<string, T>()
  private order: T[] = []

  constructor(
    private readonly matcher: (where: Where) => (item: T) => boolean,
    private readonly keyOf: (key: string) => (item: T) => string | undefined,
  ) {}

  get size(): number {
    return this.order.length
  }

  get(id: string): T | undefined {
    return this.byId.get(id)
  }

  insert(item: T): T {
    if (this.byId.has(item.id)) throw new Error(`duplicate id ${item.id}`)
    this.byId.set(item.id, item)
    this.order.push(item)
    return item
  }

  update(id: string, change: (item: T) => void): T | undefined {
    const item = this.byId.get(id)
    if (!item) return undefined
    change(item)
    return item
  }

  delete(id: string): boolean {
    const item = this.byId.get(id)
    if (!item) return false
    this.byId.delete(id)
    this.order.splice(this.order.lastIndexOf(item), 1)
    return true
  }

  values(): readonly T[] {
    return this.order
  }

  find(where: Where): T[] {
    return this.order.filter(this.matcher(where))
  }

  newestFirst(offset: number, limit: number, where?: Where, knownTotal?: number): Page<T> {
    const filter = where && Object.values(where).some((v) => v !== undefined) ? this.matcher(where) : undefined
    if (!filter) {
      const end = Math.max(0, this.order.length - offset)
      const start = Math.max(0, end - limit)
      return {items: this.order.slice(start, end).reverse(), total: this.order.length}
    }
    const items: T[] = []
    let total = 0
    for (let i = this.order.length - 1; i >= 0; i--) {
      const item = this.order[i]
      if (!filter(item)) continue
      if (total >= offset && items.length < limit) items.push(item)
      total++
      if (knownTotal !== undefined && items.length === limit) return {items, total: knownTotal}
    }
    return {items, total: knownTotal ?? total}
  }

  countBy(key: string): Record<string, number> {
    const counts: Record<string, number> = {}
    const value = this.keyOf(key)
    for (const item of this.order) {
      const v = value(item)
      if (v !== undefined) counts[v] = (counts[v] ?? 0) + 1
    }
    return counts
  }

  dump(): T[] {
    return this.order
  }

  load(items: T[]): void {
    this.byId.clear()
    this.order = []
    for (const item of items) {
      this.byId.set(item.id, item)
      this.order.push(item)
    }
  }
}

class MemoryDatabase implements Database {
  readonly collections = new Map<string, MemoryCollection<any>>()
  settings = new Map<string, JsonValue>()

  constructor(private readonly scope: Scope, private readonly indexes: IndexRegistry) {}

  collection<T extends {id: string}>(name: string): Collection<T> {
    let collection = this.collections.get(name)
    if (!collection) {
      collection = new MemoryCollection<T>(
        (where) => {
          const slots = this.indexes.slots(this.scope, name, where)
          const keys = this.indexes.of(this.scope, name)
          return (item) => slots.every(([slot, value]) => keys[slot][1](item) === value)
        },
        (key) => {
          const [[slot]] = this.indexes.slots(this.scope, name, {[key]: ''})
          return this.indexes.of(this.scope, name)[slot][1]
        },
      )
      this.collections.set(name, collection)
    }
    return collection as Collection<T>
  }

  setting<T extends JsonValue>(name: string): T | undefined
  setting<T extends JsonValue>(name: string, fallback: T): T
  setting<T extends JsonValue>(name: string, fallback?: T): T | undefined {
    return (this.settings.get(name) as T | undefined) ?? fallback
  }

  setSetting(name: string, value: JsonValue): void {
    this.settings.set(name, value)
  }

  dump(): {collections: Record<string, unknown[]>; settings: Record<string, JsonValue>} {
    const collections: Record<string, unknown[]> = {}
    for (const [name, collection] of this.collections) collections[name] = [...collection.dump()]
    return {collections, settings: Object.fromEntries(this.settings)}
  }

  load(data: {collections: Record<string, unknown[]>; settings: Record<string, JsonValue>}): void {
    for (const collection of this.collections.values()) collection.load([])
    for (const [name, items] of Object.entries(data.collections)) (this.collection(name) as MemoryCollection<any>).load(items as any[])
    this.settings = new Map(Object.entries(data.settings))
  }
}

class MemoryTaskLog implements TaskLog {
  tasks = new Map<number, ScheduledTask>()
  add(task: ScheduledTask): void {
    this.tasks.set(task.id, task)
  }
  remove(id: number): void {
    this.tasks.delete(id)
  }
  all(): ScheduledTask[] {
    return [...this.tasks.values()]
  }
}

/** Hooks and reload listeners, the same in both implementations. */
export class Extras {
  readonly hooks = new Map<string, {dump: () => JsonValue; load: (value: JsonValue) => void}>()
  readonly reloadListeners: Array<() => void> = []

  dumpAll(): Record<string, JsonValue> {
    const values: Record<string, JsonValue> = {}
    for (const [name, hook] of this.hooks) values[name] = hook.dump()
    return values
  }

  loadAll(values: Record<string, JsonValue>): void {
    for (const [name, hook] of this.hooks) if (name in values) hook.load(values[name])
  }

  reloaded(): void {
    for (const listener of this.reloadListeners) listener()
  }
}

interface MemorySnapshot {
  created_at: string
  data: string
}

export class MemoryStore implements Store {
  readonly kind = 'memory' as const
  readonly restored = false
  readonly notices: StoreNotice[] = []
  readonly business: MemoryDatabase
  readonly tasks = new MemoryTaskLog()
  private readonly environments: Record<Environment, MemoryDatabase>
  private readonly indexes = new IndexRegistry()
  private readonly extras = new Extras()
  private readonly snapshots = new Map<string, MemorySnapshot>()

  constructor() {
    this.business = new MemoryDatabase('business', this.indexes)
    this.environments = {SANDBOX: new MemoryDatabase('SANDBOX', this.indexes), LIVE: new MemoryDatabase('LIVE', this.indexes)}
  }

  env(environment: Environment): Database {
    return this.environments[environment]
  }

  defineCollection<T extends {id: string}>(scope: 'business' | 'environment', name: string, index: IndexKeys<T>): void {
    this.indexes.define(scope, name, index)
  }

  persist(name: string, dump: () => JsonValue, load: (value: JsonValue) => void): void {
    this.extras.hooks.set(name, {dump, load})
  }

  onReload(listener: () => void): void {
    this.extras.reloadListeners.push(listener)
  }

  ready(): void {}

  reset(all: boolean): void {
    const empty = {collections: {}, settings: {}}
    this.environments.SANDBOX.load(empty)
    this.environments.LIVE.load(empty)
    if (all) this.business.load(empty)
    this.tasks.tasks.clear()
    this.extras.reloaded()
  }

  async saveSnapshot(name: string): Promise<SnapshotInfo> {
    // A deep copy, as text: later changes to the live objects must not reach the snapshot.
    const data = JSON.stringify({
      business: this.business.dump(),
      SANDBOX: this.environments.SANDBOX.dump(),
      LIVE: this.environments.LIVE.dump(),
      tasks: this.tasks.all(),
      extras: this.extras.dumpAll(),
    })
    // The machine's time, as the SQLite store's snapshot file carries (its modification time).
    const snapshot = {created_at: new Date(systemClock.now()).toISOString(), data}
    this.snapshots.set(name, snapshot)
    return {name, created_at: snapshot.created_at, bytes: Buffer.byteLength(data)}
  }

  async restoreSnapshot(name: string): Promise<boolean> {
    const snapshot = this.snapshots.get(name)
    if (!snapshot) return false
    const data = JSON.parse(snapshot.data)
    const current = this.business.dump().collections
    for (const name of KEPT_BY_RESTORE) data.business.collections[name] = current[name] ?? []
    this.business.load(data.business)
    this.environments.SANDBOX.load(data.SANDBOX)
    this.environments.LIVE.load(data.LIVE)
    this.tasks.tasks = new Map((data.tasks as ScheduledTask[]).map((task) => [task.id, task]))
    this.extras.loadAll(data.extras)
    this.extras.reloaded()
    return true
  }

  listSnapshots(): SnapshotInfo[] {
    return [...this.snapshots].map(([name, s]) => ({name, created_at: s.created_at, bytes: Buffer.byteLength(s.data)}))
  }

  deleteSnapshot(name: string): boolean {
    return this.snapshots.delete(name)
  }

  markDirty(): void {}
  settled(): Promise<void> {
    return SETTLED
  }
  flush(): void {}
  close(): void {}
}

/** Raised when `--data` needs SQLite and better-sqlite3 cannot be loaded. */
export class StorageUnavailableError extends Error {
  readonly code = 'storage_unavailable'
  constructor(readonly reason: string) {
    super(`better-sqlite3 could not be loaded: ${reason}`)
  }
}
