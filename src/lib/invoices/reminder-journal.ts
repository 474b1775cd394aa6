/**
 * The reminders journal: which invoice was reminded on which (service) day, one file per profile
 * in the config dir (0600: it names customers). An entry is written as `pending` BEFORE the send
 * goes out and marked `sent` once the service has confirmed it, so after a crash, a kill or Ctrl-C
 * a re-run knows what was confirmed (never sent again that day) and what is unknown (a send that
 * may or may not have reached the customer: reported, not repeated). Written whole to a temporary
 * file and renamed over, so a crash never leaves half a journal.
 */
import {createHash} from 'node:crypto'
import {chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

export type JournalState = 'pending' | 'sent'

export interface JournalEntry {
  /** The service's day of the send, YYYY-MM-DD. */
  day: string
  state: JournalState
  channel: string
  /** When this entry was last written (local clock; for people reading the file). */
  at: string
}

interface JournalFile {
  version: 1
  entries: Record<string, JournalEntry>
}

/** Entries older than this are dropped on write: a reminder is at most daily. */
const KEEP_DAYS = 31

/** The journal's file name for a profile, or, with no profile (a key from the environment), for that key and base URL (hashed: never the key itself). */
export function journalPath(configDir: string, who: {profileName?: string; baseUrl: string; apiKey?: string}): string {
  const name = who.profileName
    ? `profile-${who.profileName.replace(/[^\w.-]/g, '_')}`
    : `key-${createHash('sha256').update(`${who.baseUrl}\n${who.apiKey ?? ''}`).digest('hex').slice(0, 16)}`
  return join(configDir, 'reminders', `${name}.json`)
}

export class ReminderJournal {
  private data: JournalFile

  private constructor(private readonly path: string, data: JournalFile) {
    this.data = data
  }

  static open(path: string): ReminderJournal {
    let data: JournalFile = {version: 1, entries: {}}
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<JournalFile>
      if (parsed && typeof parsed === 'object' && parsed.entries && typeof parsed.entries === 'object') data = {version: 1, entries: parsed.entries}
    } catch (error) {
      // No journal yet is the normal first run; an unreadable one must not be silently replaced.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    return new ReminderJournal(path, data)
  }

  /** Today's entry for this invoice, if any. */
  today(invoiceId: string, day: string): JournalEntry | undefined {
    const entry = this.data.entries[invoiceId]
    return entry && entry.day === day ? entry : undefined
  }

  mark(invoiceId: string, day: string, state: JournalState, channel: string): void {
    this.data.entries[invoiceId] = {day, state, channel, at: new Date().toISOString()}
    this.save(day)
  }

  /** The send certainly did not happen (the service refused it): it may be tried again. */
  forget(invoiceId: string, day: string): void {
    delete this.data.entries[invoiceId]
    this.save(day)
  }

  private save(day: string): void {
    const oldest = new Date(Date.parse(`${day}T00:00:00Z`) - KEEP_DAYS * 86_400_000).toISOString().slice(0, 10)
    for (const [id, entry] of Object.entries(this.data.entries)) if (entry.day < oldest) delete this.data.entries[id]
    const dir = join(this.path, '..')
    mkdirSync(dir, {recursive: true, mode: 0o700})
    const temporary = `${this.path}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(this.data, null, 2)}\n`, {mode: 0o600})
    chmodSync(temporary, 0o600)
    renameSync(temporary, this.path)
  }
}
