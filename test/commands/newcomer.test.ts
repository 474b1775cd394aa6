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
