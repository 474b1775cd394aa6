/**
 * The long fuzz run of the sandbox (test/helpers/fuzz.ts; the test suite runs a few thousand):
 * every route from its own schemas, against a sandbox in a process of its own, in batches with a
 * fresh seed each; counts the requests, the 5xx, the requests left without an answer, and whether
 * the process died. Prints a Markdown row for docs/reliability.md; exits 1 on any failure.
 *
 *   node --import tsx bench/fuzz/run.ts [--requests 100000] [--seed 1] [--concurrency 8]
 */
import fc from 'fast-check'
import {fuzz, prepareTarget, requestArbitrary, sandboxRoutes} from '../../test/helpers/fuzz.js'
import {startSandboxProcess} from '../../test/helpers/sandbox-process.js'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(args[i + 1])
}
const total = arg('requests', 100_000)
const seed = arg('seed', 1)
const concurrency = arg('concurrency', 8)
const BATCH = 5000

const started = Date.now()
const sb = await startSandboxProcess({rateLimit: 0, settleAfterMs: 100})
let sent = 0
let fiveXx = 0
let unanswered = 0
const statuses: Record<number, number> = {}
const examples: string[] = []
try {
  const target = await prepareTarget(sb)
  const routes = await sandboxRoutes()
  const arbitrary = requestArbitrary(routes, target)
  for (let batch = 0; sent < total && !sb.exited(); batch++) {
    const requests = fc.sample(arbitrary, {numRuns: Math.min(BATCH, total - sent), seed: seed * 1_000_003 + batch})
    const result = await fuzz(sb.url, target, requests, concurrency)
    sent += result.sent
    for (const [status, count] of Object.entries(result.statuses)) statuses[Number(status)] = (statuses[Number(status)] ?? 0) + count
    for (const failure of result.failures) {
      if ('status' in failure) fiveXx++
      else unanswered++
      if (examples.length < 5) examples.push(`${failure.request.method} ${failure.request.path.slice(0, 120)} → ${'status' in failure ? failure.status : failure.error}`)
    }
    process.stderr.write(`${sent} requests, ${fiveXx} 5xx, ${unanswered} unanswered\n`)
  }
} finally {
  await sb.stop()
}
const died = sb.exited()?.signal !== 'SIGTERM' && sb.exited()?.code !== 0
const minutes = ((Date.now() - started) / 60_000).toFixed(1)
console.log(`\nNode ${process.version}, seed ${seed}, concurrency ${concurrency}, ${minutes} min\n`)
console.log('| requests | 5xx | unanswered | process deaths | answers by status |')
console.log('| --- | --- | --- | --- | --- |')
const byStatus = Object.entries(statuses).map(([status, count]) => `${status}: ${count}`).join(', ')
console.log(`| ${sent.toLocaleString('en')} | ${fiveXx} | ${unanswered} | ${died ? 1 : 0} | ${byStatus} |`)
for (const example of examples) console.log(`- ${example}`)
process.exit(fiveXx + unanswered > 0 || died ? 1 : 0)
