/**
 * Payments, as the CLI drives them. `POST /v1/payments` is not idempotent: it is sent once, never
 * retried, and when its outcome is unknown (timeout, network failure, 5xx) we look for the
 * payment in the list instead of creating a second one.
 */
import type {ApiClient, ListShape} from '../api/index.js'
import {ApiError, ExitCode, NetworkError, OutcomeError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {isFinal, type Payment, type PaymentInput} from './types.js'

/** How far back a payment may have been created and still be "ours" after a lost answer. */
const RECOVERY_WINDOW_MS = 5 * 60 * 1000
/** Allowance for the service's clock being behind ours. */
const CLOCK_SKEW_MS = 60 * 1000

export interface CreateResult {
  payment: Payment
  /** True when the answer was lost and the payment was found in the list instead. */
  recovered: boolean
}

/**
 * The answer was lost: a network failure or timeout, a 5xx, or a 2xx whose body could not be read
 * (truncated, an HTML page): the payment may exist, so it is looked for before saying so.
 */
function outcomeUnknown(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    (error instanceof ApiError && (error.status ?? 0) >= 500) ||
    (error instanceof SvcError && error.code === 'invalid_response')
  )
}

export async function createPayment(
  client: ApiClient,
  input: PaymentInput,
  options: {listShape?: () => Promise<ListShape>; now?: () => number} = {},
): Promise<CreateResult> {
  const now = options.now ?? Date.now
  const startedAt = now()
  try {
    const response = await client.request<Payment>({
      method: 'POST',
      path: '/v1/payments',
      body: {amount: input.amount, phone_number: input.phone, operator: input.operator, payment_method: 'mobile_money'},
    })
    return {payment: response.data, recovered: false}
  } catch (error) {
    if (!outcomeUnknown(error)) throw error
    const found = await (async () => findRecentPayment(client, input, startedAt, await options.listShape?.()))().catch(() => undefined)
    if (found) return {payment: found, recovered: true}
    throw new SvcError(t('pay.create.unknown', {reason: (error as Error).message}), {
      exitCode: ExitCode.UNAVAILABLE,
      code: 'outcome_unknown',
      hint: t('pay.create.unknownHint', {amount: input.amount, phone: input.phone}),
      cause: error,
    })
  }
}

/** The newest payment of this amount and number created since just before `since`. */
export async function findRecentPayment(
  client: ApiClient,
  input: PaymentInput,
  since: number,
  listShape?: ListShape,
): Promise<Payment | undefined> {
  const {extractList} = await import('../api/index.js')
  const response = await client.request<unknown>({method: 'GET', path: '/v1/payments', query: {limit: 100, offset: 0}})
  const {items} = extractList<Payment>(response.data, listShape)
  const earliest = since - CLOCK_SKEW_MS
  return items
    .filter((p) => p.amount === input.amount && p.phone_number === input.phone)
    .filter((p) => {
      const created = Date.parse(p.created_at)
      return Number.isFinite(created) && created >= earliest && created <= since + RECOVERY_WINDOW_MS
    })
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0]
}

export async function getPayment(client: ApiClient, id: string): Promise<Payment> {
  const response = await client.request<Payment>({method: 'GET', path: `/v1/payments/${encodeURIComponent(id)}/status`})
  return response.data
}

export interface ListOptions {
  status?: string
  limit?: number
  offset?: number
  /** Follow every page. */
  all?: boolean
  listShape?: ListShape
  onPage?: (fetched: number, total?: number) => void
}

export async function listPayments(client: ApiClient, options: ListOptions): Promise<{items: Payment[]; total?: number; hasMore: boolean}> {
  const {listPages} = await import('../api/index.js')
  const items: Payment[] = []
  const pages = listPages<Payment>(client, {
    method: 'GET',
    path: '/v1/payments',
    operation: 'payment.list',
    query: options.status ? {status: options.status} : undefined,
    shape: options.listShape,
    pageSize: options.all ? 100 : (options.limit ?? 20),
    style: 'offset',
    start: options.offset,
  })
  for await (const page of pages) {
    items.push(...page.items)
    options.onPage?.(items.length, page.total)
    if (!options.all || !page.hasMore) return {items, total: page.total, hasMore: page.hasMore}
  }
  return {items, hasMore: false}
}

export interface WatchOptions {
  intervalMs: number
  timeoutMs: number
  onUpdate?: (payment: Payment) => void
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

/**
 * Polls the status until SUCCESS or FAILED. Transient errors (network, 429, 5xx) back off and
 * carry on; anything else (401, 404) stops. Past the deadline: exit 8, still PENDING.
 */
export async function watchPayment(client: ApiClient, id: string, options: WatchOptions): Promise<Payment> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const now = options.now ?? Date.now
  const deadline = now() + options.timeoutMs
  let delay = options.intervalMs
  let last: Payment | undefined
  for (;;) {
    try {
      last = await getPayment(client, id)
      options.onUpdate?.(last)
      if (isFinal(last.status)) return last
      delay = options.intervalMs
    } catch (error) {
      const transient = error instanceof NetworkError || (error instanceof ApiError && ((error.status ?? 0) >= 500 || error.status === 429))
      if (!transient) throw error
      delay = Math.min(delay * 2, 30_000)
    }
    const left = deadline - now()
    if (left <= 0) {
      throw new SvcError(t('pay.watch.timeout', {id, status: last?.status ?? 'PENDING'}), {
        exitCode: ExitCode.WATCH_TIMEOUT,
        code: 'watch_timeout',
        hint: t('pay.watch.timeoutHint', {id}),
      })
    }
    await sleep(Math.min(delay, left))
  }
}

/** A FAILED payment is the operation's failure: exit 1, with its failure_code. */
export function failedOutcome(payment: Payment): OutcomeError {
  return new OutcomeError(t('pay.failed', {id: payment.id, code: payment.failure_code ?? 'UNKNOWN'}), {code: 'payment_failed'})
}
