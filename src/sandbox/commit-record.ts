/**
 * How many transactions the sandbox committed to a data file, kept beside it (`FILE.committed`,
 * JSON, 0600) and outside SQLite: if the write-ahead log is lost to damage, the database alone
 * holds fewer commits than this record, and the next start can say so instead of serving with data
 * silently missing. The record is written after each commit, one write at a time (the latest count
 * wins), without fsync: it may lag the database by the last moments before a crash, never lead it
 * unless the database lost data.
 */
import {readFileSync, writeFileSync} from 'node:fs'
import {writeFile} from 'node:fs/promises'

import {systemClock} from '../contract/clock.js'

export interface CommitCount {
  /** The database this count belongs to (a file replaced by another is not compared). */
  instance: string
  commits: number
  at: string
}

export class CommitRecord {
  readonly path: string
  private latest: CommitCount | undefined
  private writing: Promise<void> | undefined

  constructor(file: string) {
    this.path = `${file}.committed`
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
      writeFileSync(this.path, JSON.stringify({instance, commits, at: new Date(systemClock.now()).toISOString()}), {mode: 0o600})
    } catch {
      // No record: nothing to compare at the next start, and nothing else is affected.
    }
  }

  /** After a commit: written soon, one write at a time. */
  write(instance: string, commits: number): void {
    this.latest = {instance, commits, at: new Date(systemClock.now()).toISOString()}
    this.writing ??= this.drain()
  }

  private async drain(): Promise<void> {
    while (this.latest) {
      const next = this.latest
      this.latest = undefined
      await writeFile(this.path, JSON.stringify(next), {mode: 0o600}).catch(() => undefined)
    }
    this.writing = undefined
  }

  settled(): Promise<void> {
    return this.writing ?? Promise.resolve()
  }
}
