// The sandbox under benchmark, in its own process (so that autocannon does not share its core and
// its RSS is the sandbox's alone). Prints one JSON line: url, keys, admin token, pid.
import {startSandbox} from '../../src/sandbox/index.js'

const sb = await startSandbox({rateLimit: 0, seed: 1, settleAfterMs: 2000})
process.stdout.write(`${JSON.stringify({url: sb.url, key: sb.keys.sandbox, adminToken: sb.adminToken, pid: process.pid})}\n`)
// SIGUSR2: collect garbage (when started with --expose-gc) and report memory on stderr as JSON.
process.on('SIGUSR2', () => {
  ;(globalThis as {gc?: () => void}).gc?.()
  const {rss, heapUsed} = process.memoryUsage()
  process.stderr.write(`${JSON.stringify({memory: {rss, heapUsed}})}\n`)
})
process.on('SIGTERM', () => void sb.close().then(() => process.exit(0)))
