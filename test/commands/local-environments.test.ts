/**
 * The local sandbox as a developer runs it, both environments and the app's own traffic:
 * `svc sandbox serve` (a child process) saves `local` and `local-live`; `svc webhooks listen
 * --profile local` (a child process) forwards both environments' events, each line marked; the
 * LIVE profile creates a payment the customer's phone approves (the inspector's phone route, over
 * HTTP); and the request journal's default view is the app's requests, not listen's.
 */
import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {HANDSET_PIN} from '../../src/contract/sandbox-inspector.js'
import {startCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {runInPty} from '../helpers/pty.js'
import {startReceiver, waitFor, type Receiver} from '../helpers/receiver.js'
import {startServe, type ServedSandbox} from '../helpers/sandbox.js'

let temp: ReturnType<typeof tempConfigDir>
const cleanups: Array<() => Promise<unknown> | void> = []

beforeEach(() => {
  temp = tempConfigDir()
})
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
  temp.cleanup()
})

async function serve(args: string[] = []): Promise<ServedSandbox> {
  const served = await startServe(temp.dir, ['--settle-after', '200ms', '--rate-limit', '0', ...args])
  cleanups.push(() => served.stop())
  return served
}

const cli = (args: string[]) => runInProcess(args, {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0'}})

async function app(secret: string): Promise<Receiver> {
  const started = await startReceiver({secret})
  cleanups.push(() => started.close())
  return started
}

interface Listening {
  stdout(): string
  stderr(): string
  startedAt: number
  /** Listen's time runs WARP times faster from now on; its time now, as a function. */
  warp(): Promise<() => number>
}

/** How much faster listen's time runs once a test warps it (test/helpers/child-time-warp.mjs). */
const WARP = 12

/** `svc … webhooks listen …` in the background (Ctrl-C at the end of the test); once it is ready. */
async function listen(args: string[]): Promise<Listening> {
  const run = startCli([...args], {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0'}, timeoutMs: 90_000, warp: WARP})
  cleanups.push(async () => {
    if (!run.exited()) run.child().kill('SIGINT')
    await run.result
  })
  await waitFor(() => /Press Ctrl-C to stop/.test(run.stderr()) || run.exited(), 20_000, 'the listener to be ready')
  if (run.exited()) throw new Error(`listen exited early:\n${run.stderr()}\n${run.stdout()}`)
  return {stdout: run.stdout, stderr: run.stderr, startedAt: Date.now(), warp: run.warp}
}

async function api(base: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {'x-api-key': key, ...(body === undefined ? {} : {'content-type': 'application/json'})},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return response.json()
}

describe('the app’s traffic, not svc’s', () => {
  it('after 12 s of webhooks listen, the default journal view holds the app’s requests and at most one of svc’s own; --all shows listen’s', async () => {
    const served = await serve()
    const {base_url: base, sandbox_key: key} = served.info
    const secret = (await cli(['--profile', 'local', 'webhooks', 'listen', '--print-secret'])).stdout.trim()
    const local = await app(secret)
    const run = await listen(['--profile', 'local', 'webhooks', 'listen', '--forward-to', local.url])

    // The app's work: three payments, each followed to its end.
    const ids: string[] = []
    for (const phone of ['670000001', '670000002', '650000099']) {
      ids.push((await api(base, key, 'POST', '/v1/payments', {amount: 1500, phone_number: phone, operator: phone.startsWith('65') ? 'ORANGE' : 'MTN'})).id)
    }
    await waitFor(() => ids.every((id) => local.received.some((r) => (r.event.data as {id: string}).id === id)), 20_000, 'the three events forwarded')
    for (const id of ids) await api(base, key, 'GET', `/v1/payments/${id}/status`)
    // Listen's own requests go on in the background; 12 s of them is the case under test: 12 s of
    // listen's time, its timers (a poll, a retry, a reconnect) running WARP times faster from here
    // on, while its requests and the sandbox keep real time.
    const listenNow = await run.warp()
    await waitFor(() => listenNow() - run.startedAt >= 12_000, 30_000, '12 s of listen')

    const view = await cli(['sandbox', 'requests', '--json'])
    expect(view.exitCode, view.stderr).toBe(0)
    const entries = JSON.parse(view.stdout) as Array<{method: string; path: string; origin: string}>
    const apps = entries.filter((e) => e.path.startsWith('/v1/payments'))
    expect(apps.filter((e) => e.method === 'POST')).toHaveLength(3)
    expect(apps.filter((e) => e.path.endsWith('/status'))).toHaveLength(3)
    const own = entries.filter((e) => e.path.startsWith('/_admin'))
    expect(own.length, JSON.stringify(own.map((e) => `${e.method} ${e.path}`))).toBeLessThanOrEqual(1)

    // svc's own, on request: each named as listen's.
    const all = JSON.parse((await cli(['sandbox', 'requests', '--all', '--json'])).stdout) as Array<{path: string; origin: string}>
    const listens = all.filter((e) => e.origin === 'listen')
    expect(listens.length).toBeGreaterThanOrEqual(1)
    expect(listens.every((e) => e.path.startsWith('/_admin/') || e.path.startsWith('/v1/'))).toBe(true)
    const lines = (await cli(['sandbox', 'requests', '--all'])).stdout
    expect(lines).toMatch(/\/_admin\/webhook-endpoints.*svc:listen$/m)
    expect(run.stderr()).not.toMatch(/went away/)
  }, 90_000)
})

describe('both environments, one command each', () => {
  it('serve saves local-live; the LIVE profile creates a payment the phone approves; listen forwards it, marked LIVE, beside a SANDBOX one', async () => {
    const served = await serve()
    const {base_url: base, live_key: liveKey, sandbox_key: sandboxKey} = served.info
    expect(served.info.live_profile).toBe('local-live')
    const config = JSON.parse(readFileSync(join(temp.dir, 'config.json'), 'utf8'))
    expect(config.profiles['local-live']).toMatchObject({api_key: liveKey, base_url: base})
    expect(config.current).toBe('local')

    const secret = (await cli(['--profile', 'local', 'webhooks', 'listen', '--print-secret'])).stdout.trim()
    const local = await app(secret)
    const run = await listen(['--profile', 'local', 'webhooks', 'listen', '--forward-to', local.url])
    expect(run.stderr()).toMatch(/SANDBOX and LIVE/)

    // The customer's-phone flow of the README: a LIVE payment from the LIVE profile…
    const created = await cli(['--profile', 'local-live', 'pay', 'create', '--amount', '2500', '--phone', '690000002', '--yes', '--json'])
    expect(created.exitCode, created.stderr).toBe(0)
    const payment = JSON.parse(created.stdout)
    expect(payment).toMatchObject({environment: 'LIVE', status: 'PENDING'})
    // …approved on the handset with the wallet's PIN (the inspector's phone route, as its page sends it).
    const registry = JSON.parse(readFileSync(join(temp.dir, 'sandboxes.json'), 'utf8'))
    const token = registry.sandboxes[0].admin_token
    const ringing = (await (await fetch(`${base}/_admin/phone`, {headers: {authorization: `Bearer ${token}`}})).json()) as any
    expect(ringing.data.map((c: {payment_id: string}) => c.payment_id)).toContain(payment.id)
    const answer = await fetch(`${base}/_admin/phone/${payment.id}/pin`, {
      method: 'POST',
      headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'},
      body: JSON.stringify({pin: HANDSET_PIN}),
    })
    expect(answer.status).toBe(200)
    // A SANDBOX payment beside it.
    const sandboxPayment = (await api(base, sandboxKey, 'POST', '/v1/payments', {amount: 1200, phone_number: '670000001', operator: 'MTN'})).id

    const eventOf = (id: string) => local.received.find((r) => (r.event.data as {id: string}).id === id)
    await waitFor(() => eventOf(payment.id) !== undefined && eventOf(sandboxPayment) !== undefined, 20_000, 'both events at the app')
    expect(eventOf(payment.id)!.event).toMatchObject({type: 'payment.success', environment: 'LIVE'})
    expect(eventOf(sandboxPayment)!.event).toMatchObject({type: 'payment.success', environment: 'SANDBOX'})
    expect(local.unverified).toBe(0)
    await waitFor(() => run.stdout().includes(eventOf(payment.id)!.event.id) && run.stdout().includes(eventOf(sandboxPayment)!.event.id), 10_000, 'both lines')
    const line = (id: string) => run.stdout().split('\n').find((l) => l.includes(id)) ?? ''
    expect(line(eventOf(payment.id)!.event.id)).toMatch(/  LIVE  .*\[200\]/)
    expect(line(eventOf(sandboxPayment)!.event.id)).toMatch(/  SANDBOX  .*\[200\]/)
  }, 90_000)

  it('a second sandbox saves local-PORT and local-PORT-live; serve --open without a terminal says where the inspector is', async () => {
    const first = await serve()
    const second = await startServe(temp.dir, ['--rate-limit', '0', '--open'])
    const port = new URL(second.info.base_url).port
    expect(second.info).toMatchObject({profile: `local-${port}`, live_profile: `local-${port}-live`})
    const config = JSON.parse(readFileSync(join(temp.dir, 'config.json'), 'utf8'))
    expect(config.profiles[`local-${port}-live`]).toMatchObject({api_key: second.info.live_key, base_url: second.info.base_url})
    expect(config.profiles['local-live'].base_url).toBe(first.info.base_url)
    expect(config.current).toBe('local')
    const ended = await second.stop()
    // A link of its own, besides the one printed.
    const said = /open (http:\/\/\S+\/_inspector\/login\?code=[\w-]+) yourself\./.exec(ended.stderr)
    expect(said, ended.stderr).not.toBeNull()
    expect(said![1]).not.toBe(second.info.inspector_url)
    expect(said![1].startsWith(`${second.info.base_url}/_inspector/login?code=`)).toBe(true)
  }, 60_000)

  it('a stopped sandbox, asked through its LIVE profile: exit 7, and the command that starts it saves that profile again', async () => {
    const served = await serve(['--profile-name', 'shop'])
    expect(served.info.live_profile).toBe('shop-live')
    const port = new URL(served.info.base_url).port
    await served.stop()
    const r = await cli(['--profile', 'shop-live', 'pay', 'list'])
    expect(r.exitCode).toBe(7)
    // Started again as "shop" (which saves shop-live), not as a profile "shop-live" of its own.
    expect(r.stderr).toContain(`svc sandbox serve --port ${port} --profile-name shop\``)
  }, 60_000)

  it('--env live forwards only the LIVE events; a bad --env is refused naming the flag', async () => {
    const served = await serve()
    const {base_url: base, live_key: liveKey, sandbox_key: sandboxKey} = served.info
    const bad = await cli(['--profile', 'local', 'webhooks', 'listen', '--forward-to', 'http://127.0.0.1:9/', '--env', 'prod'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/--env/)

    const secret = (await cli(['--profile', 'local', 'webhooks', 'listen', '--print-secret'])).stdout.trim()
    const local = await app(secret)
    const run = await listen(['--profile', 'local', 'webhooks', 'listen', '--forward-to', local.url, '--env', 'live'])
    expect(run.stderr()).toMatch(/LIVE/)
    const sandboxPayment = (await api(base, sandboxKey, 'POST', '/v1/payments', {amount: 1300, phone_number: '670000001', operator: 'MTN'})).id
    await expect.poll(async () => (await api(base, sandboxKey, 'GET', `/v1/payments/${sandboxPayment}/status`)).status, {timeout: 20_000}).toBe('SUCCESS')
    const livePayment = (await api(base, liveKey, 'POST', '/v1/payments', {amount: 1400, phone_number: '670000001', operator: 'MTN'})).id
    const token = JSON.parse(readFileSync(join(temp.dir, 'sandboxes.json'), 'utf8')).sandboxes[0].admin_token
    await fetch(`${base}/_admin/payments/${livePayment}/approve`, {method: 'POST', headers: {authorization: `Bearer ${token}`}})
    await waitFor(() => local.received.some((r) => (r.event.data as {id: string}).id === livePayment), 20_000, 'the LIVE event')
    // The SANDBOX payment settled before the LIVE one was approved: never forwarded.
    expect(local.received.some((r) => (r.event.data as {id: string}).id === sandboxPayment)).toBe(false)
  }, 90_000)
})

describe('--open', () => {
  it('sandbox inspector --open: in a terminal, the browser ($BROWSER) gets a working login link; without one, the link is said to open by hand', async () => {
    const served = await serve()
    // No terminal (a script): nothing opened, the link printed and said on stderr.
    const piped = await cli(['sandbox', 'inspector', '--open'])
    expect(piped.exitCode, piped.stderr).toBe(0)
    const printed = /http:\/\/127\.0\.0\.1:\d+\/_inspector\/login\?code=[\w-]+/.exec(piped.stdout)![0]
    expect(piped.stderr).toContain(`No browser can be opened from here (no terminal, or no display): open ${printed} yourself.`)

    // A person at a terminal: the browser is started with a new link, which logs in.
    const opened = join(temp.dir, 'opened.txt')
    const browser = join(temp.dir, 'browser.sh')
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`)
    chmodSync(browser, 0o755)
    const session = runInPty(['sandbox', 'inspector', '--open'], {configDir: temp.dir, env: {BROWSER: browser, DISPLAY: ':0'}})
    expect((await session.exit).exitCode).toBe(0)
    expect(session.output()).toContain('Opened in your browser')
    await waitFor(() => existsSync(opened) && readFileSync(opened, 'utf8').length > 0, 10_000, 'the browser to be started')
    const link = readFileSync(opened, 'utf8')
    expect(link).toMatch(new RegExp(`^${served.info.base_url}/_inspector/login\\?code=`))
    expect(link).not.toBe(printed)
    const login = await fetch(link, {redirect: 'manual'})
    expect(login.status).toBe(303)

    // On Linux without a display, even in a terminal: said, not tried.
    const headless = runInPty(['sandbox', 'inspector', '--open'], {configDir: temp.dir})
    expect((await headless.exit).exitCode).toBe(0)
    expect(headless.output()).toMatch(/No browser can be opened from here/)
  }, 60_000)
})
