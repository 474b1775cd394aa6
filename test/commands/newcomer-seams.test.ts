/**
 * What a newcomer tripped on beside the import: `invoice get` offering a pay link for an invoice
 * nobody can pay any more, and svc's own reads (the service's description, `svc status`'s probe,
 * `svc login`'s key check) journalled as if the app had sent them.
 */
import {mkdirSync} from 'node:fs'
import {describe, expect} from 'vitest'

import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import type {TestSandbox} from '../helpers/sandbox.js'
import {payAtCheckout} from './invoice-helpers.js'

const it = withSandbox({settleAfterMs: 0})

const adminEnv = (sandbox: TestSandbox) => ({SVC_SANDBOX_URL: sandbox.sb.url, SVC_SANDBOX_ADMIN_TOKEN: sandbox.sb.adminToken})

describe('invoice get: a pay link only while the invoice can be paid', () => {
  it('shows the checkout link of an UNPAID invoice, not of a CANCELLED or PAID one; --json keeps the service\'s object', async ({sandbox, temp}) => {
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    const create = async (name: string) => {
      const r = await svc(['invoice', 'create', '--customer-name', name, '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--publish', '--json'])
      expect(r.exitCode, r.stderr).toBe(0)
      return JSON.parse(r.stdout) as {id: string; checkout_url: string}
    }
    const open = await create('Link Unpaid')
    expect(open.checkout_url).toBeTruthy()
    expect((await svc(['invoice', 'get', open.id])).stdout).toContain(open.checkout_url)

    expect((await svc(['invoice', 'cancel', open.id])).exitCode).toBe(0)
    const cancelled = await svc(['invoice', 'get', open.id])
    expect(cancelled.stdout).toMatch(/Status\s+CANCELLED/)
    expect(cancelled.stdout).not.toContain(open.checkout_url)
    expect(cancelled.stdout).not.toMatch(/Checkout/i)
    expect(JSON.parse((await svc(['invoice', 'get', open.id, '--json'])).stdout).status).toBe('CANCELLED')

    const paid = await create('Link Paid')
    await payAtCheckout(paid, 1500)
    await expect.poll(async () => JSON.parse((await svc(['invoice', 'get', paid.id, '--json'])).stdout).status, {timeout: 20_000}).toBe('PAID')
    const shown = await svc(['invoice', 'get', paid.id])
    expect(shown.stdout).toMatch(/Status\s+PAID/)
    expect(shown.stdout).not.toContain(paid.checkout_url)
  }, 60_000)
})

describe('the journal: svc\'s own reads are labelled svc:probe', () => {
  it('the service description read, status\'s probe and login\'s key check carry svc-origin: probe; the app\'s view has none of them', async ({sandbox, temp}) => {
    mkdirSync(temp.dir, {recursive: true})
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    const admin = (args: string[]) => svc(args, {env: adminEnv(sandbox)})
    const ours = (await runInProcess(['login', '--api-key-stdin', '--profile', 'probe', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: sandbox.sb.keys.sandbox, env: {SVC_RATE_LIMIT: '0'}}))
    expect(ours.exitCode, ours.stderr).toBe(0)
    expect((await svc(['status'])).exitCode).toBe(0)
    // A fresh config dir: `pay list` reads the service's description first.
    expect((await svc(['pay', 'list'])).exitCode).toBe(0)

    const all = await admin(['sandbox', 'requests', '--all', '--json', '--limit', '200'])
    expect(all.exitCode, all.stderr).toBe(0)
    const entries = JSON.parse(all.stdout) as Array<{method: string; path: string; query: string; origin: string}>
    const description = entries.filter((e) => e.path === '/v1/openapi.json')
    expect(description.length).toBeGreaterThan(0)
    expect(description.map((e) => e.origin)).toEqual(description.map(() => 'probe'))
    // status's probe and login's key check: one cheap read each (limit=1).
    const checks = entries.filter((e) => e.path === '/v1/payments' && e.query === 'limit=1')
    expect(checks.map((e) => e.origin)).toEqual(['probe', 'probe'])

    const app = await admin(['sandbox', 'requests', '--json', '--limit', '200'])
    const appEntries = JSON.parse(app.stdout) as Array<{path: string; query: string; origin: string}>
    expect(appEntries.filter((e) => e.path === '/v1/openapi.json' || (e.path === '/v1/payments' && e.query === 'limit=1'))).toEqual([])
    // The human view ends svc's own lines with their label.
    expect((await admin(['sandbox', 'requests', '--all', '--path', '/v1/openapi.json'])).stdout).toMatch(/svc:probe/)
  }, 60_000)
})
