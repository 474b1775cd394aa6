/**
 * Payments, as the CLI drives them. `POST /v1/payments` is not idempotent: it is sent once, never
 * retried, and when its outcome is unknown (timeout, network failure, 5xx) we look for the
 * payment in the list instead of creating a second one.
 */
import type {ApiClient, ListShape} from '../api/index.js'
import {headerValue} from '../api/response-errors.js'
import {ApiError, ExitCode, NetworkError, OutcomeError, SvcError} from '../errors.js'
import {failureSentence, getLocale, statusLabel, t} from '../i18n/index.js'
import {formatDateTime} from '../time/date.js'
import {isFinal, type Payment, type PaymentInput} from './types.js'
import {sleep, systemClock, type Clock} from '../../contract/clock.js'

/** The `Date` header has whole seconds: the service's time is somewhere in the second it names. */
const DATE_RESOLUTION_MS = 1000

export interface CreateResult {
  payment: Payment
  /** True when the answer was lost and the payment was found in the list instead. */
  recovered: boolean
}

/**
 * The answer was lost: a network failure or timeout, a 5xx, or a 2xx whose body could not be read
 * (truncated, an HTML page): the payment may exist, so it is looked for before saying so. A
 * connection that was never made sent nothing: not an unknown outcome.
 */
function outcomeUnknown(error: unknown): boolean {
  if (error instanceof NetworkError) return error.code !== 'not_connected'
  return (error instanceof ApiError && (error.status ?? 0) >= 500) || (error instanceof SvcError && error.code === 'invalid_response')
}

/**
 * When the request left, on the run's clock's monotonic time: what followed is measured from it.
 * Nothing is asked of the service before the POST (one request when all goes well).
 */
export interface Sent {
  monoMs: number
}

/**
 * When the request left, in the service's time, as far as it can be told: its `Date` header (whole
 * seconds) on the lookup's answer was written no earlier than the lookup left and no later than
 * its answer came, so the request left between `Date - (answered - sent)` and
 * `Date + 1 s - (lookup sent - sent)`. A window a second wide and more, whatever this machine's
 * clock says: undefined without a `Date`.
 */
export interface SentWindow {
  earliest: number
  latest: number
}

function sentWindow(sent: Sent, serviceDate: number, lookupSentMono: number, answeredMono: number): SentWindow | undefined {
  if (!Number.isFinite(serviceDate)) return undefined
  return {earliest: serviceDate - (answeredMono - sent.monoMs), latest: serviceDate + DATE_RESOLUTION_MS - (lookupSentMono - sent.monoMs)}
}

export async function createPayment(
  client: ApiClient,
  input: PaymentInput,
  options: {listShape?: () => Promise<ListShape>} = {},
): Promise<CreateResult> {
  // Read as the request leaves, after any wait for the rate limit (never retried: one send).
  let sent: Sent = {monoMs: client.clock.monotonic()}
  try {
    const response = await client.request<Payment>({
      method: 'POST',
      path: '/v1/payments',
      onSend: () => void (sent = {monoMs: client.clock.monotonic()}),
      body: {amount: input.amount, phone_number: input.phone, operator: input.operator, payment_method: 'mobile_money'},
    })
    return {payment: response.data, recovered: false}
  } catch (error) {
    if (!outcomeUnknown(error)) throw error
    const reason = (error as Error).message
    const listShape = await options.listShape?.().catch(() => undefined)
    const found = await findNewPayments(client, input, sent, listShape).catch(() => undefined)
    const candidates = found?.candidates
    if (found?.ours) return {payment: found.ours, recovered: true}
    const check = t('pay.create.unknownHint', {amount: input.amount, phone: input.phone})
    if (!candidates?.length) {
      throw new SvcError(t('pay.create.unknown', {reason}), {exitCode: ExitCode.UNAVAILABLE, code: 'outcome_unknown', hint: check, cause: error})
    }
    const listed = candidates.map((p) => t('pay.create.candidate', {id: p.id, status: statusLabel(p.status), created: formatDateTime(p.created_at, getLocale())})).join('\n')
    throw new SvcError(t(candidates.length === 1 ? 'pay.create.maybeEarlier' : 'pay.create.ambiguous', {reason, count: candidates.length, candidates: listed}), {
      exitCode: ExitCode.UNAVAILABLE,
      code: 'outcome_unknown',
      hint: t('pay.create.ambiguousHint', {id: candidates[0]!.id, amount: input.amount, phone: input.phone}),
      cause: error,
    })
  }
}

