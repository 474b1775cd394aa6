/**
 * Benchmark of `svc webhooks listen`'s forwarding path: 5,000 signed events at 500/s POSTed to the
 * listener's receiver (inbound verification on, event log on), forwarded re-signed to a local sink.
 *
 *   node --import tsx bench/listen/run.ts [--events 5000] [--rate 500] [--no-log]
 *
 * Added latency = time from the sender starting its POST to the listener until the sink has the
 * forwarded request, minus the direct sender→sink latency measured the same way beforehand (the
 * cost of one local HTTP hop the app would pay anyway). Both raw figures are printed too. The
 * listener runs alone in this process, as in real use; the sender and the sink run together in a
 * child process so that both ends of each measurement read the same clock.
 *
 * Measured 2026-11-22 on the idle 2-core machine (load ~1.2), Node 20.20.2, 5,000 events at 500/s:
 *   added p50 0.52 ms, p90 0.96 ms, p99 3.75 ms; lost 0, bad signatures at the sink 0
 *   (direct hop p50 0.20, p99 0.53; listener CPU ~0.8 ms per event, verification and log on).
 *   PASS: added p99 < 5 ms, loss 0.
 *
 * Earlier, on the same machine SHARED with other engineers' test suites (load
 * average 4.5 to 10 throughout, so every figure below is under 2-5x CPU oversubscription):
 *   5,000 events at 500/s, load 6.3:  added p50 0.54 ms, p90 2.55 ms, p99 31.5 ms, max 99 ms; lost 0,
 *                                     duplicates 0, bad signatures 0 (direct hop p50 0.17, p99 0.45)
 *   3,000 events at 500/s, load 4.8:  added p50 0.32 ms, p90 0.67 ms, p99 2.41 ms; lost 0 (earlier,
 *                                     single-process version of this script)
 *   5,000 events at 500/s, load 8.4-10.6: the listener process falls behind (added p50 1.8 s, p99 4.1 s),
 *                                     still lost 0; listener CPU 420-890 us/event under that contention.
 * At 2,000/s (--events 16000 --rate 2000), 2026-11-25 16:11, the 2-core machine nearly idle (load
 * 0.4-0.7), Node 20.20.2, event log on, three runs: added p50 0.48-0.50 ms, p90 0.71-0.89 ms,
 * p99 3.28-3.72 ms; lost 0; listener CPU 270-279 us per event. PASS. Measured after a warm-up of
 * two seconds of traffic: the first second at 2,000/s (JIT, modules loaded on first use) has
 * latencies of 60-140 ms, which the 500-event warm-up used before left in the figures (p99 73-138
 * ms). Two fixes on the way: the duplicate filter evicted from the front of a Set (O(n) per event
 * once 10,000 ids were held), now two generations (docs/reliability.md, section 9); and this
 * script's load process disconnected before its report was written, so runs of more than ~10,000
 * events waited for ever.
 * Targets: added p99 < 5 ms, loss 0.
 */
import {fork} from 'node:child_process'
import {mkdtemp, rm} from 'node:fs/promises'
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'
import {Pool} from 'undici'
import {generateSecret, openEventLog, signPayload, startListener, verifyPayload} from '../../src/lib/webhooks/index.js'

const {values} = parseArgs({
  options: {
    events: {type: 'string', default: '5000'},
    rate: {type: 'string', default: '500'},
    // Without the event log, to see what logging costs.
    'no-log': {type: 'boolean', default: false},
  },
})
const TOTAL = Number(values.events)
const RATE = Number(values.rate)
// Two seconds of traffic (at least 500 events) before measuring: the listener is a long-running
// process, and its first second at 2,000/s is spent compiling (JIT, the modules it loads on first
// use), with latencies of 60-140 ms that a listener running for a day never sees again.
const WARMUP = Math.max(500, Math.round(Number(values.rate) * 2))

interface Sink {
  url: string
  arrivals: Map<string, number>
  invalid: number
  duplicates: number
  close(): Promise<void>
}

