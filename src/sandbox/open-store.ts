/**
 * Which store a sandbox runs on: SQLite on `dataFile` (store-sqlite.ts), else in memory. The
 * SQLite store, and better-sqlite3 with it, is loaded only here and only with a data file.
 */
import {explainDataFileError} from './storage-errors.js'
import {MemoryStore, type Store} from './store.js'

export async function openStore(dataFile: string | undefined): Promise<Store> {
  if (!dataFile) return new MemoryStore()
  const {openSqliteStore} = await import('./store-sqlite.js')
  try {
    return await openSqliteStore(dataFile)
  } catch (error) {
    // A damaged file, a directory, a read-only or full disk: said with the file and the way out.
    throw explainDataFileError(dataFile, error)
  }
}
