/**
 * `webhooks listen` on the local sandbox, across its restarts. The listener holds a line open to
 * its own sandbox (`GET /_admin/webhook-endpoints/{id}/watch`, a server-sent event stream): the
 * sandbox ends it when the endpoint goes (a reset, a restore), and the connection ends when the
 * sandbox stops. So the listener learns of both at once, without asking every second (nothing
 * is journalled while all is well).
 *
 * Then it says once that it is waiting for the sandbox at its address, and every second connects
 * afresh: the profile and the registry read again from disk, only the sandbox at the profile's
 * address counts, and only once it answers with the profile's key (another sandbox, or one that
 * does not know the key, is never "back"). It registers the receiver again (with `--data` the
 * endpoint is still there) and forwards the events the sandbox created since the last one the
 * listener received, from the sandbox's own event list and under its own ids (the same
 * `webhook-id` as a delivery of it), never one from before the listener started.
 */
import {asWebhookEvent, type WebhookEvent} from '../../contract/events.js'
import {systemClock, type Clock} from '../../contract/clock.js'

export type LostReason = 'unreachable' | 'unregistered'

/** The line held open to the sandbox: `closed` resolves with why it ended (not after `close()`). */
export interface WatchLine {
  closed: Promise<LostReason>
  close(): void
}

export interface SandboxLink {
  /** Where the sandbox answers (its base URL). */
  readonly url: string
  /**
   * Which run of the sandbox this is: a new id after a restart; `persistent` when its data
   * outlives the run (`--data`: the events from before the restart are still listed).
   */
  readonly instance: {id: string; persistent: boolean}
  /** The environments whose events the listener forwards (each has its own event list). */
  readonly environments: readonly string[]
  /** Opens the line for `endpointId`; rejects when the sandbox cannot be reached or has no such endpoint. */
  watch(endpointId: string): Promise<WatchLine>
  /** Is `endpointId` registered with this receiver URL? */
  isRegistered(endpointId: string): Promise<boolean>
  /** Register the receiver; its id and signing secret. */
  register(): Promise<{id: string; secret: string}>
  /** The sandbox's events of one environment, newest first. */
  listEvents(query: {environment: string; limit: number; offset: number}): Promise<{data: WebhookEvent[]; hasMore: boolean}>
}

/** The newest event the listener knows of: the recovery forwards only what came after it. */
export interface Mark {
  id?: string
  created_at?: string
}

export interface Gap {
  /** When the line ended. */
  from: Date
  /** When the listener was registered again. */
  to: Date
  reason: LostReason
  /** Events created while the listener was away, forwarded. */
  recovered: number
  /** The sandbox's event list could not be read (events of the gap may be missing). */
  uncovered?: string
}

export interface SandboxWatchOptions {
  endpointId: string
  link: SandboxLink
  /** Per environment, the newest event of the sandbox when the listener started (none: an empty mark). */
  marks: Record<string, Mark>
  /** A fresh link (profile and registry read again); rejects while the profile's sandbox is not there or refuses its key. */
  connect(): Promise<SandboxLink>
  /** The receiver was registered again: its new id and secret. */
  onRegistered(endpoint: {id: string; secret: string}): void
  /** Hands an event of the gap to the listener; false when it had it already. */
  ingest(event: WebhookEvent): boolean
  onLost(info: {since: Date; reason: LostReason; url: string}): void
  onBack(gap: Gap): void
  /** Between two connection attempts while the sandbox is away (default 1 s). */
  intervalMs?: number
  /** Most pages of 100 read in one recovery (default 20). */
  maxPages?: number
  clock?: Clock
}

export interface SandboxWatch {
  /** The link in use now (the last connected). */
  link(): SandboxLink
  endpointId(): string
  /** An event the listener received (delivered by the sandbox): the mark moves past it. */
  received(event: WebhookEvent): void
  /** Gaps so far; a gap still open has no `to`. */
  gaps(): {closed: Gap[]; open?: {since: Date; reason: LostReason}}
  stop(): Promise<void>
}