async function startSink(secret: string | undefined): Promise<Sink> {
  const arrivals = new Map<string, number>()
  const sink: Sink = {url: '', arrivals, invalid: 0, duplicates: 0, close: async () => undefined}
  const server = createServer({keepAliveTimeout: 10_000}, (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const at = performance.now()
      const body = Buffer.concat(chunks).toString('utf8')
      const id = request.headers['webhook-id'] as string
      if (secret && !verifyPayload(secret, request.headers, body).ok) sink.invalid++
      if (arrivals.has(id)) sink.duplicates++
      else arrivals.set(id, at)
      response.writeHead(200, {'content-length': 0}).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  sink.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return sink
}

function eventBody(n: number): {id: string; body: string} {
  const id = `evt_bench_${String(n).padStart(6, '0')}`
  const body = JSON.stringify({
    id,
    type: n % 5 === 0 ? 'payment.failed' : 'payment.success',
    created_at: new Date().toISOString(),
    environment: 'SANDBOX',
    data: {
      id: `svcpay_test_${n}`,
      status: n % 5 === 0 ? 'FAILED' : 'SUCCESS',
      amount: 1500 + n,
      currency: 'XAF',
      payment_method: 'mobile_money',
      environment: 'SANDBOX',
      phone_number: '237670000001',
      created_at: new Date().toISOString(),
    },
  })
  return {id, body}
}

/** Send `count` events at `rate`/s to `target`, each signed with `secret`; returns send-start times. */
async function drive(target: string, secret: string, count: number, rate: number, prefix: number) {
  const pool = new Pool(target, {connections: 16, keepAliveTimeout: 10_000})
  const sentAt = new Map<string, number>()
  const failures: string[] = []
  const prepared = Array.from({length: count}, (_, i) => {
    const {id, body} = eventBody(prefix + i)
    return {id, body, headers: {'content-type': 'application/json', ...signPayload(secret, id, body)}}
  })
  const interval = 1000 / rate
  const start = performance.now()
  const inflight: Promise<void>[] = []
  let next = 0
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(count, Math.floor((performance.now() - start) / interval) + 1)
      while (next < due) {
        const item = prepared[next++]
        sentAt.set(item.id, performance.now())
        inflight.push(
          pool
            .request({path: '/', method: 'POST', headers: item.headers, body: item.body})
            .then(async (response) => {
              await response.body.dump()
              if (response.statusCode !== 200) failures.push(`${item.id}: ${response.statusCode}`)
            })
            .catch((error: Error) => {
              failures.push(`${item.id}: ${error.message}`)
            }),
        )
      }
      if (next >= count) resolve()
      else setTimeout(tick, Math.max(0, interval * next - (performance.now() - start) - 0.2))
    }
    tick()
  })
  await Promise.all(inflight)
  await pool.close()
  return {sentAt, failures, seconds: (performance.now() - start) / 1000}
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

function latencies(sentAt: Map<string, number>, arrivals: Map<string, number>, skip: number): number[] {
  const out: number[] = []
  let i = 0
  for (const [id, t0] of sentAt) {
    if (i++ < skip) continue
    const t1 = arrivals.get(id)
    if (t1 !== undefined) out.push(t1 - t0)
  }
  return out.sort((a, b) => a - b)
}

async function waitUntil(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
}

const fmt = (n: number) => n.toFixed(2)

type FromLoad = {type: 'sink'; url: string} | {type: 'report'; report: LoadReport}
type ToLoad = {type: 'go'; listenerUrl: string}
interface LoadReport {
  events: number
  send_seconds: number
  direct: number[]
  via: number[]
  lost: number
  duplicates: number
  invalid: number
  inbound_failures: number
}

/**
 * The child process: the sender and the sink (the developer's app) share its clock, so
 * send-to-arrival times are exact; the listener runs alone in the parent, as it would in real use.
 */
