/**
 * The document worker's entry (a worker thread; see document-worker.ts): one job at a time per
 * message, each answered with its id. An error inside a job is answered as an error; anything a
 * library throws outside of it (a decoder's callback) ends this thread, and the sandbox starts another.
 */
import {parentPort} from 'node:worker_threads'
import {registerSandboxFrench} from '../i18n/index.js'
import {runDocumentJob, type DocumentJob} from './document-jobs.js'

registerSandboxFrench()
parentPort!.on('message', (message: {id: number; job: DocumentJob}) => {
  runDocumentJob(message.job).then(
    (result) => {
      const bytes = result && 'bytes' in result ? result.bytes : undefined
      parentPort!.postMessage({id: message.id, result}, bytes ? [bytes.buffer as ArrayBuffer] : [])
    },
    (error: unknown) => parentPort!.postMessage({id: message.id, error: (error as Error)?.stack ?? String(error)}),
  )
})
