/**
 * The `--jq` worker thread's entry (jq-run.ts starts it): jq-web (jq compiled to WebAssembly)
 * runs here, off the CLI's main thread, which stays free to answer Ctrl-C and SIGTERM and to end
 * this thread when a filter runs past its time limit (a WebAssembly loop never yields).
 *
 * Memory: jq's heap is WebAssembly memory, which the worker's resourceLimits (the JS heap) do not
 * count, and which jq grows up to 2 GB; so every growth past `memoryBytes` is refused here, as a
 * full machine would refuse it: jq's allocator fails, jq aborts, and the job ends as "memory".
 *
 * Built as dist/jq-worker.js (scripts/build.mjs), a CommonJS file of its own that requires jq-web
 * from node_modules: no dynamic import() (bin/compile-cache.cjs), nothing of the CLI's chunks.
 * PURE of the CLI: it imports no module of svc, and says what happened in codes, not sentences.
 *
 * The same file starts the thread (startJqWorker): bin/run.cjs requires it on the main thread to
 * start the worker as soon as argv has --jq, so that it boots while oclif loads (the worker's
 * boot would otherwise be added to every --jq call); jq-run.ts takes that worker over.
 */
import {createRequire} from 'node:module'
import {isMainThread, parentPort, Worker, workerData, type WorkerOptions} from 'node:worker_threads'

export interface JqJob {
  id: number
  json: string
  expression: string
  flags: string[]
}
export type JqJobResult =
  | {id: number; out: string}
  | {id: number; error: 'jq'; stderr: string}
  | {id: number; error: 'memory'}
  | {id: number; error: 'output'}
  | {id: number; error: 'crashed'; message: string}
export type JqWorkerMessage = {ready: true} | JqJobResult

/** jq's WebAssembly memory, and separately the worker's JS heap (where its output is gathered), in MB. */
export const JQ_MEMORY_MB = 512
/**
 * Most bytes of output one filter run may print. jq-web gathers output in a JS array, a number per
 * byte (8 bytes each): past ~130 million elements V8 aborts the whole process (an allocation it
 * cannot make is fatal, not an out-of-memory the worker survives), so the array is capped well
 * below that and below the heap limit.
 */
export const JQ_OUTPUT_MB = 16

/** A worker thread running jq, and when it has loaded jq (rejected if it failed to). */
export interface StartedJqWorker {
  worker: Worker
  ready: Promise<void>
}

interface JqWorkerData {
  svcJq: true
  /** The worker's entry file, which jq-web is required from. */
  entryFile: string
}

/** The options a jq worker starts with: its entry file and the memory limits. */
export function jqWorkerOptions(entryFile: string): WorkerOptions {
  return {
    workerData: {svcJq: true, entryFile} satisfies JqWorkerData,
    resourceLimits: {maxOldGenerationSizeMb: JQ_MEMORY_MB},
    // The worker's console.warn (jq's `debug`) goes to the CLI's stderr; nothing reads its stdin.
    stdin: false,
  }
}

/**
 * Follows a starting worker: `ready` once it has loaded jq. Unref'd: only a pending job keeps the
 * process alive (jq-run.ts).
 */
export function followJqWorker(worker: Worker): StartedJqWorker {
  worker.unref()
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: JqWorkerMessage) => {
      if (!('ready' in message)) return
      worker.off('message', onMessage)
      resolve()
    }
    worker.on('message', onMessage)
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the jq worker exited (code ${code}) before it was ready`)))
  })
  // A failed start is the first job's outcome (jq-run.ts), never an unhandled rejection.
  ready.catch(() => undefined)
  return {worker, ready}
}

/** Starts a jq worker from this file as built (dist/jq-worker.js). */
export function startJqWorker(entryFile: string): StartedJqWorker {
  return followJqWorker(new Worker(entryFile, jqWorkerOptions(entryFile)))
}

if (!isMainThread && (workerData as Partial<JqWorkerData> | null)?.svcJq) serveJq(workerData as JqWorkerData)

interface JqWeb {
  raw(json: string, filter: string, flags?: string[]): string | undefined
}

// WebAssembly's types come with TypeScript's DOM library, which this project does not load.
interface WasmMemory {
  readonly buffer: ArrayBuffer
  grow(pages: number): number
}

function serveJq({entryFile}: JqWorkerData): void {
  const port = parentPort!
  const wasm = (globalThis as unknown as {WebAssembly: {Memory: {prototype: WasmMemory}; RuntimeError: new () => Error}}).WebAssembly
  const memoryBytes = JQ_MEMORY_MB * 1024 * 1024
  let memoryRefused = false
  const grow = wasm.Memory.prototype.grow
  wasm.Memory.prototype.grow = function (this: WasmMemory, pages: number): number {
    if (this.buffer.byteLength + pages * 65_536 > memoryBytes) {
      memoryRefused = true
      throw new RangeError('WebAssembly.Memory.grow(): the --jq memory limit')
    }
    return grow.call(this, pages)
  }
  // jq-web's output and error buffers are arrays it pushes one byte at a time to (a module's own
  // variables, out of reach): in this thread, where nothing else runs, any array past the output
  // cap stops the filter (OutputLimit), long before V8's fatal array size.
  // A throw there does not stop jq (Emscripten turns it into a write error jq ignores): the job is
  // answered here and the thread ends itself.
  const maxElements = JQ_OUTPUT_MB * 1024 * 1024
  let currentJob = 0
  const push = Array.prototype.push
  Array.prototype.push = function (this: unknown[], ...items: unknown[]): number {
    if (this.length + items.length > maxElements) {
      port.postMessage({id: currentJob, error: 'output'} satisfies JqJobResult)
      process.exit(1)
    }
    return push.apply(this, items)
  }
  // jq-web prints "Aborted()" through console.error when jq aborts (its allocator failed): the CLI
  // says what happened in its own words. console.warn (jq's `debug` and `stderr`) stays.
  console.error = () => {}

  const run = (jq: JqWeb, job: JqJob): JqJobResult => {
    currentJob = job.id
    try {
      // jq-web rewrites the flags array it is given: a copy each call.
      const out = jq.raw(job.json, job.expression, [...job.flags])
      return {id: job.id, out: out === undefined ? '' : `${out}\n`}
    } catch (error) {
      if (memoryRefused || error instanceof RangeError) return {id: job.id, error: 'memory'}
      const stderr = (error as {stderr?: unknown})?.stderr
      if (typeof stderr === 'string' && stderr.trim() !== '') return {id: job.id, error: 'jq', stderr}
      if (error instanceof wasm.RuntimeError) return {id: job.id, error: 'crashed', message: error.message}
      return {id: job.id, error: 'jq', stderr: error instanceof Error ? error.message : String(error)}
    }
  }
  // required, not import()ed: jq-web exports a promise (see jq.ts).
  const ready = createRequire(entryFile)('jq-web') as Promise<JqWeb>
  void ready.then((jq) => {
    port.on('message', (job: JqJob) => port.postMessage(run(jq, job)))
    port.postMessage({ready: true} satisfies JqWorkerMessage)
  })
}
