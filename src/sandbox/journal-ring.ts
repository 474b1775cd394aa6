/**
 * The request journal's entries (journal.ts), kept without an object per request: whatever
 * outlives 10,000 requests is copied out of the young generation and marked again at every full
 * collection, and that, more than the recording itself, is what a journal of objects costs. An
 * entry is a row of typed arrays (seq, time, status, duration, sizes, positions), references to
 * what exists anyway (the method's and the client address's strings, the key's record) and its URL;
 * its headers (secrets left out as it is recorded) and bodies (cut at 64 KiB) are bytes in two byte
 * rings (journal-arena.ts), one for headers and one for bodies, whose bound (JOURNAL_BODY_BUDGET)
 * makes the oldest entries lose their bodies first. The entry clients read (JournalEntry) is made
 * when it is read, streamed or written to disk. What a request has in common with the one answered
 * before it (its headers, its answer's headers and text: a client's same headers, a status polled)
 * is not written again: the entry points at the bytes already there (Last). The row arrays are
 * made small and made larger as the ring fills (grow): a sandbox started for a few requests (a
 * test's) does not make and clear 10,000 rows it never uses.
 */
import {JOURNAL_BODY_LIMIT, type JournalEntry} from '../contract/sandbox-inspector.js'
import {Arena, countHeaders, objectHeaderText, ORIGIN_CODE, ORIGINS, originOf, parseHeaderText, rawHeaderText, sameHeaders, sameRaw, type HeaderText} from './journal-arena.js'
import {ELLIPSIS_LATIN1, MARGIN, Redactor} from './journal-redact.js'
import {type Capture, HEADER_BUDGET, HEADER_LIMIT, JOURNAL_BODY_BUDGET, JOURNAL_URL_BUDGET, type KeyView, type Last, type Line, NOT_LATIN1, REQUEST_CUT, RESPONSE_CUT, type Stored, TEXT_TYPE, URL_CUT, URL_LIMIT, URL_SLOT, WAS_TRUNCATED, bodyMost, pathOf} from './journal-shape.js'

export {JOURNAL_BODY_BUDGET, JOURNAL_URL_BUDGET, type Capture, type Line, type Stored} from './journal-shape.js'

/** Rows a ring makes at first; it makes more as it fills, up to its size (Ring.grow). */
const FIRST_ROWS = 64

export class Ring {
  // One row per slot (slot = seq % size); seq 0: an empty slot.
  private seqs = new Float64Array(0)
  private ats = new Float64Array(0)
  private durations = new Float64Array(0)
  private statuses = new Uint16Array(0)
  private flags = new Uint8Array(0)
  /** Who made each request (ORIGINS' index). */
  private origins = new Uint8Array(0)
  /** The request headers whose origin was read last, and that origin (a client sends the same headers again). */
  private originRaw: readonly string[] = []
  private originCode = 0
  private requestBytes = new Float64Array(0)
  private responseBytes = new Float64Array(0)
  /**
   * The first byte of `heads` the entry needs (its own, or one it shares with the entries before:
   * see Last), and where its request's and its answer's headers are, and their lengths.
   */
  private headAt = new Float64Array(0)
  private requestHeadAt = new Float64Array(0)
  private requestHeadLength = new Int32Array(0)
  private responseHeadAt = new Float64Array(0)
  private responseHeadLength = new Int32Array(0)
  /** The same in `bodies` for its bodies (lengths -1: no text kept). */
  private bodyAt = new Float64Array(0)
  private requestBodyAt = new Float64Array(0)
  private requestBodyLength = new Int32Array(0)
  private responseBodyAt = new Float64Array(0)
  private responseBodyLength = new Int32Array(0)
  private methods: Array<string | undefined> = []
  /** Each entry's URL as bytes (latin-1, as the parser made it), URL_SLOT a slot; a longer one in `longUrls`. */
  private urlBytes = Buffer.alloc(0)
  private urlLengths = new Int32Array(0)
  private readonly longUrls = new Map<number, string>()
  private longUrlBytes = 0
  /** The URL row() was given last, and that URL masked (maskedUrl); whether row() cut it. */
  private lastUrl = ''
  private lastMasked = ''
  private urlCut = 0
  private ips: Array<string | undefined> = []
  /** The last client address seen: the same text is kept as one string, not one per request. */
  private lastIp = ''
  private keys: Array<KeyView | undefined> = []
  /** Rows made so far (grow): `size` once the ring has filled. */
  private capacity = 0
  private readonly heads = new Arena(HEADER_BUDGET)
  private readonly bodies = new Arena(JOURNAL_BODY_BUDGET)
  private seq = 0
  /** The oldest seq the ring may still hold (oldestKept). */
  private oldest = 0
  /** The parts of the request answered last (canonical). */
  private readonly seen: {raw: readonly string[]; response: Capture['responseHeaders']; responseCount: number; body: string | undefined; url: string} = {
    raw: [],
    response: {},
    responseCount: 0,
    body: undefined,
    url: '',
  }
  /** What the entry before had, to be shared when the next one has the same (see Last). */
  private readonly last: Last = {
    raw: [],
    requestSeq: 0,
    requestAt: -1,
    requestLength: 0,
    requestType: undefined,
    response: {},
    responseSeq: 0,
    responseAt: -1,
    responseLength: 0,
    responseType: undefined,
    body: undefined,
    bodySeq: 0,
    bodyAt: -1,
    bodyLength: 0,
    bodyBytes: 0,
  }

