/**
 * The one shape time is injected in, on the CLI's side: where code reads the time and sets its
 * timers. A run's clock comes from its context (`ctx.clock`, `SvcCommand.runWith({clock})`); the
 * API client, its pacer, the payment watch, discovery's cache, the webhook delivery queue and
 * the listeners' watches take one, so a test drives them without waiting. PURE: no imports.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Call `callback` once, `ms` from now; the handle clears it. */
  setTimer(callback: () => void, ms: number): unknown
  clearTimer(timer: unknown): void
}

/** The machine's clock: Date.now and Node's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
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
