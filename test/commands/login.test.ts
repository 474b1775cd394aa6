import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {ANSI} from '../helpers/cli.js'
import {it, type TempConfigDir} from '../helpers/fixtures.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import {runInProcess} from '../helpers/in-process.js'

const configFile = (temp: TempConfigDir) => join(temp.dir, 'config.json')

describe('svc login (not interactive)', () => {
  it('checks the key with the service, saves it 0600 in a 0700 dir, and shows it masked', async ({sandbox, temp}) => {
    const key = sandbox.sb.keys.sandbox
    const r = await runInProcess(['login', '--api-key-stdin', '--profile', 'shop', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: `${key}\n`})
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toMatch(/profile "shop" \(SANDBOX, key svc_sk_test_…/)
    expect(r.stdout + r.stderr).not.toContain(key)
    expect(statSync(temp.dir).mode & 0o777).toBe(0o700)
    expect(statSync(configFile(temp)).mode & 0o777).toBe(0o600)
    const saved = JSON.parse(readFileSync(configFile(temp), 'utf8'))
    expect(saved.current).toBe('shop')
    expect(saved.profiles.shop).toMatchObject({api_key: key, base_url: sandbox.sb.url})
    // The saved profile works for the next command.
    const list = await runInProcess(['pay', 'list', '--json'], {configDir: temp.dir})
    expect(list.exitCode).toBe(0)
    const shown = await runInProcess(['profiles', 'show', '--json'], {configDir: temp.dir})
    expect(JSON.parse(shown.stdout)).toMatchObject({name: 'shop', environment: 'SANDBOX', current: true})
    expect(shown.stdout).not.toContain(key)
  })

  it('says when it changes the current profile, naming the new one and its environment (LIVE); not when it stays', async ({sandbox, temp}) => {
    const first = await runInProcess(['login', '--api-key-stdin', '--profile', 'shop', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: sandbox.sb.keys.sandbox})
    expect(first.exitCode, first.stderr).toBe(0)
    expect(first.stderr).toMatch(/Now the current profile: shop \(SANDBOX\)/)
    const live = await runInProcess(['login', '--api-key-stdin', '--profile', 'shoplive', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: sandbox.sb.keys.live})
    expect(live.exitCode, live.stderr).toBe(0)
    expect(live.stderr).toMatch(/Now the current profile: shoplive \(LIVE\)/)
    expect(live.stderr).toContain('"shop"')
    expect(live.stderr).toContain('svc profiles use shop')
    // Logging in again to the current profile changes nothing: nothing said.
    const again = await runInProcess(['login', '--api-key-stdin', '--profile', 'shoplive', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: sandbox.sb.keys.live})
    expect(again.exitCode).toBe(0)
    expect(again.stderr).not.toMatch(/current profile/)
  })

  it('an unknown or revoked key is refused with exit 3 and nothing is saved', async ({sandbox, temp}) => {
    const unknown = await runInProcess(['login', '--api-key-stdin', '--base-url', sandbox.sb.url], {
      configDir: temp.dir,
      input: 'svc_sk_test_0000000000000000000000000000',
    })
    expect(unknown.exitCode).toBe(3)
    expect(() => statSync(configFile(temp))).toThrow()
    const minted = await sandbox.admin('POST', '/keys', {environment: 'SANDBOX'})
    await sandbox.admin('POST', `/keys/${minted.id}/revoke`)
    const revoked = await runInProcess(['login', '--api-key-stdin', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: minted.secret})
    expect(revoked.exitCode).toBe(3)
    expect(revoked.stderr).not.toContain(minted.secret)
    expect(() => statSync(configFile(temp))).toThrow()
  })

  it('a key the address does not know: the refusal names the address checked and what chose it (the profile\'s saved address, or --base-url)', async ({sandbox, temp}) => {
    const saved = await runInProcess(['login', '--api-key-stdin', '--profile', 'local', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: sandbox.sb.keys.sandbox})
    expect(saved.exitCode, saved.stderr).toBe(0)
    // Another sandbox's key, checked at the profile's saved address.
    const other = 'svc_sk_test_0000000000000000000000000000'
    const refused = await runInProcess(['login', '--api-key-stdin', '--profile', 'local'], {configDir: temp.dir, input: other})
    expect(refused.exitCode).toBe(3)
    expect(refused.stderr).toContain(`${sandbox.sb.url} (the address saved in profile "local") does not know this key`)
    const flagged = await runInProcess(['login', '--api-key-stdin', '--profile', 'local', '--base-url', sandbox.sb.url, '--lang', 'fr'], {configDir: temp.dir, input: other})
    expect(flagged.exitCode).toBe(3)
    expect(flagged.stderr).toContain(`${sandbox.sb.url} (--base-url) ne connaît pas cette clé`)
    expect(JSON.parse(readFileSync(configFile(temp), 'utf8')).profiles.local.api_key).toBe(sandbox.sb.keys.sandbox)
  })

  it('a key without payments:read is accepted with a warning (it is a valid key)', async ({sandbox, temp}) => {
    const minted = await sandbox.admin('POST', '/keys', {environment: 'SANDBOX', scopes: ['invoices:read']})
    const r = await runInProcess(['login', '--api-key-stdin', '--profile', 'ro', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: minted.secret})
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toMatch(/Warning:/)
  })

  it('without a TTY and without --api-key-stdin, names the flag to pass', async ({sandbox, temp}) => {
    const r = await runInProcess(['login', '--base-url', sandbox.sb.url], {configDir: temp.dir})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/--api-key-stdin/)
  })

  it('logout forgets the key; profiles use/remove; precedence of --api-key over the profile', async ({sandbox, temp}) => {
    const key = sandbox.sb.keys.sandbox
    await runInProcess(['login', '--api-key-stdin', '--profile', 'a', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: key})
    await runInProcess(['login', '--api-key-stdin', '--profile', 'b', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: key})
    const list = await runInProcess(['profiles', 'list'], {configDir: temp.dir})
    expect(list.stdout).toMatch(/\*\s+b\s+SANDBOX/)
    expect(list.stdout).not.toMatch(ANSI)
    expect((await runInProcess(['profiles', 'use', 'a'], {configDir: temp.dir})).exitCode).toBe(0)
    expect(JSON.parse(readFileSync(configFile(temp), 'utf8')).current).toBe('a')
    // --api-key beats the profile: a live key on the same sandbox sees live data.
    const live = await runInProcess(['pay', 'list', '--json', '--api-key', sandbox.sb.keys.live], {configDir: temp.dir})
    expect(live.exitCode).toBe(0)
    for (const p of JSON.parse(live.stdout)) expect(p.environment).toBe('LIVE')
    expect((await runInProcess(['logout'], {configDir: temp.dir})).exitCode).toBe(0)
    expect(JSON.parse(readFileSync(configFile(temp), 'utf8')).profiles.a.api_key).toBeUndefined()
    expect((await runInProcess(['pay', 'list'], {configDir: temp.dir})).exitCode).toBe(3)
    expect((await runInProcess(['profiles', 'remove', 'b'], {configDir: temp.dir})).exitCode).toBe(0)
    expect(Object.keys(JSON.parse(readFileSync(configFile(temp), 'utf8')).profiles)).toEqual(['a'])
  })
})

