/**
 * The sandbox's side of the document worker: a worker thread that renders PDFs and inspects
 * uploaded images (document-jobs.ts). Two reasons: a PDF of 100 items takes ~200 ms of CPU, which
 * on the event loop would stall every other request; and the decoders run on bytes a stranger
 * sent, where pdfkit's PNG decoder throws from a zlib callback (uncatchable where it happens) on
 * data that is not zlib. In a worker, such a throw ends the worker: the jobs in flight fail (a
 * 500 for their requests alone), and the next job starts a fresh worker.
 *
 * One per process (acquireDocumentWorker), started with the first job, or with the first sandbox
 * that asks for it warm (`svc sandbox serve`: the first PDF would otherwise wait for its boot);
 * restarted on the next job after a failure; ended when the last sandbox closes.
 */
import {existsSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {Worker} from 'node:worker_threads'
import {t} from '../i18n/index.js'
import type {DocumentJob, DocumentJobResults} from './document-jobs.js'

/** How long one job may take before the worker is deemed stuck and replaced. */
const JOB_TIMEOUT_MS = 60_000

interface Pending {
  resolve(value: unknown): void
  reject(error: Error): void
  timer: NodeJS.Timeout
}

/**
 * Where the worker's entry is: dist/sandbox/render-worker.js in a build (next to the sandbox's
 * library entry, or one level up from the CLI's chunks), render-worker.ts next to this file when
 * running from the sources (tests, benchmarks), which is then bundled (sourceWorker).
 */
function workerEntry(): {file: string; fromSource: boolean} {
  // The build defines import.meta.dirname as __dirname (scripts/build.mjs): its output is CommonJS.
  const here = typeof __dirname === 'string' ? __dirname : import.meta.dirname
  for (const file of [join(here, 'render-worker.js'), join(here, '../sandbox/render-worker.js')]) if (existsSync(file)) return {file, fromSource: false}
  return {file: join(here, 'render-worker.ts'), fromSource: true}
}

/** The worker's script bundled from the sources, once per process (sourceWorker). */
let fromSources: string | undefined

/**
 * The worker's entry in the sources as the build makes it (scripts/build.mjs): our TypeScript in
 * one CommonJS script, the packages required from node_modules (pdfkit's CommonJS entry, as a
 * build loads it), bundled by esbuild (a development dependency: the installed package never
 * comes here). Bundled once per process, it boots a worker in a fraction of what loading the
 * sources through tsx in each new worker costs (~0.25 s of CPU instead of ~0.5 s): a test run
 * starts many.
 */
function sourceWorker(file: string): string {
  if (fromSources === undefined) {
    const require = createRequire(file)
    const {buildSync} = require('esbuild') as typeof import('esbuild')
    const built = buildSync({
      entryPoints: [file],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      write: false,
      logLevel: 'silent',
    })
    // As a CommonJS module of that directory: its require (node_modules) and __dirname (the fonts).
    fromSources = `(function (require, __dirname) {\n${built.outputFiles[0].text}\n})(require('node:module').createRequire(${JSON.stringify(file)}), ${JSON.stringify(dirname(file))})`
  }
  return fromSources
}

function startWorker(): Worker {
  const {file, fromSource} = workerEntry()
  if (!fromSource) return new Worker(file)
  return new Worker(sourceWorker(file), {eval: true})
}

export class DocumentWorker {
  private worker?: Worker
  private nextId = 1
  private readonly pending = new Map<number, Pending>()

  run<K extends DocumentJob['kind']>(job: Extract<DocumentJob, {kind: K}>): Promise<DocumentJobResults[K]> {
    const worker = this.ensure()
    const id = this.nextId++
    return new Promise<DocumentJobResults[K]>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(worker, new Error(t('sandbox.error.workerFailed', {reason: `a job took over ${JOB_TIMEOUT_MS} ms`}))), JOB_TIMEOUT_MS)
      timer.unref()
      this.pending.set(id, {resolve: resolve as (value: unknown) => void, reject, timer})
      worker.postMessage({id, job})
    })
  }

  /** Start the worker now, so that the first PDF does not wait for it to boot (it loads pdfkit and the decoders). */
  warm(): void {
    this.ensure()
  }

  async close(): Promise<void> {
    const worker = this.worker
    if (!worker) return
    this.fail(worker, new Error('the sandbox is closing'))
    await worker.terminate()
  }

  private ensure(): Worker {
    if (this.worker) return this.worker
    const worker = startWorker()
    worker.unref()
    worker.on('message', (message: {id: number; result?: unknown; error?: string}) => {
      const pending = this.pending.get(message.id)
      if (!pending) return
      this.pending.delete(message.id)
      clearTimeout(pending.timer)
      if (message.error !== undefined) pending.reject(new Error(message.error))
      else pending.resolve(message.result)
    })
    worker.on('error', (error) => this.fail(worker, error))
    worker.on('exit', (code) => this.fail(worker, new Error(t('sandbox.error.workerFailed', {reason: `exit code ${code}`}))))
    this.worker = worker
    return worker
  }

  /** The worker is gone or stuck: every job in flight fails, and the next job starts a new worker. */
  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return
    this.worker = undefined
    void worker.terminate()
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer)
      pending.reject(new Error(t('sandbox.error.workerFailed', {reason: error.stack ?? error.message})))
      this.pending.delete(id)
    }
  }
}

let shared: DocumentWorker | undefined
let users = 0

/**
 * The process's document worker, shared by every sandbox in it (jobs carry all they need, so
 * nothing of one sandbox reaches another): a test process running many sandboxes at once boots one
 * worker, not one each. `release` ends it when its last sandbox closes.
 */
export function acquireDocumentWorker(options: {warm: boolean}): {documents: DocumentWorker; release: () => Promise<void>} {
  shared ??= new DocumentWorker()
  if (options.warm) shared.warm()
  users++
  const documents = shared
  let released = false
  return {
    documents,
    async release() {
      if (released) return
      released = true
      users--
      if (users === 0 && shared === documents) {
        shared = undefined
        await documents.close()
      }
    },
  }
}
