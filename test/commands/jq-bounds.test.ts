/**
 * `--jq` bounded and interruptible: the filter runs on the main thread for a short slice, then in a
 * worker thread, with a time limit (SVC_JQ_TIMEOUT, default 10 s) and a memory cap. Nine hostile
 * expressions, each run by the built CLI (past the time limit, in-process on a test clock:
 * test/commands/jq-limits.test.ts): under a long time limit, output and memory meet their limits
 * first and it exits 1 naming them, never aborting Node; signalled mid-filter it exits 130 (SIGINT,
 * as Ctrl-C sends) or 143 (SIGTERM) at once: within 5 s on a busy machine, where a main thread held
 * by the filter would take until the 120 s time limit (at the slice's end on the main thread, whose
 * end SIGTERM waits for).
 *
 * Each run is a process started for it (a signal ends it), so what a run costs is its start-up and
 * what its filter runs before the end under test; that is kept short:
 * - "Mid-filter" in the worker: the signal goes once the worker has been handed the filter's job
 *   (test/helpers/jq-trace.cjs says so on stderr; it is posted once the worker has loaded jq) and
 *   has spent 50 ms more of CPU, read from /proc (the worker thread: a task of the CLI's process
 *   other than its main thread, named like it). Those runs go straight to the worker
 *   (SVC_JQ_MAIN_THREAD_MS=0): after a main-thread slice, `def f: [f]; f` may meet its memory limit
 *   about when the worker is signalled.
 * - SIGTERM on the main thread is answered at the slice's end: a slice of 200 ms rather than the
 *   default 500 ms (the same code path, whatever the slice's length).
 * - The memory limit under a long time limit is met in the worker by a string doubled past it (0.3
 *   s of CPU) rather than by `[range(3e7)] | tostring`, which met it while still building its
 *   array (the tostring never ran) after 3 s of CPU: both grow one allocation by realloc until
 *   jq's WebAssembly memory would pass 512 MB, and end the same way (exit 1, "memory limit (512
 *   MB)"). The limits themselves are the CLI's (512 MB, 16 MB), not lowered for the test.
 * The main thread's slice has tests of its own (below).
 */
import {spawn} from 'node:child_process'
import {readFileSync, readdirSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {BIN, baseEnv, runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {HOSTILE, JQ_ARGS} from '../helpers/jq-hostile.js'


let temp: ReturnType<typeof tempConfigDir>
beforeAll(() => {
  temp = tempConfigDir()
})
afterAll(() => temp.cleanup())

const ARGS = JQ_ARGS
/** test/helpers/jq-trace.cjs says on stderr when the filter starts on the main thread, when a worker is made and when it is handed a job. */
const TRACE = ['--require', fileURLToPath(new URL('../helpers/jq-trace.cjs', import.meta.url))].join(' ')
const MAIN_STARTS = /\[jq-trace\] main thread\n/g
const WORKER_JOBS = /\[jq-trace\] worker job\n/g

/**
 * A buffer jq doubles until it is past the memory limit: one allocation grown by realloc, as
 * `[range(3e7)]` grows its array (whose 512 MB limit took 3 s of CPU to reach), in 0.3 s.
 */
const GROWS_PAST_MEMORY = '"x" | until(length > 1e9; . + .)'

describe('--jq under a long time limit: a limit other than time ends it, never a Node abort', () => {
  // The default path: half a second on the main thread, then the worker, where the output meets
  // its cap (before the cap, V8 aborted the whole process past ~130 million array elements).
  it.each(['repeat(.)', 'range(1e9)'])('%s with a long time limit: its output meets the output limit first, never a Node abort', async (expression) => {
    const r = await runCli([...ARGS, '--jq', expression], {configDir: temp.dir, env: {SVC_JQ_TIMEOUT: '120'}, timeoutMs: 150_000})
    expect(r.signal, r.stderr).toBeNull()
    expect(r.exitCode, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/output limit \(16 MB\)/)
    expect(r.stderr).not.toMatch(/Aborted|FATAL|heap out of memory|Unexpected error/)
  }, 180_000)

  // In the worker from the start: on the main thread this filter meets that thread's own memory
  // limit within its slice (that limit has its test below).
  it(`${GROWS_PAST_MEMORY} in the worker with a long time limit: the memory limit first, never a Node abort`, async () => {
    const r = await runCli([...ARGS, '--jq', GROWS_PAST_MEMORY], {configDir: temp.dir, env: {SVC_JQ_TIMEOUT: '120', SVC_JQ_MAIN_THREAD_MS: '0', NODE_OPTIONS: TRACE}, timeoutMs: 150_000})
    expect(r.signal, r.stderr).toBeNull()
    expect(r.exitCode, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/memory limit \(512 MB\)/)
    expect(r.stderr).not.toMatch(/Aborted|FATAL|heap out of memory|Unexpected error/)
    expect(r.stderr).toContain('[jq-trace] worker job')
    expect(r.stderr).not.toContain('[jq-trace] main thread')
  }, 180_000)
})

/** utime + stime, in clock ticks, of the CLI's busiest thread other than its main one. */
function workerCpuTicks(pid: number): number {
  let best = 0
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      if (Number(tid) === pid) continue
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      // V8's and libuv's helper threads have names of their own; a worker thread is named like the process.
      if (comm !== 'node' && comm !== 'MainThread') continue
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      best = Math.max(best, Number(fields[11]) + Number(fields[12]))
    }
  } catch {
    // The process ended meanwhile.
  }
  return best
}

