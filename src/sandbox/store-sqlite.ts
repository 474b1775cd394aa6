/**
 * The sandbox's data on disk (`--data FILE`): SQLite through better-sqlite3, loaded only here and
 * only when a data file is asked for (store.ts `openStore`).
 *
 * Durability: WAL mode, `synchronous = NORMAL`. A write opens a transaction, committed once the
 * requests of this turn of the event loop have run (setImmediate: one commit for all the requests
 * that arrived together, a group commit); every answer waits for it (`settled()`, awaited by the
 * route wrapper in index.ts), so an acknowledged write is committed. A committed transaction in
 * WAL mode is in the WAL file (the OS's page cache) and survives the process being killed at any
 * instant (`kill -9`); not a power cut, which would need `synchronous = FULL` (an fsync a commit).
 * test/sandbox/durability.test.ts kills the process at random moments and finds every 201.
 *
 * Schema: one table of documents (JSON bodies) keyed by (scope, collection, id), in insertion
 * order (`seq`), with two declared index keys per collection (k1, k2: a payment's status, a
 * delivery's event…) and an index for each, so that every list and filter of the API reads an
 * index, never the whole table; settings; the scheduler's queue task by task; extras (the clock
 * offset, the PRNG states). Migrations are numbered (`MIGRATIONS`, `PRAGMA user_version`).
 *
 * An object read is kept in a bounded cache by id, so that the object `get` returns is the one
 * `update` changes (domains hold a record across a settlement), and hot reads skip JSON.parse.
 */
import {closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync} from 'node:fs'
import {randomBytes} from 'node:crypto'
import {createRequire} from 'node:module'
import {basename, join} from 'node:path'
import {Worker} from 'node:worker_threads'
import type BetterSqlite3 from 'better-sqlite3'
import type {ScheduledTask, TaskLog} from './clock.js'
import {t} from './i18n/index.js'
import {CommitRecord} from './commit-record.js'
import {removeLeftovers, temporaryName} from './leftovers.js'
import {damaged} from './storage-errors.js'
import {
  Extras,
  IndexRegistry,
  SETTLED,
  SNAPSHOT_NAME,
  StorageUnavailableError,
  type Collection,
  type Database,
  type IndexKeys,
  type Page,
  type Scope,
  type SnapshotInfo,
  type StoreNotice,
  type Store,
  type Where,
} from './store.js'
import type {Environment, JsonValue} from './types.js'

type Db = BetterSqlite3.Database
type Statement = BetterSqlite3.Statement

/** Schema versions, in order; `PRAGMA user_version` is how many have run. Never edit one: add one. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE documents (
     seq INTEGER PRIMARY KEY,
     scope TEXT NOT NULL,
     collection TEXT NOT NULL,
     id TEXT NOT NULL,
     k1 TEXT,
     k2 TEXT,
     body TEXT NOT NULL
   );
   CREATE UNIQUE INDEX documents_by_id ON documents (scope, collection, id);
   CREATE INDEX documents_in_order ON documents (scope, collection, seq);
   CREATE INDEX documents_by_k1 ON documents (scope, collection, k1, seq) WHERE k1 IS NOT NULL;
   CREATE INDEX documents_by_k2 ON documents (scope, collection, k2, seq) WHERE k2 IS NOT NULL;
   CREATE TABLE settings (scope TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (scope, name)) WITHOUT ROWID;
   CREATE TABLE tasks (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL);
   CREATE TABLE extras (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`,
]

/**
 * Objects kept by id per collection: between this many and twice as many, the most recently used.
 * Enough for every payment still to settle at 10,000 creates/s (settlement comes 2 s after the
 * create): with 10,000, one settlement in two read its payment back from SQLite and JSON.parse,
 * 14 µs a create at a million rows.
 */
const CACHE_LIMIT = 25_000
/**
 * SQLite's page cache: 8 MiB (default 2 MiB). Not more: SQLite scans the whole cache's hash table
 * at the end of every write transaction (pcache1TruncateUnsafe, seen with perf), so a 64 MiB cache
 * cost a create ~45 µs of CPU (a fifth of it) at a million rows; and the pages a read needs beyond
 * the hot ends of the indexes are random leaves that no cache of that size would hold anyway (they
 * come from the OS's page cache).
 */
