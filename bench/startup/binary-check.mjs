#!/usr/bin/env node
/**
 * What checking the single executable's unpacked files costs a warm start (scripts/binary/main.cjs,
 * guard: svc's own ~300 files at each start; a dependency as require loads it, an ES module's
 * package before it is imported, and the same in every worker thread). Two binaries built from
 * the same dist/ and the same archive: BASE with an earlier launcher (scripts/binary/main.cjs as
 * it was at a git ref, default `main`), dist-bin/svc with the current one. Both run from one
 * unpacked copy (the same archive: the same cache directory), already unpacked.
 *
 * hyperfine times both, side by side: for each call, several rounds of `hyperfine` over the two
 * (the order swapped at each round, so that the load of a shared machine falls on both alike).
 * Prints, per call, the median wall time of each, and the mean user + system CPU time.
 *
 *   node scripts/binary/build.mjs --no-build                     # dist-bin/svc, the current launcher
 *   node bench/startup/binary-check.mjs [--ref main] [--rounds 6] [--runs 15]
 *
 * Builds dist-bin/svc-base from `git show REF:scripts/binary/main.cjs` when it is missing or older
 * than dist-bin/svc. Needs hyperfine (Debian/Ubuntu: `sudo apt-get install hyperfine`).
 */
import {execFileSync, spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const args = process.argv.slice(2)
const arg = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback)
const ref = arg('ref', 'main')
const rounds = Number(arg('rounds', 6))
const runs = Number(arg('runs', 15))
const checked = join(root, 'dist-bin/svc')
const base = join(root, 'dist-bin/svc-base')
const calls = [['--version'], ['sandbox', 'numbers'], ['sandbox', 'numbers', '--jq', 'length'], ['pay', 'list', '--help']]

if (spawnSync('hyperfine', ['--version']).status !== 0) {
  process.stderr.write('hyperfine is not installed. Debian/Ubuntu: sudo apt-get install hyperfine\n')
  process.exit(1)
}
if (!existsSync(checked)) throw new Error('dist-bin/svc is missing: node scripts/binary/build.mjs --no-build')
const work = mkdtempSync(join(tmpdir(), 'svc-binary-check-'))
if (!existsSync(base) || statSync(base).mtimeMs < statSync(checked).mtimeMs) {
  const launcher = join(work, 'main.cjs')
  writeFileSync(launcher, execFileSync('git', ['show', `${ref}:scripts/binary/main.cjs`], {cwd: root}))
  execFileSync(process.execPath, [join(root, 'scripts/binary/build.mjs'), '--no-build', '--launcher', launcher, '--out', 'dist-bin/svc-base'], {cwd: root, stdio: 'inherit'})
}

const env = {PATH: '/usr/bin:/bin', HOME: work, SVC_CACHE_DIR: join(work, 'cache'), SVC_CONFIG_DIR: join(work, 'config'), LANG: 'C.UTF-8'}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length
const quote = (parts) => parts.map((p) => `'${p}'`).join(' ')

try {
  // The one unpack (the same archive for both): not timed.
  execFileSync(checked, ['--version'], {env, stdio: 'ignore'})
  console.log(`| call | ${ref}'s launcher: wall (median), CPU (mean) | this launcher: wall, CPU | difference: wall, CPU |`)
  console.log('| --- | --- | --- | --- |')
  for (const call of calls) {
    const seen = {base: {wall: [], cpu: []}, checked: {wall: [], cpu: []}}
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ['base', 'checked'] : ['checked', 'base']
      const out = join(work, 'round.json')
      const commands = order.flatMap((side) => ['-n', side, quote([side === 'base' ? base : checked, ...call])])
      execFileSync('hyperfine', ['-N', '--warmup', '2', '--runs', String(runs), '--style', 'none', '--export-json', out, ...commands], {env, stdio: 'ignore'})
      for (const result of JSON.parse(readFileSync(out, 'utf8')).results) {
        seen[result.command].wall.push(...result.times.map((t) => t * 1000))
        seen[result.command].cpu.push((result.user + result.system) * 1000)
      }
    }
    const wall = {base: median(seen.base.wall), checked: median(seen.checked.wall)}
    const cpu = {base: mean(seen.base.cpu), checked: mean(seen.checked.cpu)}
    const show = (side) => `${wall[side].toFixed(1)} ms, ${cpu[side].toFixed(1)} ms`
    const sign = (n) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`
    console.log(`| \`svc ${call.join(' ')}\` | ${show('base')} | ${show('checked')} | ${sign(wall.checked - wall.base)} ms, ${sign(cpu.checked - cpu.base)} ms |`)
  }
  console.log(`\n${rounds} rounds × ${runs} runs of each (hyperfine -N, 2 warm-up runs a round); load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`)
} finally {
  rmSync(work, {recursive: true, force: true})
}
