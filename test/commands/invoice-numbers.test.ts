/**
 * Invoice numbers (the profile's sequence, FAC-2026-0001): given by `invoice create` and `invoice
 * import` in external_reference unless the user gives one, never twice (concurrent runs, a run
 * killed after reserving), shown on the PDF and the checkout page; a cancelled invoice's PDF asks
 * for nothing, a paid one says so.
 */
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, vi} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {pdfText} from '../helpers/documents.js'
import {startFaultProxy} from '../helpers/fault-proxy.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {allInvoices, payAtCheckout} from './invoice-helpers.js'

const it = withSandbox({settleAfterMs: 0}).extend<{work: string}>({
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const work = mkdtempSync(join(tmpdir(), 'svc-numbers-'))
    try {
      await use(work)
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  },
})

const create = (customer: string) => ['invoice', 'create', '--customer-name', customer, '--due-date', '2027-01-31', '--item', 'Bread:500:3']

/** The service's year (its clock), as the numbers carry it. */
async function serviceYear(sandbox: TestSandbox): Promise<number> {
  return Number((await sandbox.admin('GET', '/clock')).now.slice(0, 4))
}

/** The PDF's text, as pdftotext reads it (the invoice published first when asked). */
async function pdfOf(sandbox: TestSandbox, id: string): Promise<string> {
  const link = await sandbox.get(`/v1/invoices/${id}/pdf`)
  const response = await fetch(link.pdf_url ?? link.url)
  expect(response.status).toBe(200)
  return pdfText(Buffer.from(await response.arrayBuffer()))
}

