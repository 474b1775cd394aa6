/**
 * The sandbox clock and the one scheduler every domain shares.
 *
 * Sandbox time is real time plus an offset. `advance(ms)` moves the offset forward and runs, in
 * order, every task that falls due on the way: the clock stands at each task's due time while it
 * runs, so a webhook retry scheduled "5 s after the failed attempt" lands where it would have in
 * real time, and a task that schedules another due before the target runs in the same advance.
 * Between advances a real timer fires tasks as they fall due.
 *
 * Tasks are data (`kind` + JSON payload), not closures, so that they are saved with `dataFile` and
 * resumed after a restart: a domain `define`s a handler per kind once, at start.
 *
 * "Real time" is the machine's clock the sandbox is started with (`StartOptions.clock`, the
 * `Clock` of src/contract/clock.ts; the system's by default): a test hands the sandbox and the CLI
 * runs it makes the same clock, and sets or moves the time of both. What is stamped with the
 * machine's time rather than the sandbox's (the request journal, webhook signatures, login codes)
 * reads `machine`.
 */
import {systemClock, type Clock} from '../contract/clock.js'
import {MAX_SANDBOX_TIME} from '../contract/sandbox-admin.js'
import type {JsonValue} from './types.js'

export {MAX_ADVANCE_MS, MAX_SANDBOX_TIME} from '../contract/sandbox-admin.js'

/** What the domains read: sandbox time, and the machine's clock under it. */
export interface SandboxTime {
  /** Sandbox time, ms since the epoch. */
  now(): number
  iso(at?: number): string
  /** The machine's clock (real time, timers): for stamps that are not sandbox time. */
  readonly machine: Clock
}

export interface ScheduledTask {
  id: number
  at: number
  kind: string
  payload: JsonValue
}

/** The scheduler's queue as saved (store.ts): a task is added when scheduled, removed when run or cancelled. */
export interface TaskLog {
  add(task: ScheduledTask): void
  remove(id: number): void
  all(): ScheduledTask[]
}

export type TaskHandler = (payload: any, task: ScheduledTask) => void | Promise<void>

export interface ClockState {
  now: string
  now_ms: number
  offset_ms: number
  pending_tasks: number
}

export class SandboxClock implements SandboxTime {
  /** While an advance runs, sandbox time stands still at this value (see Scheduler.advance). */
  private frozenAt: number | undefined

  constructor(
    public offsetMs = 0,
    readonly machine: Clock = systemClock,
  ) {}

  now(): number {
    // Real time flows on: a clock brought up to the last instant stays there.
    return this.frozenAt ?? Math.min(this.machine.now() + this.offsetMs, MAX_SANDBOX_TIME)
  }

  /** Stop sandbox time at `at` (never backwards). */
  freeze(at: number): void {
    this.frozenAt = Math.max(at, this.frozenAt ?? at)
  }

  /** Let sandbox time flow again from where it stood. */
  thaw(): void {
    if (this.frozenAt === undefined) return
    this.offsetMs = this.frozenAt - this.machine.now()
    this.frozenAt = undefined
  }

  iso(at: number = this.now()): string {
    return new Date(at).toISOString()
  }

  /**
   * Take a saved offset (a restart, a restored snapshot): never backwards, and never past
   * MAX_SANDBOX_TIME, so that a clock saved out of range cannot stop the sandbox from starting.
   */
  restoreOffset(value: number): void {
    if (!Number.isFinite(value)) return
    this.offsetMs = Math.min(Math.max(this.offsetMs, value), MAX_SANDBOX_TIME - this.machine.now())
  }
}

/** A binary min-heap ordered by (at, id): equal due times run in scheduling order. */
class TaskHeap {
  private items: ScheduledTask[] = []

  get size(): number {
    return this.items.length
  }

  peek(): ScheduledTask | undefined {
    return this.items[0]
  }

  all(): ScheduledTask[] {
    return [...this.items].sort(compare)
  }

  push(task: ScheduledTask): void {
    const items = this.items
    items.push(task)
    let i = items.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (compare(items[parent], items[i]) <= 0) break
      ;[items[parent], items[i]] = [items[i], items[parent]]
      i = parent
    }
  }

  pop(): ScheduledTask | undefined {
    const items = this.items
    if (items.length === 0) return undefined
    const top = items[0]
    const last = items.pop()!
    if (items.length > 0) {
      items[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < items.length && compare(items[l], items[m]) < 0) m = l
        if (r < items.length && compare(items[r], items[m]) < 0) m = r
        if (m === i) break
        ;[items[m], items[i]] = [items[i], items[m]]
        i = m
      }
    }
    return top
  }
}

function compare(a: ScheduledTask, b: ScheduledTask): number {
  return a.at - b.at || a.id - b.id
}

// setTimeout's ceiling (about 24.8 days); longer waits re-arm.
const MAX_TIMER_MS = 2 ** 31 - 1

export class Scheduler {
  private heap = new TaskHeap()
  private handlers = new Map<string, TaskHandler>()
  private cancelled = new Set<number>()
  private nextId = 1
  private timer: unknown
  private advancing = false
  private stopped = false
  private inFlight = new Set<Promise<void>>()
  /** Errors thrown by task handlers (a handler bug must not stop the clock). */
  readonly errors: Array<{kind: string; message: string}> = []
  /** Called whenever the clock or the queue changes, so that the store saves the clock offset. */
  onChange: () => void = () => {}

