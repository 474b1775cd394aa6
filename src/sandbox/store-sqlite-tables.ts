/**
 * The store's tables as the domains see them: a collection of documents (with its bounded object
 * cache and its two index keys), an environment's database, the scheduler's task log. Imports the
 * sandbox's own files.
 */
import type {ScheduledTask, TaskLog} from './clock.js'
import type {Collection, Database, IndexRegistry, Page, Scope, Where} from './store.js'
import type {JsonValue} from './types.js'
import type {Db, Statement} from './store-sqlite-driver.js'


/** What a table needs of its store (store-sqlite.ts's SqliteStore): its connection, statements and index keys, and to be told of a write. */
export interface SqliteHost {
  readonly db: Db
  readonly indexes: IndexRegistry
  readonly statements: Record<'getSetting' | 'setSetting' | 'addTask' | 'removeTask' | 'allTasks' | 'getExtra' | 'setExtra' | 'begin' | 'commit', Statement>
  writing(): void
}

/**
 * Objects kept by id per collection: between this many and twice as many, the most recently used.
 * Enough for every payment still to settle at 10,000 creates/s (settlement comes 2 s after the
 * create): with 10,000, one settlement in two read its payment back from SQLite and JSON.parse,
 * 14 µs a create at a million rows.
 */
const CACHE_LIMIT = 25_000

/**
 * Two generations of objects by id: a full young generation becomes the old one, and an object
 * read from the old one moves back to the young. O(1) everywhere (evicting one by one from the
 * front of a Map is not: V8 skips every deleted slot on each `keys().next()`).
 */
class ObjectCache<T> {
  private young = new Map<string, T>()
  private old = new Map<string, T>()

  get(id: string): T | undefined {
    const item = this.young.get(id)
    if (item !== undefined) return item
    const older = this.old.get(id)
    if (older !== undefined) this.set(id, older)
    return older
  }

  set(id: string, item: T): void {
    if (this.young.size >= CACHE_LIMIT) {
      this.old = this.young
      this.young = new Map()
    }
    this.young.set(id, item)
  }

  delete(id: string): void {
    this.young.delete(id)
    this.old.delete(id)
  }

  clear(): void {
    this.young = new Map()
    this.old = new Map()
  }
}

class SqliteCollection<T extends {id: string}> implements Collection<T> {
  private cache = new ObjectCache<T>()
  /**
   * The row (`seq`) of each object inserted or read by id lately: an update finds it by the table's
   * own key, without going down the id index to a random leaf (at a million rows, a page read from
   * the OS a settlement).
   */
  private seqs = new ObjectCache<number>()
  private count: number | undefined
  private readonly byWhere = new Map<string, {page: Statement; total: Statement; all: Statement}>()
  private readonly statements: {
    get: Statement
    insert: Statement
    update: Statement
    updateRow: Statement
    remove: Statement
    size: Statement
    newest: Statement
    all: Statement
  }

  constructor(private readonly store: SqliteHost, private readonly scope: Scope, private readonly name: string) {
    const db = store.db
    const where = 'scope = @scope AND collection = @collection'
    // The statements run once or more a request take their parameters by position: binding by
    // name costs an object per call and a lookup per name.
    this.statements = {
      get: db.prepare('SELECT seq, body FROM documents WHERE scope = ? AND collection = ? AND id = ?').raw(),
      insert: db.prepare('INSERT INTO documents (scope, collection, id, k1, k2, body) VALUES (?, ?, ?, ?, ?, ?)'),
      update: db.prepare('UPDATE documents SET k1 = ?, k2 = ?, body = ? WHERE scope = ? AND collection = ? AND id = ?'),
      // The id is checked too: a row is never taken for another object's.
      updateRow: db.prepare('UPDATE documents SET k1 = ?, k2 = ?, body = ? WHERE seq = ? AND scope = ? AND collection = ? AND id = ?'),
      remove: db.prepare('DELETE FROM documents WHERE scope = ? AND collection = ? AND id = ?'),
      size: db.prepare(`SELECT count(*) FROM documents WHERE ${where}`).pluck(),
      newest: db.prepare(`SELECT id, body FROM documents WHERE ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset`).raw(),
      all: db.prepare(`SELECT id, body FROM documents WHERE ${where} ORDER BY seq`).raw(),
    }
  }

