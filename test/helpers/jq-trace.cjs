// Says on stderr when --jq's filter starts on the CLI's main thread (node:vm's
// Script.runInThisContext, src/lib/io/jq-main.ts), when a worker thread is made, and when a job is
// handed to it (src/lib/io/jq-run.ts posts it once the worker has loaded jq), so that a test can
// signal a filter mid-run on either thread and tell which path ran. Preload with
// `node --require ./test/helpers/jq-trace.cjs` (or NODE_OPTIONS); it changes nothing else.
'use strict'
const {writeSync} = require('node:fs')
const vm = require('node:vm')
const threads = require('node:worker_threads')

const say = (line) => writeSync(2, `[jq-trace] ${line}\n`)
const run = vm.Script.prototype.runInThisContext
vm.Script.prototype.runInThisContext = function (...args) {
  // bin/compile-cache.cjs runs dist/'s modules through vm too: the filter's run is the one with a
  // time limit that Ctrl-C breaks.
  if (!(args[0]?.breakOnSigint && args[0]?.timeout)) return run.apply(this, args)
  say('main thread')
  const started = performance.now()
  try {
    return run.apply(this, args)
  } finally {
    say(`main thread ended after ${(performance.now() - started).toFixed(1)} ms`)
  }
}
const Worker = threads.Worker
threads.Worker = class extends Worker {
  constructor(...args) {
    say('worker')
    super(...args)
  }

  postMessage(message, ...rest) {
    if (typeof message?.expression === 'string') say('worker job')
    return super.postMessage(message, ...rest)
  }
}
