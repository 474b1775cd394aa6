/**
 * Which store a sandbox runs on: SQLite on `dataFile` (store-sqlite.ts), else in memory. The
 * SQLite store, and better-sqlite3 with it, is loaded only here and only with a data file.
 */
import {MemoryStore, type Store} from './store.js'

export async function openStore(dataFile: string | undefined): Promise<Store> {
  if (!dataFile) return new MemoryStore()
  const {openSqliteStore} = await import('./store-sqlite.js')
  return openSqliteStore(dataFile)
}