  constructor(
    readonly size: number,
    /** Masks every secret in what is stored (journal-redact.ts). */
    private readonly redactor = new Redactor(),
  ) {
    // Rows are made as the ring fills (a sandbox that serves a few requests never needs 10,000).
    this.grow(Math.min(size, FIRST_ROWS) - 1)
  }

  /**
   * Room for `slot` (the first rows, at the start): every row array made larger (four times, at
   * most `size`), what it holds copied. Slots are filled in order until the ring wraps (slot =
   * seq % size), so a slot past the rows made so far is always a new one; one never written reads
   * as an empty slot.
   */
  private grow(slot: number): void {
    const capacity = Math.min(this.size, Math.max(slot + 1, this.capacity * 4))
    const larger = <T extends Float64Array | Int32Array | Uint16Array | Uint8Array>(rows: T): T => {
      const made = new (rows.constructor as new (length: number) => T)(capacity)
      made.set(rows)
      return made
    }
    this.seqs = larger(this.seqs)
    this.ats = larger(this.ats)
    this.durations = larger(this.durations)
    this.statuses = larger(this.statuses)
    this.flags = larger(this.flags)
    this.origins = larger(this.origins)
    this.requestBytes = larger(this.requestBytes)
    this.responseBytes = larger(this.responseBytes)
    this.headAt = larger(this.headAt)
    this.requestHeadAt = larger(this.requestHeadAt)
    this.requestHeadLength = larger(this.requestHeadLength)
    this.responseHeadAt = larger(this.responseHeadAt)
    this.responseHeadLength = larger(this.responseHeadLength)
    this.bodyAt = larger(this.bodyAt)
    this.requestBodyAt = larger(this.requestBodyAt)
    this.requestBodyLength = larger(this.requestBodyLength)
    this.responseBodyAt = larger(this.responseBodyAt)
    this.responseBodyLength = larger(this.responseBodyLength)
    this.urlLengths = larger(this.urlLengths)
    const urlBytes = Buffer.alloc(capacity * URL_SLOT)
    this.urlBytes.copy(urlBytes)
    this.urlBytes = urlBytes
    this.methods.length = capacity
    this.ips.length = capacity
    this.keys.length = capacity
    this.capacity = capacity
  }

  /** The newest seq written. */
  get newest(): number {
    return this.seq
  }

