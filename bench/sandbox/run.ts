/**
 * Benchmark of the local sandbox: status reads/s and creates/s with the rate limit off, p99
 * latency, and the sandbox process's RSS with 100,000 stored payments.
 *
 *   node --import tsx bench/sandbox/run.ts [--duration 10] [--connections 50] [--payments 100000]
 */
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(args[i + 1])
}
const duration = arg('duration', 10)
const connections = arg('connections', 50)
const target = arg('payments', 100_000)

interface Result {
  requests: {average: number; total: number}
  latency: {p50: number; p99: number; average: number}
  non2xx: number
  errors: number
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!
  return Math.round(Number(line.split(/\s+/)[1]) / 1024)
}

function cannon(options: Record<string, unknown>): Promise<Result> {
  return autocannon({connections, pipelining: 1, ...options}) as Promise<Result>
}

const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('./server.ts', import.meta.url))], {
  stdio: ['ignore', 'pipe', 'pipe'],
})
const first = await new Promise<string>((resolve) => createInterface({input: child.stdout!}).once('line', resolve))
const {url, key, adminToken, pid} = JSON.parse(first) as {url: string; key: string; adminToken: string; pid: number}
const headers = {'x-api-key': key, 'content-type': 'application/json'}
const createBody = JSON.stringify({amount: 1500, phone_number: '237670000001', operator: 'MTN'})

try {
  const created = await fetch(`${url}/v1/payments`, {method: 'POST', headers, body: createBody}).then((r) => r.json() as Promise<{id: string}>)
  // Warm-up.
  await cannon({url: `${url}/v1/payments/${created.id}/status`, headers, duration: 2})

  const reads = await cannon({url: `${url}/v1/payments/${created.id}/status`, headers, duration})
  const creates = await cannon({url: `${url}/v1/payments`, method: 'POST', headers, body: createBody, duration})

  // Fill up to the target count, then let every settlement run.
  const stored = async () =>
    (await fetch(`${url}/v1/payments?limit=1`, {headers}).then((r) => r.json() as Promise<{total: number}>)).total
  const missing = target - (await stored())
  if (missing > 0) await cannon({url: `${url}/v1/payments`, method: 'POST', headers, body: createBody, amount: missing})
  await fetch(`${url}/_admin/clock/advance`, {method: 'POST', headers: {authorization: `Bearer ${adminToken}`, 'content-type': 'application/json'}, body: '{"ms":10000}'})
  const count = await stored()
  const readsFull = await cannon({url: `${url}/v1/payments/${created.id}/status`, headers, duration})
  const listFull = await cannon({url: `${url}/v1/payments?limit=20&offset=0`, headers, duration: Math.max(3, Math.round(duration / 2))})
  const rss = rssMb(pid)
  // After a full garbage collection in the sandbox process (SIGUSR2, see server.ts).
  const memory = await new Promise<{rss: number; heapUsed: number}>((resolve) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      const line = chunk.toString().split('\n').find((l) => l.startsWith('{"memory"'))
      if (line) resolve((JSON.parse(line) as {memory: {rss: number; heapUsed: number}}).memory)
    })
    child.kill('SIGUSR2')
  })

  const row = (name: string, r: Result) =>
    `| ${name} | ${Math.round(r.requests.average).toLocaleString('en')} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors} |`
  console.log(`\nNode ${process.version}, ${connections} connections, ${duration} s per run, rate limit off\n`)
  console.log('| run | req/s | p50 ms | p99 ms | non-2xx |')
  console.log('| --- | --- | --- | --- | --- |')
  console.log(row('status reads (few payments)', reads))
  console.log(row('creates', creates))
  console.log(row(`status reads (${count.toLocaleString('en')} payments)`, readsFull))
  console.log(row(`list, first page (${count.toLocaleString('en')} payments)`, listFull))
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)
  console.log(`\nSandbox process with ${count.toLocaleString('en')} settled payments (and their events and ledger entries):`)
  console.log(`RSS ${rss} MB after the runs; after a full GC: RSS ${mb(memory.rss)} MB, heap used ${mb(memory.heapUsed)} MB`)
} finally {
  child.kill('SIGTERM')
}
