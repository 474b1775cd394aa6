/**
 * The data file's schema, version by version (`PRAGMA user_version` is how many have run), and
 * running those not yet run. Never edit a migration: add one. Imports the sandbox's own files.
 */
import {t} from './i18n/index.js'
import type BetterSqlite3 from 'better-sqlite3'

type Db = BetterSqlite3.Database

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

export function migrate(db: Db, file: string): void {
  const version = db.pragma('user_version', {simple: true}) as number
  if (version > MIGRATIONS.length) throw new Error(t('sandbox.store.newer', {file, version, known: MIGRATIONS.length}))
  for (let i = version; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[i])
      db.pragma(`user_version = ${i + 1}`)
    })()
  }
}
