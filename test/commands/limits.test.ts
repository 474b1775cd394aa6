// The CLI refuses locally what the service would refuse by its limits (docs/service.md,
// "Limits"): exit 2, nothing sent. And a 413 is bad input: exit 2,
// never retried.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import type {CliResult} from '../helpers/cli.js'
import {startFaultProxy, type FaultProxy} from '../helpers/fault-proxy.js'
import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'

// The file's sandbox behind a proxy with no faults (it only counts what reaches the service), and
// the command run in-process through it (validation and exit codes, not the process).
const it = test.extend<{proxy: FaultProxy; cli: (args: string[]) => Promise<CliResult>}>({
  proxy: [
    async ({sandbox}, use) => {
      const proxy = await startFaultProxy(sandbox.sb.url, [])
      try {
        await use(proxy)
      } finally {
        await proxy.close()
      }
    },
    {scope: 'file'},
  ],
  cli: async ({sandbox, proxy, temp}, use) => {
    proxy.seen.length = 0
    await use((args) => runInProcess(args, {configDir: temp.dir, env: {SVC_API_KEY: sandbox.sb.keys.sandbox, SVC_BASE_URL: proxy.url}}))
  },
})

const INVOICE = ['invoice', 'create', '--customer-name', 'Awa Bakery', '--due-date', '2099-12-31']

describe('out-of-range values are refused before anything is sent', () => {
  it.for([
    ['an amount over 10^12', ['pay', 'create', '--amount', '1000000000001', '--phone', '670000001', '--operator', 'MTN'], /amount/],
    ['a price over 10^12', [...INVOICE, '--item', 'Bread:1000000000001:1'], /item/],
    ['a quantity over 10^6', [...INVOICE, '--item', 'Bread:500:1000001'], /item/],
    ['a subtotal over 10^15', [...INVOICE, '--item', 'Gold:1000000000000:1000', '--item', 'Silver:1000000000000:1000'], /total/],
    ['a customer name over 200 characters', ['invoice', 'create', '--customer-name', 'A'.repeat(201), '--due-date', '2099-12-31', '--item', 'Bread:500:1'], /customer-name/],
    ['an item name over 200 characters', [...INVOICE, '--item', `${'B'.repeat(201)}:500:1`], /item/],
    ['notes over 2000 characters', [...INVOICE, '--item', 'Bread:500:1', '--notes', 'n'.repeat(2001)], /notes/],
    ['an email over 254 characters', [...INVOICE, '--item', 'Bread:500:1', '--email', `${'e'.repeat(250)}@example.com`], /email/],
  ] as const)('%s: exit 2, nothing sent', async ([, args, field], {cli, proxy}) => {
    const r = await cli([...args])
    expect(r.exitCode, r.stderr).toBe(2)
    expect(r.stderr).toMatch(field)
    expect(proxy.seen.filter((line) => !line.startsWith('GET'))).toEqual([])
  })

  it('the largest values pass: amount 10^12', async ({cli}) => {
    const r = await cli(['pay', 'create', '--amount', '1000000000000', '--phone', '670000001', '--operator', 'MTN', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).amount).toBe(1_000_000_000_000)
  })
})

describe('a 413 is bad input', () => {
  it('svc api with a body over 1 MiB: exit 2, payload_too_large, sent once even where a retry would be allowed', async ({cli, proxy, temp}) => {
    const file = join(temp.dir, '..', 'big.json')
    writeFileSync(file, JSON.stringify({customer_name: 'A', due_date: '2099-12-31', items: [{name: 'x', price: 500, quantity: 1}], notes: 'x'.repeat(2 * 1024 * 1024)}))
    const r = await cli(['api', 'POST', '/v1/invoices', '--idempotency-key', 'big-body-1', '-d', `@${file}`, '--json'])
    expect(r.exitCode, r.stderr).toBe(2)
    expect(JSON.parse(r.stdout).error).toMatchObject({status: 413, code: 'payload_too_large'})
    expect(proxy.seen.filter((line) => line === 'POST /v1/invoices')).toHaveLength(1)
  })
})
