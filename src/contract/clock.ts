/**
 * The one shape time is injected in, on the CLI's side: where code reads the time and sets its
 * timers. A run's clock comes from its context (`ctx.clock`, `SvcCommand.runWith({clock})`); the
 * API client, its pacer, the payment watch, discovery's cache, the webhook delivery queue and
 * the listeners' watches take one, so a test drives them without waiting. PURE: no imports.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /**
   * Milliseconds from an arbitrary origin that never go back (as `performance.now()`): what a
   * duration is measured with, so that a change of the wall time (`now`) mid-way does not stretch
   * or shrink it. A test's clock moves it with `now` when it is pinned, set or advanced.
   */
  monotonic(): number
  /**
   * Call `callback` once, `ms` from now; the handle clears it. `kind` says what the timer is for:
   * a `wait` (the default: the code has nothing to do until it fires) or a `deadline` (it bounds
   * work that usually ends first, and is cleared then). The machine's clock treats both alike; a
   * test's clock may jump through waits at once and hold deadlines until the test moves time.
   */
  setTimer(callback: () => void, ms: number, kind?: TimerKind): unknown
  clearTimer(timer: unknown): void
}

export type TimerKind = 'wait' | 'deadline'

/** The machine's clock: Date.now, performance.now and Node's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}

/** Now on `clock`, as a Date. */
export function dateNow(clock: Clock): Date {
  return new Date(clock.now())
}

/**
 * `AbortSignal.timeout(ms)` on `clock`: a signal that aborts with a `TimeoutError` `ms` from now.
 * Its timer does not keep the process alive (as AbortSignal.timeout's); `clear()` drops it once
 * the work it bounds is done.
 */
export function deadline(clock: Clock, ms: number): {signal: AbortSignal; clear(): void} {
  const controller = new AbortController()
  const timer = clock.setTimer(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
    'deadline',
  )
  ;(timer as {unref?: () => void} | undefined)?.unref?.()
  return {signal: controller.signal, clear: () => clock.clearTimer(timer)}
}

/** Wait `ms` on `clock`; `signal` aborting ends the wait at once, rejecting with its reason. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    let timer: unknown
    const onAbort = () => {
      clock.clearTimer(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, {once: true})
    timer = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
  })
}
