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
 */
import {createRequire} from 'node:module'
import {parentPort, workerData} from 'node:worker_threads'

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
  | {id: number; error: 'crashed'; message: string}
export type JqWorkerMessage = {ready: true} | JqJobResult

interface JqWeb {
  raw(json: string, filter: string, flags?: string[]): string | undefined
}

// WebAssembly's types come with TypeScript's DOM library, which this project does not load.
interface WasmMemory {
  readonly buffer: ArrayBuffer
  grow(pages: number): number
}
const wasm = (globalThis as unknown as {WebAssembly: {Memory: {prototype: WasmMemory}; RuntimeError: new () => Error}}).WebAssembly

// entryFile: this file's path, which jq-web is required from (known to the side that starts it).
const {memoryBytes, entryFile} = workerData as {memoryBytes: number; entryFile: string}
let memoryRefused = false
const grow = wasm.Memory.prototype.grow
wasm.Memory.prototype.grow = function (this: WasmMemory, pages: number): number {
  if (this.buffer.byteLength + pages * 65_536 > memoryBytes) {
    memoryRefused = true
    throw new RangeError('WebAssembly.Memory.grow(): the --jq memory limit')
  }
  return grow.call(this, pages)
}
// jq-web prints "Aborted()" through console.error when jq aborts (its allocator failed): the CLI
// says what happened in its own words. console.warn (jq's `debug` and `stderr`) stays.
console.error = () => {}

const port = parentPort!
// required, not import()ed: jq-web exports a promise (see jq.ts).
const ready = createRequire(entryFile)('jq-web') as Promise<JqWeb>
void ready.then((jq) => {
  port.on('message', (job: JqJob) => port.postMessage(run(jq, job)))
  port.postMessage({ready: true} satisfies JqWorkerMessage)
})

function run(jq: JqWeb, job: JqJob): JqJobResult {
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
