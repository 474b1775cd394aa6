/**
 * `webhooks listen` on the local sandbox, across its restarts. Every second it asks the sandbox
 * whether the listener's endpoint is still registered. When the sandbox cannot be reached, or
 * answers without the endpoint (a restarted in-memory sandbox: new keys, new admin token), the
 * link is lost: said once. Then, every second, it connects afresh (the profile and the sandbox's
 * admin state read again from disk, so a listen on `--profile local` follows the keys the new
 * sandbox saved), registers the receiver again, and recovers the gap's events from the payments
 * list (each settlement of a payment created since shortly before the loss, as the poll source
 * turns them into events; the listener drops those it already had). What the list could not cover
 * (payments created before that horizon, or past the pages read) is named.
 */
import {settlementEvent, type PaymentLike, type WebhookEvent} from '../../contract/events.js'
import {systemClock, type Clock} from '../../contract/clock.js'

export interface SandboxLink {
  /** Is `endpointId` registered with this receiver URL? Throws when the sandbox cannot be reached. */
  isRegistered(endpointId: string): Promise<boolean>
  /** Register the receiver; its id and signing secret. */
  register(): Promise<{id: string; secret: string}>
  /** The payments list, newest first (public API, the profile's key). */
  listPayments(query: {limit: number; offset: number}): Promise<{data: PaymentLike[]; hasMore: boolean}>
}

export interface Gap {
  /** Last time the endpoint was seen registered. */
  from: Date
  /** When the listener was registered again. */
  to: Date
  reason: 'unreachable' | 'unregistered'
  recovered: number
  /** Settlements of payments created before this were not looked for. */
  coveredFrom: Date
  /** The payments list could not be read (its window is not covered at all). */
  uncovered?: string
}

export interface SandboxWatchOptions {
  endpointId: string
  link: SandboxLink
  /** A fresh link (profile and sandbox state read again). */
  connect(): Promise<SandboxLink>
  /** The receiver was registered again: its new id and secret. */
  onRegistered(endpoint: {id: string; secret: string}): void
  /** Hands an event of the gap to the listener; false when it had it already. */
  ingest(event: WebhookEvent): boolean
  onLost(info: {since: Date; reason: Gap['reason']}): void
  onBack(gap: Gap): void
  intervalMs?: number
  /** How far before the loss the recovery looks (payments created since then), default 10 min. */
  lookbackMs?: number
  /** Most pages of 100 read in one recovery (default 20). */
  maxPages?: number
  /** Where the watch reads the time (default: the system clock). */
  clock?: Clock
}

export interface SandboxWatch {
  /** The link in use now (the last connected). */
  link(): SandboxLink
  endpointId(): string
  /** Gaps so far; a gap still open has no `to`. */
  gaps(): {closed: Gap[]; open?: {since: Date; reason: Gap['reason']}}
  stop(): Promise<void>
}

export function watchSandbox(options: SandboxWatchOptions): SandboxWatch {
  const clock = options.clock ?? systemClock
  const now = () => clock.now()
  const interval = options.intervalMs ?? 1000
  const lookback = options.lookbackMs ?? 10 * 60_000
  const maxPages = options.maxPages ?? 20
  let link = options.link
  let endpointId = options.endpointId
  let lastSeen = now()
  let lost: {since: Date; reason: Gap['reason']} | undefined
  const closed: Gap[] = []
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()

  async function check(): Promise<void> {
    if (!lost) {
      let reason: Gap['reason'] | undefined
      try {
        if (!(await link.isRegistered(endpointId))) reason = 'unregistered'
      } catch (error) {
        reason = (error as {status?: number}).status === undefined ? 'unreachable' : 'unregistered'
      }
      if (!reason) {
        lastSeen = now()
        return
      }
      lost = {since: new Date(lastSeen), reason}
      options.onLost(lost)
    }
    // Lost: connect afresh, register again, recover the gap.
    let fresh: SandboxLink
    let endpoint: {id: string; secret: string}
    try {
      fresh = await options.connect()
      endpoint = (await fresh.isRegistered(endpointId).catch(() => false)) ? {id: endpointId, secret: ''} : await fresh.register()
    } catch {
      return // Still away: try again at the next tick.
    }
    link = fresh
    if (endpoint.id !== endpointId || endpoint.secret) {
      endpointId = endpoint.id
      options.onRegistered(endpoint)
    }
    const horizon = new Date(lost.since.getTime() - lookback)
    const gap: Gap = {from: lost.since, to: new Date(now()), reason: lost.reason, recovered: 0, coveredFrom: horizon}
    try {
      gap.recovered = await recover(horizon, gap)
    } catch (error) {
      gap.uncovered = (error as Error).message
    }
    lost = undefined
    lastSeen = now()
    closed.push(gap)
    options.onBack(gap)
  }

  async function recover(horizon: Date, gap: Gap): Promise<number> {
    const events: WebhookEvent[] = []
    let reachedHorizon = false
    let oldestRead = Number.POSITIVE_INFINITY
    for (let page = 0; page < maxPages && !reachedHorizon; page++) {
      const {data, hasMore} = await link.listPayments({limit: 100, offset: page * 100})
      for (const payment of data) {
        const created = Date.parse(String(payment.created_at ?? ''))
        if (Number.isFinite(created) && created < horizon.getTime()) {
          reachedHorizon = true
          break
        }
        if (Number.isFinite(created)) oldestRead = Math.min(oldestRead, created)
        const event = settlementEvent(payment, new Date(now()))
        if (event) events.push(event)
      }
      if (!hasMore) reachedHorizon = true
    }
    // Past the pages read: the oldest payment read marks how far the recovery went.
    if (!reachedHorizon && Number.isFinite(oldestRead)) gap.coveredFrom = new Date(oldestRead)
    // Oldest first, as they happened; those the listener already had do not count.
    let recovered = 0
    for (const event of events.reverse()) if (options.ingest(event)) recovered++
    return recovered
  }

  function schedule(): void {
    if (stopped) return
    timer = setTimeout(() => {
      running = check()
        .catch(() => undefined)
        .finally(schedule)
    }, interval)
    timer.unref?.()
  }
  schedule()

  return {
    link: () => link,
    endpointId: () => endpointId,
    gaps: () => ({closed: [...closed], open: lost}),
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
