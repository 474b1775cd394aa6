/**
 * Where the request journal keeps its entries' text (journal.ts): a byte ring, one Buffer. The
 * journal keeps what each request leaves behind (headers, bodies) as bytes here instead of as
 * objects: objects that outlive 10,000 requests cost the garbage collector on every request
 * (copied out of the young generation, marked again and again in the old one); bytes in one
 * Buffer cost it nothing.
 *
 * It grows (doubling, the wanted bytes copied) only while the entries the journal still holds
 * need more room, up to its bound; past the bound the oldest entries' bytes are overwritten. So
 * it holds about what the journal's entries take (a few MB for 10,000 small requests), and once
 * they are all there it stops allocating or touching new memory.
 *
 * A position is absolute (bytes written since the start, the gaps left at each wrap included),
 * so that whether a piece is still there is two comparisons (`holds`).
 *
 * Also what the journal reads of a request's headers: who sent it (its origin), and whether two
 * requests' headers are the same.
 */
import {ORIGIN_HEADER, SVC_ORIGINS, type JournalOrigin} from '../contract/sandbox-inspector.js'
import {ELLIPSIS_LATIN1} from './journal-redact.js'

/** Bytes of a new arena before it grows. */
const FIRST_SIZE = 64 * 1024

export class Arena {
  private buffer: Buffer
  /** Absolute position of the next byte written. */
  private cursor = 0
  /** Bytes before this position are gone (dropped when the buffer was laid out anew). */
  private floor = 0

  constructor(private readonly bound: number) {
    this.buffer = Buffer.allocUnsafe(Math.min(FIRST_SIZE, bound))
  }

  /**
   * Room for at most `most` bytes written one after the other from the position returned (a piece
   * is never split across the wrap; `most` must not exceed the bound). `keepFrom`: the position of
   * the oldest bytes still wanted, kept unless the buffer is at its bound.
   */
  reserve(most: number, keepFrom: number): number {
    let at = this.next(most, this.buffer.length)
    if (at + most - this.buffer.length > Math.max(keepFrom, this.floor) && this.buffer.length < this.bound) {
      let size = this.buffer.length * 2
      while (size < this.bound && this.next(most, size) + most - size > keepFrom) size *= 2
      this.layOut(Math.min(size, this.bound), Math.max(keepFrom, this.floor, this.cursor - this.buffer.length))
      at = this.next(most, this.buffer.length)
    }
    this.cursor = at
    return at
  }

  /** Where `most` bytes go in a buffer of `size`: at the cursor, or at the start when the tail is too short. */
  private next(most: number, size: number): number {
    const at = this.cursor % size
    return at + most <= size ? this.cursor : this.cursor + size - at
  }

  /** A buffer of `size`, the bytes from `from` to the cursor copied to their places in it. */
  private layOut(size: number, from: number): void {
    const old = this.buffer
    const bigger = Buffer.allocUnsafe(size)
    for (let at = from; at < this.cursor; ) {
      const source = at % old.length
      const target = at % size
      const length = Math.min(this.cursor - at, old.length - source, size - target)
      old.copy(bigger, target, source, source + length)
      at += length
    }
    this.buffer = bigger
    this.floor = from
  }

  /** Writes `text` (at most `most` bytes of it, whole characters) at the cursor; returns bytes written. */
  writeString(text: string, most: number, encoding: 'latin1' | 'utf8'): number {
    const written = this.buffer.write(text, this.cursor % this.buffer.length, most, encoding)
    this.cursor += written
    return written
  }

  /** Copies `bytes` (at most `most` of them) at the cursor; returns bytes written. */
  writeBytes(bytes: Uint8Array, most: number): number {
    const length = Math.min(bytes.length, most)
    this.buffer.set(length === bytes.length ? bytes : bytes.subarray(0, length), this.cursor % this.buffer.length)
    this.cursor += length
    return length
  }

  /** Whether the bytes written from `at` on are all still there (not yet overwritten). */
  holds(at: number): boolean {
    return at >= this.floor && this.cursor <= at + this.buffer.length
  }

  read(at: number, length: number, encoding: 'latin1' | 'utf8'): string {
    const start = at % this.buffer.length
    return this.buffer.toString(encoding, start, start + length)
  }

  /** Bytes the arena holds (its buffer's size). */
  get capacity(): number {
    return this.buffer.length
  }

  /** The position the next piece would start at (for an entry that keeps nothing here). */
  get position(): number {
    return this.cursor
  }
}

/** Header names never kept: they carry secrets. */
const SECRET_HEADER = /^(authorization|proxy-authorization|x-api-key|cookie|set-cookie|x-svc-csrf)$|token|secret|password|signature/i

