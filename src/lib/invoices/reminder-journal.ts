/**
 * The reminders journal: which invoice was reminded on which (service) day, one file per profile
 * in the config dir (0600: it names customers). An entry is written as `pending` BEFORE the send
 * goes out and marked `sent` once the service has confirmed it, so after a crash, a kill or Ctrl-C
 * a re-run knows what was confirmed (never sent again that day) and what is unknown (a send that
 * may or may not have reached the customer: reported, not repeated).
 *
 * Several runs at once (a cron job overlapping a manual run) share the file: every change is a
 * read-modify-write of the file as it is now, under the inter-process lock of config/lock.ts, and
 * a `pending` entry names its run (PID and a run id). So an invoice is claimed by one run only;
 * another run sees it as being reminded elsewhere while that process lives, and as unknown once it
 * has died without confirming (kill -9 after the claim: never sent twice). Written whole to a
 * temporary file and renamed over, so a crash never leaves half a journal.
 */
import {createHash, randomUUID} from 'node:crypto'
import {chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {systemClock, type Clock} from '../../contract/clock.js'
import {withFileLock} from '../config/lock.js'
import {currentOwner, isOwnerAlive} from '../config/process-owner.js'

export type JournalState = 'pending' | 'sent'

export interface JournalEntry {
  /** The service's day of the send, YYYY-MM-DD. */
  day: string
  state: JournalState
  channel: string
  /** When this entry was last written (local clock; for people reading the file). */
  at: string
  /** The process and run that claimed it (absent in journals written before runs were named). */
  pid?: number
  /** The process's start time (Linux): a PID reused since is not this run. */
  pid_start?: string
  run?: string
}

/** What today's entry for an invoice means to this run. */
export type Standing =
  | {kind: 'free'}
  | {kind: 'sent'}
  /** Claimed by a run that is still going: it will send (or not) and say so. */
  | {kind: 'elsewhere'; pid: number}
  /** Claimed by a run that ended without confirming: the send may have gone out. */
  | {kind: 'unknown'}

interface JournalFile {
  version: 1
  entries: Record<string, JournalEntry>
}

/** Entries older than this are dropped on write: a reminder is at most daily. */
const KEEP_DAYS = 31

/** The runs of this process still going (an MCP server or a test may run several in one process). */
const activeRuns = new Set<string>()

/** The journal's file name for a profile, or, with no profile (a key from the environment), for that key and base URL (hashed: never the key itself). */
export function journalPath(configDir: string, who: {profileName?: string; baseUrl: string; apiKey?: string}): string {
  const name = who.profileName
    ? `profile-${who.profileName.replace(/[^\w.-]/g, '_')}`
    : `key-${createHash('sha256').update(`${who.baseUrl}\n${who.apiKey ?? ''}`).digest('hex').slice(0, 16)}`
  return join(configDir, 'reminders', `${name}.json`)
}

function load(path: string): JournalFile {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<JournalFile>
    if (parsed && typeof parsed === 'object' && parsed.entries && typeof parsed.entries === 'object') return {version: 1, entries: parsed.entries}
  } catch (error) {
    // No journal yet is the normal first run; an unreadable one must not be silently replaced.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  return {version: 1, entries: {}}
}

export class ReminderJournal {
  private data: JournalFile
  /** This run's id: its claims are its own, whatever else runs in this process. */
  readonly run = randomUUID()

  private constructor(
    private readonly path: string,
    private readonly clock: Clock,
  ) {
    this.data = load(path)
    activeRuns.add(this.run)
  }

  /** The journal as it is now (for the plan); every change re-reads it under the lock. */
  static open(path: string, clock: Clock = systemClock): ReminderJournal {
    return new ReminderJournal(path, clock)
  }

  /** Today's entry for this invoice, as last read. */
  today(invoiceId: string, day: string): JournalEntry | undefined {
    const entry = this.data.entries[invoiceId]
    return entry && entry.day === day ? entry : undefined
  }

  /** What today's entry (as last read) means: free to claim, sent, being sent by a live run, or unknown. */
  standing(invoiceId: string, day: string): Standing {
    const entry = this.today(invoiceId, day)
    if (!entry) return {kind: 'free'}
    if (entry.state === 'sent') return {kind: 'sent'}
    if (entry.run === this.run) return {kind: 'unknown'}
    const alive = entry.pid === process.pid ? entry.run !== undefined && activeRuns.has(entry.run) : entry.pid !== undefined && isOwnerAlive(entry)
    return alive && entry.pid !== undefined ? {kind: 'elsewhere', pid: entry.pid} : {kind: 'unknown'}
  }

  /**
   * Claims the invoice for this run (a `pending` entry) if no run has today: under the lock, on
   * the file as it is now. Free: claimed, and the send may go out. Otherwise what stands there.
   */
  async claim(invoiceId: string, day: string, channel: string): Promise<Standing> {
    return this.change(day, () => {
      const standing = this.standing(invoiceId, day)
      if (standing.kind === 'free') this.data.entries[invoiceId] = this.entry(day, 'pending', channel)
      return standing
    })
  }

  /** The service confirmed the send. */
  async confirm(invoiceId: string, day: string, channel: string): Promise<void> {
    await this.change(day, () => {
      this.data.entries[invoiceId] = this.entry(day, 'sent', channel)
    })
  }

  /** The send certainly did not happen (the service refused it): it may be tried again. Only our own claim is dropped. */
  async forget(invoiceId: string, day: string): Promise<void> {
    await this.change(day, () => {
      if (this.today(invoiceId, day)?.run === this.run) delete this.data.entries[invoiceId]
    })
  }

  /** This run is over: a claim it left (none, normally) reads as unknown to the others. */
  close(): void {
    activeRuns.delete(this.run)
  }

  private entry(day: string, state: JournalState, channel: string): JournalEntry {
    return {day, state, channel, at: new Date(this.clock.now()).toISOString(), ...currentOwner(), run: this.run}
  }

  private async change<T>(day: string, work: () => T): Promise<T> {
    const dir = join(this.path, '..')
    mkdirSync(dir, {recursive: true, mode: 0o700})
    return withFileLock(this.path, () => {
      this.data = load(this.path)
      const before = JSON.stringify(this.data)
      const result = work()
      if (JSON.stringify(this.data) !== before) this.save(day)
      return result
    }, {clock: this.clock})
  }

  private save(day: string): void {
    const oldest = new Date(Date.parse(`${day}T00:00:00Z`) - KEEP_DAYS * 86_400_000).toISOString().slice(0, 10)
    for (const [id, entry] of Object.entries(this.data.entries)) if (entry.day < oldest) delete this.data.entries[id]
    const temporary = `${this.path}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(this.data, null, 2)}\n`, {mode: 0o600})
    chmodSync(temporary, 0o600)
    renameSync(temporary, this.path)
  }
}
