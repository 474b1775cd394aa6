#!/usr/bin/env node
/**
 * Start-up benchmark (issues 8 and 24): hyperfine over `node -e 0`, Debian's `gh` (`--version`,
 * `config list`) and the calls a shell loop or CI makes most, both as installed from npm
 * (`node bin/run.cjs`) and as the single executable (dist-bin/svc, `npm run build:binary`); in
 * one run, without and with NODE_EXTRA_CA_CERTS (which every Node process then reads: ~30 ms).
 * Prints each median with its ratio to `node -e 0` and to `gh config list` from the same
 * hyperfine run, next to the goal.
 *
 *   node bench/startup/run.mjs                 # builds dist/ and the binary first
 *   node bench/startup/run.mjs --no-build --runs 60 --warmup 10
 *   node bench/startup/run.mjs --markdown      # also print the table for README's "Start-up"
 *   node bench/startup/run.mjs --compare ../base   # also the calls of another built checkout, same run
 *
 * Needs hyperfine (Debian/Ubuntu: `sudo apt-get install hyperfine`; elsewhere `cargo install
 * hyperfine` or https://github.com/sharkdp/hyperfine/releases) and gh (`sudo apt-get install gh`;
 * without it the gh rows and the goals against it are left out).
 *
 * `svc pay status ID` runs against a local sandbox started in this process (dist/sandbox,
 * rate limit off) holding one payment created over HTTP with its sandbox key: one API call.
 * The compile cache and the binary's unpacked files live in the run's temp directory (the first
 * call of each case, outside the timings, writes them, as a user's first call would).
 * With NODE_EXTRA_CA_CERTS: the value this process has, else Debian's CA bundle.
 * The machine's load moves every figure; compare ratios within one run, not across runs.
 */
import {spawn, spawnSync} from 'node:child_process'
import {copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const options = parseArgs(process.argv.slice(2))
const CA_CERTS = process.env.NODE_EXTRA_CA_CERTS || '/etc/ssl/certs/ca-certificates.crt'

const hyperfine = spawnSync('hyperfine', ['--version'], {encoding: 'utf8'})
if (hyperfine.error || hyperfine.status !== 0) {
  process.stderr.write(
    'hyperfine is not installed. Debian/Ubuntu: sudo apt-get install hyperfine\n' +
      '(elsewhere: cargo install hyperfine, or https://github.com/sharkdp/hyperfine/releases)\n',
  )
  process.exit(2)
}
const gh = spawnSync('gh', ['--version'], {encoding: 'utf8'})
const hasGh = !gh.error && gh.status === 0

if (options.build) {
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], {cwd: root, stdio: 'inherit'})
  if (build.status !== 0) process.exit(build.status ?? 1)
  const binary = spawnSync(process.execPath, [join(root, 'scripts/binary/build.mjs'), '--no-build'], {cwd: root, stdio: 'inherit'})
  if (binary.status !== 0) process.exit(binary.status ?? 1)
}

