/**
 * What a newcomer trips on (issue 19), one describe per numbered point of the issue, each run as a
 * user would: the built CLI against the local sandbox over HTTP, or on a pseudo-terminal.
 */
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

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

const configFile = () => join(temp.dir, 'config.json')

describe('1. login and the service address', () => {
  it('not interactive, with no address configured: says so before any request (exit 2), nothing saved', async () => {
    const r = await runCli(['login', '--api-key-stdin'], {configDir: temp.dir, input: sandbox.sb.keys.sandbox})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/--base-url/)
    expect(r.stderr).toMatch(/SVC_BASE_URL/)
    expect(r.stderr).not.toMatch(/could not connect|ENOTFOUND|api\.svc\.example\/v1/)
    expect(existsSync(configFile())).toBe(false)
  })

  it('any command with a key but no address says which flag or variable to set (exit 2)', async () => {
    const r = await runCli(['pay', 'list'], {configDir: temp.dir, env: {SVC_API_KEY: sandbox.sb.keys.sandbox}})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/--base-url/)
    expect(r.stderr).not.toMatch(/ENOTFOUND/)
  })

  it('a base URL ending in /v1 is read as the service root (no /v1/v1/…)', async () => {
    const r = await runCli(['pay', 'list', '--json', '--base-url', `${sandbox.sb.url}/v1/`], {
      configDir: temp.dir,
      env: {SVC_API_KEY: sandbox.sb.keys.sandbox},
    })
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true)
  })

  it('interactive: asks for the address (no usable default), then the key; saves both', async () => {
    const key = sandbox.sb.keys.sandbox
    const session = runInPty(['login'], {configDir: temp.dir})
    await session.waitFor('Profile name')
    session.type('\r')
    await session.waitFor('Service address')
    session.type('not a url\r')
    await session.waitFor(/http:\/\/ or https:\/\//)
    session.type('\u0015')
    session.type(`${sandbox.sb.url}\r`)
    await session.waitFor('API key')
    session.type(`${key}\r`)
    const {exitCode} = await session.exit
    expect(exitCode, stripAnsi(session.output())).toBe(0)
    const saved = JSON.parse(readFileSync(configFile(), 'utf8'))
    expect(saved.profiles.default).toMatchObject({api_key: key, base_url: sandbox.sb.url})
  })

  it('interactive, re-login to a profile that has an address: offers it as the default', async () => {
    const key = sandbox.sb.keys.sandbox
    const first = await runCli(['login', '--api-key-stdin', '--profile', 'shop', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: key})
    expect(first.exitCode).toBe(0)
    const session = runInPty(['login', '--profile', 'shop'], {configDir: temp.dir})
    await session.waitFor('Service address')
    expect(stripAnsi(session.output())).toContain(sandbox.sb.url)
    session.type('\r')
    await session.waitFor('API key')
    session.type(`${key}\r`)
    const {exitCode} = await session.exit
    expect(exitCode, stripAnsi(session.output())).toBe(0)
  })
})

describe('7. confirmations in French', () => {
  it('shows (o/N) and reads « o » as oui: the LIVE payment is made', async () => {
    const before = (await sandbox.get('/v1/payments?limit=1', sandbox.sb.keys.live)).total
    const session = runInPty(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--lang', 'fr'], {
      configDir: temp.dir,
      env: sandbox.env('live'),
    })
    await session.waitFor('(o/N)')
    session.type('o\r')
    const {exitCode} = await session.exit
    expect(exitCode, stripAnsi(session.output())).toBe(0)
    expect((await sandbox.get('/v1/payments?limit=1', sandbox.sb.keys.live)).total).toBe(before + 1)
  })

  it('« non » declines and anything else asks again', async () => {
    const before = (await sandbox.get('/v1/payments?limit=1', sandbox.sb.keys.live)).total
    const session = runInPty(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--lang', 'fr'], {
      configDir: temp.dir,
      env: sandbox.env('live'),
    })
    await session.waitFor('(o/N)')
    session.type('peut-être\r')
    await session.waitFor('Répondez o (oui) ou n (non).')
    session.type('\u0015non\r')
    const {exitCode} = await session.exit
    expect(exitCode).toBe(2)
    expect((await sandbox.get('/v1/payments?limit=1', sandbox.sb.keys.live)).total).toBe(before)
  })
})