/**
 * A filter signalled mid-run, in the worker. A filter that grows its memory (`def f: [f]; f`) may
 * reach its limit, and end by itself, in the moment between the test's look at the worker's CPU
 * and the signal: the run then says so (exit 1, "memory limit") and is not the case under test, so
 * it is run again, up to three times in all (the last outcome is the one judged).
 */
async function signalledMidFilter(expression: string, signal: 'SIGINT' | 'SIGTERM'): Promise<{code: number | null; afterSignalMs: number; stderr: string}> {
  let outcome = await signalledMidFilterOnce(expression, signal)
  for (let attempt = 1; attempt < 3 && outcome.code === 1 && /memory limit \(\d+ MB\)/.test(outcome.stderr); attempt++) {
    outcome = await signalledMidFilterOnce(expression, signal)
  }
  return outcome
}

async function signalledMidFilterOnce(expression: string, signal: 'SIGINT' | 'SIGTERM'): Promise<{code: number | null; afterSignalMs: number; stderr: string}> {
  // A generous time limit: what ends the run must be the signal. The worker from the start.
  const env = {...baseEnv(temp.dir), SVC_JQ_TIMEOUT: '120', SVC_JQ_MAIN_THREAD_MS: '0', NODE_OPTIONS: TRACE}
  const child = spawn(process.execPath, [BIN, ...ARGS, '--jq', expression], {env, stdio: ['ignore', 'pipe', 'pipe']})
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  child.stdout.resume()
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  let exited = false
  void closed.then(() => (exited = true))
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000)
  try {
    // The filter's job handed to the loaded worker (the second job: the first is jq's compile),
    // then 50 ms more of the worker's CPU: the filter is in jq's loop, well before `def f: [f]; f`
    // meets its memory limit (about 0.3 s of CPU into the filter on the 2-core machine).
    while (!exited && (stderr.match(WORKER_JOBS)?.length ?? 0) < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    const posted = workerCpuTicks(child.pid!)
    while (!exited && workerCpuTicks(child.pid!) < posted + 5) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(exited, `the filter ended before it was signalled: ${stderr}`).toBe(false)
    const sent = Date.now()
    child.kill(signal)
    const code = await closed
    return {code, afterSignalMs: Date.now() - sent, stderr}
  } finally {
    clearTimeout(killer)
  }
}