const work = mkdtempSync(join(tmpdir(), 'svc-startup-'))
const configDir = join(work, 'config')
// Measure a copy of the built CLI and binary: other builds in this checkout replace them while we run.
const cli = join(work, 'svc')
for (const name of ['bin', 'dist', 'package.json', 'oclif.manifest.json']) cpSync(join(root, name), join(cli, name), {recursive: true})
symlinkSync(join(root, 'node_modules'), join(cli, 'node_modules'))
const binary = join(work, 'svc-binary')
if (!existsSync(join(root, 'dist-bin/svc'))) {
  process.stderr.write('dist-bin/svc is missing: npm run build:binary (or run without --no-build)\n')
  process.exit(2)
}
copyFileSync(join(root, 'dist-bin/svc'), binary)
spawnSync('chmod', ['755', binary])
mkdirSync(join(work, 'gh'))
const {startSandbox} = await import(join(cli, 'dist/sandbox/index.js'))
const sandbox = await startSandbox({port: 0, rateLimit: 0, seed: 1})
let exitCode = 0
try {
  const paymentId = await createPayment(sandbox)
  const status = `pay status ${paymentId} --api-key ${sandbox.keys.sandbox} --base-url ${sandbox.url}`
  const npm = `${process.execPath} ${join(cli, 'bin/run.cjs')}`
  let before
  if (options.compare) {
    const copy = join(work, 'svc-before')
    for (const name of ['bin', 'dist', 'package.json', 'oclif.manifest.json']) cpSync(join(options.compare, name), join(copy, name), {recursive: true})
    symlinkSync(join(options.compare, 'node_modules'), join(copy, 'node_modules'))
    before = `${process.execPath} ${join(copy, 'bin/run.cjs')}`
  }
  // goal: ratio of the median to `node -e 0`'s; ghGoal: to `gh config list`'s (without NODE_EXTRA_CA_CERTS).
  const cases = [
    {name: 'node -e 0', command: `${process.execPath} -e 0`},
    ...(hasGh
      ? [
          {name: 'gh --version', command: 'gh --version'},
          {name: 'gh config list', command: 'gh config list'},
        ]
      : []),
    {name: 'svc --version', command: `${npm} --version`, goal: 1.3},
    {name: 'svc sandbox numbers', command: `${npm} sandbox numbers`, goal: 2.0},
    {name: 'svc profiles list', command: `${npm} profiles list`, goal: 2.0},
    {name: 'svc pay list --help', command: `${npm} pay list --help`, goal: 2.0},
    {name: 'svc pay status ID', command: `${npm} ${status}`, goal: 2.5},
    // For comparison, no goal: a call that compiles dist/ (the first after an install or an
    // upgrade, or with the cache turned off; `env` itself adds ~1 ms).
    {name: 'svc profiles list, no compile cache', command: `env SVC_DISABLE_COMPILE_CACHE=1 ${npm} profiles list`},
    // --compare DIR: the same calls of another built checkout (e.g. a worktree at an older commit), in the same run.
    ...(before
      ? [
          {name: 'before: svc --version', command: `${before} --version`},
          {name: 'before: svc sandbox numbers', command: `${before} sandbox numbers`},
          {name: 'before: svc profiles list', command: `${before} profiles list`},
          {name: 'before: svc pay list --help', command: `${before} pay list --help`},
          {name: 'before: svc pay status ID', command: `${before} ${status}`},
        ]
      : []),
    {name: 'binary: svc --version', command: `${binary} --version`},
    {name: 'binary: svc sandbox numbers', command: `${binary} sandbox numbers`, ghGoal: 1.0},
    {name: 'binary: svc profiles list', command: `${binary} profiles list`, ghGoal: 1.0},
    {name: 'binary: svc pay list --help', command: `${binary} pay list --help`},
    {name: 'binary: svc pay status ID', command: `${binary} ${status}`, ghGoal: 1.5},
  ]
  // Every command must succeed, or we would be timing an error path.
  for (const c of cases) await mustSucceed(c)

  const environments = [
    {name: 'without NODE_EXTRA_CA_CERTS', env: withoutCaCerts(benchEnv()), caCerts: false},
    {name: `with NODE_EXTRA_CA_CERTS=${CA_CERTS}`, env: {...benchEnv(), NODE_EXTRA_CA_CERTS: CA_CERTS}, caCerts: true},
  ]
  const tables = []
  for (const environment of environments) {
    const exportFile = join(work, 'hyperfine.json')
    const args = ['-N', '--warmup', String(options.warmup), '--runs', String(options.runs), '--export-json', exportFile, '--style', 'basic']
    for (const c of cases) args.push('--command-name', c.name, c.command)
    const code = await run('hyperfine', args, {env: environment.env, stdio: ['ignore', options.verbose ? 'inherit' : 'ignore', 'inherit']})
    // A failing run usually means dist/ changed under us (a build in the same checkout): run again.
    if (code !== 0) throw new Error(`hyperfine exited ${code} (a command failed during the runs; see above)`)
    const results = JSON.parse(readFileSync(exportFile, 'utf8')).results
    const ms = (seconds) => seconds * 1000
    const floor = ms(results[0].median)
    const ghIndex = cases.findIndex((c) => c.name === 'gh config list')
    // CPU time (user + system, mean) moves less with the machine's load than wall time: a second
    // view (gh's Go runtime spreads its work over threads, so its CPU time exceeds its wall time).
    const cpuOf = (r) => ms(r.user + r.system)
    const ghMedian = ghIndex === -1 ? undefined : ms(results[ghIndex].median)
    const ghCpu = ghIndex === -1 ? undefined : cpuOf(results[ghIndex])
    const rows = cases.map((c, i) => {
      const median = ms(results[i].median)
      const ratio = median / floor
      const ghRatio = ghMedian === undefined ? undefined : median / ghMedian
      // Each goal in the environment its issue set it in: the ratios to `node -e 0` (issue 8) with
      // NODE_EXTRA_CA_CERTS, the ratios to gh (issue 24) without.
      const goals = []
      if (c.goal !== undefined && environment.caCerts) goals.push({text: `≤ ${c.goal.toFixed(1)}× node`, ok: ratio <= c.goal})
      if (c.ghGoal !== undefined && ghRatio !== undefined && !environment.caCerts) goals.push({text: `≤ ${c.ghGoal.toFixed(1)}× gh config list`, ok: ghRatio <= c.ghGoal})
      const cpu = cpuOf(results[i])
      return {...c, median, ratio, ghRatio, cpu, ghCpuRatio: ghCpu === undefined ? undefined : cpu / ghCpu, goals}
    })
    tables.push({environment, rows})
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
    process.stdout.write(`\n${environment.name}: node ${process.version}, ${options.runs} runs after ${options.warmup} warm-ups, load average ${load}\n\n`)
    const width = Math.max(...rows.map((r) => r.name.length))
    process.stdout.write(`${'command'.padEnd(width)}  median ms  ÷ node  ÷ gh cfg  cpu ms  ÷ gh cfg  goal (median)\n`)
    for (const r of rows) {
      const goal = r.goals.map((g) => `${g.text} ${g.ok ? 'ok' : 'MISSED'}`).join(', ')
      process.stdout.write(
        `${r.name.padEnd(width)}  ${r.median.toFixed(1).padStart(9)}  ${r.ratio.toFixed(2).padStart(5)}×  ` +
          `${r.ghRatio === undefined ? '     ' : r.ghRatio.toFixed(2).padStart(5)}×  ${r.cpu.toFixed(1).padStart(6)}  ` +
          `${r.ghCpuRatio === undefined ? '     ' : r.ghCpuRatio.toFixed(2).padStart(5)}×  ${goal}\n`,
      )
      if (r.goals.some((g) => !g.ok)) exitCode = 1
    }
  }
  if (options.markdown) {
    const [without, withCerts] = tables
    process.stdout.write(
      '\n| command | without NODE_EXTRA_CA_CERTS: median (÷ node, ÷ gh config list) | CPU (÷ gh config list) | with: median (÷ node) | goal |\n| --- | --- | --- | --- | --- |\n',
    )
    without.rows.forEach((r, i) => {
      const w = withCerts.rows[i]
      const gh = r.ghRatio === undefined ? '' : `, ${r.ghRatio.toFixed(2)}×`
      const goal = [...r.goals.map((g) => `${g.text} (without)`), ...w.goals.map((g) => `${g.text} (with)`)].join(', ')
      const cpu = r.ghCpuRatio === undefined ? `${r.cpu.toFixed(1)} ms` : `${r.cpu.toFixed(1)} ms (${r.ghCpuRatio.toFixed(2)}×)`
      process.stdout.write(`| \`${r.name}\` | ${r.median.toFixed(1)} ms (${r.ratio.toFixed(2)}×${gh}) | ${cpu} | ${w.median.toFixed(1)} ms (${w.ratio.toFixed(2)}×) | ${goal} |\n`)
    })
  }
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
    else if (arg === '--compare') parsed.compare = argv[++i]
    else if (arg === '--runs' || arg === '--warmup') parsed[arg.slice(2)] = positive(arg, argv[++i])
    else {
      process.stderr.write(`unknown option ${arg}\nusage: node bench/startup/run.mjs [--no-build] [--runs N] [--warmup N] [--markdown] [--verbose] [--compare DIR]\n`)
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
  // The compile cache (bin/compile-cache.cjs) and the binary's unpacked files in the work
  // directory: the first successful run of each case (mustSucceed) writes them, as a user's first
  // call would. gh with a configuration of its own (empty: its defaults).
  return {...process.env, SVC_CONFIG_DIR: configDir, SVC_CACHE_DIR: join(work, 'cache'), GH_CONFIG_DIR: join(work, 'gh')}
}

function withoutCaCerts(env) {
  const copy = {...env}
  delete copy.NODE_EXTRA_CA_CERTS
  return copy
}

function run(file, args, spawnOptions) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {env: benchEnv(), ...spawnOptions})
    child.on('error', reject)
    child.on('close', (code) => resolve(code))
  })
}