export async function watchSandbox(options: SandboxWatchOptions): Promise<SandboxWatch> {
  const clock = options.clock ?? systemClock
  const now = () => new Date(clock.now())
  const interval = options.intervalMs ?? 1000
  const maxPages = options.maxPages ?? 20
  let link = options.link
  let endpointId = options.endpointId
  const marks: Record<string, Mark> = {...options.marks}
  let lost: {since: Date; reason: LostReason} | undefined
  const closed: Gap[] = []
  let stopped = false
  let line: WatchLine | undefined
  /** The next reconnect attempt: a timer on the clock (a test moves it instead of waiting). */
  let timer: unknown
  let running: Promise<void> = Promise.resolve()
  // Attempts in a row that a sandbox answered with a refusal (the next one waits longer).
  let refused = 0

  const follow = (opened: WatchLine) => {
    line = opened
    void opened.closed.then((reason) => {
      if (stopped || line !== opened) return
      line = undefined
      lost = {since: now(), reason}
      options.onLost({...lost, url: link.url})
      schedule()
    })
  }

  async function reconnect(): Promise<boolean> {
    let fresh: SandboxLink
    let endpoint: {id: string; secret: string}
    let opened: WatchLine
    try {
      fresh = await options.connect()
      endpoint = (await fresh.isRegistered(endpointId).catch(() => false)) ? {id: endpointId, secret: ''} : await fresh.register()
      opened = await fresh.watch(endpoint.id)
    } catch (error) {
      // Still away: try again at the next tick. A sandbox there that answered (a refused key, an
      // endpoint it would not take) is asked less and less often (up to every 30 intervals), so a
      // wrong sandbox's journal does not fill with listen's attempts.
      refused = (error as {status?: unknown}).status === undefined ? 0 : refused + 1
      return false
    }
    refused = 0
    const restarted = fresh.instance.id !== link.instance.id
    link = fresh
    if (endpoint.id !== endpointId || endpoint.secret) {
      endpointId = endpoint.id
      options.onRegistered(endpoint)
    }
    const gap: Gap = {from: lost!.since, to: now(), reason: lost!.reason, recovered: 0}
    try {
      // A new run of a sandbox in memory holds only events made since it started, after the
      // listener's: all of them are the gap's.
      gap.recovered = 0
      for (const environment of fresh.environments) gap.recovered += await recover(environment, restarted && !fresh.instance.persistent ? {} : (marks[environment] ?? {}))
    } catch (error) {
      gap.uncovered = (error as Error).message
    }
    lost = undefined
    closed.push(gap)
    follow(opened)
    options.onBack(gap)
    return true
  }

  /** The events of `environment` listed after `since` (newest first, up to it), handed over oldest first. */
  async function recover(environment: string, since: Mark): Promise<number> {
    const events: WebhookEvent[] = []
    let reached = false
    for (let page = 0; page < maxPages && !reached; page++) {
      const {data, hasMore} = await link.listEvents({environment, limit: 100, offset: page * 100})
      for (const event of data) {
        if ((since.id && event.id === since.id) || (since.created_at && event.created_at < since.created_at)) {
          reached = true
          break
        }
        events.push(event)
      }
      if (!hasMore) reached = true
    }
    let recovered = 0
    for (const event of events.reverse()) {
      if (options.ingest(event)) recovered++
      note(event, environment)
    }
    return recovered
  }

  function note(event: WebhookEvent, environment: string): void {
    const mark = marks[environment]
    if (!mark?.created_at || event.created_at >= mark.created_at) marks[environment] = {id: event.id, created_at: event.created_at}
  }

  function schedule(): void {
    if (stopped) return
    timer = clock.setTimer(() => {
      timer = undefined
      running = reconnect()
        .catch(() => false)
        .then((back) => {
          if (!back) schedule()
        })
    }, interval * Math.min(2 ** refused, 30))
    ;(timer as {unref?: () => void}).unref?.()
  }

  follow(await link.watch(endpointId))

  return {
    link: () => link,
    endpointId: () => endpointId,
    received(event) {
      const parsed = asWebhookEvent(event)
      if (parsed && typeof parsed.environment === 'string') note(parsed, parsed.environment)
    },
    gaps: () => ({closed: [...closed], open: lost}),
    async stop() {
      stopped = true
      if (timer !== undefined) clock.clearTimer(timer)
      line?.close()
      await running
    },
  }
}
