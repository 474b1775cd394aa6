// Preloaded (`node --import`) into a CLI child that runCli starts with `warp` (test/helpers/cli.ts):
// the child's time (Date.now, through which the CLI's clock reads it) and its timers (the global
// setTimeout and setInterval, on which the machine's clock sets the CLI's) run as real time does
// until the test sends SIGURG; from then on, SVC_TEST_TIME_WARP times faster, until the next
// SIGURG sets them back to real pace (from where the child's time then stands), and so on. Timers
// already set are set again for what is left of their time, at the new pace: a child that waits
// 12 s of its own time, or polls once a second of it, does so in a twelfth of the real time.
// Node's own timers (sockets, HTTP servers) keep real time; so does everything outside the child.
// The child says on stderr each time its pace changes: `[time-warp] 12x at MS` (its time then),
// `[time-warp] 1x at MS`.
// SIGURG: nothing else in the child listens to it, and by default it does nothing (SIGUSR2 would
// be seen twice: conf's writer, through when-exit, raises it again once it has run its own exit hooks).
// With SVC_TEST_TIME_WARP_FROM_START=1 (preloaded through NODE_OPTIONS into a tree of processes,
// e.g. npm and the CLI it runs), each process runs fast from its first moment, and the variables
// stay in the environment for the processes it starts.
const rate = Number(process.env.SVC_TEST_TIME_WARP)
const fromStart = process.env.SVC_TEST_TIME_WARP_FROM_START === '1'
if (!fromStart) delete process.env.SVC_TEST_TIME_WARP
if (rate > 1) {
  const real = {setTimeout, clearTimeout, setInterval, clearInterval, now: Date.now}
  // The pace, and the real and the child's time when it was last set.
  let pace = fromStart ? rate : 1
  let since = {real: real.now(), child: real.now()}
  const now = () => since.child + (real.now() - since.real) * pace
  const live = new Map()
  let nextId = 1

  class WarpedTimer {
    constructor(callback, ms, args, repeat) {
      this.id = nextId++
      this.callback = callback
      this.args = args
      this.ms = Math.max(1, Number(ms) || 1)
      this.repeat = repeat
      this.referenced = true
      this.due = now() + this.ms
      live.set(this.id, this)
      this.arm()
    }
    arm() {
      const left = Math.max(0, this.due - now())
      this.handle = real.setTimeout(() => this.fire(), left / pace)
      if (!this.referenced) this.handle.unref()
    }
    fire() {
      if (this.repeat) {
        this.due += this.ms
        this.arm()
      } else live.delete(this.id)
      this.callback(...this.args)
    }
    clear() {
      real.clearTimeout(this.handle)
      live.delete(this.id)
    }
    ref() {
      this.referenced = true
      this.handle.ref()
      return this
    }
    unref() {
      this.referenced = false
      this.handle.unref()
      return this
    }
    hasRef() {
      return this.referenced
    }
    refresh() {
      real.clearTimeout(this.handle)
      this.due = now() + this.ms
      live.set(this.id, this)
      this.arm()
      return this
    }
    close() {
      this.clear()
      return this
    }
    [Symbol.toPrimitive]() {
      return this.id
    }
  }

  const clear = (timer) => {
    const warped = timer instanceof WarpedTimer ? timer : live.get(Number(timer))
    if (warped) warped.clear()
    else if (timer !== undefined && timer !== null) real.clearTimeout(timer)
  }
  globalThis.setTimeout = (callback, ms, ...args) => new WarpedTimer(callback, ms, args, false)
  globalThis.setInterval = (callback, ms, ...args) => new WarpedTimer(callback, ms, args, true)
  globalThis.clearTimeout = clear
  globalThis.clearInterval = clear
  Date.now = now
  process.on('SIGURG', () => {
    since = {real: real.now(), child: now()}
    pace = pace === 1 ? rate : 1
    for (const timer of live.values()) {
      real.clearTimeout(timer.handle)
      timer.arm()
    }
    process.stderr.write(`[time-warp] ${pace}x at ${Math.round(since.child)}\n`)
  })
}