  /** `log` keeps the queue task by task (on disk with --data): added when scheduled, removed once run or cancelled. */
  constructor(readonly clock: SandboxClock, private readonly log?: TaskLog) {}

  define(kind: string, handler: TaskHandler): void {
    if (this.handlers.has(kind)) throw new Error(`scheduler: task kind "${kind}" defined twice`)
    this.handlers.set(kind, handler)
  }

  /** Run `kind` with `payload` at sandbox time `at` (ms since the epoch). Returns the task id. */
  schedule(at: number, kind: string, payload: JsonValue = null): number {
    if (!this.handlers.has(kind)) throw new Error(`scheduler: unknown task kind "${kind}"`)
    const task: ScheduledTask = {id: this.nextId++, at, kind, payload}
    this.heap.push(task)
    this.log?.add(task)
    this.onChange()
    this.arm()
    return task.id
  }

  cancel(id: number): void {
    this.cancelled.add(id)
    this.log?.remove(id)
    this.onChange()
  }

  pending(): number {
    return this.heap.size - this.cancelled.size
  }

  /** The queue as data (for persistence). */
  snapshot(): ScheduledTask[] {
    return this.heap.all().filter((task) => !this.cancelled.has(task.id))
  }

  /** Take the queue saved in the log (at start, after a reset or a restore): it replaces the one in memory. */
  reload(): void {
    this.heap = new TaskHeap()
    this.cancelled.clear()
    this.restore(this.log?.all() ?? [])
  }

  restore(tasks: ScheduledTask[]): void {
    for (const task of tasks) {
      this.heap.push(task)
      this.nextId = Math.max(this.nextId, task.id + 1)
    }
    this.arm()
  }

  state(): ClockState {
    const now = this.clock.now()
    return {now: this.clock.iso(now), now_ms: now, offset_ms: this.clock.offsetMs, pending_tasks: this.pending()}
  }

  /**
   * Move sandbox time forward by `ms`, running every task due on the way in order, each awaited
   * (so a failed delivery's retry is scheduled before time moves past it).
   */
  async advance(ms: number): Promise<ClockState> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance: ms must be a finite number >= 0')
    if (this.clock.now() + ms > MAX_SANDBOX_TIME) throw new RangeError('advance: past the last instant the sandbox clock may show')
    // Let tasks already started by the real timer finish first: they may schedule follow-ups.
    await this.idle()
    this.advancing = true
    // Time stands still while the due tasks run, each at its own due time: a follow-up scheduled
    // "5 s after this attempt" must land where it would in real time, not a few real
    // milliseconds (of running the tasks) later, past the target.
    const target = this.clock.now() + ms
    this.clock.freeze(this.clock.now())
    try {
      for (;;) {
        const task = this.heap.peek()
        if (!task || task.at > target) break
        this.heap.pop()
        if (this.cancelled.delete(task.id)) continue
        this.clock.freeze(task.at)
        await this.run(task)
      }
      this.clock.freeze(target)
    } finally {
      this.clock.thaw()
      this.advancing = false
      this.onChange()
      this.arm()
    }
    return this.state()
  }

  /** Resolves when no task started by the real timer is still running. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight])
  }

  stop(): void {
    this.stopped = true
    if (this.timer !== undefined) this.clock.machine.clearTimer(this.timer)
    this.timer = undefined
  }

  private async run(task: ScheduledTask): Promise<void> {
    const handler = this.handlers.get(task.kind)
    try {
      if (!handler) throw new Error(`no handler for task kind "${task.kind}"`)
      await handler(task.payload, task)
    } catch (error) {
      this.errors.push({kind: task.kind, message: error instanceof Error ? error.message : String(error)})
    }
    // Out of the log once done (not when started): a task cut short by a kill or a close (a
    // delivery in flight) runs again after a restart.
    if (!this.stopped) this.log?.remove(task.id)
  }

  private arm(): void {
    if (this.stopped || this.advancing) return
    if (this.timer !== undefined) this.clock.machine.clearTimer(this.timer)
    this.timer = undefined
    const next = this.heap.peek()
    if (!next) return
    const delay = Math.min(Math.max(0, next.at - this.clock.now()), MAX_TIMER_MS)
    this.timer = this.clock.machine.setTimer(() => this.fireDue(), delay)
    // The machine's timer must not keep the process alive (a test clock's handle has no unref).
    ;(this.timer as {unref?: () => void} | undefined)?.unref?.()
  }

  /** Real-time firing: start every due task (not awaited one by one, so a slow receiver blocks nothing). */
  private fireDue(): void {
    this.timer = undefined
    if (this.stopped || this.advancing) return
    const now = this.clock.now()
    let changed = false
    for (;;) {
      const task = this.heap.peek()
      if (!task || task.at > now) break
      this.heap.pop()
      changed = true
      if (this.cancelled.delete(task.id)) continue
      const running = this.run(task).finally(() => this.inFlight.delete(running))
      this.inFlight.add(running)
    }
    if (changed) this.onChange()
    this.arm()
  }
}
