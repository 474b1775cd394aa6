#!/usr/bin/env node
/**
 * Start-up benchmark (issue 8): hyperfine over `node -e 0` and the commands a shell loop or CI
 * calls most, against the built CLI; prints each median and its ratio to `node -e 0` measured in
 * the same run, next to the goal.
 *
 *   node bench/startup/run.mjs                 # builds first
 *   node bench/startup/run.mjs --no-build --runs 60 --warmup 10
 *   node bench/startup/run.mjs --markdown      # also print the table for README's "Start-up"
 *
 * Needs hyperfine (Debian/Ubuntu: `sudo apt-get install hyperfine`; elsewhere `cargo install
 * hyperfine` or https://github.com/sharkdp/hyperfine/releases).
 *
 * `svc pay status ID` runs against a local sandbox started in this process (dist/sandbox,
 * rate limit off) holding one payment created over HTTP with its sandbox key: one API call.
 * The compile cache lives in the run's temp directory; a last row times a call without it.
 * The machine's load moves every figure; compare ratios within one run, not across runs.
 */
import {spawn, spawnSync} from 'node:child_process'
import {cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const options = parseArgs(process.argv.slice(2))

const hyperfine = spawnSync('hyperfine', ['--version'], {encoding: 'utf8'})
if (hyperfine.error || hyperfine.status !== 0) {
  process.stderr.write(
    'hyperfine is not installed. Debian/Ubuntu: sudo apt-get install hyperfine\n' +
      '(elsewhere: cargo install hyperfine, or https://github.com/sharkdp/hyperfine/releases)\n',
  )
  process.exit(2)
}

if (options.build) {
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], {cwd: root, stdio: 'inherit'})
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const work = mkdtempSync(join(tmpdir(), 'svc-startup-'))
const configDir = join(work, 'config')
// Measure a copy of the built CLI: other builds in this checkout replace dist/ while we run.
const cli = join(work, 'svc')
for (const name of ['bin', 'dist', 'package.json', 'oclif.manifest.json']) cpSync(join(root, name), join(cli, name), {recursive: true})
symlinkSync(join(root, 'node_modules'), join(cli, 'node_modules'))
const {startSandbox} = await import(join(cli, 'dist/sandbox/index.js'))
const sandbox = await startSandbox({port: 0, rateLimit: 0, seed: 1})
let exitCode = 0
try {
  const paymentId = await createPayment(sandbox)
  const svc = `${process.execPath} ${join(cli, 'bin/run.cjs')}`
  const cases = [
    {name: 'node -e 0', command: `${process.execPath} -e 0`},
    {name: 'svc --version', command: `${svc} --version`, goal: 1.3},
    {name: 'svc sandbox numbers', command: `${svc} sandbox numbers`, goal: 2.0},
    {name: 'svc profiles list', command: `${svc} profiles list`, goal: 2.0},
    {name: 'svc pay list --help', command: `${svc} pay list --help`, goal: 2.0},
    {
      name: 'svc pay status ID',
      command: `${svc} pay status ${paymentId} --api-key ${sandbox.keys.sandbox} --base-url ${sandbox.url}`,
      goal: 2.5,
    },
    // For comparison, no goal: a call that compiles dist/ (the first after an install or an
    // upgrade, or with the cache turned off; `env` itself adds ~1 ms).
    {name: 'svc profiles list, no compile cache', command: `env SVC_DISABLE_COMPILE_CACHE=1 ${svc} profiles list`},
  ]
  // Every command must succeed, or we would be timing an error path.
  for (const c of cases) await mustSucceed(c)

  const exportFile = join(work, 'hyperfine.json')
  const args = ['-N', '--warmup', String(options.warmup), '--runs', String(options.runs), '--export-json', exportFile, '--style', 'basic']
  for (const c of cases) args.push('--command-name', c.name, c.command)
  const status = await run('hyperfine', args, {stdio: ['ignore', options.verbose ? 'inherit' : 'ignore', 'inherit']})
  // A failing run usually means dist/ changed under us (a build in the same checkout): run again.
  if (status !== 0) throw new Error(`hyperfine exited ${status} (a command failed during the runs; see above)`)

  const results = JSON.parse(readFileSync(exportFile, 'utf8')).results
  const ms = (seconds) => seconds * 1000
  const floor = ms(results[0].median)
  // CPU time (user + system, mean) moves less with the machine's load than wall time: a second view.
  const cpuOf = (r) => ms(r.user + r.system)
  const cpuFloor = cpuOf(results[0])
  const rows = cases.map((c, i) => {
    const median = ms(results[i].median)
    const ratio = median / floor
    const cpu = cpuOf(results[i])
    return {...c, median, ratio, cpu, cpuRatio: cpu / cpuFloor, ok: c.goal === undefined || ratio <= c.goal}
  })
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
  process.stdout.write(`\nnode ${process.version}, ${options.runs} runs after ${options.warmup} warm-ups, load average ${load}\n\n`)
  const width = Math.max(...rows.map((r) => r.name.length))
  process.stdout.write(`${'command'.padEnd(width)}  median ms  ratio   cpu ms  ratio  goal (median ratio)\n`)
  for (const r of rows) {
    const goal = r.goal === undefined ? '' : `≤ ${r.goal.toFixed(1)}× ${r.ok ? 'ok' : 'MISSED'}`
    process.stdout.write(
      `${r.name.padEnd(width)}  ${r.median.toFixed(1).padStart(9)}  ${r.ratio.toFixed(2).padStart(4)}×  ` +
        `${r.cpu.toFixed(1).padStart(7)}  ${r.cpuRatio.toFixed(2).padStart(4)}×  ${goal}\n`,
    )
  }
  if (options.markdown) {
    process.stdout.write('\n| command | median (ms) | ratio | CPU, user + sys (ms) | ratio | goal |\n| --- | --- | --- | --- | --- | --- |\n')
    for (const r of rows) {
      const goal = r.goal === undefined ? '' : `≤ ${r.goal.toFixed(1)}×`
      process.stdout.write(
        `| \`${r.name}\` | ${r.median.toFixed(0)} | ${r.ratio.toFixed(2)}× | ${r.cpu.toFixed(0)} | ${r.cpuRatio.toFixed(2)}× | ${goal} |\n`,
      )
    }
  }
  if (rows.some((r) => !r.ok)) exitCode = 1
} finally {
  await sandbox.close()
  rmSync(work, {recursive: true, force: true})
}
process.exit(exitCode)