  private get key() {
    return {scope: this.scope, collection: this.name}
  }

  /** Forget what is cached (after a reset or a restore). */
  clear(): void {
    this.cache.clear()
    this.seqs.clear()
    this.count = undefined
  }

  private remember(id: string, item: T): T {
    this.cache.set(id, item)
    return item
  }

  /** The cached object for a row, or the row parsed (and cached). */
  private fromRow(id: string, body: string): T {
    return this.cache.get(id) ?? this.remember(id, JSON.parse(body) as T)
  }

  private indexKey(item: T, slot: 0 | 1): string | null {
    return this.store.indexes.of(this.scope, this.name)[slot]?.[1](item) ?? null
  }

  get size(): number {
    this.count ??= this.statements.size.get(this.key) as number
    return this.count
  }

  get(id: string): T | undefined {
    const cached = this.cache.get(id)
    if (cached) return cached
    const row = this.statements.get.get(this.scope, this.name, id) as [number, string] | undefined
    if (row === undefined) return undefined
    this.seqs.set(id, row[0])
    return this.remember(id, JSON.parse(row[1]) as T)
  }

  insert(item: T): T {
    this.store.writing()
    try {
      const {lastInsertRowid} = this.statements.insert.run(this.scope, this.name, item.id, this.indexKey(item, 0), this.indexKey(item, 1), JSON.stringify(item))
      this.seqs.set(item.id, Number(lastInsertRowid))
    } catch (error) {
      if ((error as {code?: string}).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new Error(`duplicate id ${item.id}`)
      throw error
    }
    if (this.count !== undefined) this.count++
    return this.remember(item.id, item)
  }

  update(id: string, change: (item: T) => void): T | undefined {
    const item = this.get(id)
    if (!item) return undefined
    change(item)
    this.store.writing()
    const [k1, k2, body] = [this.indexKey(item, 0), this.indexKey(item, 1), JSON.stringify(item)]
    const seq = this.seqs.get(id)
    if (seq === undefined || this.statements.updateRow.run(k1, k2, body, seq, this.scope, this.name, id).changes === 0) {
      this.statements.update.run(k1, k2, body, this.scope, this.name, id)
    }
    return item
  }

  delete(id: string): boolean {
    this.store.writing()
    const removed = this.statements.remove.run(this.scope, this.name, id).changes > 0
    this.cache.delete(id)
    this.seqs.delete(id)
    if (removed && this.count !== undefined) this.count--
    return removed
  }

  values(): readonly T[] {
    return (this.statements.all.all(this.key) as Array<[string, string]>).map(([id, body]) => this.fromRow(id, body))
  }

  /** Statements for a filter on these index slots (prepared once per combination). */
  private filtered(slots: Array<[number, string]>) {
    const signature = slots.map(([slot]) => slot).join(',')
    let statements = this.byWhere.get(signature)
    if (!statements) {
      const db = this.store.db
      const condition = ['scope = @scope AND collection = @collection', ...slots.map(([slot]) => `k${slot + 1} = @k${slot + 1}`)].join(' AND ')
      statements = {
        page: db.prepare(`SELECT id, body FROM documents WHERE ${condition} ORDER BY seq DESC LIMIT @limit OFFSET @offset`).raw(),
        total: db.prepare(`SELECT count(*) FROM documents WHERE ${condition}`).pluck(),
        all: db.prepare(`SELECT id, body FROM documents WHERE ${condition} ORDER BY seq`).raw(),
      }
      this.byWhere.set(signature, statements)
    }
    const params: Record<string, string> = {...this.key}
    for (const [slot, value] of slots) params[`k${slot + 1}`] = value
    return {statements, params}
  }

  find(where: Where): T[] {
    const slots = this.store.indexes.slots(this.scope, this.name, where)
    if (slots.length === 0) return [...this.values()]
    const {statements, params} = this.filtered(slots)
    return (statements.all.all(params) as Array<[string, string]>).map(([id, body]) => this.fromRow(id, body))
  }

  countBy(key: string): Record<string, number> {
    const [[slot]] = this.store.indexes.slots(this.scope, this.name, {[key]: ''})
    const column = `k${slot + 1}`
    const rows = this.store.db
      .prepare(`SELECT ${column}, count(*) FROM documents WHERE scope = ? AND collection = ? AND ${column} IS NOT NULL GROUP BY ${column}`)
      .raw()
      .all(this.scope, this.name) as Array<[string, number]>
    return Object.fromEntries(rows)
  }

  newestFirst(offset: number, limit: number, where?: Where, knownTotal?: number): Page<T> {
    const slots = where ? this.store.indexes.slots(this.scope, this.name, where) : []
    if (slots.length === 0) {
      const rows = this.statements.newest.all({...this.key, limit, offset}) as Array<[string, string]>
      return {items: rows.map(([id, body]) => this.fromRow(id, body)), total: this.size}
    }
    const {statements, params} = this.filtered(slots)
    const rows = statements.page.all({...params, limit, offset}) as Array<[string, string]>
    return {items: rows.map(([id, body]) => this.fromRow(id, body)), total: knownTotal ?? (statements.total.get(params) as number)}
  }
}

export class SqliteDatabase implements Database {
  private readonly collections = new Map<string, SqliteCollection<any>>()
  private settings = new Map<string, JsonValue | undefined>()
  /** Settings changed in the open transaction, as JSON, not yet written. */
  private readonly unwritten = new Map<string, string>()

