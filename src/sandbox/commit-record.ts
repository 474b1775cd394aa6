/**
 * How many transactions the sandbox committed to a data file, kept beside it (`FILE.committed`,
 * JSON, 0600) and outside SQLite: if the write-ahead log is lost to damage, the database alone
 * holds fewer commits than this record, and the next start can say so instead of serving with data
 * silently missing.
 *
 * Never empty, never partial, and never behind what was acknowledged when a kill -9 lands:
 * - At start and at close (`writeNow`) the record is written whole to a temporary file
 *   (`FILE.committed.tmp`), flushed to the disk (fsync), renamed over the record, and the directory
 *   flushed: a crash, a power cut included, leaves the old record or the new one.
 * - After each commit (`write`), before its answers go, the count is written over the record in
 *   place, in one write of a fixed size at its start (RECORD_BYTES, the JSON padded with spaces): a
 *   write of a few bytes to a file's first page is never cut halfway by a kill, and the file never
 *   goes through empty (written in place from the start before, it was truncated first: a kill then
 *   left it empty, and with it nothing to compare a damaged WAL to). It is then flushed to the disk
 *   off the requests' path, one flush at a time. (A temporary file renamed after each commit costs
 *   ~0.4 to 1.2 ms on a loaded disk; written after the answers, off their path, it lagged them:
 *   a kill then left the record behind the last commits acknowledged, and a WAL damaged then
 *   started without a word with part of them.)
 */
import {closeSync, fdatasync, fsyncSync, openSync, readFileSync, renameSync, writeSync} from 'node:fs'
import {dirname} from 'node:path'

import {systemClock} from '../contract/clock.js'

export interface CommitCount {
  /** The database this count belongs to (a file replaced by another is not compared). */
  instance: string
  commits: number
  at: string
}

/** The record's size on disk: its JSON (under 100 bytes) padded with spaces, so that each write covers the last. */
const RECORD_BYTES = 128

export class CommitRecord {
  readonly path: string
  private readonly temporary: string
  /** The record, open for the writes after each commit (undefined before writeNow, or when it could not be opened). */
  private fd: number | undefined
  private flushing: Promise<void> | undefined
  private unflushed = false

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

  /** Now, whole, through a temporary file (at start and at close); the record is then open for `write`. */
  writeNow(instance: string, commits: number): void {
    this.closeFile()
    try {
      const fd = openSync(this.temporary, 'w', 0o600)
      try {
        writeSync(fd, text(instance, commits))
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      renameSync(this.temporary, this.path)
      syncDirectory(dirname(this.path))
      this.fd = openSync(this.path, 'r+')
    } catch {
      // No record: nothing to compare at the next start, and nothing else is affected.
    }
  }

  /** After a commit, before its answers: written over the record in place, flushed to the disk soon. */
  write(instance: string, commits: number): void {
    const fd = this.fd
    const record = text(instance, commits)
    // Longer than the size written over (an identity not of this sandbox's making): whole, as at start.
    if (fd === undefined || record.length > RECORD_BYTES) return this.writeNow(instance, commits)
    try {
      writeSync(fd, record, 0)
    } catch {
      return
    }
    this.unflushed = true
    this.flushing ??= this.flush(fd)
  }

  /** Flushes to the disk what was written in place, one flush at a time, until nothing is left. */
  private async flush(fd: number): Promise<void> {
    while (this.unflushed && this.fd === fd) {
      this.unflushed = false
      await new Promise<void>((done) => fdatasync(fd, () => done()))
    }
    this.flushing = undefined
  }

  /** Resolves once the record's flushes are done (before the last writeNow, at close). */
  settled(): Promise<void> {
    return this.flushing ?? Promise.resolve()
  }

  /** The record closed (the sandbox closes; writeNow first). */
  close(): void {
    this.closeFile()
  }

  private closeFile(): void {
    if (this.fd === undefined) return
    try {
      closeSync(this.fd)
    } catch {
      // Already closed.
    }
    this.fd = undefined
  }
}

/** The record's text, padded to RECORD_BYTES (JSON allows the spaces after it). */
function text(instance: string, commits: number): string {
  return JSON.stringify({instance, commits, at: new Date(systemClock.now()).toISOString()}).padEnd(RECORD_BYTES, ' ')
}

/** Flushes a directory's entries (a rename in it) to the disk, where the system can. */
function syncDirectory(path: string): void {
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
