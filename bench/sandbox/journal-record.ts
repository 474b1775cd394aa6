/**
 * The journal's own work per request, in one process and without HTTP (so that the load of a
 * shared machine moves it less than the end-to-end bench, journal-cost.ts): captures shaped as a
 * create's (each request and answer different, an Idempotency-Key each) and as a status read's
 * (the same again and again), recorded into a Journal in memory, its CPU time per request
 * (process.cpuUsage). Run it in two checkouts one after the other to compare them:
 *
 *   node --import tsx bench/sandbox/journal-record.ts [--requests 200000] [--rounds 5]
 */
import {Journal, type Capture} from '../../src/sandbox/journal.js'
import {MemoryStore} from '../../src/sandbox/store.js'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback)
const requests = arg('requests', 200_000)
const rounds = arg('rounds', 5)

const headers = (n: number) => ['Host', '127.0.0.1:8787', 'User-Agent', 'svc/0.1.0', 'Accept', 'application/json', 'X-API-Key', 'svc_sk_test_0123456789abcdefghijklmnopqrstuv', 'Content-Type', 'application/json', 'Idempotency-Key', `key-${n}`]
const answerHeaders = {date: 'Sat, 28 Nov 2026 09:00:00 GMT', 'content-type': 'application/json; charset=utf-8', 'content-length': 310}
const status = JSON.stringify({id: 'svcpay_test_0AbCdEfGhIjKlMnOpQrStUv', status: 'PENDING', failure_code: null, updated_at: '2026-11-28T09:00:00.000Z'})
const readHeaders = headers(0)

function create(n: number): Capture {
  const body = Buffer.from(JSON.stringify({amount: 1000 + (n % 900), phone_number: '237670000001', operator: 'MTN', description: `Order ${n}`}))
  const answer = JSON.stringify({id: `svcpay_test_${n.toString(36).padStart(24, '0')}`, amount: 1000 + (n % 900), currency: 'XAF', status: 'PENDING', phone_number: '237670000001', operator: 'MTN', description: `Order ${n}`, created_at: '2026-11-28T09:00:00.000Z', updated_at: '2026-11-28T09:00:00.000Z', environment: 'SANDBOX'})
  return {at: Date.now(), started: 0, clock: {monotonic: () => 0}, method: 'POST', url: '/v1/payments', ip: '127.0.0.1', rawHeaders: headers(n), key: undefined, requestBody: body, status: 201, responseHeaders: {...answerHeaders}, responseBody: answer, durationMs: 0.5}
}

function read(): Capture {
  return {at: Date.now(), started: 0, clock: {monotonic: () => 0}, method: 'GET', url: '/v1/payments/svcpay_test_0AbCdEfGhIjKlMnOpQrStUv/status', ip: '127.0.0.1', rawHeaders: [...readHeaders], key: undefined, requestBody: undefined, status: 200, responseHeaders: {...answerHeaders}, responseBody: status.slice(0), durationMs: 0.2}
}

function measure(make: (n: number) => Capture): number {
  const journal = new Journal(new MemoryStore())
  // The captures are made beforehand: what is timed is the journal's work.
  const captures = Array.from({length: requests}, (_, n) => make(n))
  const before = process.cpuUsage()
  for (const capture of captures) journal.record(capture)
  journal.list({}, 1)
  const used = process.cpuUsage(before)
  return (used.user + used.system) / requests
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const creates: number[] = []
const reads: number[] = []
for (let round = 0; round < rounds; round++) {
  creates.push(measure(create))
  reads.push(measure(read))
}
console.log(`journal CPU per request, median of ${rounds} rounds of ${requests}: creates ${median(creates).toFixed(2)} µs (${creates.map((v) => v.toFixed(2)).join(', ')}), status reads ${median(reads).toFixed(2)} µs (${reads.map((v) => v.toFixed(2)).join(', ')})`)
