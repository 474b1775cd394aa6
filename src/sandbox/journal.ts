/**
 * The request journal: every request the sandbox answers, newest first, for `svc sandbox requests`,
 * `logs tail`, `serve --log` and the inspector. A bounded ring in memory (JOURNAL_SIZE, the entries
 * kept as journal-ring.ts keeps them: no object per request); with `--data`, also in the database
 * (a business collection of its own, pruned to the same bound) and read back at start. On disk it
 * is written a batch a second (at most 100 entries a batch: under a flood the database keeps a
 * sample of the last second, the ring all of it) and at close.
 */
import {JOURNAL_SIZE, pathMatcher, statusMatcher, type JournalEntry, type JournalQuery} from '../contract/sandbox-inspector.js'
import {systemClock, type Clock} from '../contract/clock.js'
import {Ring, type Capture, type Line, type Stored} from './journal-ring.js'
import {Redactor} from './journal-redact.js'
import type {Collection, Store} from './store.js'

export {JOURNAL_BODY_BUDGET, JOURNAL_URL_BUDGET, type Capture} from './journal-ring.js'

/** A test of a journal entry (raw or made) against the filters; svc's own requests only with `all`. */
export function journalFilter(query: JournalQuery, now: number): (item: Line) => boolean {
  const method = query.method?.toUpperCase()
  const path = query.path ? pathMatcher(query.path) : undefined
  const status = query.status ? statusMatcher(query.status) : undefined
  const since = query.since_ms === undefined ? undefined : now - query.since_ms
  const all = query.all === true
  return (item) =>
    (all || item.origin === 'app') &&
    (!method || item.method === method) && (!path || path(item.path)) && (!status || status(item.status)) && (since === undefined || item.atMs >= since)
}

/** Captures recorded before they are written to the ring at once (record). */
const PENDING_MOST = 256
/** How long a capture may wait to be written when nobody watches the journal live (ms). */
const SETTLE_MS = 50

/** How often the journal goes to the database (--data), and the most entries one write takes. */
const FLUSH_EVERY_MS = 1000
const FLUSH_MOST = 100

/** Entries over the bound on disk before they are deleted (one delete a request would cost more). */
const PRUNE_BATCH = 500

export class Journal {
  private readonly ring: Ring
  private readonly listeners = new Set<(entry: JournalEntry) => void>()
  private readonly disk?: Collection<Stored>
  private timer?: NodeJS.Timeout
  /** The newest seq written to disk. */
  private flushed = 0
  /** Captures recorded, not yet written to the ring (record); and the list they swap with. */
  private pending: Capture[] = []
  private spare: Capture[] = []
  private settleScheduled = false
  private settleTimer?: NodeJS.Timeout

  constructor(
    store: Store,
    private readonly size = JOURNAL_SIZE,
    /** The machine's clock the entries are stamped with (the sandbox clock's `machine`). */
    private readonly machine: Clock = systemClock,
    /** What masks the secrets of each entry before it is stored (journal-redact.ts). */
    redactor = new Redactor(),
  ) {
    this.ring = new Ring(size, redactor)
    if (store.kind !== 'sqlite') return
    this.disk = store.business.collection<Stored>('request_journal')
    // Written a batch at a time, off the requests' path (flush).
    this.timer = setInterval(() => this.flush(), FLUSH_EVERY_MS)
    this.timer.unref()
    // The newest entries back in the ring, oldest first, and the numbering goes on after them.
    const {items} = this.disk.newestFirst(0, size)
    for (const stored of items.reverse()) this.ring.restore(stored)
    this.flushed = this.ring.newest
  }

