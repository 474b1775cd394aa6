/**
 * The request journal: every request the sandbox answers, newest first, for `svc sandbox requests`,
 * `logs tail`, `serve --log` and the inspector. A bounded ring in memory (JOURNAL_SIZE); with
 * `--data`, also in the database (a business collection of its own, pruned to the same bound) and
 * read back at start. On disk it is written a batch a second (at most 100 entries a batch: under
 * a flood the database keeps a sample of the last second, the ring all of it) and at close.
 *
 * Cheap on the hot path: the HTTP layer hands over what it already holds (the request's headers,
 * the body it read, the text it sent) and the ring keeps those references; the entry clients read
 * (JournalEntry: key masked, secrets out of the headers, bodies cut to 64 KiB) is made only when
 * it is read, streamed, or written to disk.
 */
import type {IncomingHttpHeaders} from 'node:http'
import {
  JOURNAL_BODY_LIMIT,
  JOURNAL_SIZE,
  pathMatcher,
  statusMatcher,
  type JournalEntry,
  type JournalQuery,
} from '../contract/sandbox-inspector.js'
import type {ApiKeyRecord} from './auth.js'
import type {Collection, Store} from './store.js'

/** What the HTTP layer knows of one answered request. */
export interface Capture {
  at: number
  started: number
  method: string
  url: string
  ip: string
  headers: IncomingHttpHeaders
  key?: ApiKeyRecord
  requestBody?: Buffer
  /** The body's whole size when `requestBody` holds only its start. */
  requestBytes?: number
  status: number
  responseHeaders: Record<string, string | number | string[]>
  responseBody?: string | Buffer
  durationMs: number
  /** Where the capture goes once answered (dropped when recorded). */
  sink?: {record(capture: Capture): void}
}

interface Raw extends Capture {
  seq: number
  /** Bytes of body this entry holds (counted once, when recorded). */
  held?: number
  /** Made once, when first read. */
  entry?: JournalEntry
}

/** Header names never kept: they carry secrets. */
const SECRET_HEADER = /^(authorization|proxy-authorization|x-api-key|cookie|set-cookie|x-svc-csrf)$|token|secret|password|signature/i
const TEXT_TYPE = /json|text|xml|csv|x-www-form-urlencoded|javascript/i

function cleanHeaders(headers: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || SECRET_HEADER.test(name)) continue
    kept[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return kept
}

/** A body as text, cut to the limit; null when there is none or it is not text. */
function bodyText(body: string | Buffer | undefined, contentType: unknown, whole?: number): {text: string | null; bytes: number; cut: boolean} {
  if (body === undefined) return {text: null, bytes: 0, cut: false}
  const bytes = whole ?? (typeof body === 'string' ? Buffer.byteLength(body) : body.length)
  if (bytes === 0) return {text: null, bytes, cut: false}
  if (typeof body !== 'string' && !(typeof contentType === 'string' && TEXT_TYPE.test(contentType)) && contentType !== undefined) return {text: null, bytes, cut: false}
  if (bytes <= JOURNAL_BODY_LIMIT && whole === undefined) return {text: typeof body === 'string' ? body : body.toString('utf8'), bytes, cut: false}
  const buffer = typeof body === 'string' ? Buffer.from(body) : body
  // Cut on a character boundary: the replacement character of a half sequence is dropped.
  return {text: buffer.subarray(0, JOURNAL_BODY_LIMIT).toString('utf8').replace(/\uFFFD$/, ''), bytes, cut: true}
}

function one(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null
}

function held(raw: Raw): number {
  raw.held ??= sizeOf(raw.requestBody) + sizeOf(raw.responseBody) + (raw.entry ? (raw.entry.request_body?.length ?? 0) + (raw.entry.response_body?.length ?? 0) : 0)
  return raw.held
}