const PAGE_CACHE_KIB = 8 * 1024
const SQLITE_HEADER = 'SQLite format 3\0'

type SqliteConstructor = typeof BetterSqlite3

async function loadDriver(): Promise<SqliteConstructor> {
  try {
    const module = (await import('better-sqlite3')) as unknown as {default: SqliteConstructor}
    return module.default
  } catch (error) {
    throw new StorageUnavailableError((error as Error).message.split('\n')[0])
  }
}

function migrate(db: Db, file: string): void {
  const version = db.pragma('user_version', {simple: true}) as number
  if (version > MIGRATIONS.length) throw new Error(t('sandbox.store.newer', {file, version, known: MIGRATIONS.length}))
  for (let i = version; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[i])
      db.pragma(`user_version = ${i + 1}`)
    })()
  }
}

/** How often the checkpointer copies the WAL into the database file (a PASSIVE checkpoint never blocks a writer). */
const CHECKPOINT_EVERY_MS = 250

/** The checkpointer's code: its own connection, in a worker thread. */
const CHECKPOINTER = `
const {parentPort, workerData} = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file)
db.pragma('busy_timeout = 1000')
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)') } catch {}
}, workerData.every)
parentPort.once('message', () => {
  clearInterval(timer)
  db.close()
  parentPort.close()
})
`

/** Where better-sqlite3 is, for the worker (undefined when it cannot be found: checkpoints then stay on the main thread). */
function driverPath(): string | undefined {
  // __filename in the built CommonJS; the entry script (the CLI's bin, a test runner) otherwise.
  const bases = [typeof __filename === 'string' ? __filename : undefined, process.argv[1], join(process.cwd(), 'index.js')]
  for (const base of bases) {
    if (!base) continue
    try {
      return createRequire(base).resolve('better-sqlite3')
    } catch {
      // Not reachable from there.
    }
  }
  return undefined
}

/**
 * Checkpoints (copying the WAL into the database file, with an fsync of each under
 * synchronous = NORMAL) move to a worker thread, so that no request waits for a disk flush; commits
 * themselves never fsync in WAL mode with NORMAL. Returns a function that stops it.
 */
function startCheckpointer(db: Db, file: string): (() => Promise<void>) | undefined {
  const driver = driverPath()
  if (!driver) return undefined
  let worker: Worker
  try {
    worker = new Worker(CHECKPOINTER, {eval: true, workerData: {driver, file, every: CHECKPOINT_EVERY_MS}})
  } catch {
    return undefined
  }
  worker.unref()
  // A worker that fails (its connection cannot open…) hands checkpoints back to the main thread.
  worker.on('error', () => db.pragma('wal_autocheckpoint = 1000'))
  db.pragma('wal_autocheckpoint = 0')
  // Resolves once the worker has closed its connection: until then it may still write the WAL's
  // files, so whoever removes the data directory (a test, a reset) waits for this.
  return () =>
    new Promise<void>((resolve) => {
      worker.once('exit', () => resolve())
      worker.postMessage('stop')
    })
}

