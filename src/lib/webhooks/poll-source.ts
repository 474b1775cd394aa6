/**
 * Events where nothing can reach this machine: follow the payments list and turn each new
 * settlement into a `payment.success` / `payment.failed` event, with an id derived from the
 * payment id and status (so the same settlement always gives the same event).
 *
 * Across restarts it neither misses a settlement nor invents one. A state file remembers:
 * - `watermark`: the newest `created_at` seen; every poll reads the list (newest first) back to it,
 *   so payments created while the source was stopped are seen;
 * - `watching`: the payments seen PENDING or UNSPECIFIED, read again until they settle (the scan
 *   goes back to the oldest of them);
 * - `emitted`: the last event ids emitted (a bounded window), so a payment read twice (ties at the
 *   watermark, offset pages shifted by new payments) is emitted once.
 * At the very first run it takes the list as it is as the starting point: settlements from before
 * are not events (as `stripe listen` shows only what happens while it runs); pending payments are
 * watched from then on.
 *
 * The state is saved after the events are handed over: a crash in between re-emits the same ids,
 * which receivers (and the listener) dedupe. At least once, never an invented event.
 */
import {mkdir, readFile, rename, writeFile} from 'node:fs/promises'
import {dirname} from 'node:path'
import {ExitCode, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {type PaymentLike, type WebhookEvent, eventTypeForStatus, settlementEvent, settlementEventId} from '../../contract/events.js'
import {systemClock, type Clock} from '../../contract/clock.js'

export interface PaymentsPage {
  data: PaymentLike[]
  has_more: boolean
}

export type ListPayments = (query: {limit: number; offset: number; status?: string}) => Promise<PaymentsPage>

export interface PollSourceOptions {
  listPayments: ListPayments
  /** Where the position is kept across restarts (JSON, mode 0600). */
  statePath: string
  /** Receives each event, oldest settlement first. */
  onEvent: (event: WebhookEvent) => void | Promise<void>
  onError?: (error: unknown) => void
  /** Between polls, ms (default 5 s: 12 requests a minute, well under the rate limit). */
  intervalMs?: number
  /** Page size, 1–100 (default 100). */
  pageSize?: number
  /** Most pages read in one poll (default 20). */
  maxPages?: number
  /** Event ids remembered (default 10,000). */
  window?: number
  /** A payment watched (unsettled) longer than this is given up (default 7 days). */
  watchForMs?: number
  /** Where the source reads the time (default: the system clock). */
  clock?: Clock
}

interface PollState {
  version: 1
  watermark?: number
  /** Payments not settled yet: their created_at (for the scan horizon) and since when they are watched. */
  watching: Record<string, Watched>
  emitted: string[]
}

interface Watched {
  created: number | null
  since: number
}

export interface PollResult {
  emitted: WebhookEvent[]
  watching: number
  pagesRead: number
}

export interface PollSource {
  /** One poll now: read, emit, save. */
  pollOnce(): Promise<PollResult>
  /** Poll every `intervalMs` until `stop()`; errors go to `onError` and the next poll follows. */
  start(): void
  stop(): Promise<void>
}

const PENDING_STATUSES = ['PENDING', 'UNSPECIFIED']

export function createPollSource(options: PollSourceOptions): PollSource {
  const pageSize = Math.min(100, Math.max(1, options.pageSize ?? 100))
  const maxPages = options.maxPages ?? 20
  const windowSize = options.window ?? 10_000
  const watchForMs = options.watchForMs ?? 7 * 24 * 3600 * 1000
  const intervalMs = options.intervalMs ?? 5_000
  const clock = options.clock ?? systemClock
  const now = () => new Date(clock.now())
  let state: PollState | undefined
  /** The next read: a timer on the clock (a test moves it instead of waiting). */
  let timer: unknown
  let running: Promise<unknown> | undefined
  let stopped = true

  async function pollOnce(): Promise<PollResult> {
    state ??= await loadState(options.statePath)
    return state ? poll(state) : baseline()
  }

  async function baseline(): Promise<PollResult> {
    const first = await options.listPayments({limit: pageSize, offset: 0})
    let pagesRead = 1
    const fresh: PollState = {version: 1, watching: {}, emitted: []}
    for (const payment of first.data) {
      fresh.watermark = maxDefined(fresh.watermark, createdAt(payment))
      const type = eventTypeForStatus(payment.status)
      if (type) fresh.emitted.push(eventIdOf(payment))
      else if (PENDING_STATUSES.includes(payment.status)) fresh.watching[payment.id] = watch(payment)
    }
    // Pending payments older than the first page will settle too: watch them all.
    for (const status of PENDING_STATUSES) {
      for (let page = 0; page < maxPages; page++) {
        const result = await options.listPayments({limit: pageSize, offset: page * pageSize, status})
        pagesRead++
        for (const payment of result.data) {
          if (PENDING_STATUSES.includes(payment.status)) fresh.watching[payment.id] = watch(payment)
        }
        if (!result.has_more || result.data.length === 0) break
      }
    }
    await saveState(options.statePath, fresh)
    state = fresh
    return {emitted: [], watching: Object.keys(fresh.watching).length, pagesRead}
  }

  async function poll(current: PollState): Promise<PollResult> {
    const emittedSet = new Set(current.emitted)
    const watchedTimes = Object.values(current.watching).flatMap((w) => (w.created === null ? [] : [w.created]))
    const watchingUndated = Object.values(current.watching).some((w) => w.created === null)
    // Read back to the watermark and to the oldest watched payment.
    const horizon = watchingUndated ? -Infinity : Math.min(current.watermark ?? -Infinity, ...watchedTimes)
    const toEmit: WebhookEvent[] = []
    const settledIds = new Set<string>()
    const watching = {...current.watching}
    let watermark = current.watermark
    let pagesRead = 0
    for (let page = 0; page < maxPages; page++) {
      const result = await options.listPayments({limit: pageSize, offset: page * pageSize})
      pagesRead++
      for (const payment of result.data) {
        const created = createdAt(payment)
        const isNew = created === undefined || current.watermark === undefined || created >= current.watermark
        const watched = Object.hasOwn(current.watching, payment.id)
        watermark = maxDefined(watermark, created)
        if (eventTypeForStatus(payment.status)) {
          const id = eventIdOf(payment)
          if ((isNew || watched) && !emittedSet.has(id) && !settledIds.has(payment.id)) {
            const event = settlementEvent(payment, now())
            if (event) toEmit.push(event)
            settledIds.add(payment.id)
          }
          delete watching[payment.id]
        } else if (PENDING_STATUSES.includes(payment.status) && (isNew || watched)) {
          watching[payment.id] = current.watching[payment.id] ?? watch(payment)
        }
      }
      const last = result.data.at(-1)
      const lastCreated = last ? createdAt(last) : undefined
      if (!result.has_more || result.data.length === 0) break
      if (lastCreated !== undefined && lastCreated < horizon) break
    }
    // Oldest settlement first, as they happened.
    toEmit.reverse()
    const emitted: WebhookEvent[] = []
    let failure: unknown
    for (const event of toEmit) {
      try {
        await options.onEvent(event)
      } catch (error) {
        failure = error
        // Not handed over: neither remembered nor unwatched, so the next poll tries again.
        const data = event.data as PaymentLike
        watching[data.id] = current.watching[data.id] ?? watch(data)
        continue
      }
      emitted.push(event)
      current.emitted.push(event.id)
    }
    // A payment that never settles (lost by the provider) is not watched for ever.
    const cutoff = now().getTime() - watchForMs
    for (const [id, watched] of Object.entries(watching)) if (watched.since < cutoff) delete watching[id]
    const next: PollState = {
      version: 1,
      watermark,
      watching,
      emitted: current.emitted.slice(-windowSize),
    }
    // Keep the watermark where it was if a hand-over failed, so that the payment is read again.
    if (failure !== undefined) next.watermark = current.watermark
    await saveState(options.statePath, next)
    state = next
    if (failure !== undefined) throw failure
    return {emitted, watching: Object.keys(watching).length, pagesRead}
  }

  function watch(payment: PaymentLike): Watched {
    return {created: createdAt(payment) ?? null, since: now().getTime()}
  }

  function loop(): void {
    if (stopped) return
    running = pollOnce()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = undefined
        if (!stopped) timer = clock.setTimer(loop, intervalMs)
      })
  }

  return {
    pollOnce,
    start() {
      if (!stopped) return
      stopped = false
      loop()
    },
    async stop() {
      stopped = true
      if (timer !== undefined) clock.clearTimer(timer)
      timer = undefined
      await running
    },
  }
}

function eventIdOf(payment: PaymentLike): string {
  return settlementEventId(payment.id, payment.status)
}

function createdAt(payment: PaymentLike): number | undefined {
  if (typeof payment.created_at !== 'string') return undefined
  const ms = Date.parse(payment.created_at)
  return Number.isNaN(ms) ? undefined : ms
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b
  if (b === undefined) return a
  return Math.max(a, b)
}

async function loadState(path: string): Promise<PollState | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    const parsed = JSON.parse(text) as PollState
    if (parsed?.version !== 1 || !Array.isArray(parsed.emitted) || typeof parsed.watching !== 'object') {
      throw new Error('unknown format')
    }
    return parsed
  } catch (error) {
    throw new SvcError(t('webhooks.poll.stateUnreadable', {path, reason: (error as Error).message}), {
      exitCode: ExitCode.FAILURE,
      code: 'state_unreadable',
    })
  }
}

async function saveState(path: string, state: PollState): Promise<void> {
  await mkdir(dirname(path), {recursive: true, mode: 0o700})
  const tmp = `${path}.${process.pid}.tmp`
  await writeFile(tmp, JSON.stringify(state), {mode: 0o600})
  // Atomic: a crash leaves the old state or the new one, never half of one.
  await rename(tmp, path)
}