export function toEntry(raw: Raw): JournalEntry {
  if (raw.entry) return raw.entry
  const queryAt = raw.url.indexOf('?')
  const request = bodyText(raw.requestBody, raw.headers['content-type'], raw.requestBytes)
  const response = bodyText(raw.responseBody, raw.responseHeaders['content-type'])
  raw.entry = {
    id: `req_${raw.seq}`,
    at: new Date(raw.at).toISOString(),
    method: raw.method,
    path: queryAt === -1 ? raw.url : raw.url.slice(0, queryAt),
    query: queryAt === -1 ? '' : raw.url.slice(queryAt + 1),
    status: raw.status,
    duration_ms: Math.round(raw.durationMs * 100) / 100,
    environment: raw.key?.environment ?? null,
    key: raw.key?.masked ?? null,
    idempotency_key: one(raw.headers['idempotency-key']),
    ip: raw.ip,
    request_headers: cleanHeaders(raw.headers),
    request_body: request.text,
    request_bytes: request.bytes,
    response_headers: cleanHeaders(raw.responseHeaders),
    response_body: response.text,
    response_bytes: response.bytes,
    truncated: request.cut || response.cut,
  }
  // The references are no longer needed: the entry holds what is kept.
  raw.requestBody = undefined
  raw.responseBody = undefined
  return raw.entry
}

/** A test of a journal entry (raw or made) against the filters. */
export function journalFilter(query: JournalQuery, now: number): (item: {method: string; path: string; status: number; atMs: number}) => boolean {
  const method = query.method?.toUpperCase()
  const path = query.path ? pathMatcher(query.path) : undefined
  const status = query.status ? statusMatcher(query.status) : undefined
  const since = query.since_ms === undefined ? undefined : now - query.since_ms
  return (item) =>
    (!method || item.method === method) && (!path || path(item.path)) && (!status || status(item.status)) && (since === undefined || item.atMs >= since)
}

type Stored = JournalEntry & {seq: number}

/**
 * Bodies the ring holds at most, bytes: past it, the oldest entries lose their bodies (their
 * method, path, status… stay). 10,000 answers of a list page would hold ~50 MB otherwise.
 */
export const JOURNAL_BODY_BUDGET = 32 * 1024 * 1024

const sizeOf = (body: string | Buffer | undefined) => (body === undefined ? 0 : typeof body === 'string' ? body.length : body.length)

/** How often the journal goes to the database (--data), and the most entries one write takes. */
const FLUSH_EVERY_MS = 1000
const FLUSH_MOST = 100

/** Entries over the bound on disk before they are deleted (one delete a request would cost more). */
const PRUNE_BATCH = 500

export class Journal {
  private readonly ring: Array<Raw | undefined>
  /** Where the next entry goes. */
  private head = 0
  private count = 0
  private seq = 0
  /** Bytes of bodies held in the ring (JOURNAL_BODY_BUDGET), and the oldest seq that may still hold some. */
  private bodyBytes = 0
  private strippedUpTo = 0
  private readonly listeners = new Set<(entry: JournalEntry) => void>()
  private readonly disk?: Collection<Stored>
  private timer?: NodeJS.Timeout
  /** The newest seq written to disk. */
  private flushed = 0

  constructor(
    store: Store,
    private readonly size = JOURNAL_SIZE,
  ) {
    this.ring = new Array(size)
    if (store.kind !== 'sqlite') return
    this.disk = store.business.collection<Stored>('request_journal')
    // Written a batch at a time, off the requests' path (flush).
    this.timer = setInterval(() => this.flush(), FLUSH_EVERY_MS)
    this.timer.unref()
    // The newest entries back in the ring, oldest first, and the numbering goes on after them.
    const {items} = this.disk.newestFirst(0, size)
    for (const stored of items.reverse()) {
      const {seq, ...entry} = stored
      this.push({...fromEntry(entry), seq, entry})
      this.seq = Math.max(this.seq, seq)
    }
    this.flushed = this.seq
  }

