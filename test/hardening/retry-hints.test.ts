/**
 * Exit 7 from a write says what a safe retry needs (issue 18): `invoice create` and `svc api POST
 * /v1/invoices` show the Idempotency-Key they used and the exact command with
 * `--idempotency-key …`, and following it creates nothing twice; `invoice import`'s re-run hint
 * keeps every flag that matters (`--publish --channel …`), and following it publishes.
 */
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect} from 'vitest'

import {skippingClock} from '../helpers/clock.js'
import {runInProcess} from '../helpers/in-process.js'
import {allInvoices, it, type TestSandbox} from './fixtures.js'

// The runs' clock jumps through their waits (the retry's backoff): a retried request is sent at
// once; its deadline (SVC_TIMEOUT) keeps its real length.
const clock = skippingClock()
const env = (sb: TestSandbox, baseUrl: string) => ({SVC_BASE_URL: baseUrl, SVC_API_KEY: sb.sb.keys.sandbox, SVC_TIMEOUT: '1s', SVC_MAX_RETRIES: '1', SVC_RATE_LIMIT: '0'})
/** This test's CLI: in its own config dir, against `baseUrl` (the proxy, or the sandbox itself). */
const runner = (sb: TestSandbox, dir: string) => (args: string[], baseUrl: string) => runInProcess(args, {configDir: join(dir, 'config'), env: env(sb, baseUrl), clock})

/** The `svc …` command a hint gives, split as a POSIX shell would (single quotes and \' only). */
function commandIn(text: string): string[] {
  const line = /`svc ([^`]+)`/.exec(text)?.[1]
  expect(line, text).toBeTruthy()
  const words: string[] = []
  let word: string | undefined
  for (let i = 0; i < line!.length; i++) {
    const c = line![i]!
    if (c === ' ') {
      if (word !== undefined) words.push(word)
      word = undefined
    } else if (c === "'") {
      const end = line!.indexOf("'", i + 1)
      word = (word ?? '') + line!.slice(i + 1, end)
      i = end
    } else if (c === '\\') {
      word = (word ?? '') + line![++i]
    } else word = (word ?? '') + c
  }
  if (word !== undefined) words.push(word)
  return words
}

describe('exit 7 from a write: the key and the exact command for a safe retry', () => {
  it('invoice create: the answer lost after the service acted; the hinted command replays, one invoice', async ({sb, dir, proxy: faulty}) => {
    const run = runner(sb, dir)
    const proxy = await faulty([{method: 'POST', path: /^\/v1\/invoices$/, fault: {kind: 'status-after-forward', status: 503, body: ''}, times: 20}])
    const args = ['invoice', 'create', '--customer-name', "Awa's Bakery", '--due-date', '2099-12-31', '--item', 'Bread:500:3', '--notes', 'a b']
    const r = await run(args, proxy.url)
    expect(r.exitCode, r.stderr).toBe(7)
    const key = /Idempotency-Key: ([0-9a-f-]{36})/.exec(r.stderr)?.[1]
    expect(key, r.stderr).toBeTruthy()
    const again = commandIn(r.stderr)
    expect(again).toEqual([...args, '--idempotency-key', key])
    expect((await allInvoices(sb)).length).toBe(1)
    const retried = await run(again, sb.sb.url)
    expect(retried.exitCode, retried.stderr).toBe(0)
    expect((await allInvoices(sb)).length).toBe(1)
  })

  it('invoice create --json: the hint (key and command) is in the error envelope', async ({sb, dir, proxy: faulty}) => {
    const run = runner(sb, dir)
    const proxy = await faulty([{method: 'POST', path: /^\/v1\/invoices$/, fault: {kind: 'status', status: 502, body: ''}, times: 20}])
    const r = await run(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-12-31', '--item', 'Bread:500:3', '--idempotency-key', 'my-key-1', '--json'], proxy.url)
    expect(r.exitCode).toBe(7)
    const error = JSON.parse(r.stdout).error
    expect(error.hint).toContain('Idempotency-Key: my-key-1')
    expect(error.hint).toContain('--idempotency-key my-key-1`')
    expect(error.hint.match(/--idempotency-key/g)).toHaveLength(1)
  })

  it('a key given with --api-key is never printed in the command', async ({sb, dir, proxy: faulty}) => {
    const proxy = await faulty([{method: 'POST', path: /^\/v1\/invoices$/, fault: {kind: 'status', status: 502, body: ''}, times: 20}])
    const r = await runInProcess(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-12-31', '--item', 'Bread:500:3', '--api-key', sb.sb.keys.sandbox], {
      configDir: join(dir, 'config'),
      env: {...env(sb, proxy.url), SVC_API_KEY: undefined},
      clock,
    })
    expect(r.exitCode).toBe(7)
    expect(r.stderr).not.toContain(sb.sb.keys.sandbox)
    expect(r.stderr).toContain('--api-key "$SVC_API_KEY"')
  })

  it('invoice import: stopped by a 503 (exit 7), the re-run hint keeps --publish --channel, and following it publishes', async ({sb, dir, proxy: faulty}) => {
    const run = runner(sb, dir)
    const file = join(dir, 'rows.csv')
    writeFileSync(file, 'customer_name,customer_email,due_date,items\r\nRow One,one@example.com,2099-12-31,Bread:500:3\r\n')
    const proxy = await faulty([{method: 'POST', path: /^\/v1\/invoices$/, fault: {kind: 'status', status: 503, body: ''}, times: 20}])
    const args = ['invoice', 'import', file, '--publish', '--channel', 'EMAIL', '--concurrency', '1']
    const r = await run(args, proxy.url)
    expect(r.exitCode, r.stderr).toBe(7)
    // One line: the service named, and the command that resumes (docs/import.md).
    const again = commandIn(r.stderr.slice(r.stderr.indexOf('Resume with')))
    expect(again).toEqual(args)
    const retried = await run(again, sb.sb.url)
    expect(retried.exitCode, retried.stderr).toBe(0)
    const invoices = await allInvoices(sb)
    expect(invoices.map((i) => i.status)).toEqual(['UNPAID'])
  })
})