  /**
   * A part the same as the request's before (compared now, while both are in the processor's
   * cache) is replaced by that one's object: the new one dies young, and `write` knows it for
   * the same by identity rather than by reading it again once it has left the cache. A long
   * request body is cut to the head `write` reads of it.
   */
  canonical(capture: Capture): void {
    const seen = this.seen
    if (sameRaw(capture.rawHeaders, seen.raw)) capture.rawHeaders = seen.raw
    else seen.raw = capture.rawHeaders
    if (sameHeaders(capture.responseHeaders, seen.response, seen.responseCount)) capture.responseHeaders = seen.response
    else {
      seen.response = capture.responseHeaders
      seen.responseCount = countHeaders(capture.responseHeaders)
    }
    const body = capture.responseBody
    if (typeof body === 'string' && body.length * 3 <= JOURNAL_BODY_LIMIT) {
      if (body === seen.body) capture.responseBody = seen.body
      else seen.body = body
    }
    if (capture.url === seen.url) capture.url = seen.url
    else seen.url = capture.url
    // Of a request's body, a capture waiting to be written keeps a copy of what `write` reads of it
    // (the redactor looks at the first JOURNAL_BODY_LIMIT bytes and a margin): a batch of waiting
    // captures held whole bodies (up to 1 MiB each) outside the journal's bound.
    const sent = capture.requestBody
    if (sent !== undefined && sent.length > JOURNAL_BODY_LIMIT + MARGIN) {
      capture.requestBytes = sent.length
      capture.requestBody = Buffer.from(sent.subarray(0, JOURNAL_BODY_LIMIT + MARGIN))
    }
  }