  constructor(private readonly store: SqliteHost, private readonly scope: Scope) {}

  collection<T extends {id: string}>(name: string): Collection<T> {
    let collection = this.collections.get(name)
    if (!collection) {
      collection = new SqliteCollection<T>(this.store, this.scope, name)
      this.collections.set(name, collection)
    }
    return collection as Collection<T>
  }

  setting<T extends JsonValue>(name: string): T | undefined
  setting<T extends JsonValue>(name: string, fallback: T): T
  setting<T extends JsonValue>(name: string, fallback?: T): T | undefined {
    if (!this.settings.has(name)) {
      const value = this.store.statements.getSetting.get({scope: this.scope, name}) as string | undefined
      this.settings.set(name, value === undefined ? undefined : (JSON.parse(value) as JsonValue))
    }
    return (this.settings.get(name) as T | undefined) ?? fallback
  }

  setSetting(name: string, value: JsonValue): void {
    this.store.writing()
    // Written once, when the transaction commits (the balance changes with every settlement: one
    // row write a commit, not one a payment). Serialised now: later changes to `value` are not saved.
    this.unwritten.set(name, JSON.stringify(value))
    this.settings.set(name, value)
  }

  /** Write the settings changed in this transaction (the store's flush, before the commit). */
  writeSettings(): void {
    if (this.unwritten.size === 0) return
    for (const [name, value] of this.unwritten) this.store.statements.setSetting.run({scope: this.scope, name, value})
    this.unwritten.clear()
  }

  clear(): void {
    this.settings.clear()
    this.unwritten.clear()
    for (const collection of this.collections.values()) collection.clear()
  }
}

export class SqliteTaskLog implements TaskLog {
  constructor(private readonly store: SqliteHost) {}

  add(task: ScheduledTask): void {
    this.store.writing()
    this.store.statements.addTask.run({id: task.id, at: task.at, kind: task.kind, payload: JSON.stringify(task.payload)})
  }

  remove(id: number): void {
    this.store.writing()
    this.store.statements.removeTask.run(id)
  }

  all(): ScheduledTask[] {
    return (this.store.statements.allTasks.all() as Array<{id: number; at: number; kind: string; payload: string}>).map((row) => ({
      ...row,
      payload: JSON.parse(row.payload) as JsonValue,
    }))
  }
}
