/**
 * `svc invoice create --from INV_ID` against the local sandbox: a new draft with that invoice's
 * customer and items; flags override; a new invoice with its own Idempotency-Key.
 */
import {describe, expect} from 'vitest'

import {tempConfigDir} from '../helpers/config-dir.js'
import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import type {TestSandbox} from '../helpers/sandbox.js'

// The file's sandbox and a config dir per test (test/helpers/fixtures.ts); `cli`: the commands
// in-process on them; `source`: the published invoice the copies are made from, once for the file.
const it = test.extend<{cli: ReturnType<TestSandbox['cli']>; source: any}>({
  cli: async ({sandbox, temp}, use) => use(sandbox.cli(temp.dir, 'sandbox', runInProcess)),
  source: [
    async ({sandbox}, use) => {
      const temp = tempConfigDir()
      try {
        const made = await sandbox.cli(temp.dir, 'sandbox', runInProcess)([
          'invoice', 'create', '--customer-name', 'Awa Bakery', '--email', 'awa@example.com', '--phone', '670000001', '--due-date', '2099-01-31',
          '--item', 'Bread:500:3', '--item', 'Cake:2500:1', '--discount', '10', '--notes', 'Thank you', '--external-reference', 'PO-1', '--publish', '--json',
        ])
        expect(made.exitCode, made.stderr).toBe(0)
        await use(JSON.parse(made.stdout))
      } finally {
        temp.cleanup()
      }
    },
    {scope: 'file'},
  ],
})

describe('invoice create --from', () => {
  it("copies the customer, items, discount and notes into a new DRAFT with its own key", async ({cli, source}) => {
    const copy = await cli(['invoice', 'create', '--from', source.id, '--due-date', '2099-03-31', '--json', '--verbose'])
    expect(copy.exitCode, copy.stderr).toBe(0)
    const invoice = JSON.parse(copy.stdout)
    expect(invoice.id).not.toBe(source.id)
    expect(invoice).toMatchObject({
      status: 'DRAFT',
      customer_name: 'Awa Bakery',
      customer_email: 'awa@example.com',
      customer_phone: source.customer_phone,
      due_date: '2099-03-31',
      discount_percent: 10,
      notes: 'Thank you',
      total_amount: source.total_amount,
    })
    expect(invoice.items.map((i: any) => [i.name, i.price, i.quantity])).toEqual([['Bread', 500, 3], ['Cake', 2500, 1]])
    // Not the source's reference: a new invoice takes the profile's next number.
    expect(invoice.external_reference).not.toBe(source.external_reference)
    expect(invoice.external_reference).toMatch(/^FAC-\d{4}-\d{4}$/)
    // Its own Idempotency-Key: a second run makes a third invoice, not a replay of the second.
    const again = await cli(['invoice', 'create', '--from', source.id, '--due-date', '2099-03-31', '--json'])
    expect(JSON.parse(again.stdout).id).not.toBe(invoice.id)
  })

  it('flags override what is copied', async ({cli, source}) => {
    const copy = await cli(['invoice', 'create', '--from', source.id, '--due-date', '2099-04-30', '--customer-name', 'Ndolo', '--item', 'Tea:300:2', '--discount', '0', '--json'])
    expect(copy.exitCode, copy.stderr).toBe(0)
    const invoice = JSON.parse(copy.stdout)
    expect(invoice).toMatchObject({customer_name: 'Ndolo', customer_email: 'awa@example.com', total_amount: 600})
    expect(invoice.items).toHaveLength(1)
  })

  it('without --due-date (not a terminal) names the missing flag; an unknown invoice exits 4; --from with --from-file is refused', async ({cli, source}) => {
    const missing = await cli(['invoice', 'create', '--from', source.id])
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toContain('--due-date')
    const unknown = await cli(['invoice', 'create', '--from', 'inv_test_nope', '--due-date', '2099-03-31'])
    expect(unknown.exitCode).toBe(4)
    const both = await cli(['invoice', 'create', '--from', source.id, '--from-file', 'x.json', '--due-date', '2099-03-31'])
    expect(both.exitCode).toBe(2)
  })
})
