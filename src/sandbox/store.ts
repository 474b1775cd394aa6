/**
 * The sandbox's data: one business, two environments (SANDBOX, LIVE) that are separate databases,
 * each a set of named collections. Domains ask for their collection by name
 * (`store.env('LIVE').collection<Payment>('payments')`); business-wide objects (keys, webhook
 * endpoints, allowlist) live in `store.business`.
 *
 * In memory by default. With `dataFile`, everything (collections, settings, and whatever a module
 * registers with `persist()`, such as the clock offset and the scheduler queue) is written as JSON
 * shortly after each change and on close, and read back on start.
 */
import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import type {Environment, JsonValue} from './types.js'

export interface Page<T> {
  items: T[]
  total: number
}

/** Objects kept in insertion order with an id index: lists are newest first without sorting. */
export class Collection<T extends {id: string}> {
  private byId = new Map<string, T>()
  private order: T[] = []

  constructor(private readonly changed: () => void) {}

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
    this.changed()
    return item
  }

  /** Apply `change` to the stored object in place and mark the store dirty. */
  update(id: string, change: (item: T) => void): T | undefined {
    const item = this.byId.get(id)
    if (!item) return undefined
    change(item)
    this.changed()
    return item
  }

  delete(id: string): boolean {
    const item = this.byId.get(id)
    if (!item) return false
    this.byId.delete(id)
    this.order.splice(this.order.indexOf(item), 1)
    this.changed()
    return true
  }

  /** Oldest first. */
  values(): readonly T[] {
    return this.order
  }

  /**
   * A page of the objects that pass `filter`, newest first, with the filtered total. Without a
   * filter, or when the caller knows the filtered total, the scan stops once the page is full.
   */
  newestFirst(offset: number, limit: number, filter?: (item: T) => boolean, knownTotal?: number): Page<T> {
    if (!filter) {
      const end = Math.max(0, this.order.length - offset)
      const start = Math.max(0, end - limit)
      return {items: this.order.slice(start, end).reverse(), total: this.order.length}
    }
    const items: T[] = []
    let total = 0
    for (let i = this.order.length - 1; i >= 0; i--) {
      const item = this.order[i]
      if (filter && !filter(item)) continue
      if (total >= offset && items.length < limit) items.push(item)
      total++
      if (knownTotal !== undefined && items.length === limit) return {items, total: knownTotal}
    }
    return {items, total: knownTotal ?? total}
  }

  load(items: T[]): void {
    for (const item of items) {
      this.byId.set(item.id, item)
      this.order.push(item)
    }
  }
}

/** One database: named collections plus a small key-value settings map. */
export class Database {
  private collections = new Map<string, Collection<any>>()
  private settings = new Map<string, JsonValue>()
  /** Data read from the file for collections no module has asked for yet. */
  private pending: Record<string, unknown[]> = {}

  constructor(private readonly changed: () => void) {}

  collection<T extends {id: string}>(name: string): Collection<T> {
    let collection = this.collections.get(name)
    if (!collection) {
      collection = new Collection<T>(this.changed)
      const loaded = this.pending[name]
      if (loaded) {
        collection.load(loaded as T[])
        delete this.pending[name]
      }
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
    this.changed()
  }

  dump(): {collections: Record<string, unknown[]>; settings: Record<string, JsonValue>} {
    const collections: Record<string, unknown[]> = {...this.pending}
    for (const [name, collection] of this.collections) collections[name] = collection.values() as unknown[]
    return {collections, settings: Object.fromEntries(this.settings)}
  }

  restore(data: {collections?: Record<string, unknown[]>; settings?: Record<string, JsonValue>}): void {
    this.pending = {...data.collections}
    for (const [name, value] of Object.entries(data.settings ?? {})) this.settings.set(name, value)
  }
}

interface FileShape {
  version: 1
  business: ReturnType<Database['dump']>
  environments: Record<Environment, ReturnType<Database['dump']>>
  extras: Record<string, JsonValue>
}

export class Store {
  readonly business: Database
  private readonly environments: Record<Environment, Database>
  private hooks = new Map<string, {dump: () => JsonValue; load: (value: JsonValue) => void}>()
  private loadedExtras: Record<string, JsonValue> = {}
  private saveTimer: NodeJS.Timeout | undefined
  private dirty = false
  private fromFile = false

  constructor(private readonly dataFile?: string) {
    const changed = () => this.markDirty()
    this.business = new Database(changed)
    this.environments = {SANDBOX: new Database(changed), LIVE: new Database(changed)}
    if (dataFile && existsSync(dataFile)) this.read(dataFile)
  }

  env(environment: Environment): Database {
    return this.environments[environment]
  }

  /** True when the store was read from an existing data file (a restart). */
  get restored(): boolean {
    return this.fromFile
  }

  /**
   * Save extra state with the data file under `name` (the clock offset, the scheduler queue, a
   * PRNG state…). When the file held a value for `name`, `load` is called with it at once.
   */
  persist(name: string, dump: () => JsonValue, load: (value: JsonValue) => void): void {
    this.hooks.set(name, {dump, load})
    if (name in this.loadedExtras) load(this.loadedExtras[name])
  }

  markDirty(): void {
    if (!this.dataFile) return
    this.dirty = true
    if (this.saveTimer) return
    this.saveTimer = setTimeout(() => this.flush(), 100)
    this.saveTimer.unref()
  }

  /** Write the data file now (atomically: a temporary file renamed over it). */
  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer)
    this.saveTimer = undefined
    if (!this.dataFile || !this.dirty) return
    this.dirty = false
    const extras: Record<string, JsonValue> = {...this.loadedExtras}
    for (const [name, hook] of this.hooks) extras[name] = hook.dump()
    const data: FileShape = {
      version: 1,
      business: this.business.dump(),
      environments: {SANDBOX: this.environments.SANDBOX.dump(), LIVE: this.environments.LIVE.dump()},
      extras,
    }
    const temporary = `${this.dataFile}.${process.pid}.tmp`
    writeFileSync(temporary, JSON.stringify(data), {mode: 0o600})
    renameSync(temporary, this.dataFile)
  }

  private read(file: string): void {
    let data: FileShape
    try {
      data = JSON.parse(readFileSync(file, 'utf8')) as FileShape
    } catch (error) {
      throw new Error(`sandbox data file ${file} is not valid JSON: ${(error as Error).message}`)
    }
    if (data?.version !== 1) throw new Error(`sandbox data file ${file}: unsupported version`)
    this.business.restore(data.business ?? {})
    this.environments.SANDBOX.restore(data.environments?.SANDBOX ?? {})
    this.environments.LIVE.restore(data.environments?.LIVE ?? {})
    this.loadedExtras = data.extras ?? {}
    this.fromFile = true
  }
}
