/**
 * The test clock: one `Clock` (src/contract/clock.ts) a test hands to the in-process sandbox
 * (`startTestSandbox({clock})`, its machine clock: sandbox time runs on it) and to the CLI runs it
 * makes (`runInProcess(args, {clock})`, the run's `ctx.clock`), and sets and moves for both.
 *
 * It flows with real time (plus an offset) until `set` pins it; `advance(ms)` moves it on, firing
 * the timers that fall due on the way, each at its own time (a request deadline, a retry's wait, the
 * sandbox's scheduler); `flow()` lets it run again from where it stands. Its real time is the
 * machine's monotonic time (`performance.now()`, in whole milliseconds): a step of the machine's
 * wall clock never moves it back, so the sandbox and the runs sharing it see one time that only
 * goes forward unless the test sets it back. `monotonic()` moves with it, and never back. While pinned, timers fire
 * only when the clock is moved; while it flows, also as real time reaches them.
 *
 * `skippingClock(start)` is pinned, and moves itself: whenever a CLI run waits on it (pacing under
 * a rate limit, a retry's backoff), it jumps to the end of the first such wait, firing what falls
 * due on the way (the sandbox's tasks, its rate window's turn). Work takes no time on it and a wait
 * takes no real time: a test of a one-minute window runs in the time its requests take. Only the
 * runs' waits move it (the sandbox's own tasks, a day away, do not), and deadlines (timers of kind
 * `deadline`: a request's) keep their real length, so a busy machine's slow answer is no timeout.
 *
 * A child process cannot share an object: `runCli(args, {clock})` starts the child with the
 * clock's time at that moment (test/helpers/child-clock.mjs, preloaded): pinned if the clock is,
 * else flowing from it.
 */
import type {Clock, TimerKind} from '../../src/contract/clock.js'

interface Timer {
  at: number
  callback: () => void
  kind: TimerKind
  /** Set by a CLI run (`forRuns()`): a skipping clock jumps to it. */
  run: boolean
  real?: ReturnType<typeof setTimeout>
}

export class TestClock implements Clock {
  /** Flowing, now() is performance.now() plus this (at first, the machine's wall time). */
  private offsetMs = Date.now() - performance.now()
  /** What `monotonic()` adds to `now()`: grows when `set` moves time back, so it never goes back. */
  private monotonicShiftMs = 0
  private pinnedAt: number | undefined
  private readonly timers = new Map<number, Timer>()
  private nextId = 1
  private jumpQueued = false
  private readonly counts: Record<TimerKind, number> = {wait: 0, deadline: 0}

  constructor(
    start?: number | string | Date,
    private readonly skipping = false,
  ) {
    if (start !== undefined) this.pin(toMs(start))
  }

  now(): number {
    return this.pinnedAt ?? Math.floor(performance.now() + this.offsetMs)
  }

  /**
   * A monotonic reading that moves with `now()`: it stands still while the clock is pinned, moves
   * by what `advance` and a forward `set` move it, and by nothing when `set` moves time back.
   */
  monotonic(): number {
    return this.now() + this.monotonicShiftMs
  }

  /** Whether time stands still (set, not flowing). */
  get pinned(): boolean {
    return this.pinnedAt !== undefined
  }

  setTimer(callback: () => void, ms: number, kind: TimerKind = 'wait'): unknown {
    return this.add(callback, ms, kind, false)
  }

  clearTimer(handle: unknown): void {
    const timer = this.timers.get(handle as number)
    if (!timer) return
    if (timer.real) clearTimeout(timer.real)
    this.timers.delete(handle as number)
  }

  /** The same clock, as the CLI runs of a test take it: a skipping clock jumps through their waits. */
  forRuns(): Clock {
    return {
      now: () => this.now(),
      monotonic: () => this.monotonic(),
      setTimer: (callback, ms, kind = 'wait') => this.add(callback, ms, kind, true),
      clearTimer: (handle) => this.clearTimer(handle),
    }
  }

  /**
   * Stop time at `at` (a time, an ISO text, a Date): it stands still there until moved. Forward,
   * the timers due on the way fire, each at its time; backward, none does.
   */
  set(at: number | string | Date): this {
    const target = toMs(at)
    if (target > this.now()) return this.advance(target - this.now(), {pin: true})
    this.monotonicShiftMs += this.now() - target
    this.pin(target)
    return this
  }

