/**
 * `--jq`'s first try: the filter on the CLI's main thread, for a short while only (the "slice",
 * SVC_JQ_MAIN_THREAD_MS, default 500 ms; 1 s for the compile, jq's first run, which on a busy
 * machine can take a few hundred ms of wall-clock time). Nearly every filter (`.`, `.[].id`, `length`) ends well
 * within it, and then no worker thread is started: a worker's boot costs ~20–25 ms of CPU, which
 * on a busy machine is added to every `--jq` call (docs/reliability.md). A filter still running at
 * the end of its slice is stopped and run again in a worker (jq-run.ts), where nothing limits how
 * long Ctrl-C and SIGTERM wait.
 *
 * On the main thread the filter is bounded as in the worker (jq-worker.ts), by other means:
 * - time: it runs through node:vm with `timeout` (V8's TerminateExecution, which stops a
 *   WebAssembly loop too; a watchdog thread fires it);
 * - Ctrl-C: `breakOnSigint` stops it at once; the SIGINT, which that consumes, is handed to the
 *   command's own handler (exit 130; jq-run.ts). SIGTERM has no such watchdog: it is
 *   answered when the slice ends, which is why the slice is short and at most 1 s;
 * - memory: jq's WebAssembly memory may not grow past JQ_MEMORY_MB (jq's allocator fails, jq
 *   aborts), and its output buffers (JS arrays, a number per byte) past JQ_OUTPUT_MB: what comes
 *   after is dropped and the job ends as "output". Both only while the filter runs (it is
 *   synchronous: nothing else runs meanwhile), then put back; jq-web's "Aborted()" on
 *   console.error is silenced meanwhile (the CLI says what happened in its own words).
 * A run stopped part-way leaves a jq that cannot be trusted: this thread's jq is then given up
 * for good (the process runs every later filter in a worker), and its memory let go.
 */
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {Script} from 'node:vm'

import type {Clock} from '../../contract/clock.js'
import {JQ_MEMORY_MB, JQ_OUTPUT_MB, type JqJob} from './jq-worker.js'

export type JqOutcome = {out: string} | {error: 'jq'; stderr: string} | {error: 'memory'} | {error: 'output'} | {error: 'time'} | {error: 'crashed'; message: string}

/** What a try on the main thread gives: an outcome, or "still running at the slice's end", or "Ctrl-C". */
export type MainThreadOutcome = JqOutcome | {error: 'slice'; ms: number} | {error: 'interrupted'}

/** How long a filter runs on the main thread before it moves to a worker, when SVC_JQ_MAIN_THREAD_MS is not set. */
export const JQ_MAIN_THREAD_DEFAULT_MS = 500
/** The longest slice SVC_JQ_MAIN_THREAD_MS may set, and the compile's: SIGTERM waits for the slice's end. */
export const JQ_MAIN_THREAD_MAX_MS = 1000

interface JqWeb {
  raw(json: string, filter: string, flags?: string[]): string | undefined
}

// WebAssembly's types come with TypeScript's DOM library, which this project does not load.
interface WasmMemory {
  readonly buffer: ArrayBuffer
  grow(pages: number): number
}
interface Wasm {
  Memory: {prototype: WasmMemory}
  RuntimeError: new () => Error
}

/** Where the job for the vm script is left: a global the script calls (it runs in this context). */
const JOB = Symbol.for('svc.jq.mainThreadJob')

let loading: Promise<JqWeb> | undefined
let givenUp = false
let script: Script | undefined

/** While set, the console.error jq-web bound as it loaded says nothing (see loadJqWeb). */
const QUIET = Symbol.for('svc.jq.quiet')

/**
 * jq-web, loaded on this thread (the same module bin/run.cjs may have started loading early: the
 * WebAssembly compiles on V8's background threads while oclif loads). Required, not import()ed:
 * jq-web exports a promise.
 */
function mainThreadJq(): Promise<JqWeb> {
  return (loading ??= loadJqWeb())
}

/** require, as from this file. */
function requireHere(): NodeJS.Require {
  // The build defines import.meta.dirname as __dirname (scripts/build.mjs): its output is CommonJS.
  const here = typeof __dirname === 'string' ? __dirname : import.meta.dirname
  return createRequire(join(here, 'jq-main.js'))
}

function loadJqWeb(): Promise<JqWeb> {
  // jq-web binds console.error as it loads (for its "Aborted()"): it binds this stand-in, which
  // runBounded silences (as bin/run.cjs does when it loads jq-web first).
  const error = console.error
  console.error = function (this: Console, ...args: unknown[]) {
    if (!(globalThis as {[QUIET]?: boolean})[QUIET]) Reflect.apply(error, this, args)
  }
  try {
    return requireHere()('jq-web') as Promise<JqWeb>
  } finally {
    console.error = error
  }
}