  /** A capture, written: its slot. */
  write(capture: Capture): number {
    const seq = ++this.seq
    const last = this.last
    const slot = this.row(seq, capture.at, capture.method, capture.url, capture.ip, capture.key, capture.status, capture.durationMs, true)
    const urlCut = this.urlCut
    const kept = this.oldestKept(seq)
    // Headers: each part the same as the entry before's is shared, the others written. A part the
    // same as the one before is that one's object (canonical): identity is enough here.
    const raw = capture.rawHeaders
    const responseHeaders = capture.responseHeaders
    if (raw !== this.originRaw) {
      this.originRaw = raw
      this.originCode = originOf(raw)
    }
    this.origins[slot] = this.originCode
    // A part written more than half a ring ago is written again: what the arenas keep stays bounded.
    const recent = seq - (this.size >> 1)
    const sameRequest = last.requestSeq > recent && raw === last.raw && this.heads.holds(last.requestAt)
    const sameResponse = last.responseSeq > recent && responseHeaders === last.response && this.heads.holds(last.responseAt)
    const request = sameRequest ? undefined : this.masked(rawHeaderText(raw))
    const response = sameResponse ? undefined : this.masked(objectHeaderText(responseHeaders))
    // A shared part is at or after the oldest entry's headAt (every entry since the one that wrote
    // it shares it too, and an entry's headAt is the first byte it needs): the arena keeps it.
    const headFrom = kept === undefined ? this.heads.position : this.headAt[kept]
    // Latin-1: HTTP header text is bytes, one character each.
    const requestLength = request ? Math.min(request.text.length, HEADER_LIMIT) : 0
    const responseLength = response ? Math.min(response.text.length, HEADER_LIMIT) : 0
    let own = this.heads.reserve(requestLength + responseLength, headFrom)
    this.headAt[slot] = Math.min(own, sameRequest ? last.requestAt : own, sameResponse ? last.responseAt : own)
    if (request) {
      last.raw = raw
      last.requestSeq = seq
      last.requestAt = own
      last.requestLength = this.heads.writeString(request.text, requestLength, 'latin1')
      last.requestType = request.contentType
      own += last.requestLength
    }
    if (response) {
      last.response = responseHeaders
      last.responseSeq = seq
      last.responseAt = own
      last.responseLength = this.heads.writeString(response.text, responseLength, 'latin1')
      last.responseType = response.contentType
    }
    this.requestHeadAt[slot] = last.requestAt
    this.requestHeadLength[slot] = last.requestLength
    this.responseHeadAt[slot] = last.responseAt
    this.responseHeadLength[slot] = last.responseLength
    // Bodies: the answer's text shared when it is the same as the entry before's (a status polled).
    // Each is stored with its secrets masked (journal-redact.ts): sizes are those sent.
    const sent = capture.requestBody
    const requestBody = sent === undefined ? undefined : this.maskedBytes(sent, last.requestType)
    const answer = capture.responseBody
    const sameBody = last.bodySeq > recent && typeof answer === 'string' && answer === last.body && this.bodies.holds(last.bodyAt)
    const responseBody =
      sameBody || answer === undefined ? undefined : typeof answer === 'string' ? this.redactor.text(answer, '…', JOURNAL_BODY_LIMIT) : this.maskedBytes(answer, last.responseType)
    const bodyFrom = kept === undefined ? this.bodies.position : this.bodyAt[kept]
    // Room for both bodies at their largest, one after the other.
    const most = bodyMost(requestBody, last.requestType) + bodyMost(responseBody, last.responseType)
    const bodyAt = this.bodies.reserve(most, bodyFrom)
    this.bodyAt[slot] = sameBody ? Math.min(bodyAt, last.bodyAt) : bodyAt
    let flags = urlCut
    this.requestBodyAt[slot] = bodyAt
    const sentBytes = (this.requestBytes[slot] = capture.requestBytes ?? sent?.length ?? 0)
    const requestKept = (this.requestBodyLength[slot] = this.keepBody(requestBody, last.requestType))
    if (requestBody !== undefined && requestKept >= 0 && (requestKept < requestBody.length || requestBody.length < sentBytes)) flags |= REQUEST_CUT
    if (sameBody) {
      this.responseBodyAt[slot] = last.bodyAt
      this.responseBodyLength[slot] = last.bodyLength
      this.responseBytes[slot] = last.bodyBytes
    } else {
      // An entry between two that share would not keep their text in the arena: none is shared across it.
      last.body = undefined
      this.responseBodyAt[slot] = this.bodies.position
      const length = (this.responseBodyLength[slot] = this.keepBody(responseBody, last.responseType))
      if (typeof answer === 'string') {
        const text = responseBody as string
        // Whole unless it may be longer than the limit (a character is at most 3 bytes of UTF-8).
        const whole = answer.length * 3 <= JOURNAL_BODY_LIMIT
        const bytes = whole && text === answer ? length : Buffer.byteLength(answer)
        this.responseBytes[slot] = bytes
        if (!whole && length < (text === answer ? bytes : Buffer.byteLength(text))) flags |= RESPONSE_CUT
        // Only a whole text is shared (an entry that shares it is not cut).
        last.body = whole ? answer : undefined
        last.bodySeq = seq
        last.bodyAt = this.responseBodyAt[slot]
        last.bodyLength = length
        last.bodyBytes = bytes
      } else {
        this.responseBytes[slot] = answer?.length ?? 0
        const body = responseBody as Buffer | undefined
        if (body !== undefined && length >= 0 && (length < body.length || body.length < answer!.length)) flags |= RESPONSE_CUT
      }
    }
    this.flags[slot] = flags
    return slot
  }

  /** A new row for `seq`: its slot, its line filled in; URL_CUT when its URL was cut. */
  private row(seq: number, at: number, method: string, url: string, ip: string, key: KeyView | undefined, status: number, durationMs: number, fromParser: boolean): number {
    const slot = seq % this.size
    if (slot >= this.capacity) this.grow(slot)
    this.seqs[slot] = seq
    this.ats[slot] = at
    this.methods[slot] = method
    this.urlCut = this.keepUrl(slot, this.maskedUrl(url), fromParser)
    if (ip !== this.lastIp) this.lastIp = ip
    this.ips[slot] = this.lastIp
    this.keys[slot] = key
    this.statuses[slot] = status
    this.durations[slot] = durationMs
    return slot
  }

