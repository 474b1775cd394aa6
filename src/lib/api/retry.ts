/**
 * The one retry policy of the CLI. Which requests may be repeated is decided here and nowhere
 * else, from the contract (docs/service.md, "Errors"):
 *
 * - safe reads (GET, HEAD, OPTIONS) retry 429, 5xx and network failures;
 * - `POST /v1/invoices` retries the same way, but only with an `Idempotency-Key` (the caller's; the
 *   same one is sent on every attempt, so the service replays instead of creating twice);
 * - publish and cancel (re-publish and re-cancel return the invoice unchanged) and
 *   `POST /v1/files/upload-url` (mints a fresh URL) may retry; so may PUT (the upload itself);
 * - `POST /v1/payments` is NEVER retried (a retry prompts the customer again), nor is send (it
 *   would deliver twice), nor any other POST.
 *
 * Delays: exponential backoff with full jitter, or the server's `Retry-After` (capped) when given.
 */
import {sleep, type Clock} from '../../contract/clock.js'
import {ApiError, NetworkError} from '../errors.js'

export interface RetryOptions {
  /** Retries after the first attempt (so at most maxRetries + 1 requests). */
  maxRetries: number
  baseDelayMs: number
  maxDelayMs: number
  /** A longer Retry-After is cut to this. */
  maxRetryAfterMs: number
}

export const DEFAULT_RETRY: RetryOptions = {maxRetries: 4, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000}

/** Operations of the service, by name; discovery maps each to a method and path. */
export type OperationName =
  | 'payment.create'
  | 'payment.list'
  | 'payment.status'
  | 'invoice.list'
  | 'invoice.create'
  | 'invoice.get'
  | 'invoice.publish'
  | 'invoice.cancel'
  | 'invoice.pdf'
  | 'invoice.send'
  | 'files.uploadUrl'
  | 'openapi'

export type RetryClass = 'safe' | 'idempotency-key' | 'idempotent' | 'never'

export interface RetryDecision {
  retryable: boolean
  class: RetryClass
  /** Why, in a few words (shown in the --verbose trace). */
  reason: string
}

export interface RetryTarget {
  method: string
  /** The URL path (no query), e.g. `/v1/invoices/inv_1/publish`. */
  path: string
  /** The operation, when the caller knows it (e.g. a path found by discovery). */
  operation?: OperationName
  idempotencyKey?: string
}

const NEVER_OPERATIONS: ReadonlySet<OperationName> = new Set(['payment.create', 'invoice.send'])
const IDEMPOTENT_OPERATIONS: ReadonlySet<OperationName> = new Set(['invoice.publish', 'invoice.cancel', 'files.uploadUrl'])

/** Whether a request may be repeated at all, and why. */
export function retryDecision(target: RetryTarget): RetryDecision {
  const method = target.method.toUpperCase()
  const path = target.path.split('?')[0]!.replace(/\/+$/, '')
  // Checked first, whatever the caller claims: these must never run twice.
  if (target.operation && NEVER_OPERATIONS.has(target.operation)) {
    return {retryable: false, class: 'never', reason: `${target.operation} is never repeated`}
  }
  if (method === 'POST' && /\/payments$/.test(path)) {
    return {retryable: false, class: 'never', reason: 'a payment create is never repeated (it would prompt the customer again)'}
  }
  if (method === 'POST' && /\/send$/.test(path)) {
    return {retryable: false, class: 'never', reason: 'send is never repeated (it would deliver twice)'}
  }
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
    return {retryable: true, class: 'safe', reason: 'safe read'}
  }
  if (method === 'PUT') return {retryable: true, class: 'idempotent', reason: 'PUT is idempotent'}
  if (method === 'POST') {
    if (target.operation === 'invoice.create' || /\/invoices$/.test(path)) {
      return target.idempotencyKey
        ? {retryable: true, class: 'idempotency-key', reason: 'invoice create with an Idempotency-Key'}
        : {retryable: false, class: 'never', reason: 'invoice create without an Idempotency-Key'}
    }
    if (
      (target.operation && IDEMPOTENT_OPERATIONS.has(target.operation)) ||
      /\/invoices\/[^/]+\/(publish|cancel)$/.test(path) ||
      /\/files\/upload-url$/.test(path)
    ) {
      return {retryable: true, class: 'idempotent', reason: 'idempotent by the contract'}
    }
  }
  return {retryable: false, class: 'never', reason: `${method} ${path} is not known to be safe to repeat`}
}

/** Whether this failure of a retryable request is worth another attempt. */
export function isRetryableFailure(error: unknown, retryClass: RetryClass): boolean {
  if (retryClass === 'never') return false
  // A connection that could not be made (refused, unknown host) will not be made a moment later
  // either: the user hears it at once, and a write that never left is never sent again.
  if (error instanceof NetworkError) return error.code !== 'not_connected'
  if (!(error instanceof ApiError) || error.status === undefined) return false
  const status = error.status
  if (status === 429) return true
  // 501 and 505 will not change on a second try, nor 507 (no space left) within its backoff.
  if (status >= 500 && status <= 599 && status !== 501 && status !== 505 && status !== 507) return true
  // The same key is still being processed: wait, then ask again and get the replay.
  if (status === 409 && error.code === 'idempotency_in_progress' && retryClass === 'idempotency-key') return true
  return false
}

/** `Retry-After` in ms: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim()
  if (!text) return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - nowMs)
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base * 2^(retry-1))). */
export function backoffDelayMs(retryNumber: number, options: RetryOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retryNumber - 1))
  return Math.floor(random() * ceiling)
}

/** The wait before retry number `retryNumber` (1-based). */
export function retryDelayMs(retryNumber: number, error: unknown, options: RetryOptions, random: () => number): number {
  const retryAfterSeconds = error instanceof ApiError ? error.retryAfterSeconds : undefined
  if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, options.maxRetryAfterMs)
  return backoffDelayMs(retryNumber, options, random)
}

export interface RetryRun {
  decision: RetryDecision
  options: RetryOptions
  /** Where the waits between attempts are timed. */
  clock: Clock
  random: () => number
  signal?: AbortSignal
  /** Called before each wait (for the trace). */
  onRetry?: (info: {retry: number; maxRetries: number; delayMs: number; error: unknown}) => void
  /** Called when a retryable-looking failure is not retried because of the decision. */
  onNoRetry?: (info: {reason: string; error: unknown}) => void
}

/**
 * Run `attempt` until it succeeds, the failure is not retryable, or the retries are spent; then
 * the last error is thrown as it is (a 429 stays an ApiError, exit 6).
 */
export async function withRetries<T>(attempt: (attemptNumber: number) => Promise<T>, run: RetryRun): Promise<T> {
  const maxRetries = run.decision.retryable ? Math.max(0, Math.floor(run.options.maxRetries)) : 0
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber)
    } catch (error) {
      const retry = attemptNumber
      if (!run.decision.retryable) {
        if (isRetryableFailure(error, 'safe')) run.onNoRetry?.({reason: run.decision.reason, error})
        throw error
      }
      if (retry > maxRetries || !isRetryableFailure(error, run.decision.class)) throw error
      if (run.signal?.aborted) throw error
      const delayMs = retryDelayMs(retry, error, run.options, run.random)
      run.onRetry?.({retry, maxRetries, delayMs, error})
      await sleep(run.clock, delayMs, run.signal)
    }
  }
}