describe('--jq mid-filter in the worker: Ctrl-C and SIGTERM still work', () => {
  for (const expression of HOSTILE) {
    it(`${expression}: SIGINT → 130, SIGTERM → 143, at once (within 5 s, the time limit being 120 s)`, async () => {
      const interrupted = await signalledMidFilter(expression, 'SIGINT')
      expect(interrupted.code, interrupted.stderr).toBe(130)
      expect(interrupted.afterSignalMs).toBeLessThan(5_000)
      const terminated = await signalledMidFilter(expression, 'SIGTERM')
      expect(terminated.code, terminated.stderr).toBe(143)
      expect(terminated.afterSignalMs).toBeLessThan(5_000)
    }, 120_000)
  }
})

/**
 * The main thread's slice (src/lib/io/jq-main.ts): a filter runs there first, under node:vm's
 * timeout and breakOnSigint, and moves to a worker only when still running at the slice's end.
 */

describe('--jq on the main thread: its limits and signals', () => {
  it('a filter that ends within the slice runs on the main thread only: no worker thread', async () => {
    const r = await runCli([...ARGS, '--jq', '[.[] | .phone] | length'], {configDir: temp.dir, env: {NODE_OPTIONS: TRACE}})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^\d+\n$/)
    // The compile (no input) and the filter.
    expect(r.stderr.match(MAIN_STARTS)).toHaveLength(2)
    expect(r.stderr).not.toContain('[jq-trace] worker')
  })

  it('SVC_JQ_MAIN_THREAD_MS=0: straight to a worker thread, same answer', async () => {
    const r = await runCli([...ARGS, '--jq', '[.[] | .phone] | length'], {configDir: temp.dir, env: {NODE_OPTIONS: TRACE, SVC_JQ_MAIN_THREAD_MS: '0'}})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^\d+\n$/)
    expect(r.stderr).not.toMatch(MAIN_STARTS)
    expect(r.stderr).toContain('[jq-trace] worker')
  })

  // In-process: read from the command's environment, as SVC_JQ_TIMEOUT is.
  it('SVC_JQ_MAIN_THREAD_MS that is not whole milliseconds from 0 to 1000: exit 2 naming it', async () => {
    for (const value of ['1001', '-1', '2.5', 'fast']) {
      const r = await runInProcess([...ARGS, '--jq', '.'], {configDir: temp.dir, env: {SVC_JQ_MAIN_THREAD_MS: value}})
      expect(r.exitCode, `${value}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toContain('SVC_JQ_MAIN_THREAD_MS')
      expect(r.stderr).toContain('0 to 1000')
      expect(r.stdout).toBe('')
    }
  })

  it('past the memory limit on the main thread: exit 1 naming it, no worker, no "Aborted()" from jq-web', async () => {
    // 10 numbers: a string of a billion bytes, which jq asks for at once.
    const r = await runCli([...ARGS, '--jq', 'length | "x" * (. * 100000000)'], {configDir: temp.dir, env: {NODE_OPTIONS: TRACE, SVC_JQ_MAIN_THREAD_MS: '1000'}, timeoutMs: 30_000})
    expect(r.exitCode, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/memory limit \(512 MB\)/)
    expect(r.stderr).not.toMatch(/Aborted|FATAL|heap out of memory|Unexpected error/)
    expect(r.stderr).not.toContain('[jq-trace] worker')
  })

  // A time limit shorter than the slice: the whole run is the main thread's.
  for (const expression of HOSTILE) {
    it(`${expression}: past a 0.2 s limit on the main thread, exit 1 naming it, no worker`, async () => {
      const r = await runCli([...ARGS, '--jq', expression], {configDir: temp.dir, env: {NODE_OPTIONS: TRACE, SVC_JQ_TIMEOUT: '0.2'}, timeoutMs: 30_000})
      expect(r.signal, r.stderr).toBeNull()
      expect(r.exitCode, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/time limit \(0\.2 s; SVC_JQ_TIMEOUT\)|memory limit \(\d+ MB\)|output limit \(\d+ MB\)/)
      expect(r.stderr).not.toMatch(/Aborted|FATAL|heap out of memory|Unexpected error/)
      expect(r.stderr).not.toContain('[jq-trace] worker')
    }, 60_000)
  }

  for (const expression of HOSTILE) {
    it(`${expression}: signalled while on the main thread, SIGINT → 130 at once, SIGTERM → 143 at the slice's end`, async () => {
      // A slice of 1 s: Ctrl-C breaks it at once (breakOnSigint).
      const interrupted = await signalledOnMainThread(expression, 'SIGINT', '1000')
      expect(interrupted.code, interrupted.stderr).toBe(130)
      expect(interrupted.afterSignalMs).toBeLessThan(5_000)
      expect(interrupted.stderr).not.toContain('[jq-trace] worker')
      // SIGTERM is answered when the slice (200 ms: what the filter runs until then is all the
      // run costs) ends, before any worker starts.
      const terminated = await signalledOnMainThread(expression, 'SIGTERM', '200')
      expect(terminated.code, terminated.stderr).toBe(143)
      expect(terminated.afterSignalMs).toBeLessThan(5_000)
      expect(terminated.stderr).not.toContain('[jq-trace] worker')
    }, 60_000)
  }
})

