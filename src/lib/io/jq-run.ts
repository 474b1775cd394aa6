/**
 * The CLI's side of the `--jq` worker (jq-worker.ts): one worker thread, started by bin/run.cjs
 * when argv has --jq (or else with the first job), running one job at a time within two limits:
 * - time: past `timeoutMs` the thread is ended (Worker.terminate stops even a WebAssembly loop);
 * - memory: jq's WebAssembly memory capped by the worker itself, the JS heap (where jq's output
 *   is gathered) by resourceLimits; either ends the job as "memory".
 * A job that ended on a limit or a crash leaves a jq that cannot be trusted: the worker is ended
 * and the next job starts another. While a job is pending the worker keeps the process alive;
 * idle, it does not. The main thread never blocks, so Ctrl-C and SIGTERM are answered mid-filter.
 */
import {existsSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {Worker} from 'node:worker_threads'
import {followJqWorker, jqWorkerOptions, startJqWorker, type JqJob, type JqJobResult, type JqWorkerMessage, type StartedJqWorker} from './jq-worker.js'

export interface JqLimits {
  timeoutMs: number
}

export type JqOutcome = {out: string} | {error: 'jq'; stderr: string} | {error: 'memory'} | {error: 'output'} | {error: 'time'} | {error: 'crashed'; message: string}

/** Where bin/run.cjs leaves the worker it started early (an argv with --jq). */
const PRESTARTED = Symbol.for('svc.jq.worker')

/**
 * Where the worker's entry is: dist/jq-worker.js in a build (one level up from the chunk this
 * file is bundled into), jq-worker.ts next to this file when running from the sources (tests),
 * which the worker then loads through tsx.
 */
function workerEntry(): {file: string; fromSource: boolean} {
  // The build defines import.meta.dirname as __dirname (scripts/build.mjs): its output is CommonJS.
  const here = typeof __dirname === 'string' ? __dirname : import.meta.dirname
  for (const file of [join(here, '../jq-worker.js'), join(here, 'jq-worker.js')]) if (existsSync(file)) return {file, fromSource: false}
  return {file: join(here, 'jq-worker.ts'), fromSource: true}
}

function startWorker(): StartedJqWorker {
  const globals = globalThis as {[PRESTARTED]?: StartedJqWorker}
  const prestarted = globals[PRESTARTED]
  if (prestarted) {
    delete globals[PRESTARTED]
    return prestarted
  }
  const {file, fromSource} = workerEntry()
  if (!fromSource) return startJqWorker(file)
  const tsx = createRequire(file).resolve('tsx/esm/api')
  const boot = `import(${JSON.stringify(pathToFileURL(tsx).href)}).then((api) => { api.register(); return import(${JSON.stringify(pathToFileURL(file).href)}) })`
  return followJqWorker(new Worker(boot, {...jqWorkerOptions(file), eval: true}))
}

type Running = StartedJqWorker

export class JqRunner {
  private running?: Running
  private nextId = 1
  private queue: Promise<unknown> = Promise.resolve()

  constructor(readonly limits: JqLimits) {}

  /** Runs `expression` over `json` (jq-web's flags), after the jobs before it. */
  run(json: string, expression: string, flags: string[]): Promise<JqOutcome> {
    const job = this.queue.then(() => this.runNow({id: this.nextId++, json, expression, flags}))
    this.queue = job.catch(() => undefined)
    return job
  }

  /** Ends the worker (the process does not wait for an idle one anyway). */
  async close(): Promise<void> {
    const running = this.running
    this.running = undefined
    await running?.worker.terminate()
  }

  private async runNow(job: JqJob): Promise<JqOutcome> {
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
          clearTimeout(timer)
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
        const timer = setTimeout(() => settle({error: 'time'}), this.limits.timeoutMs)
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