  /**
   * Write what was recorded since the last flush to the database: at most FLUSH_MOST, the newest
   * (under a flood the database keeps a sample; the ring in memory keeps them all), then prune it
   * to the bound. Every FLUSH_EVERY_MS, and at close.
   */
  flush(): void {
    if (!this.disk || this.flushed === this.seq) return
    const from = Math.max(this.flushed + 1, this.seq - Math.min(this.count, FLUSH_MOST) + 1)
    for (let seq = from; seq <= this.seq; seq++) {
      const raw = this.raw(`req_${seq}`)
      if (raw) this.disk.insert({...toEntry(raw), seq})
    }
    this.flushed = this.seq
    if (this.disk.size > this.size + PRUNE_BATCH) {
      for (const old of this.disk.newestFirst(this.size, this.disk.size - this.size).items) this.disk.delete(old.id)
    }
  }

  /** The last flush (the sandbox is closing). */
  close(): void {
    clearInterval(this.timer)
    this.flush()
  }

  private push(raw: Raw): void {
    const old = this.ring[this.head]
    if (old) this.bodyBytes -= held(old)
    this.ring[this.head] = raw
    this.head = (this.head + 1) % this.size
    if (this.count < this.size) this.count++
  }

  record(capture: Capture): void {
    const raw = capture as Raw
    raw.sink = undefined
    raw.seq = ++this.seq
    this.push(raw)
    this.bodyBytes += held(raw)
    if (this.bodyBytes > JOURNAL_BODY_BUDGET) this.strip()
    if (this.listeners.size > 0) {
      const entry = toEntry(raw)
      for (const listener of this.listeners) listener(entry)
    }
  }

  /** Drop the bodies of the oldest entries until the ring is within its budget again. */
  private strip(): void {
    let seq = Math.max(this.strippedUpTo + 1, this.seq - this.count + 1)
    while (this.bodyBytes > JOURNAL_BODY_BUDGET * 0.9 && seq < this.seq) {
      const raw = this.ring[(this.head - 1 - (this.seq - seq) + this.size * 2) % this.size]
      if (raw) {
        this.bodyBytes -= held(raw)
        raw.requestBody = undefined
        raw.responseBody = undefined
        if (raw.entry) raw.entry = {...raw.entry, request_body: null, response_body: null, truncated: raw.entry.request_bytes + raw.entry.response_bytes > 0}
        raw.held = 0
      }
      seq++
    }
    this.strippedUpTo = seq - 1
  }

  /** Newest first, filtered, at most `limit`. */
  list(query: JournalQuery, limit = query.limit ?? 100): JournalEntry[] {
    const test = journalFilter(query, Date.now())
    const found: JournalEntry[] = []
    for (let i = 1; i <= this.count && found.length < limit; i++) {
      const raw = this.ring[(this.head - i + this.size) % this.size]!
      const queryAt = raw.url.indexOf('?')
      const path = queryAt === -1 ? raw.url : raw.url.slice(0, queryAt)
      if (test({method: raw.method, path, status: raw.status, atMs: raw.at})) found.push(toEntry(raw))
    }
    return found
  }

  private raw(id: string): Raw | undefined {
    const seq = /^req_\d+$/.test(id) ? Number(id.slice(4)) : Number.NaN
    if (!(seq > this.seq - this.count && seq <= this.seq)) return undefined
    const raw = this.ring[(this.head - 1 - (this.seq - seq) + this.size * 2) % this.size]
    return raw && raw.seq === seq ? raw : undefined
  }

  get(id: string): JournalEntry | undefined {
    const raw = this.raw(id)
    return raw && toEntry(raw)
  }

  /** The id of the key a request was made with (not kept across a restart). */
  keyIdOf(id: string): string | undefined {
    return this.raw(id)?.key?.id
  }

  /** Every new entry, as it is recorded; returns the unsubscribe. */
  subscribe(listener: (entry: JournalEntry) => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }
}

/** A stored entry as a ring item (its entry already made). */
function fromEntry(entry: JournalEntry): Capture {
  return {
    at: Date.parse(entry.at),
    started: 0,
    method: entry.method,
    url: entry.query ? `${entry.path}?${entry.query}` : entry.path,
    ip: entry.ip,
    headers: {},
    status: entry.status,
    responseHeaders: {},
    durationMs: entry.duration_ms,
  }
}
