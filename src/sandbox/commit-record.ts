/**
 * How many transactions the sandbox committed to a data file, kept beside it (`FILE.committed`,
 * JSON, 0600) and outside SQLite: if the write-ahead log is lost to damage, the database alone
 * holds fewer commits than this record, and the next start can say so instead of serving with data
 * silently missing. The record is written after each commit, one write at a time (the latest count
 * wins), off the requests' path: it may lag the database by the last moments before a crash, never
 * lead it unless the database lost data.
 *
 * Each write goes to a temporary file (`FILE.committed.tmp`), is flushed to the disk (fsync),
 * renamed over the record, and the directory flushed: a crash at any moment (kill -9, power lost)
 * leaves the old record or the new one, never an empty or a partial one (writing the record in
 * place truncated it first: a kill then left it empty, and with it nothing to compare a damaged
 * WAL to). Only one write is under way at a time (`writeNow` runs at start, and at close once
 * `settled`), so the one temporary name serves them all.
 */
import {closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync} from 'node:fs'
import {open, rename} from 'node:fs/promises'
import {dirname} from 'node:path'

export interface CommitCount {
  /** The database this count belongs to (a file replaced by another is not compared). */
  instance: string
  commits: number
  at: string
}

export class CommitRecord {
  readonly path: string
  private readonly temporary: string
  private latest: CommitCount | undefined
  private writing: Promise<void> | undefined

  constructor(file: string) {
    this.path = `${file}.committed`
    this.temporary = `${this.path}.tmp`
  }

  read(): CommitCount | undefined {
    try {
      const value = JSON.parse(readFileSync(this.path, 'utf8')) as CommitCount
      return typeof value?.instance === 'string' && Number.isInteger(value.commits) ? value : undefined
    } catch {
      return undefined
    }
  }

  /** Now, synchronously (at start and at close). */
  writeNow(instance: string, commits: number): void {
    this.latest = undefined
    try {
      const fd = openSync(this.temporary, 'w', 0o600)
      try {
        writeSync(fd, JSON.stringify({instance, commits, at: new Date().toISOString()}))
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      renameSync(this.temporary, this.path)
      syncDirectorySync(dirname(this.path))
    } catch {
      // No record: nothing to compare at the next start, and nothing else is affected.
    }
  }

  /** After a commit: written soon, one write at a time. */
  write(instance: string, commits: number): void {
    this.latest = {instance, commits, at: new Date().toISOString()}
    this.writing ??= this.drain()
  }

  private async drain(): Promise<void> {
    while (this.latest) {
      const next = this.latest
      this.latest = undefined
      await this.replace(JSON.stringify(next)).catch(() => undefined)
    }
    this.writing = undefined
  }

  /** The record replaced by `text`: the temporary file written, flushed, renamed, the directory flushed. */
  private async replace(text: string): Promise<void> {
    const handle = await open(this.temporary, 'w', 0o600)
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(this.temporary, this.path)
    const directory = await open(dirname(this.path), 'r')
    // Some systems cannot flush a directory (Windows): the rename is then as durable as they make it.
    await directory.sync().catch(() => undefined)
    await directory.close()
  }

  settled(): Promise<void> {
    return this.writing ?? Promise.resolve()
  }
}

/** Flushes a directory's entries (a rename in it) to the disk, where the system can. */
function syncDirectorySync(path: string): void {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    fsyncSync(fd)
  } catch {
    // Windows cannot open a directory so: the rename is as durable as the system makes it.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
