#!/usr/bin/env node
/**
 * What checking the single executable's unpacked files costs a warm start (scripts/binary/main.cjs:
 * its own ~300 files at each start, a dependency as it loads): two binaries built from the same
 * dist/, one without the check (BASE, built from the main.cjs before it) and dist-bin/svc with it,
 * each with its own unpacked cache, run one after the other in turns (so that the machine's load
 * falls on both alike). Prints the median wall time and CPU time (user + system, /usr/bin/time)
 * of each, and of their difference.
 *
 *   node scripts/binary/build.mjs --no-build                     # dist-bin/svc, with the check
 *   git show BASE:scripts/binary/main.cjs > scripts/binary/main.cjs && node scripts/binary/build.mjs --no-build --out dist-bin/svc-old
 *   git checkout scripts/binary/main.cjs
 *   node bench/startup/binary-check.mjs [--base dist-bin/svc-old] [--runs 40]
 */
import {spawnSync} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const args = process.argv.slice(2)
const arg = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback)
const runs = Number(arg('runs', 40))
const binaries = {base: join(root, arg('base', 'dist-bin/svc-old')), checked: join(root, 'dist-bin/svc')}
const calls = [['--version'], ['sandbox', 'numbers'], ['pay', 'list', '--help']]
const work = mkdtempSync(join(tmpdir(), 'svc-binary-check-'))

function run(binary, cache, call) {
  const started = process.hrtime.bigint()
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', binary, ...call], {env: {PATH: '/usr/bin:/bin', HOME: work, SVC_CACHE_DIR: cache, SVC_CONFIG_DIR: join(work, 'config')}, encoding: 'utf8'})
  const wall = Number(process.hrtime.bigint() - started) / 1e6
  if (r.status !== 0) throw new Error(`${binary} ${call.join(' ')}: ${r.stderr}`)
  const [user, system] = r.stderr.trim().split('\n').pop().split(' ').map(Number)
  return {wall, cpu: (user + system) * 1000}
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

try {
  console.log(`| call | without the check: wall, CPU | with it: wall, CPU | difference of each turn: wall, CPU (medians) |`)
  console.log(`| --- | --- | --- | --- |`)
  for (const call of calls) {
    const caches = {base: join(work, 'base'), checked: join(work, 'checked')}
    // The first call of each unpacks: not timed.
    for (const side of ['base', 'checked']) run(binaries[side], caches[side], call)
    const seen = {base: [], checked: [], wall: [], cpu: []}
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? ['base', 'checked'] : ['checked', 'base']
      const turn = {}
      for (const side of order) turn[side] = run(binaries[side], caches[side], call)
      seen.base.push(turn.base)
      seen.checked.push(turn.checked)
      seen.wall.push(turn.checked.wall - turn.base.wall)
      seen.cpu.push(turn.checked.cpu - turn.base.cpu)
    }
    const show = (list) => `${median(list.map((r) => r.wall)).toFixed(1)} ms, ${median(list.map((r) => r.cpu)).toFixed(0)} ms`
    console.log(`| \`svc ${call.join(' ')}\` | ${show(seen.base)} | ${show(seen.checked)} | ${median(seen.wall).toFixed(1)} ms, ${median(seen.cpu).toFixed(0)} ms |`)
  }
} finally {
  rmSync(work, {recursive: true, force: true})
}