/** Whether this thread's jq may still run filters (false once a run was stopped part-way). */
export function mainThreadUsable(): boolean {
  return !givenUp
}

/**
 * Runs `job` on this thread for at most `sliceMs` (node:vm's own timeout, on the machine's time);
 * undefined when this thread's jq is given up (or failed to load): the job is then the worker's.
 * A slice cut short says how long it ran, measured on `clock` (the run's).
 */
export async function runOnMainThread(job: JqJob, sliceMs: number, clock: Clock): Promise<MainThreadOutcome | undefined> {
  if (givenUp) return undefined
  let jq: JqWeb
  try {
    jq = await mainThreadJq()
  } catch {
    giveUp()
    return undefined
  }
  if (givenUp) return undefined
  const outcome = runBounded(jq, job, sliceMs, clock)
  // jq ended normally (with or without a jq error): its state is sound. Anything else was stopped
  // part-way (a limit, Ctrl-C) or crashed.
  if (!('out' in outcome) && outcome.error !== 'jq') giveUp()
  return outcome
}

/**
 * This thread's jq is not run again. Its WebAssembly memory (up to JQ_MEMORY_MB, while a worker may
 * take as much) is let go: out of Node's module cache and this file's hands, it is V8's to collect.
 */
function giveUp(): void {
  givenUp = true
  loading = undefined
  try {
    const require = requireHere()
    delete require.cache[require.resolve('jq-web')]
  } catch {
    // Not in the cache: nothing holds it.
  }
}

function runBounded(jq: JqWeb, job: JqJob, sliceMs: number, clock: Clock): MainThreadOutcome {
  const wasm = (globalThis as unknown as {WebAssembly: Wasm}).WebAssembly
  const memoryBytes = JQ_MEMORY_MB * 1024 * 1024
  const maxElements = JQ_OUTPUT_MB * 1024 * 1024
  let memoryRefused = false
  let outputDropped = false
  const grow = wasm.Memory.prototype.grow
  const push = Array.prototype.push
  let out: string | undefined
  const globals = globalThis as {[JOB]?: () => void}
  globals[JOB] = () => {
    // jq-web rewrites the flags array it is given: a copy each call.
    out = jq.raw(job.json, job.expression, [...job.flags])
  }
  wasm.Memory.prototype.grow = function (this: WasmMemory, pages: number): number {
    if (this.buffer.byteLength + pages * 65_536 > memoryBytes) {
      memoryRefused = true
      throw new RangeError('WebAssembly.Memory.grow(): the --jq memory limit')
    }
    return grow.call(this, pages)
  }
  // jq-web gathers output and errors in arrays it pushes one byte at a time to: past the cap,
  // bytes are dropped (a throw would not stop jq: Emscripten makes it a write error jq ignores).
  Array.prototype.push = function (this: unknown[], ...items: unknown[]): number {
    if (this.length + items.length > maxElements) {
      outputDropped = true
      return this.length
    }
    return push.apply(this, items)
  }
  // jq-web prints "Aborted()" through console.error when jq aborts (its allocator failed): the CLI
  // says what happened in its own words. console.warn (jq's `debug` and `stderr`) stays.
  const quiet = globalThis as {[QUIET]?: boolean}
  quiet[QUIET] = true
  const started = clock.monotonic()
  try {
    script ??= new Script(`globalThis[Symbol.for('svc.jq.mainThreadJob')]()`)
    script.runInThisContext({timeout: sliceMs, breakOnSigint: true})
    if (outputDropped) return {error: 'output'}
    return {out: out === undefined ? '' : `${out}\n`}
  } catch (error) {
    const code = (error as {code?: unknown})?.code
    if (outputDropped) return {error: 'output'}
    if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return {error: 'slice', ms: clock.monotonic() - started}
    if (code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') return {error: 'interrupted'}
    if (memoryRefused || error instanceof RangeError) return {error: 'memory'}
    const stderr = (error as {stderr?: unknown})?.stderr
    if (typeof stderr === 'string' && stderr.trim() !== '') return {error: 'jq', stderr}
    const message = error instanceof Error ? error.message : String(error)
    if (error instanceof wasm.RuntimeError) return {error: 'crashed', message}
    // jq ended with a non-zero exit code and said nothing (as the worker answers it).
    return {error: 'jq', stderr: message}
  } finally {
    wasm.Memory.prototype.grow = grow
    Array.prototype.push = push
    delete quiet[QUIET]
    delete globals[JOB]
  }
}