/** utime + stime, in clock ticks, of the CLI's main thread. */
function mainThreadCpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return 0
  }
}

/**
 * Runs the CLI with the trace; signals it once the filter (jq's second run, after the compile) has
 * started on the main thread; SIGINT once the main thread has spent 20 ms of CPU since, so that it
 * is in jq's loop, not in node:vm's few microseconds of putting breakOnSigint's handler in place of
 * the command's (a Ctrl-C there ends the process by Node's default for SIGINT).
 * A SIGTERM that reached the process after the slice's end (the test itself held up on a busy
 * machine) finds the filter in its worker: not the case under test, so it is run again, up to three
 * times in all (the last outcome is the one judged; a SIGTERM not answered at the slice's end makes
 * every run start its worker).
 */
async function signalledOnMainThread(expression: string, signal: 'SIGINT' | 'SIGTERM', sliceMs: string): Promise<{code: number | null; afterSignalMs: number; stderr: string}> {
  let outcome = await signalledOnMainThreadOnce(expression, signal, sliceMs)
  for (let attempt = 1; attempt < 3 && signal === 'SIGTERM' && outcome.stderr.includes('[jq-trace] worker'); attempt++) {
    outcome = await signalledOnMainThreadOnce(expression, signal, sliceMs)
  }
  return outcome
}

async function signalledOnMainThreadOnce(expression: string, signal: 'SIGINT' | 'SIGTERM', sliceMs: string): Promise<{code: number | null; afterSignalMs: number; stderr: string}> {
  const env = {...baseEnv(temp.dir), SVC_JQ_TIMEOUT: '120', NODE_OPTIONS: TRACE, SVC_JQ_MAIN_THREAD_MS: sliceMs}
  const child = spawn(process.execPath, [BIN, ...ARGS, '--jq', expression], {env, stdio: ['ignore', 'pipe', 'pipe']})
  let exited = false
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  void closed.then(() => (exited = true))
  const killer = setTimeout(() => child.kill('SIGKILL'), 50_000)
  let stderr = ''
  child.stdout.resume()
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  // Not once the filter (or jq's compile) has moved to a worker: the filter is not the main thread's.
  const inWorker = () => stderr.includes('[jq-trace] worker')
  const onMain = () => !inWorker() && (stderr.match(MAIN_STARTS)?.length ?? 0) >= 2
  try {
    while (!exited && !onMain() && !inWorker()) await new Promise((resolve) => setTimeout(resolve, 5))
    const ticks = mainThreadCpuTicks(child.pid!)
    while (!exited && signal === 'SIGINT' && mainThreadCpuTicks(child.pid!) < ticks + 2) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(exited || (signal === 'SIGINT' && inWorker()), `never signalled on the main thread (jq's compile past its 1 s slice?): ${stderr}`).toBe(false)
    const sent = Date.now()
    child.kill(signal)
    const code = await closed
    return {code, afterSignalMs: Date.now() - sent, stderr}
  } finally {
    clearTimeout(killer)
  }
}