function openDatabase(Driver: SqliteConstructor, file: string): Db {
  // Created 0600 before SQLite opens it: customer data. SQLite gives its -wal and -shm files the same mode.
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600))
  const db = new Driver(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`)
  migrate(db, file)
  return db
}

/**
 * A database file shorter than its header says (truncated: a copy cut short, a full disk): SQLite
 * itself would only notice on reading a missing page, possibly long after the start.
 */
function checkComplete(file: string): void {
  const fd = openSync(file, 'r')
  const header = Buffer.alloc(100)
  let read: number
  try {
    read = readSync(fd, header, 0, 100, 0)
  } finally {
    closeSync(fd)
  }
  if (read < 100 || header.toString('latin1', 0, 16) !== SQLITE_HEADER) return
  const raw = header.readUInt16BE(16)
  const pageSize = raw === 1 ? 65_536 : raw
  const pages = header.readUInt32BE(28)
  // The page count is valid only when written by the same change as the counter (SQLite ≥ 3.7.0).
  if (header.readUInt32BE(92) !== header.readUInt32BE(24) || pages === 0) return
  const size = statSync(file).size
  if (size < pages * pageSize) throw damaged(file, t('sandbox.storage.truncated', {size, expected: pages * pageSize}))
}

function isSqliteFile(file: string): boolean {
  const fd = openSync(file, 'r')
  try {
    const header = Buffer.alloc(16)
    const read = readSync(fd, header, 0, 16, 0)
    return read === 0 || header.toString('latin1') === SQLITE_HEADER
  } finally {
    closeSync(fd)
  }
}

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

  constructor(private readonly store: SqliteStore, private readonly scope: Scope, private readonly name: string) {
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

class SqliteDatabase implements Database {
  private readonly collections = new Map<string, SqliteCollection<any>>()
  private settings = new Map<string, JsonValue | undefined>()
  /** Settings changed in the open transaction, as JSON, not yet written. */
  private readonly unwritten = new Map<string, string>()

  constructor(private readonly store: SqliteStore, private readonly scope: Scope) {}

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

class SqliteTaskLog implements TaskLog {
  constructor(private readonly store: SqliteStore) {}

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

/** Today's JSON data file (version 1, written by svc before the database): its shape. */
interface LegacyDump {
  collections?: Record<string, Array<{id: string}>>
  settings?: Record<string, JsonValue>
}
interface LegacyFile {
  version: 1
  business?: LegacyDump
  environments?: Partial<Record<Environment, LegacyDump>>
  extras?: Record<string, JsonValue>
}

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const
  readonly notices: StoreNotice[] = []
  readonly indexes = new IndexRegistry()
  readonly business: SqliteDatabase
  readonly tasks: SqliteTaskLog
  readonly restored: boolean
  readonly statements: Record<'getSetting' | 'setSetting' | 'addTask' | 'removeTask' | 'allTasks' | 'getExtra' | 'setExtra' | 'begin' | 'commit', Statement>
  private readonly environments: Record<Environment, SqliteDatabase>
  private readonly extras = new Extras()
  /** The extras as last written, so that an unchanged one is not written again. */
  private readonly written = new Map<string, string>()
  private commitQueued = false
  /** Answers waiting for the open transaction's commit. */
  private waiting: {promise: Promise<void>; resolve: () => void; reject: (error: Error) => void} | undefined
  private closed = false
  private stopCheckpointer: (() => Promise<void>) | undefined
  private closing: Promise<void> | undefined
  /** Transactions committed to this file, kept in it (meta) and beside it (commit-record.ts). */
  private commits = 0
  private instance = ''
  private readonly record: CommitRecord
  private readonly setMeta: Statement

  constructor(
    readonly db: Db,
    private readonly Driver: SqliteConstructor,
    private readonly file: string,
    restored: boolean,
  ) {
    this.restored = restored
    this.record = new CommitRecord(file)
    this.setMeta = db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value')
    this.statements = {
      getSetting: db.prepare('SELECT value FROM settings WHERE scope = @scope AND name = @name').pluck(),
      setSetting: db.prepare('INSERT INTO settings (scope, name, value) VALUES (@scope, @name, @value) ON CONFLICT (scope, name) DO UPDATE SET value = excluded.value'),
      addTask: db.prepare('INSERT OR REPLACE INTO tasks (id, at, kind, payload) VALUES (@id, @at, @kind, @payload)'),
      removeTask: db.prepare('DELETE FROM tasks WHERE id = ?'),
      allTasks: db.prepare('SELECT id, at, kind, payload FROM tasks ORDER BY at, id'),
      getExtra: db.prepare('SELECT value FROM extras WHERE name = ?').pluck(),
      setExtra: db.prepare('INSERT INTO extras (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
      begin: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
    }
    this.business = new SqliteDatabase(this, 'business')
    this.environments = {SANDBOX: new SqliteDatabase(this, 'SANDBOX'), LIVE: new SqliteDatabase(this, 'LIVE')}
    this.tasks = new SqliteTaskLog(this)
    this.stopCheckpointer = startCheckpointer(db, file)
  }

  env(environment: Environment): Database {
    return this.environments[environment]
  }

  defineCollection<T extends {id: string}>(scope: 'business' | 'environment', name: string, index: IndexKeys<T>): void {
    this.indexes.define(scope, name, index)
  }

  /** A write is about to run: open a transaction if none is open, committed after this turn's requests. */
  writing(): void {
    if (this.db.inTransaction) return
    this.statements.begin.run()
    if (!this.commitQueued) {
      this.commitQueued = true
      setImmediate(() => {
        this.commitQueued = false
        this.flush()
      })
    }
  }

  settled(): Promise<void> {
    if (!this.db.inTransaction) return SETTLED
    if (!this.waiting) {
      let resolve!: () => void
      let reject!: (error: Error) => void
      const promise = new Promise<void>((yes, no) => {
        resolve = yes
        reject = no
      })
      this.waiting = {promise, resolve, reject}
    }
    return this.waiting.promise
  }

  /** Something saved through `persist` changed: save it at the end of this turn. */
  markDirty(): void {
    this.writing()
  }

  flush(): void {
    if (this.closed || !this.db.inTransaction) return
    const waiting = this.waiting
    this.waiting = undefined
    try {
      this.business.writeSettings()
      this.environments.SANDBOX.writeSettings()
      this.environments.LIVE.writeSettings()
      for (const [name, hook] of this.extras.hooks) {
        const value = JSON.stringify(hook.dump())
        if (this.written.get(name) === value) continue
        this.statements.setExtra.run(name, value)
        this.written.set(name, value)
      }
      this.setMeta.run('commits', String(this.commits + 1))
      this.statements.commit.run()
      this.commits += 1
      this.record.write(this.instance, this.commits)
    } catch (error) {
      // Not committed (disk full…): nothing of it was acknowledged; the objects cached may hold
      // what was rolled back, so they are read again.
      if (this.db.inTransaction) this.db.exec('ROLLBACK')
      this.forgetCached()
      waiting?.reject(error as Error)
      return
    }
    waiting?.resolve()
  }

  persist(name: string, dump: () => JsonValue, load: (value: JsonValue) => void): void {
    this.extras.hooks.set(name, {dump, load})
    const stored = this.statements.getExtra.get(name) as string | undefined
    if (stored !== undefined) {
      this.written.set(name, stored)
      load(JSON.parse(stored) as JsonValue)
    }
  }

  onReload(listener: () => void): void {
    this.extras.reloadListeners.push(listener)
  }

  /** After an import from JSON: compute the index keys, now that every collection has declared them. */
  ready(): void {
    const reindex = this.db.prepare("SELECT value FROM meta WHERE name = 'reindex'").pluck().get()
    if (reindex === undefined) return
    const rows = this.db.prepare('SELECT seq, scope, collection, body FROM documents').all() as Array<{seq: number; scope: Scope; collection: string; body: string}>
    const update = this.db.prepare('UPDATE documents SET k1 = ?, k2 = ? WHERE seq = ?')
    this.db.transaction(() => {
      for (const row of rows) {
        const keys = this.indexes.of(row.scope, row.collection)
        if (keys.length === 0) continue
        const item = JSON.parse(row.body)
        update.run(keys[0]?.[1](item) ?? null, keys[1]?.[1](item) ?? null, row.seq)
      }
      this.db.prepare("DELETE FROM meta WHERE name = 'reindex'").run()
    })()
  }

  private forgetCached(): void {
    this.business.clear()
    this.environments.SANDBOX.clear()
    this.environments.LIVE.clear()
    this.written.clear()
  }

  reset(all: boolean): void {
    this.flush()
    const scopes = all ? ['business', 'SANDBOX', 'LIVE'] : ['SANDBOX', 'LIVE']
    const marks = scopes.map(() => '?').join(', ')
    this.db.transaction(() => {
      this.db.prepare(`DELETE FROM documents WHERE scope IN (${marks})`).run(...scopes)
      this.db.prepare(`DELETE FROM settings WHERE scope IN (${marks})`).run(...scopes)
      this.db.prepare('DELETE FROM tasks').run()
    })()
    this.forgetCached()
    this.extras.reloaded()
  }

  private get snapshotDir(): string {
    return `${this.file}.snapshots`
  }

  private snapshotFile(name: string): string {
    if (!SNAPSHOT_NAME.test(name)) throw new Error(`bad snapshot name ${name}`)
    return join(this.snapshotDir, `${name}.sqlite`)
  }

  /**
   * One snapshot operation at a time: SQLite's online backups of one connection running at once
   * left some destinations empty (a 201 for a 0-byte snapshot). In turn, the last save to complete
   * is the last asked.
   */
  private snapshotTurn: Promise<unknown> = Promise.resolve()

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.snapshotTurn.then(work, work)
    this.snapshotTurn = run.catch(() => undefined)
    return run
  }

  saveSnapshot(name: string): Promise<SnapshotInfo> {
    return this.inTurn(() => this.saveSnapshotNow(name))
  }

  restoreSnapshot(name: string): Promise<boolean> {
    return this.inTurn(() => this.restoreSnapshotNow(name))
  }

  private async saveSnapshotNow(name: string): Promise<SnapshotInfo> {
    const target = this.snapshotFile(name)
    mkdirSync(this.snapshotDir, {recursive: true, mode: 0o700})
    this.flush()
    // SQLite's online backup, into a temporary file renamed over the old snapshot: a snapshot is
    // whole or absent, never half written.
    // Its own temporary name (pid and sequence): saves at once under one name each write their
    // own file, and the last to complete is the snapshot.
    const temporary = temporaryName(target, 'tmp')
    try {
      closeSync(openSync(temporary, 'w', 0o600))
      await this.db.backup(temporary)
      renameSync(temporary, target)
    } catch (error) {
      rmSync(temporary, {force: true})
      throw error
    }
    const stat = statSync(target)
    return {name, created_at: stat.mtime.toISOString(), bytes: stat.size}
  }

  private async restoreSnapshotNow(name: string): Promise<boolean> {
    const source = this.snapshotFile(name)
    if (!existsSync(source)) return false
    // A snapshot from an older schema is brought up to date first (on a copy: the snapshot stays as saved).
    const copy = temporaryName(source, 'restore')
    copyFileSync(source, copy)
    try {
      const snapshot = new this.Driver(copy)
      try {
        migrate(snapshot, basename(source))
      } finally {
        snapshot.close()
      }
      this.flush()
      this.db.prepare('ATTACH DATABASE ? AS snapshot').run(copy)
      try {
        // One transaction: a restore is whole or not at all, whatever happens during it.
        this.db.transaction(() => {
          for (const table of ['documents', 'settings', 'tasks', 'extras']) {
            this.db.exec(`DELETE FROM main.${table}; INSERT INTO main.${table} SELECT * FROM snapshot.${table};`)
          }
        })()
      } finally {
        this.db.exec('DETACH DATABASE snapshot')
      }
    } finally {
      rmSync(copy, {force: true})
    }
    this.forgetCached()
    const extras: Record<string, JsonValue> = {}
    for (const row of this.db.prepare('SELECT name, value FROM extras').all() as Array<{name: string; value: string}>) {
      extras[row.name] = JSON.parse(row.value) as JsonValue
    }
    this.extras.loadAll(extras)
    this.extras.reloaded()
    return true
  }

  listSnapshots(): SnapshotInfo[] {
    if (!existsSync(this.snapshotDir)) return []
    return readdirSync(this.snapshotDir)
      .filter((file) => file.endsWith('.sqlite') && SNAPSHOT_NAME.test(file.slice(0, -'.sqlite'.length)))
      .map((file) => {
        const stat = statSync(join(this.snapshotDir, file))
        return {name: file.slice(0, -'.sqlite'.length), created_at: stat.mtime.toISOString(), bytes: stat.size}
      })
      .sort((a, b) => a.name.localeCompare(b.name))
  }

  deleteSnapshot(name: string): boolean {
    const file = this.snapshotFile(name)
    if (!existsSync(file)) return false
    rmSync(file)
    return true
  }

  /**
   * The commit count: read from the file, compared with the record beside it (fewer in the file:
   * its WAL was lost, reported as a notice), then the record follows the file as it is.
   */
  checkCommits(existed: boolean): void {
    const meta = this.db.prepare('SELECT name, value FROM meta WHERE name IN (?, ?)').all('instance', 'commits') as Array<{name: string; value: string}>
    this.instance = meta.find((row) => row.name === 'instance')?.value ?? ''
    this.commits = Number(meta.find((row) => row.name === 'commits')?.value ?? 0)
    if (!this.instance) {
      this.instance = randomBytes(8).toString('hex')
      this.setMeta.run('instance', this.instance)
      // Into the database file itself at once: the identity must outlive a lost WAL.
      this.db.pragma('wal_checkpoint(PASSIVE)')
    }
    const recorded = this.record.read()
    if (existed && recorded?.instance === this.instance && recorded.commits > this.commits) {
      this.notices.push({code: 'data_behind', file: this.file, committed: recorded.commits, found: this.commits, at: recorded.at})
    }
    this.record.writeNow(this.instance, this.commits)
  }

  close(): Promise<void> {
    if (this.closed) return this.closing ?? Promise.resolve()
    this.flush()
    this.closed = true
    this.closing = Promise.all([this.stopCheckpointer?.(), this.record.settled().then(() => this.record.writeNow(this.instance, this.commits))]).then(() => undefined)
    // Everything into the database file and the WAL emptied, so that the next open does not read a
    // long WAL back (the checkpointer's connection may still be open: the last close would do it).
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // Busy: the WAL stays, replayed at the next open.
    }
    this.db.close()
    return this.closing
  }
}

/** Import today's JSON data file into a new database at `target` (index keys computed at `ready`). */
function importLegacy(Driver: SqliteConstructor, data: LegacyFile, target: string): number {
  const db = new Driver(target)
  try {
    migrate(db, target)
    let count = 0
    db.transaction(() => {
      const insert = db.prepare('INSERT INTO documents (scope, collection, id, body) VALUES (?, ?, ?, ?)')
      const setting = db.prepare('INSERT INTO settings (scope, name, value) VALUES (?, ?, ?)')
      const dumps: Array<[Scope, LegacyDump | undefined]> = [
        ['business', data.business],
        ['SANDBOX', data.environments?.SANDBOX],
        ['LIVE', data.environments?.LIVE],
      ]
      for (const [scope, dump] of dumps) {
        for (const [collection, items] of Object.entries(dump?.collections ?? {})) {
          for (const item of items) {
            insert.run(scope, collection, item.id, JSON.stringify(item))
            count++
          }
        }
        for (const [name, value] of Object.entries(dump?.settings ?? {})) setting.run(scope, name, JSON.stringify(value))
      }
      const {scheduler, ...extras} = data.extras ?? {}
      const task = db.prepare('INSERT OR REPLACE INTO tasks (id, at, kind, payload) VALUES (?, ?, ?, ?)')
      for (const entry of Array.isArray(scheduler) ? (scheduler as unknown as ScheduledTask[]) : []) {
        task.run(entry.id, entry.at, entry.kind, JSON.stringify(entry.payload ?? null))
      }
      const extra = db.prepare('INSERT INTO extras (name, value) VALUES (?, ?)')
      for (const [name, value] of Object.entries(extras)) extra.run(name, JSON.stringify(value))
      db.prepare("INSERT INTO meta (name, value) VALUES ('reindex', '1')").run()
    })()
    return count
  } finally {
    db.close()
  }
}

export async function openSqliteStore(file: string): Promise<SqliteStore> {
  const Driver = await loadDriver()
  // What a killed save, restore or import left behind goes before anything else is written.
  removeLeftovers(file)
  const existed = existsSync(file) && statSync(file).size > 0
  const notices: StoreNotice[] = []
  if (existed && !isSqliteFile(file)) {
    let data: LegacyFile
    try {
      data = JSON.parse(readFileSync(file, 'utf8')) as LegacyFile
    } catch (error) {
      // Neither a database (its header is not SQLite's) nor JSON: most likely a damaged database.
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw error
      throw damaged(file, t('sandbox.store.unreadable', {file, reason: (error as Error).message}), error)
    }
    if (data?.version !== 1) throw new Error(t('sandbox.store.unreadable', {file, reason: 'unsupported version'}))
    // Into a new file renamed over the old one at the end: a kill during the import leaves the
    // JSON file as it was, imported again at the next start. The JSON is kept beside it.
    const backup = `${file}.v1.json`
    const temporary = temporaryName(file, 'import')
    closeSync(openSync(temporary, 'w', 0o600))
    const count = importLegacy(Driver, data, temporary)
    copyFileSync(file, backup)
    renameSync(temporary, file)
    notices.push({code: 'json_imported', file, count, backup})
  }
  if (existed) checkComplete(file)
  const db = openDatabase(Driver, file)
  const store = new SqliteStore(db, Driver, file, existed)
  store.notices.push(...notices)
  store.checkCommits(existed)
  return store
}
