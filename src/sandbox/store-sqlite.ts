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
import {closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync} from 'node:fs'
import {randomBytes} from 'node:crypto'
import {basename, join} from 'node:path'
import {t} from './i18n/index.js'
import {CommitRecord} from './commit-record.js'
import {removeLeftovers, temporaryName} from './leftovers.js'
import {damaged} from './storage-errors.js'
import {Extras, IndexRegistry, KEPT_BY_RESTORE, SETTLED, SNAPSHOT_NAME, type Database, type IndexKeys, type Scope, type SnapshotInfo, type StoreNotice, type Store} from './store.js'
import type {Environment, JsonValue} from './types.js'
import {type Db, type SqliteConstructor, type Statement, checkComplete, isSqliteFile, loadDriver, openDatabase} from './store-sqlite-driver.js'
import {type LegacyFile, importLegacy} from './store-sqlite-legacy.js'
import {SqliteDatabase, SqliteTaskLog} from './store-sqlite-tables.js'
import {migrate} from './store-sqlite-migrations.js'
import {startCheckpointer} from './store-sqlite-checkpointer.js'

export {MIGRATIONS} from './store-sqlite-migrations.js'

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
          // The credentials stay as they are (KEPT_BY_RESTORE); the snapshot's documents come after
          // them in the same order as saved (new seq numbers: the kept rows hold theirs).
          const kept = KEPT_BY_RESTORE.map(() => '?').join(', ')
          const other = `NOT (scope = 'business' AND collection IN (${kept}))`
          this.db.prepare(`DELETE FROM main.documents WHERE ${other}`).run(...KEPT_BY_RESTORE)
          this.db
            .prepare(`INSERT INTO main.documents (scope, collection, id, k1, k2, body) SELECT scope, collection, id, k1, k2, body FROM snapshot.documents WHERE ${other} ORDER BY seq`)
            .run(...KEPT_BY_RESTORE)
          for (const table of ['settings', 'tasks', 'extras']) {
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
    this.closing = Promise.all([this.stopCheckpointer?.(), this.record.settled().then(() => {
        this.record.writeNow(this.instance, this.commits)
        this.record.close()
      })]).then(() => undefined)
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
  // A checkpoint cut short by a kill leaves the file shorter than its header says while its WAL
  // holds the pages (SQLite copies them in page order, the header's page first): SQLite finishes
  // the copy, so such a file is checked once that is done, not before.
  const walFrames = existed && walHoldsFrames(file)
  if (existed && !walFrames) checkComplete(file)
  const db = openDatabase(Driver, file)
  if (walFrames) {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)')
      checkComplete(file)
    } catch (error) {
      db.close()
      throw error
    }
  }
  const store = new SqliteStore(db, Driver, file, existed)
  store.notices.push(...notices)
  store.checkCommits(existed)
  return store
}

/** Whether a data file's write-ahead log holds any frame (past its 32-byte header). */
function walHoldsFrames(file: string): boolean {
  try {
    return statSync(`${file}-wal`).size > 32
  } catch {
    return false
  }
}
