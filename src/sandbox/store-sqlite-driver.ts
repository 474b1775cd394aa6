/**
 * The SQLite driver of the sandbox's data file (better-sqlite3, loaded only when a data file is
 * asked for): opening a database with its pragmas, and telling a complete SQLite file from a
 * damaged or foreign one. Part of store-sqlite.ts's job, split out; imports the sandbox's own files.
 */
import {closeSync, existsSync, openSync, readSync, statSync} from 'node:fs'
import type BetterSqlite3 from 'better-sqlite3'
import {t} from './i18n/index.js'
import {damaged} from './storage-errors.js'
import {StorageUnavailableError} from './store.js'
import {migrate} from './store-sqlite-migrations.js'

export type Db = BetterSqlite3.Database

export type Statement = BetterSqlite3.Statement

/**
 * SQLite's page cache: 8 MiB (default 2 MiB). Not more: SQLite scans the whole cache's hash table
 * at the end of every write transaction (pcache1TruncateUnsafe, seen with perf), so a 64 MiB cache
 * cost a create ~45 µs of CPU (a fifth of it) at a million rows; and the pages a read needs beyond
 * the hot ends of the indexes are random leaves that no cache of that size would hold anyway (they
 * come from the OS's page cache).
 */
const PAGE_CACHE_KIB = 8 * 1024

const SQLITE_HEADER = 'SQLite format 3\0'

export type SqliteConstructor = typeof BetterSqlite3

export async function loadDriver(): Promise<SqliteConstructor> {
  try {
    const module = (await import('better-sqlite3')) as unknown as {default: SqliteConstructor}
    return module.default
  } catch (error) {
    throw new StorageUnavailableError((error as Error).message.split('\n')[0])
  }
}

export function openDatabase(Driver: SqliteConstructor, file: string): Db {
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
export function checkComplete(file: string): void {
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

export function isSqliteFile(file: string): boolean {
  const fd = openSync(file, 'r')
  try {
    const header = Buffer.alloc(16)
    const read = readSync(fd, header, 0, 16, 0)
    return read === 0 || header.toString('latin1') === SQLITE_HEADER
  } finally {
    closeSync(fd)
  }
}
