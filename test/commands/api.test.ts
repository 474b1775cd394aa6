import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {startFaultProxy} from '../helpers/fault-proxy.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {runInProcess} from '../helpers/in-process.js'

let sandbox: TestSandbox
let temp: ReturnType<typeof tempConfigDir>
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox.close())
beforeEach(() => {
  temp = tempConfigDir()
})
afterEach(() => temp.cleanup())

const cli = (args: string[], env: Record<string, string> = sandbox.env(), input?: string) => runCli(args, {configDir: temp.dir, env, input})
// Flags, validation and formatting: the command class in-process (same arguments, same result).
const inProcess = (args: string[], env: Record<string, string> = sandbox.env()) => runInProcess(args, {configDir: temp.dir, env})

describe('svc api', () => {
  it('GET with -F fields as the query; the body as JSON on stdout', async () => {
    const r = await inProcess(['api', 'GET', '/v1/payments', '-F', 'limit=2'])
    expect(r.exitCode, r.stderr).toBe(0)
    const body = JSON.parse(r.stdout)
    expect(body).toMatchObject({limit: 2, offset: 0})
    expect(Array.isArray(body.data)).toBe(true)
  })

  it('POST with -d inline, @file and - (stdin); -F typed fields make the body', async () => {
    const payment = {amount: 1200, phone_number: '237670000001', operator: 'MTN'}
    const inline = JSON.parse((await cli(['api', 'POST', '/v1/payments', '-d', JSON.stringify(payment)])).stdout)
    expect(inline).toMatchObject({status: 'PENDING', amount: 1200})
    const file = join(temp.dir, '..', 'payment.json')
    writeFileSync(file, JSON.stringify({...payment, amount: 1300}))
    expect(JSON.parse((await cli(['api', 'POST', 'v1/payments', '-d', `@${file}`])).stdout).amount).toBe(1300)
    const stdin = await cli(['api', 'POST', '/v1/payments', '-d', '-'], sandbox.env(), JSON.stringify({...payment, amount: 1400}))
    expect(JSON.parse(stdin.stdout).amount).toBe(1400)
    const fields = await cli(['api', 'POST', '/v1/payments', '-F', 'amount=1500', '-f', 'phone_number=237670000001', '-f', 'operator=MTN'])
    expect(JSON.parse(fields.stdout)).toMatchObject({amount: 1500, phone_number: '237670000001'})
    // -F types digits as a number, as gh does: the service refuses a numeric phone_number (400 → exit 2).
    const typed = await cli(['api', 'POST', '/v1/payments', '-F', 'amount=1500', '-F', 'phone_number=237670000001', '-f', 'operator=MTN'])
    expect(typed.exitCode).toBe(2)
  })

  it('-i prints the status line and headers first, then the body', async () => {
    const r = await inProcess(['api', 'GET', '/v1/payments?limit=1', '-i'])
    expect(r.stdout).toMatch(/^HTTP 200\n/)
    expect(r.stdout).toMatch(/^content-type: application\/json/im)
    expect(r.stdout).toMatch(/\n\n\{/)
  })

  it('an error status maps to the exit codes of cli.md, with the service message', async () => {
    const bad = await inProcess(['api', 'POST', '/v1/payments', '-d', '{"amount":0,"phone_number":"237670000001","operator":"MTN"}'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/amount/)
    expect((await inProcess(['api', 'GET', '/v1/payments/svcpay_test_nope/status'])).exitCode).toBe(4)
    expect((await inProcess(['api', 'GET', '/v1/payments'], {...sandbox.env(), SVC_API_KEY: 'svc_sk_test_unknownunknown'})).exitCode).toBe(3)
    const json = await inProcess(['api', 'GET', '/v1/payments/svcpay_test_nope/status', '--json'])
    expect(JSON.parse(json.stdout).error).toMatchObject({status: 404, code: 'not_found'})
  })

  it('refuses bad input locally: method, absolute URL, invalid JSON, -d with -F', async () => {
    const cases: [string[], RegExp][] = [
      [['api', 'FETCH', '/v1/payments'], /method/i],
      [['api', 'GET', 'https://evil.example/v1/payments'], /full URL/],
      [['api', 'POST', '/v1/payments', '-d', '{oops'], /not valid JSON/],
      [['api', 'POST', '/v1/payments', '-d', '{}', '-F', 'a=1'], /either --data or --field/],
      [['api', 'POST', '/v1/payments', '-F', 'novalue'], /key=value/],
    ]
    for (const [args, message] of cases) {
      const r = await inProcess(args)
      expect(r.exitCode, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(message)
    }
  })

  it('POST /v1/payments through svc api is never retried, POST /v1/invoices always carries an Idempotency-Key', async () => {
    const proxy = await startFaultProxy(sandbox.sb.url, [
      {method: 'POST', path: /^\/v1\/payments$/, fault: {kind: 'status', status: 503, body: '{"message":"down"}'}},
    ])
    try {
      const r = await cli(['api', 'POST', '/v1/payments', '-d', '{"amount":100,"phone_number":"237670000001","operator":"MTN"}'], {
        ...sandbox.env(),
        SVC_BASE_URL: proxy.url,
      })
      expect(r.exitCode).toBe(7)
      expect(proxy.seen.filter((s) => s === 'POST /v1/payments')).toHaveLength(1)
    } finally {
      await proxy.close()
    }
    const invoice = {customer_name: 'Awa', due_date: '2027-01-31', items: [{name: 'Bread', price: 500, quantity: 1}]}
    const verbose = await cli(['api', 'POST', '/v1/invoices', '-d', JSON.stringify(invoice), '--verbose'])
    expect(verbose.exitCode, verbose.stderr).toBe(0)
    expect(verbose.stderr).toMatch(/idempotency-key: [0-9a-f-]{36}/i)
  })
})

describe('svc openapi', () => {
  it('prints the document (no key needed) and a table of operations', async () => {
    const doc = await cli(['openapi'], {SVC_BASE_URL: sandbox.sb.url})
    expect(doc.exitCode, doc.stderr).toBe(0)
    expect(JSON.parse(doc.stdout).openapi).toMatch(/^3\.1/)
    const ops = await cli(['openapi', '--operations'], {SVC_BASE_URL: sandbox.sb.url})
    expect(ops.stdout).toMatch(/POST\s+\/v1\/payments\s+createPayment/)
    expect(ops.stdout).toMatch(/GET\s+\/v1\/invoices\/\{invoiceId\}\/pdf/)
    const rows = JSON.parse((await cli(['openapi', '--operations', '--json'], {SVC_BASE_URL: sandbox.sb.url})).stdout)
    expect(rows).toContainEqual(expect.objectContaining({method: 'GET', path: '/v1/payments/{paymentId}/status'}))
    expect(rows.some((r: {path: string}) => r.path.startsWith('/_admin'))).toBe(false)
  })
})
