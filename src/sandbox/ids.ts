/**
 * Object ids carry their environment: `svcpay_test_…` in sandbox, `svcpay_…` in live (and so on for
 * every prefix a domain registers, e.g. `inv`). The id alone says which database it belongs to.
 */
import {randomBytes} from 'node:crypto'
import type {Environment} from './types.js'

const ALPHABET = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ')

/** A random base62 string of `length` characters. */
export function randomToken(length = 24): string {
  const bytes = randomBytes(length)
  // 62 does not divide 256: the bias (< 2%) does not matter for opaque ids. Built in one piece
  // (not by `+=`, whose rope of small strings costs far more memory per stored id).
  for (let i = 0; i < length; i++) bytes[i] = ALPHABET[bytes[i] % 62]
  return bytes.toString('latin1')
}

export function newId(prefix: string, environment: Environment): string {
  return environment === 'SANDBOX' ? `${prefix}_test_${randomToken()}` : `${prefix}_${randomToken()}`
}

/** An id that does not carry an environment (events, keys, endpoints, ledger entries). */
export function newPlainId(prefix: string): string {
  return `${prefix}_${randomToken()}`
}

/** The environment an id of this prefix belongs to, or undefined when it is not of that form. */
export function idEnvironment(prefix: string, id: string): Environment | undefined {
  if (id.startsWith(`${prefix}_test_`)) return id.length > prefix.length + 6 ? 'SANDBOX' : undefined
  if (id.startsWith(`${prefix}_`)) return id.length > prefix.length + 1 ? 'LIVE' : undefined
  return undefined
}
