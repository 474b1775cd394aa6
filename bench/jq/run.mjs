#!/usr/bin/env node
/**
 * What --jq costs a call: `svc pay list --jq .` of this build against another build (`--compare
 * DIR`, e.g. a worktree of main before --jq's worker thread), with hyperfine, in short rounds of
 * alternating order so that a machine whose load moves (other builds, other tests) weighs on both
 * alike; the medians and minimums of all rounds, and user CPU. With --control, `pay list --json`
 * too: what the builds differ by without --jq, taken off.
 *
 *   node bench/jq/run.mjs --compare ../base [--rounds 8] [--runs 10] [--control]
 *
 * Needs hyperfine, and a local sandbox with a profile "local" in SVC_CONFIG_DIR (`svc sandbox
 * serve --rate-limit 0`: 100 calls a minute would otherwise meet the rate limit and its retries).
 *
 * Both builds keep their V8 code cache (bin/compile-cache.cjs) in a directory of the bench's own
 * (SVC_CACHE_DIR): the user's cache keeps the three most recent builds, and on a machine where
 * other worktrees build and run tests, theirs would evict these two part-way, and some runs would
 * compile dist/ afresh (~15 ms) on one side only.
 */
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const compare = option('--compare')
if (!compare) throw new Error('--compare DIR: the other build (its bin/run.cjs)')
const rounds = Number(option('--rounds', '8'))
const runs = Number(option('--runs', '10'))
const builds = {before: join(compare, 'bin/run.cjs'), after: join(root, 'bin/run.cjs')}
// --control: the same call without --jq (`--json`, which --jq implies) too, in the same rounds, so
// that what the two builds differ by elsewhere (other work merged since) can be told from --jq's cost.
const control = args.includes('--control')
const calls = {jq: 'pay list --jq .', ...(control ? {plain: 'pay list --json'} : {})}
const names = Object.keys(calls).flatMap((call) => ['before', 'after'].map((build) => `${build} ${call}`))
const times = Object.fromEntries(names.map((name) => [name, []]))
const user = Object.fromEntries(names.map((name) => [name, []]))
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-jq-'))
process.env.SVC_CACHE_DIR = join(dir, 'cache')
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ['before', 'after'] : ['after', 'before']
  const out = join(dir, `round-${round}.json`)
  const commands = Object.entries(calls).flatMap(([call, argv]) => order.flatMap((build) => ['-n', `${build} ${call}`, `${builds[build]} --profile local ${argv}`]))
  const r = spawnSync('hyperfine', ['-N', '--warmup', '2', '--runs', String(runs), '--export-json', out, ...commands], {stdio: ['ignore', 'ignore', 'inherit']})
  if (r.status !== 0) throw new Error('hyperfine failed')
  for (const result of JSON.parse(readFileSync(out, 'utf8')).results) {
    times[result.command].push(...result.times)
    user[result.command].push(result.user)
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const ms = (seconds) => `${(seconds * 1000).toFixed(1)} ms`
for (const name of names) {
  console.log(`${name.padEnd(18)} median ${ms(median(times[name]))}  min ${ms(Math.min(...times[name]))}  user CPU ${ms(median(user[name]))}  (${times[name].length} runs)`)
}
const delta = (call) => ({
  median: median(times[`after ${call}`]) - median(times[`before ${call}`]),
  min: Math.min(...times[`after ${call}`]) - Math.min(...times[`before ${call}`]),
})
for (const call of Object.keys(calls)) console.log(`after − before, ${calls[call]}: median ${ms(delta(call).median)}, min ${ms(delta(call).min)}`)
if (control) {
  const jq = delta('jq')
  const plain = delta('plain')
  console.log(`--jq's own cost (the difference less the plain call's): median ${ms(jq.median - plain.median)}, min ${ms(jq.min - plain.min)}`)
}
