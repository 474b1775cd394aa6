/**
 * The JSON data file svc wrote before the database (version 1): its shape, and importing it into a
 * new database. Imports the sandbox's own files.
 */
import type {ScheduledTask} from './clock.js'
import type {Scope} from './store.js'
import type {Environment, JsonValue} from './types.js'
import type {SqliteConstructor} from './store-sqlite-driver.js'
import {migrate} from './store-sqlite-migrations.js'

/** Today's JSON data file (version 1, written by svc before the database): its shape. */
interface LegacyDump {
  collections?: Record<string, Array<{id: string}>>
  settings?: Record<string, JsonValue>
}

export interface LegacyFile {
  version: 1
  business?: LegacyDump
  environments?: Partial<Record<Environment, LegacyDump>>
  extras?: Record<string, JsonValue>
}

/** Import today's JSON data file into a new database at `target` (index keys computed at `ready`). */
export function importLegacy(Driver: SqliteConstructor, data: LegacyFile, target: string): number {
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
