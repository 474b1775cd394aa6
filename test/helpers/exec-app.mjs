/**
 * A stand-in for an app under test, run as the CMD of `svc sandbox exec` (plain Node, no build):
 * it reads only what exec puts in its environment, as an app would.
 *
 *   node exec-app.mjs env OUT CODE       the SVC_* variables written to OUT, a payment created, exit CODE
 *   node exec-app.mjs wait OUT           the variables and its PID written to OUT, then waits for a signal
 *   node exec-app.mjs webhook PORT [live] serves PORT, creates a payment, verifies the event it receives
 *                                        with SVC_WEBHOOK_SECRET (exit 0), or exits 4 on a bad signature;
 *                                        `live`: a LIVE payment, approved on the customer's handset
 *   node exec-app.mjs fixtures           every id in SVC_FIXTURES_FILE read back from the sandbox (exit 0)
 */
import {createHmac, timingSafeEqual} from 'node:crypto'
import {readFileSync, renameSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:http'

const [mode, arg, code] = process.argv.slice(2)
const NAMES = ['SVC_BASE_URL', 'SVC_API_KEY', 'SVC_LIVE_API_KEY', 'SVC_WEBHOOK_SECRET', 'SVC_SANDBOX_URL', 'SVC_SANDBOX_ADMIN_TOKEN', 'SVC_FIXTURES_FILE', 'SVC_PROFILE']
const settings = () => Object.fromEntries(NAMES.map((name) => [name, process.env[name] ?? null]))

async function api(method, path, body, key = process.env.SVC_API_KEY) {
  const response = await fetch(`${process.env.SVC_BASE_URL}${path}`, {
    method,
    headers: {'x-api-key': key, ...(body ? {'content-type': 'application/json'} : {})},
    body: body ? JSON.stringify(body) : undefined,
  })
  return {status: response.status, body: await response.json()}
}

/** Whole or not at all: a test polls for the file. */
function writeWhole(path, value) {
  writeFileSync(`${path}.tmp`, JSON.stringify(value))
  renameSync(`${path}.tmp`, path)
}

const pay = (key) => api('POST', '/v1/payments', {amount: 1500, phone_number: '237670000001', operator: 'MTN', payment_method: 'mobile_money'}, key)

/** Standard Webhooks: v1 HMAC-SHA256 of `id.timestamp.body` with the secret's base64 key. */
function verified(secret, headers, body) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest()
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((part) => {
      const given = Buffer.from(part.split(',')[1] ?? '', 'base64')
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
}

if (mode === 'env') {
  const payment = await pay()
  writeWhole(arg, {...settings(), payment})
  process.exit(Number(code ?? 0))
} else if (mode === 'wait') {
  writeWhole(arg, {...settings(), pid: process.pid})
  setInterval(() => {}, 1000)
} else if (mode === 'webhook') {
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      response.writeHead(200).end()
      const ok = verified(process.env.SVC_WEBHOOK_SECRET ?? '', request.headers, body)
      process.stdout.write(`${ok ? 'verified' : 'bad signature'} ${JSON.parse(body).type}\n`)
      server.close()
      process.exit(ok ? 0 : 4)
    })
  })
  // No event within 30 s: an app whose webhook never came fails its test (exit 5), not the suite's timeout.
  setTimeout(() => {
    process.stdout.write('no event\n')
    process.exit(5)
  }, 30_000)
  server.listen(Number(arg), '127.0.0.1', async () => {
    const live = code === 'live'
    const payment = await pay(live ? process.env.SVC_LIVE_API_KEY : undefined)
    process.stdout.write(`created ${payment.body.id}\n`)
    if (live) {
      // The customer approves on the handset (the sandbox's admin surface stands in for it).
      await fetch(`${process.env.SVC_SANDBOX_URL}/_admin/payments/${payment.body.id}/approve`, {
        method: 'POST',
        headers: {authorization: `Bearer ${process.env.SVC_SANDBOX_ADMIN_TOKEN}`},
      })
    }
  })
} else if (mode === 'fixtures') {
  const answers = JSON.parse(readFileSync(process.env.SVC_FIXTURES_FILE, 'utf8'))
  const found = []
  for (const [step, answer] of Object.entries(answers)) {
    if (!answer?.id) continue
    const path = String(answer.id).startsWith('inv') ? `/v1/invoices/${answer.id}` : `/v1/payments/${answer.id}/status`
    const read = await api('GET', path)
    found.push({step, id: answer.id, status: read.status})
  }
  process.stdout.write(`${JSON.stringify(found)}\n`)
  process.exit(found.length > 0 && found.every((f) => f.status === 200) ? 0 : 1)
} else {
  process.stderr.write(`unknown mode ${mode}\n`)
  process.exit(64)
}
