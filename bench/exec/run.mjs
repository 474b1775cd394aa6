#!/usr/bin/env node
/**
 * The start-up overhead of `svc sandbox exec`: from the moment exec is spawned to the moment its
 * command starts (the command is `sh -c 'date +%s%N'`, which prints the time it began), against
 * the same command spawned directly, and `svc --version` (a bare start of the launcher) for scale.
 * Shutdown after the command is measured apart (exec's exit after the command's). Plain Node
 * (hyperfine times whole runs, not the moment the command starts).
 *
 *   npm run build && node bench/exec/run.mjs                    # 15 runs each, after 2 warm-ups
 *   node bench/exec/run.mjs --runs 30
 *   node bench/exec/run.mjs --fixtures examples/fixtures/shop-week.json   # seeding included
 *
 * Each run has its own config directory (in the run's temp directory). Prints the median, p90 and
 * minimum of each; the machine's load moves every figure, so compare within one run.
 */
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const BIN = join(root, 'bin/run.cjs')
const args = process.argv.slice(2)
const option = (name, fallback) => {
  const i = args.indexOf(name)
  return i === -1 ? fallback : args[i + 1]
}
const runs = Number(option('--runs', 15))
const fixtures = option('--fixtures', undefined)
const temp = mkdtempSync(join(tmpdir(), 'svc-bench-exec-'))
const CMD = ['sh', '-c', 'date +%s%N']

/** Wall-clock ms since the epoch, as precise as `date +%s%N`. */
const nowMs = () => performance.timeOrigin + performance.now()

function run(file, argv, configDir) {
  return new Promise((resolve, reject) => {
    const started = nowMs()
    const child = spawn(file, argv, {env: {...process.env, SVC_CONFIG_DIR: configDir, SVC_RATE_LIMIT: '0'}, stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const ended = nowMs()
      if (code !== 0) return reject(new Error(`${file} ${argv.join(' ')} exited ${code}: ${err}`))
      const commandAt = Number(out.trim().split('\n').pop()) / 1e6
      resolve({start: commandAt - started, total: ended - started, after: ended - commandAt})
    })
  })
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  return `median ${at(0.5).toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, min ${sorted[0].toFixed(0)} ms`
}

const cases = {
  'the command alone': () => run(CMD[0], CMD.slice(1), join(temp, 'alone')),
  'svc --version (the launcher alone)': () =>
    new Promise((resolve) => {
      const started = nowMs()
      spawn(process.execPath, [BIN, '--version'], {stdio: 'ignore'}).on('close', () => resolve({start: nowMs() - started, total: nowMs() - started, after: 0}))
    }),
  [`svc sandbox exec${fixtures ? ` --fixtures ${fixtures}` : ''} -- sh -c 'date +%s%N'`]: (n) =>
    run(process.execPath, [BIN, 'sandbox', 'exec', ...(fixtures ? ['--fixtures', fixtures] : []), '--', ...CMD], join(temp, `exec-${n}`)),
}

try {
  for (const [name, once] of Object.entries(cases)) {
    for (let i = 0; i < 2; i++) await once(`warm-${i}`)
    const results = []
    for (let i = 0; i < runs; i++) results.push(await once(i))
    process.stdout.write(`${name}\n  until the command starts: ${stats(results.map((r) => r.start))}\n`)
    if (results[0].after > 0) process.stdout.write(`  from its start to exec's exit: ${stats(results.map((r) => r.after))}\n`)
  }
} finally {
  rmSync(temp, {recursive: true, force: true})
}
