/**
 * Client-side pacing, so that long runs (imports, `--all` listings) stay under the service's rate
 * limit instead of collecting 429s: at most `ratePerMinute` requests in any rolling window
 * (60 s), and a wait until the server's reset when it says none are left
 * (`RateLimit-Remaining: 0` with `RateLimit-Reset`). `ratePerMinute: 0` turns the window off; the
 * server's own headers are still honoured. Time comes from the injected clock.
 */
import {sleep, systemClock, type Clock} from '../../contract/clock.js'

export type HeaderBag = Record<string, string | string[] | undefined>

export interface PacerOptions {
  /** Requests allowed in any rolling window; 0 = no client-side limit. */
  ratePerMinute: number
  windowMs?: number
  /** Where the pacer reads the time and waits (default: the system clock). */
  clock?: Clock
  /** A server reset further away than this is cut to it (a garbled header must not hang the CLI). */
  maxServerWaitMs?: number
  /** Told before each wait of a second or more, so a person knows why nothing happens. */
  onWait?: (ms: number) => void
  /** The key's budget shared with other svc processes (shared-pace.ts), asked after this one's own. */
  shared?: SharedSlots
}

/** A budget that hands out slots (shared-pace.ts); `answered` moves a slot taken at `takenAt` to `at`. */
export interface SharedSlots {
  take(now: number): number
  answered?(takenAt: number, at: number): void
}

/** A slot taken: how long it took to get, and `answered()` once the service has answered. */
export interface Slot {
  waited: number
  /**
   * The service counts a request when it arrives, after the slot was taken; its answer comes
   * later still. Counting the request from its answer keeps the next ones inside the service's
   * window however long this one took to get there.
   */
  answered(): void
}

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

function toNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value.trim())
  return Number.isFinite(n) ? n : undefined
}

export class Pacer {
  readonly ratePerMinute: number
  private readonly windowMs: number
  private readonly clock: Clock
  private readonly onWait?: (ms: number) => void
  private readonly maxServerWaitMs: number
  private readonly shared?: SharedSlots
  /** Start times of the requests in the current window, oldest first. */
  private stamps: number[] = []
  private blockedUntil = 0
  /** Callers queue here so that concurrent requests take slots one at a time. */
  private tail: Promise<unknown> = Promise.resolve()

  constructor(options: PacerOptions) {
    this.ratePerMinute = Math.max(0, Math.floor(options.ratePerMinute))
    this.windowMs = options.windowMs ?? 60_000
    this.clock = options.clock ?? systemClock
    this.onWait = options.onWait
    this.maxServerWaitMs = options.maxServerWaitMs ?? 120_000
    this.shared = options.shared
  }

  /** Wait for a slot and take it. Resolves with the time waited, in ms. */
  acquire(signal?: AbortSignal): Promise<number> {
    return this.acquireSlot(signal).then((slot) => slot.waited)
  }

  /** Wait for a slot and take it; tell the slot when the service has answered. */
  acquireSlot(signal?: AbortSignal): Promise<Slot> {
    const turn = this.tail.then(() => this.take(signal))
    this.tail = turn.catch(() => undefined)
    return turn
  }

  private async take(signal?: AbortSignal): Promise<Slot> {
    let waited = 0
    for (;;) {
      const now = this.clock.now()
      let wait = this.waitAt(now)
      // This process may go: so may the key, if the other processes using it left a slot.
      if (wait <= 0 && this.shared) wait = this.shared.take(now)
      if (wait <= 0) {
        if (this.ratePerMinute > 0) this.stamps.push(now)
        return {waited, answered: this.mover(now)}
      }
      if (wait >= 1000) this.onWait?.(wait)
      await sleep(this.clock, wait, signal)
      waited += wait
    }
  }

  /** Moves the slot taken at `at` to the time of each call (the answer, or the last redirect's). */
  private mover(at: number): () => void {
    let current = at
    return () => {
      const later = this.clock.now()
      if (later <= current) return
      const index = this.stamps.indexOf(current)
      if (index >= 0) {
        this.stamps.splice(index, 1)
        let to = this.stamps.length
        while (to > 0 && this.stamps[to - 1]! > later) to--
        this.stamps.splice(to, 0, later)
      }
      this.shared?.answered?.(current, later)
      current = later
    }
  }

  /** How long a request starting at `now` must wait (0: it may go). */
  private waitAt(now: number): number {
    if (this.blockedUntil > now) return this.blockedUntil - now
    if (this.ratePerMinute === 0) return 0
    while (this.stamps.length > 0 && this.stamps[0]! <= now - this.windowMs) this.stamps.shift()
    if (this.stamps.length < this.ratePerMinute) return 0
    return this.stamps[0]! + this.windowMs - now
  }

  /**
   * Learn from a response's rate-limit headers: `RateLimit-Remaining` / `RateLimit-Reset` (delta
   * seconds, or epoch seconds when large), their `X-RateLimit-` forms, or the combined
   * `RateLimit: limit=100, remaining=0, reset=30`.
   */
  observe(headers: HeaderBag): void {
    let remaining = toNumber(header(headers, 'ratelimit-remaining') ?? header(headers, 'x-ratelimit-remaining'))
    let reset = toNumber(header(headers, 'ratelimit-reset') ?? header(headers, 'x-ratelimit-reset'))
    const combined = header(headers, 'ratelimit')
    if (combined && (remaining === undefined || reset === undefined)) {
      const field = (names: string[]) => {
        for (const name of names) {
          const match = new RegExp(`(?:^|[,;\\s])${name}=(\\d+(?:\\.\\d+)?)`).exec(combined)
          if (match) return Number(match[1])
        }
        return undefined
      }
      remaining ??= field(['remaining', 'r'])
      reset ??= field(['reset', 't'])
    }
    if (remaining === undefined || remaining > 0 || reset === undefined || reset < 0) return
    const now = this.clock.now()
    // A value that looks like a Unix time (seconds) is a moment, not a delay.
    const waitMs = reset > 1e9 ? reset * 1000 - now : reset * 1000
    const until = now + Math.min(Math.max(0, waitMs), this.maxServerWaitMs)
    this.blockedUntil = Math.max(this.blockedUntil, until)
  }
}