describe('9. enumerated values in any case', () => {
  it('pay list --status failed and invoice list --status=past_due are accepted; an unknown value still lists the accepted ones (exit 2)', async () => {
    const env = sandbox.env()
    const failed = await runCli(['pay', 'list', '--status', 'failed', '--json'], {configDir: temp.dir, env})
    expect(failed.stderr).toBe('')
    expect(failed.exitCode).toBe(0)
    const pastDue = await runCli(['invoice', 'list', '--status=past_due', '--json'], {configDir: temp.dir, env})
    expect(pastDue.exitCode).toBe(0)
    const wrong = await runCli(['pay', 'list', '--status', 'nope'], {configDir: temp.dir, env})
    expect(wrong.exitCode).toBe(2)
    expect(wrong.stderr).toMatch(/PENDING, SUCCESS, FAILED, UNSPECIFIED/)
  })

  it('reads in-process: flags, short flags, = forms and arguments', async () => {
    const {canonicalOptionValues} = await import('../../src/lib/option-case.js')
    const flags = {status: {type: 'option', options: ['PAST_DUE', 'PAID']}, operator: {type: 'option', char: 'o', options: ['MTN', 'ORANGE']}, profile: {type: 'option'}, json: {type: 'boolean'}}
    const args = {event: {options: ['payment.success', 'payment.failed']}}
    expect(canonicalOptionValues(['--status', 'past_due', '-o', 'mtn', '--profile', 'PAID', '--json', 'PAYMENT.SUCCESS'], flags, args)).toEqual([
      '--status',
      'PAST_DUE',
      '-o',
      'MTN',
      '--profile',
      'PAID',
      '--json',
      'payment.success',
    ])
    expect(canonicalOptionValues(['--status=paid', '--', '--status', 'paid'], flags, args)).toEqual(['--status=PAID', '--', '--status', 'paid'])
  })
})

describe('8. a malformed key says what is wrong with it', () => {
  it('too short, stray characters, or another prefix: three different sentences, exit 2', async () => {
    const run = (key: string) => runCli(['login', '--api-key-stdin', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: key})
    const short = await run('svc_sk_test_bogus')
    expect(short.exitCode).toBe(2)
    expect(short.stderr).toMatch(/too short/)
    expect(short.stderr).not.toMatch(/keys start with/)
    const spaced = await run('svc_sk_test_abcd efgh ijkl')
    expect(spaced.exitCode).toBe(2)
    expect(spaced.stderr).toMatch(/characters a key never has/)
    const other = await run('sk_test_abcdefghijkl')
    expect(other.exitCode).toBe(2)
    expect(other.stderr).toMatch(/keys start with svc_sk_test_/)
    const env = await runCli(['pay', 'list'], {configDir: temp.dir, env: {SVC_API_KEY: 'svc_sk_live_x', SVC_BASE_URL: sandbox.sb.url}})
    expect(env.exitCode).toBe(2)
    expect(env.stderr).toMatch(/too short/)
  })
})

describe('11. sandbox serve on a busy port', () => {
  it('names the port and how to pick another, exit 2', async () => {
    const port = new URL(sandbox.sb.url).port
    const r = await runCli(['sandbox', 'serve', '--port', port], {configDir: temp.dir})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`)
    expect(r.stderr).toMatch(/--port 0/)
    expect(r.stderr).not.toMatch(/Unexpected error|EADDRINUSE/)
  })
})

describe('12. a due date in the past', () => {
  it('is allowed, with a warning on stderr', async () => {
    const r = await runCli(
      ['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2020-01-31', '--item', 'Bread:500:3', '--json'],
      {configDir: temp.dir, env: sandbox.env()},
    )
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toMatch(/Warning: The due date 2020-01-31 is already past/)
    expect(JSON.parse(r.stdout).due_date).toBe('2020-01-31')
    const fine = await runCli(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--json'], {
      configDir: temp.dir,
      env: sandbox.env(),
    })
    expect(fine.stderr).not.toMatch(/already past/)
  })
})

describe('3. reports and the walkthrough go by the service clock', () => {
  it('after the sandbox clock moves on 40 days: receivables age the invoices, collections find the payments, the walkthrough passes', async () => {
    const local = await startTestSandbox()
    try {
      const env = local.env()
      for (let i = 0; i < 3; i++) {
        const r = await runCli(['invoice', 'create', '--customer-name', `Shop ${i}`, '--due-date', new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10), '--item', 'Bread:500:3', '--publish', '--json'], {configDir: temp.dir, env})
        expect(r.exitCode, r.stderr).toBe(0)
      }
      await local.admin('POST', '/clock/advance', {ms: 40 * 86_400_000})
      for (let i = 0; i < 4; i++) {
        const r = await runCli(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--json'], {configDir: temp.dir, env})
        expect(r.exitCode, r.stderr).toBe(0)
      }
      const receivables = await runCli(['report', 'receivables', '--json'], {configDir: temp.dir, env})
      expect(receivables.exitCode, receivables.stderr).toBe(0)
      const report = JSON.parse(receivables.stdout)
      const serviceDay = new Date(Date.now() + 40 * 86_400_000)
      expect(Math.abs(new Date(report.as_of).getTime() - serviceDay.getTime())).toBeLessThan(2 * 86_400_000)
      expect(JSON.stringify(report.buckets ?? report)).toMatch(/"count":3/)
      const collections = await runCli(['report', 'collections', '--json'], {configDir: temp.dir, env})
      expect(collections.exitCode, collections.stderr).toBe(0)
      expect(JSON.parse(collections.stdout).totals.count).toBe(4)
      const walk = await runCli(['sandbox', 'walkthrough', '--lang', 'fr'], {configDir: temp.dir, env, timeoutMs: 60_000})
      expect(walk.stderr + walk.stdout).toMatch(/attendu UNPAID, obtenu UNPAID/)
      expect(walk.exitCode, walk.stdout + walk.stderr).toBe(0)
    } finally {
      await local.close()
    }
  })
})
