/**
 * Benchmark of the local sandbox, in memory and on SQLite (`--data`) in the same run: status
 * reads/s (of one payment, and of random payments among all stored), creates/s, p99 latencies,
 * the first page of the list, the sandbox process's RSS, and for SQLite the restart time on the
 * seeded data; in memory twice, with the request journal on and off, for what the journal costs.
 * The SQLite file is seeded first with `--stored` payments straight through the store
 * (bench/sandbox/seed.mjs). Rate limit off. Runs the built library: `npm run build` first.
 *
 *   node --import tsx bench/sandbox/run.ts [--duration 10] [--connections 10] [--stored 1000000] [--only memory|sqlite] [--seeded FILE]
 *
 * `--seeded FILE`: seed FILE once and keep it; later runs with the same FILE skip the seeding (it
 * grows by the creates of each run).
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(args[i + 1])
}
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined
const duration = arg('duration', 10)
const connections = arg('connections', 10)
const stored = arg('stored', 1_000_000)
const seededFile = args.includes('--seeded') ? args[args.indexOf('--seeded') + 1] : undefined
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))
if (!existsSync(here('../../dist/sandbox/index.js'))) throw new Error('Build first: npm run build')

interface Result {
  requests: {average: number; total: number}
  latency: {p50: number; p99: number; average: number}
  non2xx: number
  errors: number
}

interface Server {
  child: ChildProcess
  url: string
  key: string
  adminToken: string
  pid: number
  open_ms: number
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!
  return Math.round(Number(line.split(/\s+/)[1]) / 1024)
}

function cannon(options: Record<string, unknown>): Promise<Result> {
  return autocannon({connections, pipelining: 1, ...options}) as Promise<Result>
}

async function start(dataFile?: string, journal = true): Promise<Server> {
  const child = spawn(process.execPath, ['--expose-gc', here('./server.mjs'), ...(dataFile ? ['--data', dataFile] : []), ...(journal ? [] : ['--no-journal'])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const first = await new Promise<string>((resolve) => createInterface({input: child.stdout!}).once('line', resolve))
  return {child, ...(JSON.parse(first) as Omit<Server, 'child'>)}
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve())
    server.child.kill('SIGTERM')
  })
}

function memoryAfterGc(server: Server): Promise<{rss: number; heapUsed: number}> {
  return new Promise((resolve) => {
    server.child.stderr!.on('data', (chunk: Buffer) => {
      const line = chunk.toString().split('\n').find((l) => l.startsWith('{"memory"'))
      if (line) resolve((JSON.parse(line) as {memory: {rss: number; heapUsed: number}}).memory)
    })
    server.child.kill('SIGUSR2')
  })
}

const createBody = JSON.stringify({amount: 1500, phone_number: '237670000001', operator: 'MTN'})

interface Figures {
  mode: string
  stored: number
  readsOne: Result
  creates: Result
  readsRandom: Result
  list: Result
  listFailed: Result
  rss: number
  rssAfterGc: number
  open_ms: number
  restart?: {open_ms: number; first_answer_ms: number}
}

async function measure(mode: string, dataFile?: string, seededIds: string[] = [], journal = true): Promise<Figures> {
  const server = await start(dataFile, journal)
  try {
    const headers = {'x-api-key': server.key, 'content-type': 'application/json'}
    const one = (await fetch(`${server.url}/v1/payments`, {method: 'POST', headers, body: createBody}).then((r) => r.json())) as {id: string}
    await cannon({url: `${server.url}/v1/payments/${one.id}/status`, headers, duration: 2})
    const readsOne = await cannon({url: `${server.url}/v1/payments/${one.id}/status`, headers, duration})
    const created: string[] = []
    const creates = await cannon({
      url: `${server.url}/v1/payments`,
      method: 'POST',
      headers,
      body: createBody,
      duration,
      requests: [{onResponse: (status: number, body: string) => status === 201 && created.push((JSON.parse(body) as {id: string}).id)}],
    })
    // Let the settlements of the creates run (2 s of sandbox time).
    await fetch(`${server.url}/_admin/clock/advance`, {
      method: 'POST',
      headers: {authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json'},
      body: '{"ms":10000}',
    })
    const ids = [...seededIds, ...created]
    const readsRandom = await cannon({
      url: server.url,
      headers,
      duration,
      requests: [{setupRequest: (request: Record<string, unknown>) => ({...request, path: `/v1/payments/${ids[Math.floor(Math.random() * ids.length)]}/status`})}],
    })
    const list = await cannon({url: `${server.url}/v1/payments?limit=20`, headers, duration: Math.max(3, Math.round(duration / 2))})
    const listFailed = await cannon({url: `${server.url}/v1/payments?limit=20&status=FAILED`, headers, duration: Math.max(3, Math.round(duration / 2))})
    const total = ((await fetch(`${server.url}/v1/payments?limit=1`, {headers}).then((r) => r.json())) as {total: number}).total
    const rss = rssMb(server.pid)
    const memory = await memoryAfterGc(server)
    const figures: Figures = {
      mode,
      stored: total,
      readsOne,
      creates,
      readsRandom,
      list,
      listFailed,
      rss,
      rssAfterGc: Math.round(memory.rss / 1024 / 1024),
      open_ms: server.open_ms,
    }
    await stop(server)
    // Restart: from spawning the process to the first answer of a status read (in memory: a new,
    // empty sandbox, which is the cost of starting a process at all).
    const t0 = performance.now()
    const again = await start(dataFile)
    const response = await fetch(`${again.url}/v1/payments/${dataFile ? ids[0] : 'svcpay_test_000000000000000000000000'}/status`, {
      headers: {'x-api-key': again.key},
    })
    await response.arrayBuffer()
    figures.restart = {open_ms: again.open_ms, first_answer_ms: Math.round(performance.now() - t0)}
    if (response.status !== (dataFile ? 200 : 404)) throw new Error(`after restart: ${response.status}`)
    await stop(again)
    return figures
  } finally {
    if (server.child.exitCode === null) await stop(server)
  }
}

const results: Figures[] = []
if (only !== 'sqlite') {
  results.push(await measure('memory'))
  results.push(await measure('memory, journal off', undefined, [], false))
}
if (only !== 'memory') {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'))
  const dataFile = seededFile ?? join(dir, 'sandbox.db')
  try {
    if (!existsSync(`${dataFile}.ids.json`)) {
      const t0 = performance.now()
      const seeding = spawn(process.execPath, [here('./seed.mjs'), dataFile, String(stored)], {stdio: ['ignore', 'pipe', 'inherit']})
      const seeded = await new Promise<string>((resolve) => createInterface({input: seeding.stdout!}).once('line', resolve))
      await new Promise((resolve) => seeding.once('exit', resolve))
      console.error(`seeded: ${seeded}, ${Math.round((performance.now() - t0) / 1000)} s with start-up; file ${Math.round(statSync(dataFile).size / 1024 / 1024)} MB`)
    }
    const ids = JSON.parse(readFileSync(`${dataFile}.ids.json`, 'utf8')) as string[]
    results.push(await measure('sqlite', dataFile, ids))
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

const n = (value: number) => Math.round(value).toLocaleString('en')
console.log(`\nNode ${process.version}, ${connections} connections, ${duration} s per run, rate limit off\n`)
console.log('| run | ' + results.map((r) => `${r.mode} (${n(r.stored)} payments at the end)`).join(' | ') + ' |')
console.log('| --- |' + results.map(() => ' --- |').join(''))
const row = (name: string, pick: (r: Figures) => string) => console.log(`| ${name} | ${results.map(pick).join(' | ')} |`)
const rate = (key: 'readsOne' | 'creates' | 'readsRandom' | 'list' | 'listFailed') => (r: Figures) =>
  `${n(r[key].requests.average)}/s, p50 ${r[key].latency.p50} ms, p99 ${r[key].latency.p99} ms${r[key].non2xx + r[key].errors ? `, ${r[key].non2xx + r[key].errors} errors` : ''}`
row('status reads, one payment', rate('readsOne'))
row('creates', rate('creates'))
row('status reads, random payments', rate('readsRandom'))
row('list, first page', rate('list'))
row('list, first page of FAILED', rate('listFailed'))
row('RSS after the runs / after a full GC', (r) => `${r.rss} MB / ${r.rssAfterGc} MB`)
row('start (store opened, listening)', (r) => `${r.open_ms} ms`)
row('restart: sandbox started / first answer, from spawning the process', (r) => (r.restart ? `${r.restart.open_ms} ms / ${r.restart.first_answer_ms} ms` : ''))
const [withJournal, withoutJournal] = results
if (withoutJournal?.mode === 'memory, journal off') {
  const cost = (key: 'readsOne' | 'creates' | 'readsRandom') => `${((1 - withJournal[key].requests.average / withoutJournal[key].requests.average) * 100).toFixed(1)} %`
  console.log(`\nRequest journal's cost (in memory, on vs off): status reads (one) ${cost('readsOne')}, status reads (random) ${cost('readsRandom')}, creates ${cost('creates')}`)
}
const sqliteRun = results.find((r) => r.mode === 'sqlite')
if (sqliteRun && results[0].mode === 'memory') {
  const [memory, sqlite] = [results[0], sqliteRun]
  console.log(
    `\nSQLite / memory: status reads (one) ${(sqlite.readsOne.requests.average / memory.readsOne.requests.average).toFixed(2)}×, ` +
      `status reads (random) ${(sqlite.readsRandom.requests.average / memory.readsRandom.requests.average).toFixed(2)}×, ` +
      `creates ${(sqlite.creates.requests.average / memory.creates.requests.average).toFixed(2)}×`,
  )
}