  /** A URL with its secrets masked (the one before's answer when it is the same: canonical made it that object). */
  private maskedUrl(url: string): string {
    if (url === this.lastUrl) return this.lastMasked
    this.lastUrl = url
    // Latin-1, as the URL is kept: the mask's `…` as its UTF-8 bytes (urlOf reads it back).
    return (this.lastMasked = this.redactor.text(url, ELLIPSIS_LATIN1))
  }

  /**
   * An entry's URL: its first URL_SLOT bytes in its slot, all of it (up to URL_LIMIT) in
   * `longUrls` when it is longer, within JOURNAL_URL_BUDGET (past it, the oldest entries keep only
   * their slot's bytes and are marked cut). Returns URL_CUT when this one is cut now.
   */
  private keepUrl(slot: number, url: string, fromParser: boolean): number {
    const before = this.longUrls.get(slot)
    if (before !== undefined) {
      this.longUrlBytes -= before.length
      this.longUrls.delete(slot)
    }
    // The parser's URL is latin-1 (a byte a character); one read back from the database may not be.
    this.urlLengths[slot] = this.urlBytes.write(url, slot * URL_SLOT, URL_SLOT, 'latin1')
    if (url.length < URL_SLOT && (fromParser || !NOT_LATIN1.test(url))) return 0
    const kept = url.length > URL_LIMIT ? url.slice(0, URL_LIMIT) : url
    this.longUrls.set(slot, kept)
    this.longUrlBytes += kept.length
    // The oldest first (a Map keeps the order its keys were set in).
    for (const [old, text] of this.longUrls) {
      if (this.longUrlBytes <= JOURNAL_URL_BUDGET) break
      this.longUrls.delete(old)
      this.longUrlBytes -= text.length
      this.flags[old] |= URL_CUT
    }
    return kept === url ? 0 : URL_CUT
  }

  /**
   * The slot of the oldest entry the ring keeps besides `seq` (its bytes are still wanted in the
   * arenas), or undefined when there is none. Moves only forward: amortised, a step a request.
   */
  private oldestKept(seq: number): number | undefined {
    let oldest = Math.max(this.oldest, seq - this.size + 1, 1)
    while (oldest < seq && this.seqs[oldest % this.size] !== oldest) oldest++
    this.oldest = oldest
    return oldest < seq ? oldest % this.size : undefined
  }

  /**
   * Header text with its secrets masked. `restored`: read back from the database, where a mask's
   * `…` is a character, not the UTF-8 bytes the arena keeps.
   */
  private masked(headers: HeaderText, restored = false): HeaderText {
    if (restored && headers.text.includes('…')) headers.text = headers.text.replaceAll('…', ELLIPSIS_LATIN1)
    headers.text = this.redactor.headerText(headers.text)
    return headers
  }

  /** An entry's headers written to `heads` (an entry read back from the database: none shared). */
  private keepHeaders(slot: number, request: HeaderText, response: HeaderText, kept: number | undefined): void {
    const requestLength = Math.min(request.text.length, HEADER_LIMIT)
    const responseLength = Math.min(response.text.length, HEADER_LIMIT)
    const at = this.heads.reserve(requestLength + responseLength, kept === undefined ? this.heads.position : this.headAt[kept])
    this.headAt[slot] = at
    this.requestHeadAt[slot] = at
    this.requestHeadLength[slot] = this.heads.writeString(request.text, requestLength, 'latin1')
    this.responseHeadAt[slot] = at + this.requestHeadLength[slot]
    this.responseHeadLength[slot] = this.heads.writeString(response.text, responseLength, 'latin1')
  }

