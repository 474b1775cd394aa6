#!/usr/bin/env node
/**
 * What --jq's worker thread costs a call: `svc pay list --jq .` of this build against another
 * build (`--compare DIR`, e.g. a worktree of main before the worker), with hyperfine, in short
 * rounds of alternating order so that a machine whose load moves (other builds, other tests) weighs
 * on both alike; the medians and minimums of all rounds, and user CPU.
 *
 *   node bench/jq/run.mjs --compare ../base [--rounds 8] [--runs 10]
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
const times = {before: [], after: []}
const user = {before: [], after: []}
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-jq-'))
process.env.SVC_CACHE_DIR = join(dir, 'cache')
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ['before', 'after'] : ['after', 'before']
  const out = join(dir, `round-${round}.json`)
  const commands = order.flatMap((name) => ['-n', name, `${builds[name]} --profile local pay list --jq .`])
  const r = spawnSync('hyperfine', ['-N', '--warmup', '2', '--runs', String(runs), '--export-json', out, ...commands], {stdio: ['ignore', 'ignore', 'inherit']})
  if (r.status !== 0) throw new Error('hyperfine failed')
  for (const result of JSON.parse(readFileSync(out, 'utf8')).results) {
    times[result.command].push(...result.times)
    user[result.command].push(result.user)
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const ms = (seconds) => `${(seconds * 1000).toFixed(1)} ms`
for (const name of ['before', 'after']) {
  console.log(`${name.padEnd(7)} median ${ms(median(times[name]))}  min ${ms(Math.min(...times[name]))}  user CPU ${ms(median(user[name]))}  (${times[name].length} runs)`)
}
console.log(`after − before: median ${ms(median(times.after) - median(times.before))}, min ${ms(Math.min(...times.after) - Math.min(...times.before))}`)
