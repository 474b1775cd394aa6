// Preloaded (NODE_OPTIONS `--expose-gc --import`) into a sandbox child whose memory a test reads
// from /proc (test/sandbox/journal-flood.test.ts): on SIGUSR2 its main thread collects all the
// garbage it can, then appends a line to the file SVC_TEST_GC_REPORT names, so that the test
// knows the collection is over. The process is otherwise the CLI as a user runs it.
import {appendFileSync} from 'node:fs'
import {isMainThread} from 'node:worker_threads'

const report = process.env.SVC_TEST_GC_REPORT
if (isMainThread && report && typeof globalThis.gc === 'function') {
  delete process.env.SVC_TEST_GC_REPORT
  process.on('SIGUSR2', () => {
    globalThis.gc()
    appendFileSync(report, 'collected\n')
  })
}
