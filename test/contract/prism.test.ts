/**
 * The contract, checked by someone else: CLI commands run through `prism proxy <the sandbox's
 * /v1/openapi.json> <sandbox URL> --errors`, which validates every request and response against
 * the published document (a violation becomes a 500 and a log line). Zero violations expected,
 * on success and on the error paths the CLI meets (401, 404, 409). A last, deliberately invalid
 * request checks that prism does catch one (so this test can fail).
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'

import type {CliResult} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {freePort} from '../helpers/fault-proxy.js'

const PRISM = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url))
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

let sandbox: TestSandbox
let prism: ChildProcess
let prismUrl: string
let log = ''
let dir: string

/** Lines of prism's log that report a problem with a request or a response. */
function violations(text: string): string[] {
  return text.split('\n').filter((line) => /violation|✖|⚠|\berror\b|warning/i.test(line))
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-prism-'))
  sandbox = await startTestSandbox({settleAfterMs: 200})
  const doc = await (await fetch(`${sandbox.sb.url}/v1/openapi.json`)).text()
  const docPath = join(dir, 'openapi.json')
  writeFileSync(docPath, doc)
  writeFileSync(join(dir, 'logo.png'), PNG)
  // prism has no port 0: take a free port (bound, then released).
  const port = await freePort()
  prismUrl = `http://127.0.0.1:${port}`
  prism = spawn(PRISM, ['proxy', docPath, sandbox.sb.url, '--errors', '-h', '127.0.0.1', '-p', String(port)], {stdio: ['ignore', 'pipe', 'pipe']})
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${log}`)), 25_000)
    const onData = (chunk: Buffer) => {
      log += chunk.toString('utf8')
      if (log.includes('Prism is listening')) {
        clearTimeout(timer)
        resolve()
      }
    }
    prism.stdout!.on('data', onData)
    prism.stderr!.on('data', onData)
    prism.on('exit', (code) => reject(new Error(`prism exited ${code}:\n${log}`)))
  })
}, 40_000)

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((resolve) => prism.once('exit', resolve))
    prism.kill('SIGTERM')
    await exited
  }
  await sandbox?.close()
  rmSync(dir, {recursive: true, force: true})
})

// In-process: what is checked is the requests and answers prism sees, and the exit codes.
const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  runInProcess(args, {
    configDir: join(dir, 'config'),
    env: {SVC_API_KEY: sandbox.sb.keys.sandbox, SVC_BASE_URL: prismUrl, SVC_RATE_LIMIT: '0', SVC_TIMEOUT: '10s', ...env},
  })

let marks = 0

/**
 * Prism logs asynchronously, with no line that says it is done. So after a command, a request of
 * our own (a mark) goes through prism: its lines come after everything prism logged before it
 * answered the mark (the command's requests, their violations, written before each answer), and
 * once the mark's answer is logged, all of that has arrived. Returns where the mark's lines start.
 */
async function mark(): Promise<number> {
  const name = `svc_test_mark_${++marks}`
  const response = await fetch(`${prismUrl}/v1/openapi.json?${name}=1`, {headers: {'x-api-key': sandbox.sb.keys.sandbox}})
  await response.arrayBuffer()
  const forwarding = new RegExp(`Forwarding "get" request to \\S+/v1/openapi\\.json\\?${name}=1`)
  await vi.waitFor(
    () => {
      const at = log.search(forwarding)
      expect(at, `prism logged the mark ${name}`).toBeGreaterThan(-1)
      expect(log.slice(at)).toMatch(/Received forward response/)
    },
    {timeout: 20_000, interval: 10},
  )
  const received = log.lastIndexOf('Request received', log.search(forwarding))
  return log.lastIndexOf('\n', received) + 1
}

async function expectExit(args: string[], code: number, env?: Record<string, string>): Promise<CliResult> {
  const before = log.length
  const r = await cli(args, env)
  const end = await mark()
  const seen = log.slice(before, end)
  expect(r.exitCode, `svc ${args.join(' ')}\n${r.stdout.slice(0, 800)}\n${r.stderr}\nprism:\n${seen}`).toBe(code)
  expect(violations(seen), `svc ${args.join(' ')}: prism found violations`).toEqual([])
  expect(seen, `svc ${args.join(' ')} went through prism`).toMatch(/Request received/)
  expect(seen).not.toMatch(/has returned 5\d\d/)
  return r
}

describe('the CLI against prism proxy --errors (requests and responses validated against /v1/openapi.json)', () => {
  it('payments: create, status, list, watch, api, openapi; 401 and 404 answers', async () => {
    const created = JSON.parse((await expectExit(['pay', 'create', '--amount', '5000', '--phone', '670000001', '--json'], 0)).stdout)
    await expectExit(['pay', 'status', created.id], 0)
    await expectExit(['pay', 'list', '--limit', '5', '--status', 'PENDING'], 0)
    await expectExit(['pay', 'watch', created.id, '--interval', '250ms', '--timeout', '20s'], 0)
    await expectExit(['pay', 'create', '--amount', '700', '--phone', '670000099', '--watch', '--interval', '250ms'], 1)
    await expectExit(['api', 'GET', '/v1/payments', '-F', 'limit=2', '-F', 'offset=1'], 0)
    await expectExit(['openapi', '--operations'], 0)
    // An id of the shape the description states (its pattern), that no payment has.
    await expectExit(['pay', 'status', 'svcpay_test_0000000000000000NotThere'], 4)
    await expectExit(['pay', 'list'], 3, {SVC_API_KEY: 'svc_sk_test_notarealkey0000'})
    await expectExit(['report', 'collections', '--since', '1d'], 0)
  }, 90_000)

  it('invoices: create (with a cover), list, get, publish, send, pdf, cancel; 404 and 409 answers', async () => {
    await expectExit(['files', 'upload', join(dir, 'logo.png')], 0)
    const invoice = JSON.parse(
      (
        await expectExit(
          ['invoice', 'create', '--customer-name', 'Awa Bakery', '--due-date', '2099-12-31', '--item', 'Bread:500:3', '--item', 'Cake:2500:1',
            '--discount', '10', '--email', 'awa@example.com', '--phone', '+237670000001', '--notes', 'Merci', '--external-reference', 'REF-1',
            '--cover', join(dir, 'logo.png'), '--json'],
          0,
        )
      ).stdout,
    )
    await expectExit(['invoice', 'pdf', invoice.id, '-o', join(dir, 'draft.pdf')], 5)
    await expectExit(['invoice', 'send', invoice.id], 5)
    await expectExit(['invoice', 'list', '--status', 'DRAFT', '--page-size', '5'], 0)
    await expectExit(['invoice', 'get', invoice.id], 0)
    await expectExit(['invoice', 'publish', invoice.id, '--channel', 'EMAIL', '--to-email', 'boss@example.com'], 0)
    await expectExit(['invoice', 'send', invoice.id, '--channel', 'WHATSAPP'], 0)
    await expectExit(['invoice', 'pdf', invoice.id, '-o', join(dir, 'invoice.pdf')], 0)
    await expectExit(['invoice', 'cancel', invoice.id], 0)
    await expectExit(['invoice', 'cancel', invoice.id], 0)
    await expectExit(['invoice', 'get', 'inv_test_0000000000000000NotThere'], 4)
    await expectExit(['report', 'receivables'], 0)
    const csv = join(dir, 'rows.csv')
    writeFileSync(csv, 'customer_name,due_date,items,discount_percent\nRow One,2099-12-31,Bread:500:3,5\nRow Two,2099-12-31,Cake:2500:1;Tea:300:2,\n')
    await expectExit(['invoice', 'import', csv, '--publish'], 0)
  }, 120_000)

  it('control: a request the document forbids is caught by prism (so the checks above can fail)', async () => {
    const before = log.length
    const r = await cli(['api', 'POST', '/v1/payments', '-F', 'amount=0', '-f', 'phone_number=237670000001', '-f', 'operator=MTN'])
    const end = await mark()
  const seen = log.slice(before, end)
    expect(r.exitCode).not.toBe(0)
    expect(violations(seen).length).toBeGreaterThan(0)
    // Nothing reached the sandbox.
    const payments = await sandbox.get('/v1/payments?limit=100')
    expect(payments.data.filter((p: any) => p.amount === 0)).toEqual([])
  })
})