async function loadProcess(inboundSecret: string, localSecret: string): Promise<void> {
  // Resolves once the message is written: the report (every latency) outgrows the pipe's buffer,
  // and a disconnect before then dropped it, leaving the parent waiting for ever past ~10,000 events.
  const send = (message: FromLoad) => new Promise<void>((resolve) => process.send!(message, undefined, {}, () => resolve()))
  // Baseline: the sender straight to a sink (what one local hop costs without the listener).
  const direct = await startSink(undefined)
  const baseRun = await drive(direct.url, inboundSecret, Math.min(TOTAL, 2000) + WARMUP, RATE, 0)
  await waitUntil(() => direct.arrivals.size >= baseRun.sentAt.size, 5_000)
  const base = latencies(baseRun.sentAt, direct.arrivals, WARMUP)
  await direct.close()

  const sink = await startSink(localSecret)
  const go = new Promise<ToLoad>((resolve) => process.once('message', (message) => resolve(message as ToLoad)))
  await send({type: 'sink', url: sink.url})
  const {listenerUrl} = await go
  const run = await drive(listenerUrl, inboundSecret, TOTAL + WARMUP, RATE, 1_000_000)
  await waitUntil(() => sink.arrivals.size >= run.sentAt.size, 10_000)
  const measured = [...run.sentAt.keys()].slice(WARMUP)
  await send({
    type: 'report',
    report: {
      events: measured.length,
      send_seconds: run.seconds,
      direct: base,
      via: latencies(run.sentAt, sink.arrivals, WARMUP),
      lost: measured.filter((id) => !sink.arrivals.has(id)).length,
      duplicates: sink.duplicates,
      invalid: sink.invalid,
      inbound_failures: run.failures.length,
    },
  })
  await sink.close()
  process.disconnect()
}

async function main(): Promise<void> {
  const inboundSecret = generateSecret()
  const localSecret = generateSecret()
  const child = fork(fileURLToPath(import.meta.url), ['--events', String(TOTAL), '--rate', String(RATE)], {
    execArgv: ['--import', 'tsx'],
    env: {...process.env, BENCH_LISTEN_ROLE: 'load', BENCH_INBOUND_SECRET: inboundSecret, BENCH_LOCAL_SECRET: localSecret},
  })
  const messages: FromLoad[] = []
  let wake: (() => void) | undefined
  child.on('message', (message) => {
    messages.push(message as FromLoad)
    wake?.()
  })
  const next = async (): Promise<FromLoad> => {
    while (messages.length === 0) await new Promise<void>((resolve) => (wake = resolve))
    return messages.shift()!
  }

  const sinkMessage = await next()
  if (sinkMessage.type !== 'sink') throw new Error('unexpected message from the load process')
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-listen-'))
  const log = values['no-log'] ? undefined : await openEventLog({dir})
  const listener = await startListener({
    localSecret,
    inboundSecret,
    routes: {defaultUrl: sinkMessage.url + '/webhooks', byType: {}},
    eventLog: log,
  })
  const cpuBefore = process.cpuUsage()
  child.send({type: 'go', listenerUrl: listener.url} satisfies ToLoad)
  const reportMessage = await next()
  const cpu = process.cpuUsage(cpuBefore)
  if (reportMessage.type !== 'report') throw new Error('unexpected message from the load process')
  const {pending} = await listener.close()
  await log?.close()
  await rm(dir, {recursive: true, force: true})

  const r = reportMessage.report
  const baseP50 = percentile(r.direct, 50)
  const added = r.via.map((v) => v - baseP50)
  const report = {
    events: r.events,
    rate: RATE,
    send_seconds: Number(r.send_seconds.toFixed(2)),
    direct_ms: {p50: fmt(baseP50), p99: fmt(percentile(r.direct, 99))},
    via_listener_ms: {p50: fmt(percentile(r.via, 50)), p99: fmt(percentile(r.via, 99)), max: fmt(r.via.at(-1) ?? NaN)},
    added_ms: {p50: fmt(percentile(added, 50)), p90: fmt(percentile(added, 90)), p99: fmt(percentile(added, 99))},
    lost: r.lost,
    duplicates_at_sink: r.duplicates,
    invalid_signatures_at_sink: r.invalid,
    inbound_failures: r.inbound_failures,
    pending_at_close: pending.length,
    listener_cpu_us_per_event: Math.round((cpu.user + cpu.system) / (r.events + WARMUP)),
    listener_stats: listener.stats,
  }
  console.log(JSON.stringify(report, null, 2))
  const pass = Number(report.added_ms.p99) < 5 && r.lost === 0 && r.invalid === 0
  console.log(pass ? 'PASS: added p99 < 5 ms, loss 0' : 'FAIL: targets are added p99 < 5 ms, loss 0')
  process.exitCode = pass ? 0 : 1
}

if (process.env.BENCH_LISTEN_ROLE === 'load') {
  await loadProcess(process.env.BENCH_INBOUND_SECRET!, process.env.BENCH_LOCAL_SECRET!)
} else {
  await main()
}