  /**
   * Move time on by `ms`, firing every timer due on the way in order, each at its own time.
   * `deadlines`: a skipping clock's deadlines too (else they keep their real length): a test that
   * holds a request's answer moves the client's clock to its deadline instead of waiting it out.
   */
  advance(ms: number, options: {pin?: boolean; deadlines?: boolean} = {}): this {
    const flowing = !this.pinned && !options.pin
    const target = this.now() + ms
    this.pin(this.now())
    for (;;) {
      const due = [...this.timers]
        .filter(([, timer]) => timer.at <= target && (options.deadlines || !this.realTimed(timer)))
        .sort((a, b) => a[1].at - b[1].at)[0]
      if (!due) break
      this.pinnedAt = Math.max(this.pinnedAt!, due[1].at)
      this.clearTimer(due[0])
      due[1].callback()
    }
    this.pinnedAt = target
    if (flowing) this.flow()
    return this
  }

  /** Let time flow again, from where it stands. */
  flow(): this {
    if (this.pinnedAt === undefined) return this
    this.offsetMs = this.pinnedAt - performance.now()
    this.pinnedAt = undefined
    for (const [id, timer] of this.timers) this.arm(id, timer)
    return this
  }

  /** The timers waiting, ms from now (`kind` to keep only waits or deadlines). */
  waiting(kind?: TimerKind): number[] {
    return [...this.timers.values()].filter((timer) => kind === undefined || timer.kind === kind).map((timer) => timer.at - this.now())
  }

  /** How many timers of `kind` were ever set on this clock. */
  timersSet(kind: TimerKind): number {
    return this.counts[kind]
  }

  /** What a child process is started with (test/helpers/child-clock.mjs). */
  forChild(): string {
    return JSON.stringify(this.pinned ? {pinnedAt: this.pinnedAt} : {offsetMs: this.now() - Date.now()})
  }

  private add(callback: () => void, ms: number, kind: TimerKind, run: boolean): number {
    const id = this.nextId++
    const timer: Timer = {at: this.now() + Math.max(0, ms), callback, kind, run}
    this.counts[kind]++
    this.timers.set(id, timer)
    this.arm(id, timer)
    if (this.skipping && run && kind === 'wait') this.queueJump()
    return id
  }

  /** On a skipping clock, a deadline runs on real time. */
  private realTimed(timer: Timer): boolean {
    return this.skipping && timer.kind === 'deadline'
  }

  /** Once the turn's work is done, jump to the end of the first wait of a run. */
  private queueJump(): void {
    if (this.jumpQueued) return
    this.jumpQueued = true
    setTimeout(() => {
      this.jumpQueued = false
      const next = [...this.timers.values()].filter((timer) => timer.run && timer.kind === 'wait').sort((a, b) => a.at - b.at)[0]
      if (next && this.pinned) this.advance(Math.max(0, next.at - this.now()))
    }, 1)
  }

  private pin(at: number): void {
    this.pinnedAt = at
    for (const timer of this.timers.values()) {
      if (timer.real && !this.realTimed(timer)) {
        clearTimeout(timer.real)
        timer.real = undefined
      }
    }
  }

  /**
   * A real timer for `timer`: while the clock flows, or for a deadline of a skipping clock; while
   * it stands still, only for a timer already due (`setTimer(f, 0)` fires on the next turn, as
   * Node's does), the others waiting for the clock to move.
   */
  private arm(id: number, timer: Timer): void {
    if (this.pinned && !this.realTimed(timer) && timer.at > this.now()) return
    if (timer.real) clearTimeout(timer.real)
    timer.real = setTimeout(() => {
      if (!this.timers.has(id)) return
      this.timers.delete(id)
      timer.callback()
    }, Math.max(0, timer.at - this.now()))
    timer.real.unref()
  }
}

function toMs(at: number | string | Date): number {
  const ms = typeof at === 'number' ? at : typeof at === 'string' ? Date.parse(at) : at.getTime()
  if (!Number.isFinite(ms)) throw new RangeError(`TestClock: not a time: ${String(at)}`)
  return ms
}

/** A test clock, pinned at `start` when given (else flowing with real time). */
export function testClock(start?: number | string | Date): TestClock {
  return new TestClock(start)
}

/** A pinned test clock that jumps through the CLI runs' waits (see above), from `start` or now. */
export function skippingClock(start: number | string | Date = Date.now()): TestClock {
  return new TestClock(start, true)
}