  /** A body's bytes with their secrets masked; one that is not text (an image, a PDF) is kept by its size only. */
  private maskedBytes(body: Buffer, contentType: string | undefined): Buffer {
    if (contentType !== undefined && !TEXT_TYPE.test(contentType)) return body
    return this.redactor.bytes(body, JOURNAL_BODY_LIMIT)
  }

  /** Writes a body's text (its first JOURNAL_BODY_LIMIT bytes) to `bodies`; its length, or -1 when it is not text. */
  private keepBody(body: string | Buffer | undefined, contentType: string | undefined): number {
    if (body === undefined) return 0
    if (typeof body === 'string') return this.bodies.writeString(body, JOURNAL_BODY_LIMIT, 'utf8')
    if (contentType !== undefined && !TEXT_TYPE.test(contentType)) return -1
    return this.bodies.writeBytes(body, JOURNAL_BODY_LIMIT)
  }

  /** An entry of the database back in the ring (its key's id is not kept there). */
  restore(stored: Stored): void {
    const key = stored.key && stored.environment ? {masked: stored.key, environment: stored.environment} : undefined
    // A mask's `…` as the URL is kept (maskedUrl).
    const url = (stored.query ? `${stored.path}?${stored.query}` : stored.path).replaceAll('…', ELLIPSIS_LATIN1)
    const slot = this.row(stored.seq, Date.parse(stored.at), stored.method, url, stored.ip, key, stored.status, stored.duration_ms, false)
    this.seq = Math.max(this.seq, stored.seq)
    const kept = this.oldestKept(stored.seq)
    this.keepHeaders(slot, this.masked(objectHeaderText(stored.request_headers), true), this.masked(objectHeaderText(stored.response_headers), true), kept)
    // Masked as it is read back: an entry an older svc wrote may hold a secret whole.
    const request = stored.request_body == null ? undefined : this.redactor.text(stored.request_body, '…', JOURNAL_BODY_LIMIT)
    const response = stored.response_body == null ? undefined : this.redactor.text(stored.response_body, '…', JOURNAL_BODY_LIMIT)
    this.bodyAt[slot] = this.bodies.reserve(bodyMost(request, undefined) + bodyMost(response, undefined), kept === undefined ? this.bodies.position : this.bodyAt[kept])
    this.requestBytes[slot] = stored.request_bytes
    this.responseBytes[slot] = stored.response_bytes
    this.requestBodyAt[slot] = this.bodyAt[slot]
    this.requestBodyLength[slot] = request === undefined ? -1 : this.keepBody(request, undefined)
    this.responseBodyAt[slot] = this.bodies.position
    this.responseBodyLength[slot] = response === undefined ? -1 : this.keepBody(response, undefined)
    this.flags[slot] = (stored.truncated ? WAS_TRUNCATED : 0) | this.urlCut
    // Entries written before origins were recorded are the app's.
    this.origins[slot] = ORIGIN_CODE.get(stored.origin ?? 'app') ?? 0
  }

  /** The slot of `seq` while the ring still holds it. */
  slotOf(seq: number): number | undefined {
    if (!(seq > 0 && seq <= this.seq && seq > this.seq - this.size)) return undefined
    const slot = seq % this.size
    return this.seqs[slot] === seq ? slot : undefined
  }

  /** The entry of a slot, as clients read it; `summary`: without its headers and bodies. */
  private urlOf(slot: number): string {
    const length = this.urlLengths[slot]
    // Its slot holds its start: the whole of a longer one (or of one not latin-1) is in longUrls.
    const url = (this.longUrls.size === 0 ? undefined : this.longUrls.get(slot)) ?? this.urlBytes.toString('latin1', slot * URL_SLOT, slot * URL_SLOT + length)
    return url.includes(ELLIPSIS_LATIN1) ? url.replaceAll(ELLIPSIS_LATIN1, '…') : url
  }