describe('invoice numbers', {timeout: 120_000}, () => {
  it('4 concurrent `invoice create` processes get 4 consecutive numbers, each on its PDF and checkout page', async ({sandbox, temp}) => {
    const svc = sandbox.cli(temp.dir, 'sandbox', runCli)
    const year = await serviceYear(sandbox)
    const runs = await Promise.all([1, 2, 3, 4].map((n) => svc([...create(`Concurrent ${n}`), '--publish', '--json'], {timeoutMs: 60_000})))
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0)
    const invoices = runs.map((run) => JSON.parse(run.stdout) as {id: string; external_reference: string; checkout_url: string})
    const numbers = invoices.map((i) => i.external_reference).sort()
    expect(numbers).toEqual([1, 2, 3, 4].map((n) => `FAC-${year}-000${n}`))
    for (const invoice of invoices) {
      expect(await pdfOf(sandbox, invoice.id)).toContain(`Invoice ${invoice.external_reference}`)
      const page = await (await fetch(invoice.checkout_url)).text()
      expect(page).toContain(invoice.external_reference)
    }
  })

  it('the user\'s own reference is kept and takes no number; `config set invoice.prefix` and `invoice.width` change the next ones', async ({sandbox, temp}) => {
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    const year = await serviceYear(sandbox)
    const own = await svc([...create('Own Ref'), '--external-reference', 'PO-77', '--json'])
    expect(JSON.parse(own.stdout).external_reference).toBe('PO-77')
    expect((await svc(['config', 'set', 'invoice.prefix', 'SHOP'])).exitCode).toBe(0)
    expect((await svc(['config', 'set', 'invoice.width', '6'])).exitCode).toBe(0)
    expect((await svc(['config', 'get', 'invoice.prefix'])).stdout.trim()).toBe('SHOP')
    const next = await svc([...create('Numbered'), '--json'])
    expect(JSON.parse(next.stdout).external_reference).toBe(`SHOP-${year}-000001`)
    const bad = await svc(['config', 'set', 'invoice.width', '12'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/invoice\.width.*1 to 9/)
    const unknown = await svc(['config', 'set', 'invoice.colour', 'red'])
    expect(unknown.exitCode).toBe(2)
    expect(unknown.stderr).toContain('invoice.prefix')
  })

  it('each profile numbers its own invoices, with its own prefix', async ({sandbox, temp}) => {
    mkdirSync(temp.dir, {recursive: true, mode: 0o700})
    const profile = {api_key: sandbox.sb.keys.sandbox, base_url: sandbox.sb.url}
    writeFileSync(join(temp.dir, 'config.json'), JSON.stringify({current: 'shop', profiles: {shop: profile, depot: profile}}), {mode: 0o600})
    const run = (args: string[]) => runInProcess(args, {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0'}})
    const year = await serviceYear(sandbox)
    const set = await run(['--profile', 'shop', 'config', 'set', 'invoice.prefix', 'SHOP'])
    expect(set.stderr).toContain('profile "shop"')
    const number = async (name: string) => JSON.parse((await run(['--profile', name, ...create(`Of ${name}`), '--json'])).stdout).external_reference
    expect(await number('shop')).toBe(`SHOP-${year}-0001`)
    expect(await number('depot')).toBe(`FAC-${year}-0001`)
    expect(await number('shop')).toBe(`SHOP-${year}-0002`)
    expect((await run(['--profile', 'depot', 'config', 'get', 'invoice.prefix'])).stdout.trim()).toBe('FAC')
  })

  it('a key from SVC_API_KEY and SVC_BASE_URL (as `sandbox exec` gives) numbers per key and address, never the current profile\'s: its next number stays 0001; `svc status` names no profile', async ({sandbox, temp}) => {
    const other = await startTestSandbox({settleAfterMs: 0})
    try {
      mkdirSync(temp.dir, {recursive: true, mode: 0o700})
      // The current profile is another sandbox's (`local`); the run's key and address come from the environment.
      writeFileSync(join(temp.dir, 'config.json'), JSON.stringify({current: 'local', profiles: {local: {api_key: other.sb.keys.sandbox, base_url: other.sb.url}}}), {mode: 0o600})
      const year = await serviceYear(sandbox)
      const env = {SVC_RATE_LIMIT: '0', SVC_API_KEY: sandbox.sb.keys.sandbox, SVC_BASE_URL: sandbox.sb.url}
      const viaEnv = async () => JSON.parse((await runInProcess([...create('From exec'), '--json'], {configDir: temp.dir, env})).stdout).external_reference
      expect(await viaEnv()).toBe(`FAC-${year}-0001`)
      expect(await viaEnv()).toBe(`FAC-${year}-0002`)
      // The profile's own numbers are untouched.
      const own = await runInProcess([...create('Of local'), '--json'], {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0'}})
      expect(own.exitCode, own.stderr).toBe(0)
      expect(JSON.parse(own.stdout).external_reference).toBe(`FAC-${Number((await other.admin('GET', '/clock')).now.slice(0, 4))}-0001`)
      const status = await runInProcess(['status', '--json'], {configDir: temp.dir, env})
      expect(JSON.parse(status.stdout)).toMatchObject({profile: null, current: false, chosen_by: ['SVC_API_KEY', 'SVC_BASE_URL'], base_url: sandbox.sb.url})
      const statusText = await runInProcess(['status'], {configDir: temp.dir, env})
      expect(statusText.stdout).not.toContain('local')
      expect(statusText.stdout).toContain('key: SVC_API_KEY; base URL: SVC_BASE_URL')
      // The key from the environment with the current profile's address: still not the profile's numbers.
      const keyOnly = await runInProcess(['status', '--json'], {configDir: temp.dir, env: {SVC_API_KEY: other.sb.keys.sandbox}})
      expect(JSON.parse(keyOnly.stdout)).toMatchObject({profile: null, chosen_by: ['SVC_API_KEY', 'current profile'], base_url: other.sb.url})
      const keyOnlyText = await runInProcess(['status'], {configDir: temp.dir, env: {SVC_API_KEY: other.sb.keys.sandbox}})
      expect(keyOnlyText.stdout).toContain('key: SVC_API_KEY; base URL: the current profile "local"')
      // Named with --profile and its own key used: the profile's.
      const named = await runInProcess(['--profile', 'local', 'status', '--json'], {configDir: temp.dir, env: {SVC_API_KEY: other.sb.keys.sandbox}})
      expect(JSON.parse(named.stdout)).toMatchObject({profile: 'local'})
    } finally {
      await other.close()
    }
  })

  it('a dry run shows the next number and reserves nothing; `invoice import` numbers each row, its dry run reserves nothing', async ({sandbox, temp, work}) => {
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    const year = await serviceYear(sandbox)
    const dry = await svc([...create('Dry'), '--dry-run'])
    expect(dry.exitCode, dry.stderr).toBe(0)
    expect(dry.stdout).toContain(`FAC-${year}-0001`)
    const real = await svc([...create('Real'), '--json'])
    expect(JSON.parse(real.stdout).external_reference).toBe(`FAC-${year}-0001`)

    const file = join(work, 'invoices.csv')
    writeFileSync(file, 'customer_name,due_date,items,external_reference\r\nRow One,2027-01-31,Bread:500:1,\r\nRow Two,2027-01-31,Bread:500:1,MINE-2\r\nRow Three,2027-01-31,Bread:500:1,\r\n')
    const importDry = await svc(['invoice', 'import', file, '--dry-run'])
    expect(importDry.exitCode, importDry.stderr).toBe(0)
    const imported = await svc(['invoice', 'import', file, '--json'])
    expect(imported.exitCode, imported.stderr).toBe(0)
    const byName = new Map((await allInvoices(sandbox)).map((i) => [i.customer_name, i.external_reference]))
    expect(byName.get('Row One')).toBe(`FAC-${year}-0002`)
    expect(byName.get('Row Two')).toBe('MINE-2')
    expect(byName.get('Row Three')).toBe(`FAC-${year}-0003`)
    // A re-run of the same file asks again with the same keys: the same numbers, nothing new.
    const again = await svc(['invoice', 'import', file, '--recheck', '--json'])
    expect(again.exitCode, again.stderr).toBe(0)
    expect((await svc([...create('After'), '--json'])).stdout).toContain(`FAC-${year}-0004`)
  })

  it('a run killed (kill -9) after reserving its number leaves a gap, never the same number twice', async ({sandbox, temp}) => {
    // The create reaches the service and its answer is held: the process dies waiting for it.
    const proxy = await startFaultProxy(sandbox.sb.url, [{method: 'POST', path: /^\/v1\/invoices$/, fault: {kind: 'delay-after-forward', ms: 60_000}}])
    try {
      const year = await serviceYear(sandbox)
      let child: import('node:child_process').ChildProcess | undefined
      const killed = runCli(create('Killed'), {configDir: temp.dir, env: {...sandbox.env(), SVC_BASE_URL: proxy.url, SVC_RATE_LIMIT: '0'}, timeoutMs: 90_000, onSpawn: (c) => (child = c)})
      await vi.waitFor(() => expect(proxy.seen).toContain('POST /v1/invoices'), {timeout: 30_000, interval: 50})
      child!.kill('SIGKILL')
      expect((await killed).signal).toBe('SIGKILL')
      // The same key and address (the proxy, whose fault is spent): the same profile's numbers.
      const after = await runCli([...create('After Kill'), '--json'], {configDir: temp.dir, env: {...sandbox.env(), SVC_BASE_URL: proxy.url, SVC_RATE_LIMIT: '0'}, timeoutMs: 60_000})
      expect(after.exitCode, after.stderr).toBe(0)
      const numbers = (await allInvoices(sandbox)).filter((i) => /Kill/.test(String(i.customer_name))).map((i) => i.external_reference)
      expect(numbers.sort()).toEqual([`FAC-${year}-0001`, `FAC-${year}-0002`])
    } finally {
      await proxy.close()
    }
  })

  it('the year is the service\'s: past its new year, numbers carry the new one', async ({temp}) => {
    const fresh = await startTestSandbox({settleAfterMs: 0})
    try {
      const clock = await fresh.admin('GET', '/clock')
      const year = Number(clock.now.slice(0, 4))
      const toNewYear = Date.parse(`${year + 1}-01-01T12:00:00Z`) - clock.now_ms
      await fresh.admin('POST', '/clock/advance', {ms: toNewYear})
      const svc = fresh.cli(temp.dir, 'sandbox', runInProcess)
      const r = await svc([...create('New Year'), '--json'])
      expect(JSON.parse(r.stdout).external_reference).toBe(`FAC-${year + 1}-0001`)
    } finally {
      await fresh.close()
    }
  })

  it('the PDF: a cancelled invoice says CANCELLED and asks for nothing; a paid one says PAID', async ({sandbox, temp}) => {
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    const cancelled = JSON.parse((await svc([...create('To Cancel'), '--publish', '--json'])).stdout)
    expect((await svc(['invoice', 'cancel', cancelled.id])).exitCode).toBe(0)
    const text = await pdfOf(sandbox, cancelled.id)
    expect(text).toContain('CANCELLED')
    expect(text).toContain(cancelled.external_reference)
    expect(text).not.toMatch(/Amount due/)
    expect(text).not.toMatch(/Pay online/)

    const paid = JSON.parse((await svc([...create('To Pay'), '--publish', '--json'])).stdout)
    await payAtCheckout(paid, 1500)
    await vi.waitFor(async () => expect((await sandbox.get(`/v1/invoices/${paid.id}`)).status).toBe('PAID'), {timeout: 20_000})
    const paidText = await pdfOf(sandbox, paid.id)
    expect(paidText).toContain('PAID')
    expect(paidText).not.toMatch(/Pay online/)
  })
})
