/**
 * The CLI's side of `--jq`'s jobs, one at a time, each within two limits:
 * - first on the main thread, for a slice of at most `mainThreadMs` (1 s for the compile,
 *   jq-main.ts): nearly every filter ends there, and no worker thread is started at all;
 * - a filter still running at the slice's end moves to a worker thread (jq-worker.ts), started
 *   then, and runs there again from the start, for what is left of `timeoutMs` (its boot does not
 *   count): past it the thread is ended (Worker.terminate stops even a WebAssembly loop). jq's
 *   WebAssembly memory is capped by the worker itself, its JS heap (where jq's output is gathered)
 *   by resourceLimits; either ends the job as "memory".
 * A job that ended on a limit or a crash leaves a jq that cannot be trusted: the worker is ended
 * and the next job starts another (the main thread's jq is given up: later jobs go to a worker).
 * While a job is pending the worker keeps the process alive; idle, it does not. In the worker the
 * main thread never blocks, so Ctrl-C and SIGTERM are answered mid-filter; on the main thread
 * Ctrl-C stops the filter at once and SIGTERM is answered at the slice's end.
 */
import {existsSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {Worker} from 'node:worker_threads'
import {systemClock, type Clock} from '../../contract/clock.js'
import {JQ_MAIN_THREAD_MAX_MS, runOnMainThread, type JqOutcome} from './jq-main.js'
import {followJqWorker, jqWorkerOptions, startJqWorker, type JqJob, type JqJobResult, type JqWorkerMessage, type StartedJqWorker} from './jq-worker.js'

export type {JqOutcome} from './jq-main.js'

export interface JqLimits {
  timeoutMs: number
  /** How long a filter may run on the main thread before it moves to a worker (0: straight to one). */
  mainThreadMs: number
}

/**
 * Where the worker's entry is: dist/jq-worker.js in a build (one level up from the chunk this
 * file is bundled into), jq-worker.ts next to this file when running from the sources (tests),
 * which is then compiled here (workerFromSource).
 */
function workerEntry(): {file: string; fromSource: boolean} {
  // The build defines import.meta.dirname as __dirname (scripts/build.mjs): its output is CommonJS.
  const here = typeof __dirname === 'string' ? __dirname : import.meta.dirname
  for (const file of [join(here, '../jq-worker.js'), join(here, 'jq-worker.js')]) if (existsSync(file)) return {file, fromSource: false}
  return {file: join(here, 'jq-worker.ts'), fromSource: true}
}

function startWorker(): StartedJqWorker {
  const {file, fromSource} = workerEntry()
  if (!fromSource) return startJqWorker(file)
  return followJqWorker(new Worker(workerFromSource(file), {...jqWorkerOptions(file), eval: true}))
}

let compiledWorker: {file: string; code: string} | undefined

/**
 * jq-worker.ts as JavaScript, for a worker started from the sources (tests): the file imports no
 * module of svc (only node: built-ins), so it is compiled once per process with esbuild, as the
 * build compiles it, and every worker evaluates that code. A TypeScript loader in each worker (tsx)
 * cost ~0.15 s of CPU per worker, and a test of the limits starts one per filter that meets one.
 */
function workerFromSource(file: string): string {
  if (compiledWorker?.file !== file) {
    const esbuild = createRequire(file)('esbuild') as {transformSync(code: string, options: object): {code: string}}
    const {code} = esbuild.transformSync(readFileSync(file, 'utf8'), {loader: 'ts', format: 'cjs', target: 'node20', sourcefile: file})
    compiledWorker = {file, code}
  }
  return compiledWorker.code
}

type Running = StartedJqWorker

export class JqRunner {
  private running?: Running
  private nextId = 1
  private started = 0
  private queue: Promise<unknown> = Promise.resolve()

  constructor(readonly limits: JqLimits) {}

  /**
   * Runs `expression` over `json` (jq-web's flags), after the jobs before it. `compiling`: jq's
   * first run (no input), which may take the longest slice on the main thread, JQ_MAIN_THREAD_MAX_MS.
   * The time limit in the worker is a deadline on `clock` (the run's); the main thread's slice is
   * node:vm's own, on the machine's time.
   */
  run(json: string, expression: string, flags: string[], {compiling = false, clock = systemClock}: {compiling?: boolean; clock?: Clock} = {}): Promise<JqOutcome> {
    const job = this.queue.then(() => this.runNow({id: this.nextId++, json, expression, flags}, compiling, clock))
    this.queue = job.catch(() => undefined)
    return job
  }

  /** Ends the worker (the process does not wait for an idle one anyway). */
  async close(): Promise<void> {
    const running = this.running
    this.running = undefined
    await running?.worker.terminate()
  }

  /** How many worker threads this runner started (0 while every filter ended on the main thread). */
  get workersStarted(): number {
    return this.started
  }

  private async runNow(job: JqJob, compiling: boolean, clock: Clock): Promise<JqOutcome> {
    const {timeoutMs, mainThreadMs} = this.limits
    const sliceMs = Math.min(compiling && mainThreadMs > 0 ? Math.max(mainThreadMs, JQ_MAIN_THREAD_MAX_MS) : mainThreadMs, timeoutMs)
    const onMain = sliceMs > 0 ? await runOnMainThread(job, sliceMs, clock) : undefined
    if (onMain === undefined) return this.runInWorker(job, timeoutMs, clock)
    if (!('error' in onMain)) return onMain
    switch (onMain.error) {
      case 'interrupted':
        // Ctrl-C, which node:vm's breakOnSigint consumed: handed to the command's own handler
        // (exit 130), or, with none, raised again for Node's default (the process ends).
        if (process.listenerCount('SIGINT') > 0) process.emit('SIGINT', 'SIGINT')
        else process.kill(process.pid, 'SIGINT')
        return new Promise<never>(() => {})
      case 'slice': {
        // Past its slice: the worker runs it again, for what is left of the time limit. A SIGTERM
        // that came meanwhile is answered first (one turn of the event loop), no worker started.
        const left = timeoutMs - Math.max(onMain.ms, sliceMs)
        if (left <= 0) return {error: 'time'}
        await new Promise((resolve) => setImmediate(resolve))
        return this.runInWorker(job, left, clock)
      }
      default:
        return onMain
    }
  }

  private async runInWorker(job: JqJob, timeoutMs: number, clock: Clock): Promise<JqOutcome> {
    if (!this.running) this.started++
    const running = (this.running ??= startWorker())
    const {worker} = running
    // Pending: the process waits for the answer (ref), though not for an idle worker.
    worker.ref()
    try {
      // Booting the worker and loading jq does not count against the filter's time limit.
      try {
        await running.ready
      } catch (error) {
        this.discard(running)
        return outcomeOfFailure(error)
      }
      const outcome = await new Promise<JqOutcome>((resolve) => {
        const settle = (value: JqOutcome) => {
          clock.clearTimer(timer)
          worker.off('message', onMessage)
          worker.off('error', onError)
          worker.off('exit', onExit)
          resolve(value)
        }
        const onMessage = (message: JqWorkerMessage) => {
          if ('ready' in message || message.id !== job.id) return
          settle(outcomeOf(message))
        }
        const onError = (error: Error) => settle(outcomeOfFailure(error))
        const onExit = (code: number) => settle({error: 'crashed', message: `the jq worker exited (code ${code})`})
        const timer = clock.setTimer(() => settle({error: 'time'}), timeoutMs, 'deadline')
        worker.on('message', onMessage)
        worker.on('error', onError)
        worker.on('exit', onExit)
        worker.postMessage(job)
      })
      if ('error' in outcome && outcome.error !== 'jq') this.discard(running)
      return outcome
    } finally {
      worker.unref()
    }
  }

  /** A worker past a limit, crashed, or running still: ended, and the next job starts another. */
  private discard(running: Running): void {
    if (this.running === running) this.running = undefined
    void running.worker.terminate()
  }
}

function outcomeOf(message: JqJobResult): JqOutcome {
  if ('out' in message) return {out: message.out}
  if (message.error === 'jq') return {error: 'jq', stderr: message.stderr}
  if (message.error === 'memory') return {error: 'memory'}
  if (message.error === 'output') return {error: 'output'}
  return {error: 'crashed', message: message.message}
}

/** The worker's 'error' event: past its JS heap (ERR_WORKER_OUT_OF_MEMORY), or anything else. */
function outcomeOfFailure(error: unknown): JqOutcome {
  if ((error as {code?: unknown})?.code === 'ERR_WORKER_OUT_OF_MEMORY') return {error: 'memory'}
  return {error: 'crashed', message: error instanceof Error ? error.message : String(error)}
}