  entry(slot: number, summary = false): JournalEntry {
    const url = this.urlOf(slot)
    const queryAt = url.indexOf('?')
    const key = this.keys[slot]
    const heads = this.heads
    const requestHeaders = heads.holds(this.requestHeadAt[slot]) ? parseHeaderText(heads.read(this.requestHeadAt[slot], this.requestHeadLength[slot], 'latin1')) : {}
    const responseHeaders =
      !summary && heads.holds(this.responseHeadAt[slot]) ? parseHeaderText(heads.read(this.responseHeadAt[slot], this.responseHeadLength[slot], 'latin1')) : {}
    const requestKept = this.bodies.holds(this.requestBodyAt[slot])
    const responseKept = this.bodies.holds(this.responseBodyAt[slot])
    const flags = this.flags[slot]
    const requestBytes = this.requestBytes[slot]
    const responseBytes = this.responseBytes[slot]
    const text = (kept: boolean, at: number, length: number, bytes: number, cut: boolean): string | null => {
      if (summary || !kept || length < 0 || bytes === 0) return null
      const body = this.bodies.read(at, length, 'utf8')
      // Cut on a character boundary: the replacement character of a half sequence is dropped.
      return cut ? body.replace(/\uFFFD$/, '') : body
    }
    const requestBody = text(requestKept, this.requestBodyAt[slot], this.requestBodyLength[slot], requestBytes, (flags & REQUEST_CUT) !== 0)
    const responseBody = text(responseKept, this.responseBodyAt[slot], this.responseBodyLength[slot], responseBytes, (flags & RESPONSE_CUT) !== 0)
    const idempotencyKey = requestHeaders['idempotency-key']
    return {
      id: `req_${this.seqs[slot]}`,
      at: new Date(this.ats[slot]).toISOString(),
      method: this.methods[slot]!,
      path: queryAt === -1 ? url : url.slice(0, queryAt),
      query: queryAt === -1 ? '' : url.slice(queryAt + 1),
      status: this.statuses[slot],
      duration_ms: Math.round(this.durations[slot] * 100) / 100,
      environment: key?.environment ?? null,
      key: key?.masked ?? null,
      idempotency_key: idempotencyKey === undefined ? null : idempotencyKey.split(', ')[0],
      ip: this.ips[slot]!,
      request_headers: summary ? {} : requestHeaders,
      request_body: requestBody,
      request_bytes: requestBytes,
      response_headers: responseHeaders,
      response_body: responseBody,
      response_bytes: responseBytes,
      // Bodies cut at the limit, or gone for the budget (only a body there was).
      truncated: (flags & (REQUEST_CUT | RESPONSE_CUT | WAS_TRUNCATED | URL_CUT)) !== 0 || (!requestKept && requestBytes > 0) || (!responseKept && responseBytes !== 0),
      origin: ORIGINS[this.origins[slot]]!,
    }
  }

  /** Newest first, those `test` takes, at most `limit`; `summary`: without headers and bodies. */
  newestFirst(test: (item: Line) => boolean, byPath: boolean, limit: number, summary?: boolean): JournalEntry[] {
    const found: JournalEntry[] = []
    const oldest = Math.max(1, this.seq - this.size + 1)
    for (let seq = this.seq; seq >= oldest && found.length < limit; seq--) {
      const slot = seq % this.size
      if (this.seqs[slot] !== seq) continue
      const line = {method: this.methods[slot]!, path: byPath ? pathOf(this.urlOf(slot)) : '', status: this.statuses[slot], atMs: this.ats[slot], origin: ORIGINS[this.origins[slot]]!}
      if (test(line)) found.push(this.entry(slot, summary))
    }
    return found
  }

  /** The id of the key an entry's request was made with (not kept across a restart). */
  keyIdOf(slot: number): string | undefined {
    return this.keys[slot]?.id
  }

  /** Bytes the ring holds for its entries' URLs, headers and bodies (the URL slots, the longer URLs, its two arenas). */
  get heldBytes(): number {
    return this.urlBytes.length + this.longUrlBytes + this.heads.capacity + this.bodies.capacity
  }
}