  /**
   * Write what was recorded since the last flush to the database: at most FLUSH_MOST, the newest
   * (under a flood the database keeps a sample; the ring in memory keeps them all), then prune it
   * to the bound. Every FLUSH_EVERY_MS, and at close.
   */
  flush(): void {
    this.settle()
    const newest = this.ring.newest
    if (!this.disk || this.flushed === newest) return
    const from = Math.max(this.flushed + 1, newest - Math.min(this.size, FLUSH_MOST) + 1)
    for (let seq = from; seq <= newest; seq++) {
      const slot = this.ring.slotOf(seq)
      if (slot !== undefined) this.disk.insert({...this.ring.entry(slot), seq})
    }
    this.flushed = newest
    if (this.disk.size > this.size + PRUNE_BATCH) {
      for (const old of this.disk.newestFirst(this.size, this.disk.size - this.size).items) this.disk.delete(old.id)
    }
  }

  /** The last flush (the sandbox is closing). */
  close(): void {
    clearInterval(this.timer)
    this.flush()
  }

  /**
   * An answered request, into the journal. Written to the ring a batch at a time: once
   * PENDING_MOST are waiting, SETTLE_MS after the first, at the end of the event loop's turn when
   * someone watches live, and always before the journal is read (so a reader never misses one).
   * The same work done in a tight loop over many entries costs a third of what it costs
   * interleaved with the requests' own (the ring's rows and bytes stay in the processor's cache).
   */
  record(capture: Capture): void {
    this.ring.canonical(capture)
    this.pending.push(capture)
    if (this.pending.length >= PENDING_MOST) this.settle()
    else if (this.listeners.size > 0 && !this.settleScheduled) {
      // Someone watches (serve --log, logs tail, the inspector): at the end of this turn.
      this.settleScheduled = true
      setImmediate(this.settleSoon)
    } else if (!this.settleTimer) {
      // Nobody watches: within SETTLE_MS, unless PENDING_MOST come first (one timer a batch).
      this.settleTimer = setTimeout(this.settleSoon, SETTLE_MS)
      this.settleTimer.unref()
    }
  }

  private readonly settleSoon = (): void => {
    this.settleScheduled = false
    this.settle()
  }

  /** The captures recorded and not yet written, written (in the order they were answered). */
  private settle(): void {
    if (this.settleTimer) {
      clearTimeout(this.settleTimer)
      this.settleTimer = undefined
    }
    const pending = this.pending
    if (pending.length === 0) return
    // A listener may answer another request while this runs: it goes to the other list.
    this.pending = this.spare
    this.spare = pending
    const ring = this.ring
    for (let i = 0; i < pending.length; i++) {
      const slot = ring.write(pending[i]!)
      if (this.listeners.size === 0) continue
      const entry = ring.entry(slot)
      for (const listener of this.listeners) listener(entry)
    }
    pending.length = 0
  }

  /** Newest first, filtered, at most `limit`; `summary`: without headers and bodies. */
  list(query: JournalQuery, limit = query.limit ?? 100): JournalEntry[] {
    this.settle()
    const test = journalFilter(query, this.machine.now())
    // The path is read only when it is filtered on.
    const byPath = query.path !== undefined
    return this.ring.newestFirst(test, byPath, limit, query.summary)
  }

  private slotOfId(id: string): number | undefined {
    return /^req_\d+$/.test(id) ? this.ring.slotOf(Number(id.slice(4))) : undefined
  }

  get(id: string): JournalEntry | undefined {
    this.settle()
    const slot = this.slotOfId(id)
    return slot === undefined ? undefined : this.ring.entry(slot)
  }

  /** The id of the key a request was made with (not kept across a restart). */
  keyIdOf(id: string): string | undefined {
    this.settle()
    const slot = this.slotOfId(id)
    return slot === undefined ? undefined : this.ring.keyIdOf(slot)
  }

  /** Bytes the journal holds for its entries' headers and bodies (its two arenas). */
  get heldBytes(): number {
    this.settle()
    return this.ring.heldBytes
  }

  /** Every new entry, as it is recorded; returns the unsubscribe. */
  subscribe(listener: (entry: JournalEntry) => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }
}
