import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import type {CliResult} from '../helpers/cli.js'
import {test} from '../helpers/fixtures.js'
import {startFaultProxy} from '../helpers/fault-proxy.js'
import {runInProcess} from '../helpers/in-process.js'
import {parseField} from '../../src/lib/raw/request.js'

type Run = (args: string[], env?: Record<string, string>, input?: string) => Promise<CliResult>

// The file's sandbox and a config dir per test (test/helpers/fixtures.ts), and the runner on them.
const it = test.extend<{inProcess: Run}>({
  // The command class in-process (same arguments, same result as a child process), stdin the input.
  inProcess: async ({sandbox, temp}, use) => use((args, env = sandbox.env(), input) => runInProcess(args, {configDir: temp.dir, env, input})),
})

describe('svc api', () => {
  it('GET with -F fields as the query; the body as JSON on stdout', async ({inProcess}) => {
    const r = await inProcess(['api', 'GET', '/v1/payments', '-F', 'limit=2'])
    expect(r.exitCode, r.stderr).toBe(0)
    const body = JSON.parse(r.stdout)
    expect(body).toMatchObject({limit: 2, offset: 0})
    expect(Array.isArray(body.data)).toBe(true)
  })

  it('POST with -d inline, @file and - (stdin); -F typed fields make the body', async ({sandbox, temp, inProcess}) => {
    const payment = {amount: 1200, phone_number: '237670000001', operator: 'MTN'}
    const inline = JSON.parse((await inProcess(['api', 'POST', '/v1/payments', '-d', JSON.stringify(payment)])).stdout)
    expect(inline).toMatchObject({status: 'PENDING', amount: 1200})
    const file = join(temp.dir, '..', 'payment.json')
    writeFileSync(file, JSON.stringify({...payment, amount: 1300}))
    expect(JSON.parse((await inProcess(['api', 'POST', 'v1/payments', '-d', `@${file}`])).stdout).amount).toBe(1300)
    const stdin = await inProcess(['api', 'POST', '/v1/payments', '-d', '-'], sandbox.env(), JSON.stringify({...payment, amount: 1400}))
    expect(JSON.parse(stdin.stdout).amount).toBe(1400)
    const fields = await inProcess(['api', 'POST', '/v1/payments', '-F', 'amount=1500', '-f', 'phone_number=237670000001', '-f', 'operator=MTN'])
    expect(JSON.parse(fields.stdout)).toMatchObject({amount: 1500, phone_number: '237670000001'})
    // -F types digits as a number, as gh does: the service refuses a numeric phone_number (400 → exit 2).
    const typed = await inProcess(['api', 'POST', '/v1/payments', '-F', 'amount=1500', '-F', 'phone_number=237670000001', '-f', 'operator=MTN'])
    expect(typed.exitCode).toBe(2)
  })

  it('-i prints the status line and headers first, then the body', async ({inProcess}) => {
    const r = await inProcess(['api', 'GET', '/v1/payments?limit=1', '-i'])
    expect(r.stdout).toMatch(/^HTTP 200\n/)
    expect(r.stdout).toMatch(/^content-type: application\/json/im)
    expect(r.stdout).toMatch(/\n\n\{/)
  })

  it('an error status maps to the exit codes of the README, with the service message', async ({sandbox, inProcess}) => {
    const bad = await inProcess(['api', 'POST', '/v1/payments', '-d', '{"amount":0,"phone_number":"237670000001","operator":"MTN"}'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/amount/)
    expect((await inProcess(['api', 'GET', '/v1/payments/svcpay_test_nope/status'])).exitCode).toBe(4)
    expect((await inProcess(['api', 'GET', '/v1/payments'], {...sandbox.env(), SVC_API_KEY: 'svc_sk_test_unknownunknown'})).exitCode).toBe(3)
    const json = await inProcess(['api', 'GET', '/v1/payments/svcpay_test_nope/status', '--json'])
    expect(JSON.parse(json.stdout).error).toMatchObject({status: 404, code: 'not_found'})
  })

  it('refuses bad input locally: method, absolute URL, invalid JSON, -d with -F', async ({inProcess}) => {
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

  it('POST /v1/payments through svc api is never retried, POST /v1/invoices always carries an Idempotency-Key', async ({sandbox, inProcess}) => {
    const proxy = await startFaultProxy(sandbox.sb.url, [
      {method: 'POST', path: /^\/v1\/payments$/, fault: {kind: 'status', status: 503, body: '{"message":"down"}'}},
    ])
    try {
      const r = await inProcess(['api', 'POST', '/v1/payments', '-d', '{"amount":100,"phone_number":"237670000001","operator":"MTN"}'], {
        ...sandbox.env(),
        SVC_BASE_URL: proxy.url,
      })
      expect(r.exitCode).toBe(7)
      expect(proxy.seen.filter((s) => s === 'POST /v1/payments')).toHaveLength(1)
    } finally {
      await proxy.close()
    }
    const invoice = {customer_name: 'Awa', due_date: '2027-01-31', items: [{name: 'Bread', price: 500, quantity: 1}]}
    const verbose = await inProcess(['api', 'POST', '/v1/invoices', '-d', JSON.stringify(invoice), '--verbose'])
    expect(verbose.exitCode, verbose.stderr).toBe(0)
    expect(verbose.stderr).toMatch(/idempotency-key: [0-9a-f-]{36}/i)
  })
})

describe('svc api as gh api', () => {
  it('-F typing: true, false, null, numbers, @FILE; -f: the text as written', () => {
    const readFile = (path: string) => `text of ${path}`
    expect(parseField('a=true', {readFile})).toEqual(['a', true])
    expect(parseField('a=false', {readFile})).toEqual(['a', false])
    expect(parseField('a=null', {readFile})).toEqual(['a', null])
    expect(parseField('a=1250', {readFile})).toEqual(['a', 1250])
    expect(parseField('a=@notes.txt', {readFile})).toEqual(['a', 'text of notes.txt'])
    expect(parseField('a=@notes.txt', {raw: true})).toEqual(['a', '@notes.txt'])
    expect(parseField('a=true', {raw: true})).toEqual(['a', 'true'])
  })

  it('svc api PATH is a GET; fields switch it to POST as in gh, -X GET makes them the query', async ({inProcess}) => {
    const list = await inProcess(['api', '/v1/payments'])
    expect(list.exitCode, list.stderr).toBe(0)
    expect(Array.isArray(JSON.parse(list.stdout).data)).toBe(true)
    const query = await inProcess(['api', '/v1/payments', '-X', 'GET', '-F', 'limit=1'])
    expect(JSON.parse(query.stdout)).toMatchObject({limit: 1})
    const created = await inProcess(['api', '/v1/payments', '-F', 'amount=1700', '-f', 'phone_number=237670000001', '-f', 'operator=MTN'])
    expect(created.exitCode, created.stderr).toBe(0)
    expect(JSON.parse(created.stdout)).toMatchObject({status: 'PENDING', amount: 1700})
    const lower = await inProcess(['api', '/v1/payments', '--method', 'get', '-f', 'limit=2'])
    expect(JSON.parse(lower.stdout)).toMatchObject({limit: 2})
  })

  it('-F types true, false, null and numbers, and reads @FILE; -f keeps the text as written', async ({temp, inProcess}) => {
    const file = join(temp.dir, '..', 'name.txt')
    writeFileSync(file, 'Awa Bakery')
    const invoice = join(temp.dir, '..', 'invoice.json')
    writeFileSync(invoice, JSON.stringify({customer_name: 'x', due_date: '2099-12-31', items: [{name: 'Bread', price: 500, quantity: 2}]}))
    const fromFile = await inProcess(['api', '/v1/invoices', '--input', invoice, '--verbose'])
    expect(fromFile.exitCode, fromFile.stderr).toBe(0)
    expect(JSON.parse(fromFile.stdout)).toMatchObject({status: 'DRAFT', total_amount: 1000})
    const fields = await inProcess(['api', '/v1/invoices', '-F', `customer_name=@${file}`, '-f', 'due_date=2099-12-31', '-F', 'discount_percent=10', '-F', 'items=null'])
    // Typed as gh types them: the service names the field it refuses (items null), not the others.
    expect(fields.exitCode).toBe(2)
    expect(fields.stderr).toMatch(/items/)
    expect(fromFile.stderr).toMatch(/idempotency-key: [0-9a-f-]{36}/i)
    const typed = await inProcess(['api', '/v1/payments', '-F', 'amount=1800', '-F', `phone_number=@${file}`, '-f', 'operator=MTN'])
    // The file's text is the value: not a phone number, so the service answers 400 naming it.
    expect(typed.exitCode).toBe(2)
    expect(typed.stderr).toMatch(/phone/i)
  })

  it('--input - reads the body from stdin; a missing --input file is named', async ({sandbox, inProcess}) => {
    const body = {amount: 1900, phone_number: '237670000001', operator: 'MTN'}
    const stdin = await inProcess(['api', '/v1/payments', '--input', '-'], sandbox.env(), JSON.stringify(body))
    expect(stdin.exitCode, stdin.stderr).toBe(0)
    expect(JSON.parse(stdin.stdout)).toMatchObject({amount: 1900})
    const missing = await inProcess(['api', '/v1/payments', '--input', 'nope.json'])
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toMatch(/nope\.json.*--input.*no such file/)
  })

  it('-H sends a header (an Idempotency-Key given so is the one used); --include shows the status line', async ({inProcess}) => {
    const invoice = {customer_name: 'Awa', due_date: '2099-01-31', items: [{name: 'Bread', price: 500, quantity: 1}]}
    const args = ['api', '/v1/invoices', '-d', JSON.stringify(invoice), '-H', 'Idempotency-Key: i30a-header-key', '--include']
    const first = await inProcess(args)
    const again = await inProcess(args)
    expect(first.exitCode, first.stderr).toBe(0)
    expect(first.stdout).toMatch(/^HTTP 201\n/)
    const id = (r: {stdout: string}) => JSON.parse(r.stdout.slice(r.stdout.indexOf('\n\n') + 2)).id
    expect(id(again)).toBe(id(first))
    const bad = await inProcess(['api', '/v1/payments', '-H', 'no colon'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/-H/)
  })

  it('--paginate follows the envelopes (offset for payments, page for invoices) into one array; --jq filters it', async ({inProcess}) => {
    for (let i = 0; i < 3; i++) await inProcess(['api', '/v1/payments', '-F', `amount=${2000 + i}`, '-f', 'phone_number=237670000001', '-f', 'operator=MTN'])
    const all = JSON.parse((await inProcess(['api', '/v1/payments', '-X', 'GET', '-F', 'limit=100'])).stdout).data
    const paged = await inProcess(['api', '/v1/payments', '-X', 'GET', '-F', 'limit=2', '--paginate'])
    expect(paged.exitCode, paged.stderr).toBe(0)
    expect(JSON.parse(paged.stdout).map((p: {id: string}) => p.id)).toEqual(all.map((p: {id: string}) => p.id))
    const invoices = await inProcess(['api', '/v1/invoices', '-X', 'GET', '-F', 'page_size=1', '--paginate', '--jq', 'length'])
    expect(invoices.exitCode, invoices.stderr).toBe(0)
    expect(Number(invoices.stdout.trim())).toBeGreaterThanOrEqual(2)
    expect((await inProcess(['api', '/v1/payments', '-X', 'POST', '--paginate'])).exitCode).toBe(2)
  })

  it('the METHOD PATH form keeps working; a method given twice is refused', async ({inProcess}) => {
    expect((await inProcess(['api', 'GET', '/v1/payments'])).exitCode).toBe(0)
    const twice = await inProcess(['api', 'GET', '/v1/payments', '-X', 'POST'])
    expect(twice.exitCode).toBe(2)
    expect(twice.stderr).toMatch(/twice/)
  })
})

describe('svc openapi', () => {
  it('prints the document (no key needed) and a table of operations', async ({sandbox, inProcess}) => {
    const doc = await inProcess(['openapi'], {SVC_BASE_URL: sandbox.sb.url})
    expect(doc.exitCode, doc.stderr).toBe(0)
    expect(JSON.parse(doc.stdout).openapi).toMatch(/^3\.1/)
    const ops = await inProcess(['openapi', '--operations'], {SVC_BASE_URL: sandbox.sb.url})
    expect(ops.stdout).toMatch(/POST\s+\/v1\/payments\s+createPayment/)
    expect(ops.stdout).toMatch(/GET\s+\/v1\/invoices\/\{invoiceId\}\/pdf/)
    const rows = JSON.parse((await inProcess(['openapi', '--operations', '--json'], {SVC_BASE_URL: sandbox.sb.url})).stdout)
    expect(rows).toContainEqual(expect.objectContaining({method: 'GET', path: '/v1/payments/{paymentId}/status'}))
    expect(rows.some((r: {path: string}) => r.path.startsWith('/_admin'))).toBe(false)
  })
})