/**
 * After a lost answer: the payments of this amount and number that may be ours (newest first):
 * those made at or after the earliest moment the request can have left, by the service's clock
 * (every one of the newest page without a `Date`). `ours`: the only one, when it was made after the
 * latest moment the request can have left; one made within the window may be an earlier,
 * identical payment (another terminal, a script run twice, a service clock a little ahead of this
 * machine's), and an earlier payment is never presented as the one just made.
 */
export async function findNewPayments(
  client: ApiClient,
  input: PaymentInput,
  sent: Sent,
  listShape?: ListShape,
): Promise<{candidates: Payment[]; ours?: Payment}> {
  const {extractList} = await import('../api/index.js')
  const lookupSent = client.clock.monotonic()
  const response = await client.request<unknown>({method: 'GET', path: '/v1/payments', query: {limit: 100, offset: 0}})
  const window = sentWindow(sent, Date.parse(headerValue(response.headers, 'date') ?? ''), lookupSent, client.clock.monotonic())
  const {items} = extractList<Payment>(response.data, listShape)
  const createdAt = (p: Payment) => Date.parse(p.created_at)
  const candidates = items
    .filter((p) => p.amount === input.amount && p.phone_number === input.phone)
    .filter((p) => window === undefined || !(createdAt(p) < window.earliest))
    .sort((a, b) => createdAt(b) - createdAt(a))
  const only = candidates.length === 1 ? candidates[0]! : undefined
  const ours = only && window && createdAt(only) > window.latest ? only : undefined
  return {candidates, ours}
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
  /** The service could not be read (network, 5xx, 429) since `since`; the watch retries. */
  onUnreachable?: (since: Date, last: Payment | undefined) => void
  /** Where the watch reads the time and waits (default: the system clock). */
  clock?: Clock
  /** Ends the watch at once (e.g. an MCP client cancelling the call): rejects with its reason. */
  signal?: AbortSignal
}

/**
 * Polls the status until SUCCESS or FAILED. Transient errors (network, 429, 5xx) back off and
 * carry on (told through `onUnreachable`); anything else (401, 404) stops. Past the deadline:
 * exit 8 when the last read said PENDING, exit 7 "status unknown" when the last read failed (a
 * status the watch never read is never reported as PENDING).
 */
export async function watchPayment(client: ApiClient, id: string, options: WatchOptions): Promise<Payment> {
  const clock = options.clock ?? systemClock
  const now = () => clock.now()
  const deadline = now() + options.timeoutMs
  let delay = options.intervalMs
  let last: Payment | undefined
  let unreachableSince: number | undefined
  let lastError: unknown
  for (;;) {
    try {
      // One attempt per read: the watch is the retry loop, so it can say at once that it retries.
      last = await readStatus(client, id)
      unreachableSince = undefined
      options.onUpdate?.(last)
      if (isFinal(last.status)) return last
      delay = options.intervalMs
    } catch (error) {
      const transient = error instanceof NetworkError || (error instanceof ApiError && ((error.status ?? 0) >= 500 || error.status === 429))
      if (!transient) throw error
      lastError = error
      unreachableSince ??= now()
      options.onUnreachable?.(new Date(unreachableSince), last)
      delay = Math.min(delay * 2, 30_000, Math.max(options.intervalMs, 5000))
    }
    const left = deadline - now()
    if (left <= 0) {
      if (unreachableSince !== undefined) {
        throw new SvcError(t('pay.watch.statusUnknown', {id, since: clockTime(new Date(unreachableSince))}), {
          exitCode: ExitCode.UNAVAILABLE,
          code: 'status_unknown',
          hint: t('pay.watch.statusUnknownHint', {id}),
          cause: lastError,
        })
      }
      throw new SvcError(t('pay.watch.timeout', {id, status: last?.status ?? 'PENDING'}), {
        exitCode: ExitCode.WATCH_TIMEOUT,
        code: 'watch_timeout',
        hint: t('pay.watch.timeoutHint', {id}),
      })
    }
    await sleep(clock, Math.min(delay, left), options.signal)
  }
}

async function readStatus(client: ApiClient, id: string): Promise<Payment> {
  const response = await client.request<Payment>({method: 'GET', path: `/v1/payments/${encodeURIComponent(id)}/status`, maxRetries: 0})
  return response.data
}

/** HH:MM:SS, local time: when the service was last out of reach. */
export function clockTime(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':')
}

/** A FAILED payment is the operation's failure: exit 1, with its failure_code. */
export function failedOutcome(payment: Payment): OutcomeError {
  const code = payment.failure_code ?? 'UNKNOWN'
  return new OutcomeError(t('pay.failedExplained', {id: payment.id, code, sentence: failureSentence(code)}), {code: 'payment_failed'})
}
