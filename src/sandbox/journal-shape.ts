/**
 * The shapes and bounds of the request journal's entries (journal-ring.ts keeps them): what the
 * HTTP layer hands over (Capture), what the filters and the database see of an entry (Line,
 * Stored), the budgets that bound the ring, an entry's flags, and what the entry written last had
 * (Last), which the next one may share.
 */
import type {JournalEntry, JournalOrigin} from '../contract/sandbox-inspector.js'
import {JOURNAL_BODY_LIMIT} from '../contract/sandbox-inspector.js'
import type {Clock} from '../contract/clock.js'
import type {ApiKeyRecord} from './auth.js'

/** What the HTTP layer knows of one answered request (handed to `record`, not kept). */
export interface Capture {
  at: number
  /** When it came, on the machine clock's monotonic time (`clock`), to measure `durationMs`. */
  started: number
  /**
   * The machine clock itself, not a function made per request: a closure made in the request
   * handler keeps that call's whole scope alive (its body included) for as long as the capture
   * waits to be journalled.
   */
  clock: Pick<Clock, 'monotonic'>
  method: string
  url: string
  ip: string
  /** The request's headers as received: name, value, name, value… (`req.rawHeaders`). */
  rawHeaders: readonly string[]
  key?: KeyView
  /** The body read (the journal copies its first JOURNAL_BODY_LIMIT bytes). */
  requestBody?: Buffer
  /** Its size as sent, once the journal has cut `requestBody` to the head it keeps (canonical). */
  requestBytes?: number
  status: number
  responseHeaders: Readonly<Record<string, string | number | string[] | undefined>>
  responseBody?: string | Buffer
  durationMs: number
  /** Where the capture goes once answered. */
  sink?: {record(capture: Capture): void}
}

/** What an entry keeps of its key: its record, or what the database kept of it (no id). */
export type KeyView = Pick<ApiKeyRecord, 'environment' | 'masked'> & {id?: string}

export const TEXT_TYPE = /json|text|xml|csv|x-www-form-urlencoded|javascript/i

/**
 * Bodies the ring holds at most, bytes: past it, the oldest entries lose their bodies (their
 * method, path, status, headers… stay). 10,000 answers of a list page would hold ~50 MB otherwise.
 */
export const JOURNAL_BODY_BUDGET = 32 * 1024 * 1024
/**
 * Headers the ring holds at most, bytes: an entry loses its headers only once the requests after
 * it carried more than 1.6 KiB of them each on average. And the most one request's may take.
 */
export const HEADER_BUDGET = 16 * 1024 * 1024
export const HEADER_LIMIT = 32 * 1024

/**
 * Bytes of an entry's URL kept in its slot (a longer one is also kept as a string); the most of a
 * URL kept (a longer one is cut, `truncated: true`); and the most all the longer ones may take
 * together (past it, the oldest keep only their slot's bytes and are marked cut): with the rows
 * (URL_SLOT bytes each), URLs and queries count in the journal's bound like headers and bodies.
 */
export const URL_SLOT = 128
export const URL_LIMIT = 8 * 1024
export const JOURNAL_URL_BUDGET = 4 * 1024 * 1024
export const NOT_LATIN1 = /[^\0-\xff]/

/** Bit flags of an entry. */
export const REQUEST_CUT = 1
export const RESPONSE_CUT = 2
/** An entry read back from the database that said `truncated: true` (its cut bodies, as kept). */
export const WAS_TRUNCATED = 4
/** Its URL (query included) was cut (at URL_LIMIT, or for JOURNAL_URL_BUDGET). */
export const URL_CUT = 8

/** The filters' view of an entry (journal.ts journalFilter). */
export interface Line {
  method: string
  path: string
  status: number
  atMs: number
  origin: JournalOrigin
}

/** An entry as the database keeps it. */
export type Stored = JournalEntry & {seq: number}

export const pathOf = (url: string) => {
  const queryAt = url.indexOf('?')
  return queryAt === -1 ? url : url.slice(0, queryAt)
}

/** The most bytes a body's kept text may take (0 when none is kept). */
export function bodyMost(body: string | Buffer | undefined, contentType: string | undefined): number {
  if (body === undefined) return 0
  if (typeof body === 'string') return Math.min(body.length * 3, JOURNAL_BODY_LIMIT)
  if (contentType !== undefined && !TEXT_TYPE.test(contentType)) return 0
  return Math.min(body.length, JOURNAL_BODY_LIMIT)
}

/**
 * What the entry written last had: each of its parts (request headers, answer headers, answer
 * text) and where it is in the arenas. A client sends the same headers again and again, a
 * status polled answers the same text: an entry whose part is the same as the one before's
 * points at those bytes rather than writing them again (the arenas keep every byte an entry
 * points at: an entry's headAt and bodyAt are the first byte it needs), as long as they were
 * written less than half a ring before (so that a part shared for ever does not hold the arenas).
 */
export interface Last {
  raw: readonly string[]
  /** The seq of the entry that wrote each part. */
  requestSeq: number
  requestAt: number
  requestLength: number
  requestType: string | undefined
  response: Readonly<Record<string, unknown>>
  responseSeq: number
  responseAt: number
  responseLength: number
  responseType: string | undefined
  /** The answer's text, when it was kept whole. */
  body: string | undefined
  bodySeq: number
  bodyAt: number
  bodyLength: number
  /** Its size as answered (bodyLength is the text kept, secrets masked). */
  bodyBytes: number
}