function parseArgs(argv) {
  const parsed = {build: true, runs: 40, warmup: 5, markdown: false, verbose: false}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--no-build') parsed.build = false
    else if (arg === '--markdown') parsed.markdown = true
    else if (arg === '--verbose') parsed.verbose = true
    else if (arg === '--runs' || arg === '--warmup') parsed[arg.slice(2)] = positive(arg, argv[++i])
    else {
      process.stderr.write(`unknown option ${arg}\nusage: node bench/startup/run.mjs [--no-build] [--runs N] [--warmup N] [--markdown] [--verbose]\n`)
      process.exit(2)
    }
  }
  return parsed
}

function positive(name, value) {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`${name} needs a whole number\n`)
    process.exit(2)
  }
  return n
}

async function createPayment(sb) {
  const response = await fetch(`${sb.url}/v1/payments`, {
    method: 'POST',
    headers: {'x-api-key': sb.keys.sandbox, 'content-type': 'application/json'},
    body: JSON.stringify({amount: 1000, phone_number: '237670000001', operator: 'MTN'}),
  })
  const body = await response.json()
  if (!response.ok || typeof body.id !== 'string') throw new Error(`creating a payment: ${response.status} ${JSON.stringify(body)}`)
  return body.id
}

/** Runs a case once (asynchronously: the sandbox answers from this process's event loop). */
async function mustSucceed(c) {
  const [file, ...args] = c.command.split(' ')
  const status = await run(file, args, {stdio: 'ignore', env: benchEnv()})
  if (status !== 0) throw new Error(`${c.name} exited ${status}: ${c.command}`)
}

function benchEnv() {
  // The compile cache (bin/compile-cache.cjs) in the work directory: the first successful run of
  // each case (mustSucceed) writes it, as a user's first call would.
  return {...process.env, SVC_CONFIG_DIR: configDir, SVC_CACHE_DIR: join(work, 'cache')}
}

function run(file, args, spawnOptions) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {env: benchEnv(), ...spawnOptions})
    child.on('error', reject)
    child.on('close', (code) => resolve(code))
  })
}
