// How fast the web inspector's pages answer with 100,000 payments stored (and 10,000 requests in
// the journal): each admin read a page makes, timed over HTTP, median and worst of 20, in memory
// and on SQLite (--data). Payments are inserted straight through the store (as seed.mjs does);
// the journal is filled over HTTP. Runs the built library: `npm run build` first.
//   node bench/sandbox/inspector-pages.mjs [--stored 100000]
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {startSandbox} from '../../dist/sandbox/index.js'

const at = process.argv.indexOf('--stored')
const stored = at === -1 ? 100_000 : Number(process.argv[at + 1])

// What each page reads (src/sandbox/inspector/assets/*.ts, one file per page): its slowest read is the page's time.
const PAGES = {
  requests: ['/_admin/requests?limit=100&summary=true', '/_admin/requests?status=4xx&limit=100&summary=true'],
  payments: ['/_admin/payments?environment=SANDBOX&limit=50', '/_admin/payments?environment=SANDBOX&status=FAILED&limit=50', '/_admin/invoices?environment=SANDBOX&limit=50', '/_admin/balance?environment=SANDBOX', '/_admin/fees', '/_admin/ledger?environment=SANDBOX&limit=20'],
  phone: ['/_admin/phone'],
  events: ['/_admin/events?environment=SANDBOX&limit=50'],
  outbox: ['/_admin/outbox?environment=SANDBOX&limit=50'],
  settings: ['/_admin/keys', '/_admin/webhook-endpoints', '/_admin/allowlist', '/_admin/business', '/_admin/fees', '/_admin/clock', '/_admin/operators', '/_admin/faults'],
}

async function run(dataFile) {
  const sb = await startSandbox({rateLimit: 0, seed: 1, dataFile})
  const payments = sb.services.payments.collection('SANDBOX')
  const base = Date.now() - stored * 1000
  for (let i = 0; i < stored; i++) {
    const failed = i % 4 === 3
    const id = `svcpay_test_${String(i).padStart(24, '0')}`
    payments.insert({
      id,
      payment: {id, status: failed ? 'FAILED' : 'SUCCESS', amount: 100 + i, currency: 'XAF', payment_method: 'mobile_money', environment: 'SANDBOX', created_at: new Date(base + i * 1000).toISOString(), internal_transaction_id: `txn_${i}`, phone_number: '237670000001', ...(failed ? {failure_code: 'INSUFFICIENT_FUNDS'} : {})},
      operator: 'MTN',
      outcome: failed ? {status: 'FAILED', failure_code: 'INSUFFICIENT_FUNDS'} : {status: 'SUCCESS'},
    })
  }
  await new Promise((resolve) => setImmediate(resolve))
  const headers = {'x-api-key': sb.keys.sandbox}
  for (let i = 0; i < 10_000; i++) await (await fetch(`${sb.url}/v1/payments?limit=5${i % 10 === 0 ? '&status=BAD' : ''}`, {headers})).arrayBuffer()
  const admin = {authorization: `Bearer ${sb.adminToken}`}
  const figures = {}
  for (const [page, paths] of Object.entries(PAGES)) {
    const times = []
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now()
      await Promise.all(paths.map(async (path) => {
        const response = await fetch(`${sb.url}${path}`, {headers: admin})
        if (!response.ok) throw new Error(`${path}: ${response.status}`)
        await response.arrayBuffer()
      }))
      times.push(performance.now() - t0)
    }
    times.sort((a, b) => a - b)
    figures[page] = `${times[10].toFixed(1)} ms (worst ${times[19].toFixed(1)} ms)`
  }
  await sb.close()
  return figures
}

const dir = mkdtempSync(join(tmpdir(), 'svc-inspector-bench-'))
try {
  const memory = await run(undefined)
  const sqlite = await run(join(dir, 'sandbox.db'))
  console.log(`\nNode ${process.version}, ${stored.toLocaleString('en')} payments and 10,000 journalled requests stored; each page's reads in parallel, median of 20\n`)
  console.log('| page | memory | SQLite (--data) |\n| --- | --- | --- |')
  for (const page of Object.keys(PAGES)) console.log(`| ${page} | ${memory[page]} | ${sqlite[page]} |`)
} finally {
  rmSync(dir, {recursive: true, force: true})
}