const KEEP = 0
const SECRET = 1
const CONTENT_TYPE = 2

/**
 * What each header name seen is, remembered: a small direct-mapped cache (slot from the name's
 * length and ends), so that a name is one string comparison, not a regular expression, nor the
 * hashing of a string that a Map would do: the parser makes a new string for every header.
 */
const CACHE_SLOTS = 256
const cachedNames: Array<string | undefined> = new Array(CACHE_SLOTS)
const cachedKinds = new Uint8Array(CACHE_SLOTS)

function kindOf(name: string): number {
  const length = name.length
  if (length === 0) return KEEP
  const slot = (length * 31 + name.charCodeAt(0) * 7 + name.charCodeAt(length - 1) * 3 + name.charCodeAt(length >> 1)) & (CACHE_SLOTS - 1)
  if (cachedNames[slot] === name) return cachedKinds[slot]
  const kind = SECRET_HEADER.test(name) ? SECRET : name.toLowerCase() === 'content-type' ? CONTENT_TYPE : KEEP
  // The newest name in a slot wins: a client inventing names cannot grow it.
  cachedNames[slot] = name
  cachedKinds[slot] = kind
  return kind
}

/** Headers without secrets, as `name\0value\0…` (neither may hold a NUL: HTTP forbids it). */
export interface HeaderText {
  text: string
  contentType: string | undefined
}

/** Request headers as Node received them (`req.rawHeaders`: name, value, name, value…). */
export function rawHeaderText(raw: readonly string[]): HeaderText {
  let text = ''
  let contentType: string | undefined
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const kind = kindOf(raw[i])
    if (kind === SECRET) continue
    if (kind === CONTENT_TYPE) contentType ??= raw[i + 1]
    text += raw[i] + '\0' + raw[i + 1] + '\0'
  }
  return {text, contentType}
}

/** Headers as an object (the answer's, or an entry's read back from the database). */
export function objectHeaderText(headers: Readonly<Record<string, unknown>>): HeaderText {
  let text = ''
  let contentType: string | undefined
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined) continue
    const kind = kindOf(name)
    if (kind === SECRET) continue
    const string = Array.isArray(value) ? value.join(', ') : String(value)
    if (kind === CONTENT_TYPE) contentType ??= string
    text += name + '\0' + string + '\0'
  }
  return {text, contentType}
}

/** `name\0value\0…` back as an object: names in lower case, a repeated name's values joined. */
export function parseHeaderText(text: string): Record<string, string> {
  // A secret's mask (journal-redact.ts): its `…` written as UTF-8.
  if (text.includes(ELLIPSIS_LATIN1)) text = text.replaceAll(ELLIPSIS_LATIN1, '…')
  const headers: Record<string, string> = {}
  let from = 0
  while (from < text.length) {
    const nameEnd = text.indexOf('\0', from)
    const valueEnd = nameEnd === -1 ? -1 : text.indexOf('\0', nameEnd + 1)
    // A piece cut short (headers over the piece's limit) ends with a name without its value.
    if (valueEnd === -1) break
    const name = text.slice(from, nameEnd).toLowerCase()
    const value = text.slice(nameEnd + 1, valueEnd)
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value
    from = valueEnd + 1
  }
  return headers
}

/** An entry's origin as a byte: 0 the app, then SVC_ORIGINS in order. */
export const ORIGINS: readonly JournalOrigin[] = ['app', ...SVC_ORIGINS]
export const ORIGIN_CODE = new Map<string, number>(ORIGINS.map((origin, code) => [origin, code]))

/** The origin a request's headers name (ORIGIN_HEADER), as its byte; 0 (the app) without one svc sends. */
export function originOf(raw: readonly string[]): number {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length === ORIGIN_HEADER.length && name.toLowerCase() === ORIGIN_HEADER) return ORIGIN_CODE.get(raw[i + 1]!.trim().toLowerCase()) || 0
  }
  return 0
}

/** The same request headers (`rawHeaders`): the same names and values in the same order. */
export function sameRaw(raw: readonly string[], last: readonly string[]): boolean {
  if (raw.length !== last.length) return false
  for (let i = 0; i < raw.length; i++) if (raw[i] !== last[i]) return false
  return true
}

/** The same answer headers: the same names with the same values. */
export function sameHeaders(headers: Readonly<Record<string, unknown>>, last: Readonly<Record<string, unknown>>, lastCount: number): boolean {
  if (headers === last) return true
  let count = 0
  for (const name in headers) {
    if (headers[name] !== last[name]) return false
    count++
  }
  return count === lastCount
}

export function countHeaders(headers: Readonly<Record<string, unknown>>): number {
  let count = 0
  for (const name in headers) count++
  return count
}
