/**
 * `svc webhooks verify --secret whsec_… --payload FILE|- --header "webhook-id: …" …`: check one
 * delivery by hand and say exactly why it fails. The command prints `message` and exits 0 when
 * `ok`, 1 otherwise.
 */
import {readFile} from 'node:fs/promises'
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {formatDuration} from './format.js'
import {parseHeaderLine} from './routes.js'
import {DEFAULT_TOLERANCE_SECONDS, type VerifyFailure, type WebhookHeaders, verifyPayload} from '../../contract/signature.js'

export const VERIFY_FLAGS = {secret: '--secret', payload: '--payload', header: '--header'} as const

export type VerifyReport =
  | {ok: true; message: string; webhookId: string; timestamp: number}
  | {
      ok: false
      reason: VerifyFailure
      message: string
      /** The header at fault (header_missing). */
      header?: keyof WebhookHeaders
      /** Timestamp minus now, seconds (timestamp_too_old / timestamp_too_new). */
      skewSeconds?: number
      /** One more sentence, e.g. the payload verifies without its trailing newline. */
      hint?: string
    }

export interface VerifyInput {
  secret: string
  /** The raw body, byte for byte as delivered. */
  payload: string
  /** The repeated `--header "Name: value"` strings. */
  headers: readonly string[]
  toleranceSeconds?: number
  /** Now, seconds since the epoch (the run's clock): what the timestamp is checked against. */
  nowSeconds: number
}

/** `--header` values into a header map (lower-case names); a header given twice is an error. */
export function parseHeaderFlags(values: readonly string[], flag: string = VERIFY_FLAGS.header): Record<string, string> {
  // A Map, not an object: a header named `constructor` or `__proto__` is a header like any other.
  const headers = new Map<string, string>()
  for (const raw of values) {
    const [name, value] = parseHeaderLine(raw, flag)
    if (headers.has(name)) throw new InputError(t('webhooks.header.duplicate', {flag, name}), {field: flag})
    headers.set(name, value)
  }
  return Object.fromEntries(headers)
}

/** The payload: a file path, or `-` for standard input (read whole, never trimmed). */
export async function readPayload(
  source: string,
  stdin: AsyncIterable<Buffer | string> = process.stdin,
  flag: string = VERIFY_FLAGS.payload,
): Promise<string> {
  if (source === '-') {
    const chunks: Buffer[] = []
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
    return Buffer.concat(chunks).toString('utf8')
  }
  try {
    return await readFile(source, 'utf8')
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message
    throw new InputError(t('webhooks.verify.payloadUnreadable', {flag, path: source, reason}), {field: flag})
  }
}

/** The catalogue sentence for a verification failure. */
export function describeVerifyFailure(
  failure: {reason: VerifyFailure; header?: string; skewSeconds?: number; toleranceSeconds?: number},
  context: {timestampValue?: string; secretFlag?: string; headerFlag?: string} = {},
): string {
  const tolerance = formatDuration((failure.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) * 1000)
  const distance = formatDuration(Math.abs(failure.skewSeconds ?? 0) * 1000)
  switch (failure.reason) {
    case 'secret_malformed':
      return t('webhooks.verify.secretMalformed', {flag: context.secretFlag ?? VERIFY_FLAGS.secret})
    case 'header_missing':
      return t('webhooks.verify.headerMissing', {header: failure.header, flag: context.headerFlag ?? VERIFY_FLAGS.header})
    case 'timestamp_invalid':
      return t('webhooks.verify.timestampInvalid', {value: context.timestampValue ?? ''})
    case 'timestamp_too_old':
      return t('webhooks.verify.timestampTooOld', {distance, tolerance})
    case 'timestamp_too_new':
      return t('webhooks.verify.timestampTooNew', {distance, tolerance})
    case 'signature_malformed':
      return t('webhooks.verify.signatureMalformed')
    case 'signature_mismatch':
      return t('webhooks.verify.signatureMismatch')
  }
}

/** Verify one delivery given as the verify command's flags; never throws for a bad delivery. */
export function verifyDelivery(input: VerifyInput): VerifyReport {
  const headers = parseHeaderFlags(input.headers)
  const now = input.nowSeconds
  const options = {toleranceSeconds: input.toleranceSeconds, nowSeconds: now}
  const result = verifyPayload(input.secret.trim(), headers, input.payload, options)
  // A secret that is not a signing secret at all is bad input (exit 2, README.md "Exit codes"), like a bad header:
  // nothing about the delivery was checked.
  if (!result.ok && result.reason === 'secret_malformed') {
    throw new InputError(describeVerifyFailure(result, {secretFlag: VERIFY_FLAGS.secret}), {field: VERIFY_FLAGS.secret, code: 'secret_malformed'})
  }
  if (result.ok) {
    const timestamp = Number(headers['webhook-timestamp'])
    const skew = timestamp - now
    const age =
      skew === 0
        ? t('webhooks.verify.now')
        : t(skew < 0 ? 'webhooks.verify.ago' : 'webhooks.verify.ahead', {distance: formatDuration(Math.abs(skew) * 1000)})
    return {
      ok: true,
      webhookId: headers['webhook-id'],
      timestamp,
      message: t('webhooks.verify.ok', {id: headers['webhook-id'], timestamp, age}),
    }
  }
  const report: VerifyReport = {
    ok: false,
    reason: result.reason,
    message: describeVerifyFailure(result, {timestampValue: headers['webhook-timestamp']}),
  }
  if (result.header) report.header = result.header
  if (result.skewSeconds !== undefined) report.skewSeconds = result.skewSeconds
  // The commonest cause of a mismatch by hand: an editor added a final newline to the saved body.
  if (result.reason === 'signature_mismatch' && /\r?\n$/.test(input.payload)) {
    const trimmed = input.payload.replace(/\r?\n$/, '')
    if (verifyPayload(input.secret.trim(), headers, trimmed, options).ok) report.hint = t('webhooks.verify.trailingNewline')
  }
  return report
}
