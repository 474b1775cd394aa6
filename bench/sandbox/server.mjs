// The sandbox under benchmark, in its own process (so that autocannon does not share its core and
// its RSS is the sandbox's alone), from the built library (dist/sandbox/index.js: what
// `svc sandbox serve` runs; `npm run build` first). Prints one JSON line once listening: url,
// key, admin token, pid, and how long opening took (open_ms).
//   node bench/sandbox/server.mjs [--data FILE] [--no-journal]
import {performance} from 'node:perf_hooks'
import {startSandbox} from '../../dist/sandbox/index.js'

const at = process.argv.indexOf('--data')
const dataFile = at === -1 ? undefined : process.argv[at + 1]
const started = performance.now()
// --no-journal: the request journal off, to measure what it costs (run.ts, the same run with it on).
const journal = !process.argv.includes('--no-journal')
const sb = await startSandbox({rateLimit: 0, seed: 1, settleAfterMs: 2000, dataFile, journal})
const openMs = Math.round(performance.now() - started)
// SIGUSR2: collect garbage (when started with --expose-gc) and report memory and CPU time used on stderr as JSON.
process.on('SIGUSR2', () => {
  globalThis.gc?.()
  const {rss, heapUsed} = process.memoryUsage()
  const {user, system} = process.cpuUsage()
  process.stderr.write(`${JSON.stringify({memory: {rss, heapUsed}, cpu_us: user + system})}\n`)
})
process.on('SIGTERM', () => void sb.close().then(() => process.exit(0)))
// Printed once the signals are handled: a SIGUSR2 sent as soon as this line is read must not end the process.
process.stdout.write(`${JSON.stringify({url: sb.url, key: sb.keys.sandbox, adminToken: sb.adminToken, pid: process.pid, open_ms: openMs})}\n`)
