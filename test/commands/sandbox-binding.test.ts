/**
 * A profile's sandbox, and no other: two sandboxes in one config directory, one of them stopped.
 * The stand-ins bound to the stopped one's profile exit 7 naming it and the command that starts
 * it, and leave the other sandbox unchanged; without any profile or flag the one running sandbox
 * is used and named, and several are refused. `webhooks listen` stays on its own sandbox through
 * its stop and restart, and a restart forwards nothing from before listen started, each event
 * under the sandbox's own id.
 */
import type {ChildProcess} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterEach, describe, expect, it} from 'vitest'

import {runCli, warpTime, type CliResult} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {startReceiver, waitFor, type Receiver} from '../helpers/receiver.js'
import {freePort} from '../helpers/fault-proxy.js'
import {payOn, startServe, type ServedSandbox} from '../helpers/sandbox.js'

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function setUp() {
  const temp = tempConfigDir()
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-binding-'))
  cleanups.push(() => {
    temp.cleanup()
    rmSync(dataDir, {recursive: true, force: true})
  })
  const serve = async (args: string[] = []) => {
    const served = await startServe(temp.dir, ['--settle-after', '0', '--rate-limit', '0', ...args])
    cleanups.push(() => served.kill('SIGKILL'))
    return served
  }
  const cli = (args: string[], env: Record<string, string> = {}) => runInProcess(args, {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0', ...env}})
  return {temp, dataDir, serve, cli}
}

async function admin(served: ServedSandbox, path: string): Promise<any> {
  const response = await fetch(`${served.info.base_url}/_admin${path}`, {headers: {authorization: `Bearer ${served.info.admin_token}`}})
  expect(response.status).toBe(200)
  return response.json()
}

/** The sandbox's own events of a payment (its settlement), ids and types. */
async function eventsOf(served: ServedSandbox, paymentId: string): Promise<Array<{id: string; type: string}>> {
  const body = await admin(served, '/events?limit=100')
  return (body.data as Array<{id: string; type: string; data: {id?: string}}>).filter((e) => e.data?.id === paymentId)
}

/** Until `check` holds (an asynchronous one: it asks a sandbox). */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const forwardedFor = (app: Receiver, paymentId: string) => app.received.filter((r) => (r.event.data as {id?: string})?.id === paymentId)

describe('the stand-ins act on their profile’s sandbox only', {timeout: 120_000}, () => {
  it('a stopped profile: exit 7 naming it and its start command, the other sandbox unchanged; with nothing chosen, the only one is used and named, several refused', async () => {
    const {temp, serve, cli} = setUp()
    const a = await serve()
    const b = await serve()
    expect(a.info.profile).toBe('local')
    await a.stop()
    const port = new URL(a.info.base_url).port
    const before = await admin(b, '/clock')
    const numbersBefore = await admin(b, '/numbers')

    for (const args of [
      ['--profile', 'local', 'sandbox', 'clock', 'advance', '1d'],
      ['sandbox', 'clock', 'advance', '1d'], // the current profile is `local`
      ['--profile', 'local', 'sandbox', 'numbers', 'set', '670000123', '--operator', 'MTN', '--outcome', 'FAILED'],
      ['--profile', 'local', 'sandbox', 'requests'],
      ['--profile', 'local', 'sandbox', 'keys', 'list'],
      ['--base-url', a.info.base_url, '--api-key', a.info.sandbox_key, 'sandbox', 'faults', 'list'],
    ]) {
      const r = await cli(args)
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(7)
      expect(r.stderr, `${args.join(" ")}: ${r.stdout}`).toContain(a.info.base_url)
      expect(r.stderr).toContain(`svc sandbox serve --port ${port}`)
    }
    // The other sandbox did not move.
    expect((await admin(b, '/clock')).offset_ms).toBe(before.offset_ms)
    expect(await admin(b, '/numbers')).toEqual(numbersBefore)

    // With that key: the other sandbox's address with the stopped one's key is refused (exit 3), unchanged.
    const otherKey = await cli(['--base-url', b.info.base_url, '--api-key', a.info.sandbox_key, 'sandbox', 'clock', 'advance', '1d'])
    expect(otherKey.exitCode, otherKey.stderr).toBe(3)
    expect(otherKey.stderr).toContain(b.info.base_url)
    expect(otherKey.stderr).not.toContain(a.info.sandbox_key)
    expect((await admin(b, '/clock')).offset_ms).toBe(before.offset_ms)
    const ownKey = await cli(['--base-url', b.info.base_url, '--api-key', b.info.sandbox_key, 'sandbox', 'clock', 'show'])
    expect(ownKey.exitCode, ownKey.stderr).toBe(0)

    // Its own profile still reaches it.
    const own = await cli(['--profile', b.info.profile, 'sandbox', 'clock', 'show', '--json'])
    expect(own.exitCode, own.stderr).toBe(0)

    // No current profile, no flag: the only running sandbox, named on stderr.
    const config = JSON.parse(readFileSync(join(temp.dir, 'config.json'), 'utf8'))
    delete config.current
    writeFileSync(join(temp.dir, 'config.json'), JSON.stringify(config), {mode: 0o600})
    const only = await cli(['sandbox', 'clock', 'show', '--json'])
    expect(only.exitCode, only.stderr).toBe(0)
    expect(only.stderr).toContain(b.info.base_url)
    expect(only.stderr).toContain(b.info.profile)
    // Two running and nothing chosen: refused, naming both.
    const c = await serve()
    // It saved its profile as the current one (there was none): nothing is chosen again.
    writeFileSync(join(temp.dir, 'config.json'), JSON.stringify({...JSON.parse(readFileSync(join(temp.dir, 'config.json'), 'utf8')), current: undefined}), {mode: 0o600})
    const several = await cli(['sandbox', 'clock', 'show'])
    expect(several.exitCode, several.stderr).toBe(2)
    expect(several.stderr).toContain(b.info.profile)
    expect(several.stderr).toContain(c.info.profile)
    expect(several.stderr).toContain('--profile')
  })
})

/** How much faster listen's time runs while a test waits for what must not come (test/helpers/child-time-warp.mjs). */
const WARP = 12

/** `svc ARGS webhooks listen --forward-to APP` as a child process, its stderr collected. */
function listen(configDir: string, args: string[], app: Receiver) {
  let child!: ChildProcess
  const out = {err: ''}
  const run: Promise<CliResult> = runCli([...args, 'webhooks', 'listen', '--forward-to', app.url], {
    configDir,
    // Its requests' deadlines long enough to stay seconds of real time while its time is warped.
    env: {SVC_RATE_LIMIT: '0', SVC_TIMEOUT: '120s'},
    timeoutMs: 150_000,
    warp: WARP,
    onSpawn(spawned) {
      child = spawned
      spawned.stderr!.on('data', (d: Buffer) => (out.err += d.toString()))
    },
  })
  cleanups.push(async () => {
    child.kill('SIGKILL')
    await run
  })
  return {out, run, child: () => child}
}

/**
 * `ms` of listen's own time, run WARP times faster: its timers (the watch's reconnect attempts, one
 * a second) fire as they would in that time, while its requests and the sandboxes keep real time.
 */
async function listenFor(l: ReturnType<typeof listen>, ms: number): Promise<void> {
  const listenNow = await warpTime(l.child(), () => l.out.err, WARP)
  const from = listenNow()
  await waitFor(() => listenNow() - from >= ms, 30_000, `${ms} ms of listen's time`)
  await warpTime(l.child(), () => l.out.err, WARP, false)
}

/**
 * Until listen says its sandbox is back (after `mark` in its stderr), listen's time runs WARP times
 * faster: its attempts to reconnect, one a second of its time, come as soon as the sandbox is up.
 */
async function backUnder(l: ReturnType<typeof listen>, mark: number, what: string): Promise<void> {
  await warpTime(l.child(), () => l.out.err, WARP)
  try {
    await waitFor(() => /back/.test(l.out.err.slice(mark)), 20_000, what)
  } finally {
    await warpTime(l.child(), () => l.out.err, WARP, false)
  }
}

/** An app and `svc --profile local webhooks listen` forwarding to it, ready. */
async function listenReady(configDir: string) {
  const app = await startReceiver()
  cleanups.push(() => app.close())
  const l = listen(configDir, ['--profile', 'local'], app)
  await waitFor(() => /Press Ctrl-C to stop/.test(l.out.err), 30_000, 'listen to be ready')
  return {app, l}
}

/** Stops listen's sandbox; once listen says it waits: where its stderr stood before. */
async function stopUnder(l: ReturnType<typeof listen>, served: ServedSandbox): Promise<number> {
  const mark = l.out.err.length
  await served.stop()
  await waitFor(() => /waiting for the sandbox at/i.test(l.out.err.slice(mark)), 10_000, 'listen to say it waits')
  return mark
}

describe('webhooks listen follows its own sandbox', {timeout: 180_000}, () => {
  it('through its stop and restart: waits for it (never "back" while it is down), the other sandbox’s payment is never forwarded, its own after the restart is', async () => {
    const {temp, serve} = setUp()
    const port = await freePort()
    let a = await serve(['--port', String(port)])
    const b = await serve()
    expect(a.info.profile).toBe('local')
    const {app, l} = await listenReady(temp.dir)

    const first = await payOn(a, 1001)
    await waitFor(() => forwardedFor(app, first).length > 0, 20_000, 'the first payment forwarded')
    const mark = await stopUnder(l, a)
    expect(l.out.err.slice(mark)).toContain(a.info.base_url)
    // The other sandbox's payment settles while its own is down.
    const other = await payOn(b, 2002)
    await until(async () => (await eventsOf(b, other)).length > 0, 20_000, 'the other sandbox’s settlement')
    // What is tested here is that nothing comes: the time the old fallback took to re-register
    // (one second) several times over, of listen's time.
    await listenFor(l, 6_000)
    expect(l.out.err.slice(mark)).not.toMatch(/back/)
    expect(l.out.err.slice(mark).match(/waiting for the sandbox at/gi)).toHaveLength(1)

    a = await serve(['--port', String(port)])
    await backUnder(l, mark, 'listen back on its sandbox')
    const own = await payOn(a, 3003)
    await waitFor(() => forwardedFor(app, own).length > 0, 20_000, 'its own payment after the restart')
    expect(forwardedFor(app, other)).toEqual([])
    // Each delivery verified by listen: none was refused as a signature mismatch.
    expect(l.out.err).not.toMatch(/signature/i)
  })

  it('a restart (with --data) forwards nothing from before listen started, and every event under one webhook-id, the sandbox’s own', async () => {
    const {temp, dataDir, serve} = setUp()
    const port = await freePort()
    const args = ['--port', String(port), '--data', join(dataDir, 'shop.db')]
    let a = await serve(args)
    const app = await startReceiver()
    cleanups.push(() => app.close())
    const early = await payOn(a, 1111)
    await until(async () => (await eventsOf(a, early)).length > 0, 20_000, 'the payment made before listen settled')

    const l = listen(temp.dir, ['--profile', 'local'], app)
    await waitFor(() => /Press Ctrl-C to stop/.test(l.out.err), 30_000, 'listen to be ready')
    const before = await payOn(a, 2222)
    await waitFor(() => forwardedFor(app, before).length > 0, 20_000, 'a payment forwarded')
    for (let round = 1; round <= 2; round++) {
      const mark = l.out.err.length
      await a.stop()
      await waitFor(() => /waiting for the sandbox at/i.test(l.out.err.slice(mark)), 10_000, 'listen to notice')
      a = await serve(args)
      await backUnder(l, mark, 'listen back')
    }
    const after = await payOn(a, 3333)
    await waitFor(() => forwardedFor(app, after).length > 0, 20_000, 'a payment after the restarts forwarded')

    expect(forwardedFor(app, early)).toEqual([])
    for (const id of [before, after]) {
      const own = await eventsOf(a, id)
      const ids = new Set(forwardedFor(app, id).map((r) => r.headers['webhook-id']))
      expect([...ids]).toEqual(own.map((e) => e.id))
    }
  })

  it('its endpoint removed while the sandbox runs (`sandbox reset --all`: new keys too): told at once by the watch line, registered again with the profile’s new key', async () => {
    const {temp, serve, cli} = setUp()
    const a = await serve()
    const app = await startReceiver()
    cleanups.push(() => app.close())
    const l = listen(temp.dir, ['--profile', 'local'], app)
    await waitFor(() => /Press Ctrl-C to stop/.test(l.out.err), 30_000, 'listen to be ready')
    const mark = l.out.err.length
    const reset = await cli(['--profile', 'local', 'sandbox', 'reset', '--all', '--json'])
    expect(reset.exitCode, reset.stderr).toBe(0)
    const newKey = JSON.parse(reset.stdout).keys.sandbox as string
    await waitFor(() => /no longer has this listener registered/.test(l.out.err.slice(mark)), 10_000, 'listen to learn its endpoint went')
    await backUnder(l, mark, 'listen registered again')
    const response = await fetch(`${a.info.base_url}/v1/payments`, {
      method: 'POST',
      headers: {'x-api-key': newKey, 'content-type': 'application/json'},
      body: JSON.stringify({amount: 4004, phone_number: '237670000001', operator: 'MTN'}),
    })
    expect(response.status).toBe(201)
    const id = ((await response.json()) as {id: string}).id
    await waitFor(() => forwardedFor(app, id).length > 0, 20_000, 'a payment after the reset forwarded')
    expect(forwardedFor(app, id)).toHaveLength(1)
  })

  it('with no profile and no flag: the only running sandbox, named; it follows that one through a restart', async () => {
    const {temp, serve} = setUp()
    const port = await freePort()
    let a = await serve(['--port', String(port)])
    const dropCurrent = () => {
      const config = JSON.parse(readFileSync(join(temp.dir, 'config.json'), 'utf8'))
      delete config.current
      writeFileSync(join(temp.dir, 'config.json'), JSON.stringify(config), {mode: 0o600})
    }
    dropCurrent()
    const app = await startReceiver()
    cleanups.push(() => app.close())
    const l = listen(temp.dir, [], app)
    await waitFor(() => /Press Ctrl-C to stop/.test(l.out.err), 30_000, 'listen to be ready')
    expect(l.out.err).toMatch(new RegExp(`Using the sandbox at ${a.info.base_url.replace(/[.]/g, '\\.')}`))
    expect(l.out.err).toContain(`the local sandbox at ${a.info.base_url}`)
    const first = await payOn(a, 1500)
    await waitFor(() => forwardedFor(app, first).length > 0, 20_000, 'a payment forwarded')
    const mark = l.out.err.length
    await a.stop()
    await waitFor(() => /waiting for the sandbox at/i.test(l.out.err.slice(mark)), 10_000, 'listen to notice')
    a = await serve(['--port', String(port)])
    dropCurrent()
    await backUnder(l, mark, 'listen back')
    const second = await payOn(a, 2500)
    await waitFor(() => forwardedFor(app, second).length > 0, 20_000, 'a payment after the restart forwarded')
  })
})

describe('webhooks listen is bound to the sandbox it started on', {timeout: 180_000}, () => {
  it('another sandbox taking its stopped profile is not its sandbox: never "back" there, nothing of it forwarded; back only at its own address; Ctrl-C removes its endpoints and names that address', async () => {
    const {temp, dataDir, serve} = setUp()
    const port = await freePort()
    const args = ['--port', String(port), '--data', join(dataDir, 'shop.db')]
    let a = await serve(args)
    expect(a.info.profile).toBe('local')
    const {app, l} = await listenReady(temp.dir)
    const first = await payOn(a, 1001)
    await waitFor(() => forwardedFor(app, first).length > 0, 20_000, 'the first payment forwarded')
    const mark = await stopUnder(l, a)
    // Another sandbox, in memory, takes the profile `local` (its sandbox is stopped).
    const c = await serve()
    expect(c.info.profile).toBe('local')
    const other = await payOn(c, 2002)
    await until(async () => (await eventsOf(c, other)).length > 0, 20_000, 'the other sandbox’s settlement')
    // Nothing is to come: the time the watch takes to reconnect (one second) several times over, of listen's time.
    await listenFor(l, 6_000)
    expect(l.out.err.slice(mark)).not.toMatch(/back/)
    expect(forwardedFor(app, other)).toEqual([])
    const receiver = l.out.err.match(/receiving events at (http:\/\/\S+)/)![1]!
    const cEndpoints = await admin(c, '/webhook-endpoints')
    expect((cEndpoints.data as Array<{url: string}>).filter((e) => e.url.startsWith(receiver))).toEqual([])
    const cEnded = await c.stop()
    // C said whose profile it took: the stopped sandbox at A's address, with its data file.
    expect(cEnded.stderr).toContain(`profile local pointed at ${a.info.base_url} (stopped; data `)
    expect(cEnded.stderr).toContain('shop.db')

    // Its own sandbox back, at its own address: back there, named, and its payment forwarded.
    a = await serve(args)
    await backUnder(l, mark, 'listen back on its sandbox')
    expect(l.out.err.slice(mark)).toContain(`The sandbox at ${a.info.base_url} is back`)
    expect(l.out.err).not.toContain(c.info.base_url)
    const own = await payOn(a, 3003)
    await waitFor(() => forwardedFor(app, own).length > 0, 20_000, 'its own payment after the restart')
    expect(l.out.err).not.toMatch(/signature/i)

    l.child().kill('SIGINT')
    const result = await l.run
    expect(result.exitCode).toBe(130)
    expect(result.stderr).toMatch(new RegExp(`Disconnected from the sandbox at ${a.info.base_url.replace(/[.]/g, '\\.')} \\d`))
    // Every endpoint it registered on its sandbox is gone.
    const left = await admin(a, '/webhook-endpoints')
    expect((left.data as Array<{url: string}>).filter((e) => e.url.startsWith(receiver))).toEqual([])
  })

  it('Ctrl-C while its sandbox is down: says which endpoints it could not remove, and where', async () => {
    const {temp, dataDir, serve} = setUp()
    const a = await serve(['--data', join(dataDir, 'shop.db')])
    const {l} = await listenReady(temp.dir)
    await stopUnder(l, a)
    l.child().kill('SIGTERM')
    const result = await l.run
    expect(result.stderr).toMatch(new RegExp(`could not remove.*we_\\w+.*${a.info.base_url.replace(/[.]/g, '\\.')}`, 'i'))
  })
})
