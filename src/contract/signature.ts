/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the one implementation used by
 * the local sandbox to sign deliveries and by `svc webhooks` to verify and re-sign them.
 *
 * Signed content is `${id}.${timestamp}.${body}`, HMAC-SHA256 keyed with the base64-decoded part of
 * `whsec_…`, sent as `v1,<base64>`; several space-separated signatures during a secret rotation.
 */
import {createHmac, randomBytes, timingSafeEqual} from 'node:crypto'

import {systemClock} from './clock.js'

export const SECRET_PREFIX = 'whsec_'
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60

export interface WebhookHeaders {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

/** Why a delivery does not verify; each maps to one message in the catalogue. */
export type VerifyFailure =
  | 'secret_malformed'
  | 'header_missing'
  | 'timestamp_invalid'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'signature_malformed'
  | 'signature_mismatch'

export type VerifyResult =
  | {ok: true}
  | {
      ok: false
      reason: VerifyFailure
      header?: keyof WebhookHeaders
      /** For timestamp_too_old / timestamp_too_new: timestamp minus now, in seconds (negative: in the past). */
      skewSeconds?: number
      /** The tolerance that was applied, in seconds (timestamp failures). */
      toleranceSeconds?: number
    }

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64')
}

/** The key bytes of a `whsec_…` secret, or undefined when it is not one. */
export function secretKey(secret: string): Buffer | undefined {
  if (typeof secret !== 'string' || !secret.startsWith(SECRET_PREFIX)) return undefined
  const b64 = secret.slice(SECRET_PREFIX.length)
  if (b64.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined
  const key = Buffer.from(b64, 'base64')
  return key.length > 0 ? key : undefined
}

export function computeSignature(key: Buffer, id: string, timestamp: string | number, body: string): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')
}

/** Headers for one delivery of `body`, signed with every secret given (rotation signs with both). */
export function signPayload(
  secrets: string | string[],
  id: string,
  body: string,
  // svc's own code passes its clock's time; the default is for code outside it (tests, an app).
  timestampSeconds: number = Math.floor(systemClock.now() / 1000),
): WebhookHeaders {
  const list = Array.isArray(secrets) ? secrets : [secrets]
  const signatures = list.map((secret) => {
    const key = secretKey(secret)
    if (!key) throw new TypeError('malformed webhook secret')
    return `v1,${computeSignature(key, id, timestampSeconds, body)}`
  })
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatures.join(' '),
  }
}

/** Verify a delivery; `headers` keys are matched case-insensitively. Never throws. */
export function verifyPayload(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  options: {toleranceSeconds?: number; nowSeconds?: number} = {},
): VerifyResult {
  const key = secretKey(secret)
  if (!key) return {ok: false, reason: 'secret_malformed'}
  const lower: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) lower[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value
  }
  for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
    if (!lower[header]) return {ok: false, reason: 'header_missing', header}
  }
  const id = lower['webhook-id']
  const timestamp = lower['webhook-timestamp']
  if (!/^\d{1,12}$/.test(timestamp)) return {ok: false, reason: 'timestamp_invalid'}
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  const now = options.nowSeconds ?? Math.floor(systemClock.now() / 1000)
  const ts = Number(timestamp)
  if (now - ts > tolerance) return {ok: false, reason: 'timestamp_too_old', skewSeconds: ts - now, toleranceSeconds: tolerance}
  if (ts - now > tolerance) return {ok: false, reason: 'timestamp_too_new', skewSeconds: ts - now, toleranceSeconds: tolerance}
  const expected = Buffer.from(computeSignature(key, id, timestamp, body), 'base64')
  let sawWellFormed = false
  for (const part of lower['webhook-signature'].split(' ')) {
    const [version, signature] = part.split(',', 2)
    if (version !== 'v1' || !signature) continue
    sawWellFormed = true
    const given = Buffer.from(signature, 'base64')
    if (given.length === expected.length && timingSafeEqual(given, expected)) return {ok: true}
  }
  return {ok: false, reason: sawWellFormed ? 'signature_mismatch' : 'signature_malformed'}
}
