/**
 * The checkpointer: a worker thread with its own connection that copies the WAL into the database
 * file every CHECKPOINT_EVERY_MS (a PASSIVE checkpoint never blocks a writer), so that the main
 * thread never pays for it. Imports the sandbox's own files.
 */
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {Worker} from 'node:worker_threads'
import type {Db} from './store-sqlite-driver.js'

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
export function startCheckpointer(db: Db, file: string): (() => Promise<void>) | undefined {
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