describe('prompts in a real pseudo-terminal', () => {
  it('login asks for the key as a password (never echoed) and the profile name', async ({sandbox, temp}) => {
    const key = sandbox.sb.keys.sandbox
    const session = runInPty(['login', '--base-url', sandbox.sb.url], {configDir: temp.dir})
    await session.waitFor('Profile name')
    session.type('\r')
    await session.waitFor('API key')
    session.type(`${key}\r`)
    const {exitCode} = await session.exit
    expect(exitCode, stripAnsi(session.output())).toBe(0)
    expect(session.output()).not.toContain(key)
    expect(stripAnsi(session.output())).toMatch(/Logged in as profile "default"/)
    expect(JSON.parse(readFileSync(configFile(temp), 'utf8')).profiles.default.api_key).toBe(key)
  })

  it('pay create prompts for what is missing, then creates the payment', async ({sandbox, temp}) => {
    const session = runInPty(['pay', 'create'], {configDir: temp.dir, env: sandbox.env()})
    await session.waitFor('Amount in XAF')
    session.type('12.5\r')
    await session.waitFor(/no decimals/)
    session.type('\u0015') // Ctrl-U: clear the line
    session.type('2 500\r')
    await session.waitFor("Customer's mobile money number")
    session.type('690000001\r')
    const {exitCode} = await session.exit
    const screen = stripAnsi(session.output())
    expect(exitCode, screen).toBe(0)
    expect(screen).toMatch(/STATUS\s+PENDING/)
    expect(screen).toMatch(/AMOUNT\s+2 500 XAF/)
    expect(session.output()).not.toContain(sandbox.sb.keys.sandbox)
  })

  it('a LIVE key asks for confirmation; answering no sends nothing (exit 2)', async ({sandbox, temp}) => {
    const before = (await sandbox.get('/v1/payments?limit=1', sandbox.sb.keys.live)).total
    const session = runInPty(['pay', 'create', '--amount', '1000', '--phone', '670000001'], {configDir: temp.dir, env: sandbox.env('live')})
    await session.waitFor(/LIVE key .*Continue\?/)
    session.type('n\r')
    const {exitCode} = await session.exit
    expect(exitCode).toBe(2)
    expect(stripAnsi(session.output())).toMatch(/nothing was sent/)
    expect((await sandbox.get('/v1/payments?limit=1', sandbox.sb.keys.live)).total).toBe(before)
  })

  it('Ctrl-C at a prompt exits 130', async ({sandbox, temp}) => {
    const session = runInPty(['pay', 'create'], {configDir: temp.dir, env: sandbox.env()})
    await session.waitFor('Amount in XAF')
    session.type('\u0003')
    const {exitCode} = await session.exit
    expect(exitCode).toBe(130)
  })
})
