// Seed a sandbox data file with N settled payments, inserted directly through the store in one
// transaction (not over HTTP: a million creates over HTTP would measure the HTTP layer for
// minutes). Writes a sample of the ids (up to 100,000, spread over the whole range) to FILE.ids.json.
//   node bench/sandbox/seed.mjs FILE N
import {randomBytes} from 'node:crypto'
import {writeFileSync} from 'node:fs'
import {performance} from 'node:perf_hooks'
import {startSandbox} from '../../dist/sandbox/index.js'

const [dataFile, countArg] = process.argv.slice(2)
const count = Number(countArg)
if (!dataFile || !Number.isInteger(count) || count <= 0) throw new Error('usage: seed.mjs FILE N')

const sb = await startSandbox({rateLimit: 0, seed: 1, dataFile})
const payments = sb.services.payments.collection('SANDBOX')
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const token = (length) => Array.from(randomBytes(length), (b) => ALPHABET[b % 62]).join('')
const started = performance.now()
const base = Date.now() - count * 1000
const sample = []
const every = Math.max(1, Math.floor(count / 100_000))
// One synchronous loop: the store's transaction commits at the end of this turn.
for (let i = 0; i < count; i++) {
  const failed = i % 4 === 3
  const id = `svcpay_test_${token(24)}`
  payments.insert({
    id,
    payment: {
      id,
      status: failed ? 'FAILED' : 'SUCCESS',
      amount: 100 + (i % 50_000),
      currency: 'XAF',
      payment_method: 'mobile_money',
      environment: 'SANDBOX',
      created_at: new Date(base + i * 1000).toISOString(),
      internal_transaction_id: `txn_${token(20)}`,
      phone_number: `2376${String(70_000_000 + (i % 9_999_999)).padStart(8, '0')}`,
      ...(failed ? {failure_code: 'INSUFFICIENT_FUNDS'} : {}),
    },
    operator: 'MTN',
    outcome: failed ? {status: 'FAILED', failure_code: 'INSUFFICIENT_FUNDS'} : {status: 'SUCCESS'},
  })
  if (i % every === 0) sample.push(id)
}
await new Promise((resolve) => setImmediate(resolve))
const seconds = (performance.now() - started) / 1000
await sb.close()
writeFileSync(`${dataFile}.ids.json`, JSON.stringify(sample))
process.stdout.write(`${JSON.stringify({seeded: count, seconds: Math.round(seconds * 10) / 10})}\n`)
