/**
 * Object ids carry their environment: `svcpay_test_…` in sandbox, `svcpay_…` in live (and so on for
 * every prefix a domain registers, e.g. `inv`). The id alone says which database it belongs to.
 */
import {randomFillSync} from 'node:crypto'

import {systemClock} from '../contract/clock.js'
import type {Environment} from './types.js'

const ALPHABET = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ')

/**
 * Random bytes from the system's CSPRNG, drawn 4 KiB at a time and handed out once each (as
 * crypto.randomUUID does): one call into OpenSSL costs some microseconds whatever its size, and a
 * create takes five ids (payment, transaction, event, ledger entries), which made the draws a
 * quarter of its CPU time.
 */
const POOL_BYTES = 4096
const pool = Buffer.alloc(POOL_BYTES)
let used = POOL_BYTES

/** A random base62 string of `length` characters. */
export function randomToken(length = 24): string {
  if (length > POOL_BYTES) throw new RangeError(`randomToken: at most ${POOL_BYTES} characters`)
  if (used + length > POOL_BYTES) {
    randomFillSync(pool)
    used = 0
  }
  const from = used
  used += length
  // 62 does not divide 256: the bias (< 2%) does not matter for opaque ids. Built in one piece
  // (not by `+=`, whose rope of small strings costs far more memory per stored id).
  for (let i = from; i < used; i++) pool[i] = ALPHABET[pool[i] % 62]
  const token = pool.toString('latin1', from, used)
  // Each byte is used once, and not left behind in memory.
  pool.fill(0, from, used)
  return token
}

/** The same 62 characters in their byte order, so that a time written with them sorts as text. */
const SORTED = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const TIME_CHARS = 8
let lastMs = -1
let lastTime = ''

/** The machine's time in ms, in 8 base62 characters that sort as the times do (until the year 8000). */
function timePart(): string {
  // The machine's time (ids sort by creation), whatever the sandbox clock says.
  const now = systemClock.now()
  if (now !== lastMs) {
    lastMs = now
    let rest = now
    let text = ''
    for (let i = 0; i < TIME_CHARS; i++) {
      text = SORTED[rest % 62] + text
      rest = Math.floor(rest / 62)
    }
    lastTime = text
  }
  return lastTime
}

/**
 * The 24 characters after an object id's prefix: 8 of the time it was made, then 16 random
 * (95 bits: as unguessable as ever). Ids made one after another sort next to each other, so that on
 * disk (`--data`) a new object's id goes at the end of the id index, on a page already in memory,
 * and not to a random page of a million-row index read from the disk: three such reads and writes
 * a payment (the payment, its event, its ledger entry) were most of a create's cost.
 */
function idBody(): string {
  return timePart() + randomToken(24 - TIME_CHARS)
}

export function newId(prefix: string, environment: Environment): string {
  return environment === 'SANDBOX' ? `${prefix}_test_${idBody()}` : `${prefix}_${idBody()}`
}

/** An id that does not carry an environment (events, keys, endpoints, ledger entries). */
export function newPlainId(prefix: string): string {
  return `${prefix}_${idBody()}`
}

/** The environment an id of this prefix belongs to, or undefined when it is not of that form. */
export function idEnvironment(prefix: string, id: string): Environment | undefined {
  if (id.startsWith(`${prefix}_test_`)) return id.length > prefix.length + 6 ? 'SANDBOX' : undefined
  if (id.startsWith(`${prefix}_`)) return id.length > prefix.length + 1 ? 'LIVE' : undefined
  return undefined
}

/** The id of this prefix as a path parameter's schema says it: either environment's, 24 letters and digits. */
export function idSchema(prefix: string): {type: 'string'; pattern: string; minLength: number; maxLength: number} {
  return {type: 'string', pattern: `^${prefix}_(?:test_)?[0-9A-Za-z]{24}$`, minLength: prefix.length + 1 + 24, maxLength: prefix.length + 6 + 24}
}

/**
 * Whether `id` has the exact shape `newId` gives (`inv_test_` or `inv_`, then 24 letters and
 * digits): only such an id can really be the other environment's; `inv_x` is just no invoice.
 */
export function hasIdShape(prefix: string, id: string): boolean {
  return new RegExp(`^${prefix}_(?:test_)?[0-9A-Za-z]{24}$`).test(id)
}
