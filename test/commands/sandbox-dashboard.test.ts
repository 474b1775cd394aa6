import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {ANSI, type CliResult} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {startServe, type ServedSandbox} from '../helpers/sandbox.js'

const temp = tempConfigDir()
let served: ServedSandbox
let info: any

// The served sandbox is the child process; the commands that drive it run in-process.
const cli = (args: string[], env: Record<string, string> = {}) => runInProcess(args, {configDir: temp.dir, env})
const json = async (args: string[], env: Record<string, string> = {}) => {
  const r = await cli([...args, '--json'], env)
  expect(r.exitCode, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0)
  return JSON.parse(r.stdout)
}

// Payments settle at once: nothing here needs one PENDING (a live one waits for its customer), and
// a watch then ends at its first read instead of waiting an interval of real time.
beforeAll(async () => {
  served = await startServe(temp.dir, ['--settle-after', '0'])
  info = served.info
})

let stopped: Promise<CliResult> | undefined
afterAll(async () => {
  await (stopped ??= served?.stop())
  temp.cleanup()
})

describe('svc sandbox serve and the dashboard stand-ins', () => {
  it('prints its URL and keys, saves the "local" profile (and "local-live", not current) and the admin address (0600)', async () => {
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(info.sandbox_key).toMatch(/^svc_sk_test_/)
    expect(info.live_key).toMatch(/^svc_sk_live_/)
    expect(info.live_profile).toBe('local-live')
    const profiles = await json(['profiles', 'list'])
    expect(profiles).toEqual([
      expect.objectContaining({name: 'local', environment: 'SANDBOX', base_url: info.base_url, current: true}),
      expect.objectContaining({name: 'local-live', environment: 'LIVE', base_url: info.base_url, current: false}),
    ])
    expect(statSync(join(temp.dir, 'sandboxes.json')).mode & 0o777).toBe(0o600)
    const payment = await json(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--watch', '--interval', '250ms', '--profile', 'local'])
    expect(payment.status).toBe('SUCCESS')
  })

  it('keys: create with scopes (secret shown once), list masked, revoke → 401', async () => {
    const key = await json(['sandbox', 'keys', 'create', '--scopes', 'payments:read'])
    expect(key.secret).toMatch(/^svc_sk_test_/)
    expect(key.scopes).toEqual(['payments:read'])
    const listed = await cli(['sandbox', 'keys', 'list'])
    expect(listed.stdout).toContain(key.id)
    expect(listed.stdout).not.toContain(key.secret)
    expect(listed.stdout).not.toMatch(ANSI)
    const env = {SVC_API_KEY: key.secret, SVC_BASE_URL: info.base_url}
    expect((await cli(['pay', 'list'], env)).exitCode).toBe(0)
    const write = await cli(['pay', 'create', '--amount', '100', '--phone', '670000001'], env)
    expect(write.exitCode).toBe(3)
    expect(write.stderr).toMatch(/payments:write/)
    await json(['sandbox', 'keys', 'revoke', key.id])
    expect((await cli(['pay', 'list'], env)).exitCode).toBe(3)
  })

  it('allowlist: a range that excludes 127.0.0.1 → 403 (exit 3); removing it lets requests in again', async () => {
    await json(['sandbox', 'allowlist', 'add', '10.0.0.0/8'])
    const blocked = await cli(['pay', 'list', '--profile', 'local'])
    expect(blocked.exitCode).toBe(3)
    await json(['sandbox', 'allowlist', 'add', '::ffff:127.0.0.1/128'])
    expect((await cli(['pay', 'list', '--profile', 'local'])).exitCode).toBe(0)
    await json(['sandbox', 'allowlist', 'remove', '::ffff:127.0.0.1/128'])
    expect((await cli(['pay', 'list', '--profile', 'local'])).exitCode).toBe(3)
    await json(['sandbox', 'allowlist', 'remove', '10.0.0.0/8'])
    expect((await json(['sandbox', 'allowlist', 'list']))).toEqual([])
    expect((await cli(['pay', 'list', '--profile', 'local'])).exitCode).toBe(0)
    const bad = await cli(['sandbox', 'allowlist', 'add', '300.1.2.3/8'])
    expect(bad.exitCode).toBe(2)
  })

  it('fees and balance: a fixed fee absorbed by the business is taken from the balance', async () => {
    const before = (await json(['sandbox', 'balance', '--env', 'sandbox']))[0]
    await json(['sandbox', 'fees', 'set', '--fixed', '50', '--absorb'])
    expect(await json(['sandbox', 'fees', 'show'])).toMatchObject({mode: 'fixed', value: 50, absorb_fees: true})
    await json(['pay', 'create', '--amount', '1000', '--phone', '670000002', '--watch', '--interval', '250ms', '--profile', 'local'])
    const after = (await json(['sandbox', 'balance', '--env', 'sandbox']))[0]
    expect(after.balance - before.balance).toBe(950)
    expect(after.fees_total - before.fees_total).toBe(50)
    const human = await cli(['sandbox', 'balance'])
    expect(human.stdout).toMatch(/SANDBOX\s+[\d ]+ XAF/)
    expect((await cli(['sandbox', 'fees', 'set', '--percent', '150'])).exitCode).toBe(2)
    expect((await cli(['sandbox', 'fees', 'set'])).exitCode).toBe(2)
  })

  it('live payments: approve and decline as the customer; the clock expires the rest (EXPIRED)', async () => {
    const live = {SVC_API_KEY: info.live_key, SVC_BASE_URL: info.base_url}
    const create = async () => JSON.parse((await cli(['pay', 'create', '--amount', '500', '--phone', '690000001', '--yes', '--json'], live)).stdout)
    const a = await create()
    const d = await create()
    const e = await create()
    expect((await json(['sandbox', 'approve', a.id])).status).toBe('SUCCESS')
    expect((await json(['sandbox', 'decline', d.id])).status).toBe('FAILED')
    const clock = await json(['sandbox', 'clock', 'advance', '5m'])
    expect(clock.offset_ms).toBeGreaterThanOrEqual(299_000)
    const expired = JSON.parse((await cli(['pay', 'status', e.id, '--json'], live)).stdout)
    expect(expired).toMatchObject({status: 'FAILED', failure_code: 'EXPIRED'})
    expect((await json(['sandbox', 'clock', 'show'])).offset_ms).toBe(clock.offset_ms)
    expect((await cli(['sandbox', 'clock', 'advance', 'soon'])).exitCode).toBe(2)
  })

  it('webhooks: add prints the secret, list masks it, rotate gives a new one, remove', async () => {
    const added = await json(['sandbox', 'webhooks', 'add', 'http://127.0.0.1:9/hooks'])
    expect(added.secret).toMatch(/^whsec_/)
    const list = await cli(['sandbox', 'webhooks', 'list'])
    expect(list.stdout).toContain(added.id)
    expect(list.stdout).not.toContain(added.secret)
    const rotated = await json(['sandbox', 'webhooks', 'rotate', added.id])
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(added.secret)
    await json(['sandbox', 'webhooks', 'remove', added.id])
    expect((await cli(['sandbox', 'webhooks', 'remove', added.id])).exitCode).toBe(4)
  })

  it('inventory and outbox: an invoice published with a channel reserves stock and is recorded', async () => {
    await json(['sandbox', 'inventory', 'set', 'Mangoes', '40'])
    const invoice = await json(['api', 'POST', '/v1/invoices', '-d',
      JSON.stringify({customer_name: 'Awa', customer_email: 'awa@example.com', due_date: '2027-01-31', items: [{name: 'Mangoes', price: 200, quantity: 5}]}), '--profile', 'local'])
    await json(['api', 'POST', `/v1/invoices/${invoice.id}/publish`, '-d', '{"channel":"EMAIL"}', '--profile', 'local'])
    const items = (await json(['sandbox', 'inventory', 'list']))
    expect(items).toContainEqual(expect.objectContaining({name: 'Mangoes', quantity: 40, reserved_quantity: 5, available_quantity: 35}))
    const reservations = (await json(['sandbox', 'inventory', 'reservations', '--invoice', invoice.id]))
    expect(reservations[0]).toMatchObject({invoice_id: invoice.id, status: 'active'})
    const outbox = (await json(['sandbox', 'outbox', '--invoice', invoice.id]))
    expect(outbox[0]).toMatchObject({invoice_id: invoice.id, channel: 'EMAIL', recipient: 'awa@example.com', trigger: 'publish'})
    const table = await cli(['sandbox', 'outbox'])
    expect(table.stdout).toMatch(/EMAIL\s+awa@example\.com/)
  })
})

describe('after Ctrl-C', () => {
  it('exits 130 and removes its admin address; the commands then say no sandbox is running', async () => {
    const result = await (stopped ??= served.stop())
    expect(result.exitCode, `${result.signal} ${result.stderr}`).toBe(130)
    // Its own entry is gone from the registry of running sandboxes.
    expect(JSON.parse(readFileSync(join(temp.dir, 'sandboxes.json'), 'utf8')).sandboxes).toEqual([])
    const r = await cli(['sandbox', 'balance'])
    expect(r.exitCode).toBe(7)
    expect(r.stderr).toMatch(/svc sandbox serve/)
    expect(JSON.parse(readFileSync(join(temp.dir, 'config.json'), 'utf8')).profiles.local).toBeDefined()
  })
})
