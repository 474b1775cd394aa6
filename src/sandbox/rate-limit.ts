/**
 * Per-key rate limit over a rolling 60-second window of sandbox time (so advancing the clock frees
 * the window too). Only accepted requests count: a client that keeps hammering while limited gets
 * its slots back as the window rolls.
 */
export const WINDOW_MS = 60_000

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until the oldest counted request leaves the window (a slot frees up). */
  resetSeconds: number
}

export class RateLimiter {
  private windows = new Map<string, number[]>()

  constructor(readonly limit: number, private readonly now: () => number) {}

  get enabled(): boolean {
    return this.limit > 0
  }

  /** Where `bucket` stands, without counting a request (allowed: one more would be). */
  check(bucket: string): RateDecision {
    return this.decide(bucket, false)
  }

  hit(bucket: string): RateDecision {
    return this.decide(bucket, true)
  }

  private decide(bucket: string, count: boolean): RateDecision {
    const now = this.now()
    let stamps = this.windows.get(bucket)
    if (!stamps) {
      stamps = []
      this.windows.set(bucket, stamps)
    }
    // Drop what has left the window; the array is in time order and at most `limit` long.
    let drop = 0
    while (drop < stamps.length && stamps[drop] <= now - WINDOW_MS) drop++
    if (drop > 0) stamps.splice(0, drop)
    const allowed = stamps.length < this.limit
    if (allowed && count) stamps.push(now)
    const oldest = stamps[0] ?? now
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - stamps.length),
      resetSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)),
    }
  }
}
