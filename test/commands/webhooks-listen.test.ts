/**
 * `svc webhooks listen` and `replay` as a user runs them: the built CLI as a child process, against
 * an in-process sandbox made to look like the one `svc sandbox serve` runs (its entry in sandboxes.json, the
 * registry of running sandboxes), forwarding to a real local app that verifies with the `standardwebhooks` package
 * and the secret `--print-secret` gave.
 */
import type {ChildProcess} from 'node:child_process'
import {mkdirSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {generateSecret, signPayload} from '../../src/contract/signature.js'
import {runCli, warpTime, type CliResult} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {markRunningSandbox, startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {startReceiver, waitFor, type Receiver} from '../helpers/receiver.js'

let sandbox: TestSandbox
let temp: ReturnType<typeof tempConfigDir>
const cleanups: Array<() => Promise<unknown> | void> = []

// Payments settle at once: nothing here needs one PENDING.
beforeAll(async () => {
  sandbox = await startTestSandbox({settleAfterMs: 0})
})
afterAll(() => sandbox.close())
beforeEach(() => {
  temp = tempConfigDir()
})
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
  temp.cleanup()
})

/** A saved profile `dev` for this sandbox (so the local secret lives in the profile). */
function writeProfile(sb: TestSandbox, key: 'sandbox' | 'live' = 'sandbox'): void {
  mkdirSync(temp.dir, {recursive: true, mode: 0o700})
  const config = {current: 'dev', profiles: {dev: {api_key: sb.sb.keys[key], base_url: sb.sb.url}}}
  writeFileSync(join(temp.dir, 'config.json'), JSON.stringify(config), {mode: 0o600})
}

/** What `svc sandbox serve` leaves behind: this sandbox is "the local sandbox". */
function markLocalSandbox(sb: TestSandbox): void {
  markRunningSandbox(temp.dir, sb.sb)
}

// The listener is a process (stopped with Ctrl-C, restarted); the other commands run in-process.
const cli = (args: string[], input?: string) => runInProcess(args, {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0'}, input})

async function printSecret(): Promise<string> {
  const r = await cli(['webhooks', 'listen', '--print-secret'])
  expect(r.exitCode).toBe(0)
  return r.stdout.trim()
}

async function app(secret: string): Promise<Receiver> {
  const started = await startReceiver({secret})
  cleanups.push(() => started.close())
  return started
}

interface Running {
  child: ChildProcess
  stdout(): string
  stderr(): string
  result: Promise<CliResult>
  /** Ctrl-C, then the finished run. */
  interrupt(): Promise<CliResult>
  /**
   * `ms` of the listener's own time, run WARP times faster (test/helpers/child-time-warp.mjs): its
   * timers (retries, polls) fire as they would in that time, while its requests keep real time.
   * For the waits that are the test: nothing more comes in that time.
   */
  quietFor(ms: number): Promise<void>
  /**
   * `wait` (for what the listener does on its own timers: its next poll, a retry's backoff) with
   * the listener's time run WARP times faster until it settles, then at real pace again.
   */
  warped<T>(wait: () => Promise<T>): Promise<T>
}

/** How much faster the listener's time runs while a test waits for what must not come. */
const WARP = 12

/** `svc webhooks listen …` in the background; resolves once it says it is ready. */
async function listen(args: string[], input?: string): Promise<Running> {
  let child!: ChildProcess
  let out = ''
  let err = ''
  const result = runCli(['webhooks', 'listen', ...args], {
    configDir: temp.dir,
    env: {SVC_RATE_LIMIT: '0'},
    input,
    timeoutMs: 45_000,
    warp: WARP,
    onSpawn(spawned) {
      child = spawned
      spawned.stdout!.on('data', (d: string) => (out += d))
      spawned.stderr!.on('data', (d: string) => (err += d))
    },
  })
  let exited = false
  void result.then(() => (exited = true))
  const running: Running = {
    child,
    stdout: () => out,
    stderr: () => err,
    result,
    async interrupt() {
      child.kill('SIGINT')
      return result
    },
    async quietFor(ms) {
      const listenNow = await warpTime(child, () => err, WARP)
      const from = listenNow()
      await waitFor(() => listenNow() - from >= ms, 30_000, `${ms} ms of the listener's time`)
      await warpTime(child, () => err, WARP, false)
    },
    async warped(wait) {
      await warpTime(child, () => err, WARP)
      try {
        return await wait()
      } finally {
        if (!exited) await warpTime(child, () => err, WARP, false)
      }
    },
  }
  cleanups.push(async () => {
    if (!exited) child.kill('SIGKILL')
    await result
  })
  await waitFor(() => /Press Ctrl-C to stop/.test(err) || exited, 15_000, 'the listener to be ready')
  if (exited) throw new Error(`listen exited early:\n${err}\n${out}`)
  return running
}

async function pay(sb: TestSandbox, phone: string, operator: 'MTN' | 'ORANGE', amount = 1000): Promise<string> {
  const response = await fetch(`${sb.sb.url}/v1/payments`, {
    method: 'POST',
    headers: {'x-api-key': sb.sb.keys.sandbox, 'content-type': 'application/json'},
    body: JSON.stringify({amount, phone_number: phone, operator, payment_method: 'mobile_money'}),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as {id: string}).id
}

const eventsFor = (local: Receiver, paymentId: string) => local.received.filter((r) => (r.event.data as {id: string}).id === paymentId)

async function sandboxEndpoints(sb: TestSandbox): Promise<Array<{id: string; url: string}>> {
  return (await sb.admin('GET', '/webhook-endpoints?environment=SANDBOX')).data
}

describe('svc webhooks listen against the local sandbox', () => {
  it('registers its receiver, forwards real events signed with the profile local secret, routes by type, replays', async () => {
    writeProfile(sandbox)
    markLocalSandbox(sandbox)
    const secret = await printSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
    // Stable: generated once, kept in the profile.
    expect(await printSecret()).toBe(secret)
    expect(JSON.parse(readFileSync(join(temp.dir, 'config.json'), 'utf8')).profiles.dev.local_secret).toBe(secret)

    const main = await app(secret)
    const failures = await app(secret)
    const before = (await sandboxEndpoints(sandbox)).length
    const run = await listen(['--forward-to', `${main.url}/hooks`, '--forward-to', `payment.failed=${failures.url}/failed`])
    expect(run.stderr()).toContain(`Forwarding to ${main.url}/hooks`)
    expect(run.stderr()).toContain(`Forwarding payment.failed to ${failures.url}/failed`)
    expect(run.stderr()).toContain(secret)
    const receiver = /receiving events at (http:\/\/127\.0\.0\.1:\d+)/.exec(run.stderr())![1]
    const endpoints = await sandboxEndpoints(sandbox)
    expect(endpoints.length).toBe(before + 1)
    expect(endpoints.some((e) => e.url === `${receiver}/`)).toBe(true)

    const ok = await pay(sandbox, '237670000001', 'MTN')
    const ko = await pay(sandbox, '237650000099', 'ORANGE')
    await waitFor(() => eventsFor(main, ok).length > 0 && eventsFor(failures, ko).length > 0, 10_000, 'both events')
    expect(main.unverified + failures.unverified).toBe(0)
    const success = eventsFor(main, ok)[0]
    expect(success.event.type).toBe('payment.success')
    expect(success.path).toBe('/hooks')
    expect(eventsFor(failures, ko)[0].event.type).toBe('payment.failed')
    expect(eventsFor(failures, ko)[0].path).toBe('/failed')
    expect(eventsFor(main, ko)).toHaveLength(0)
    // One line per event: time, environment, type, id, the app's status, latency.
    await waitFor(() => run.stdout().includes(success.event.id), 10_000, 'the stdout line')
    expect(run.stdout()).toMatch(new RegExp(`\\d\\d:\\d\\d:\\d\\d  SANDBOX  payment\\.success  ${success.event.id}  \\[200\\]  +[\\d.]+ ms`))

    // A delivery not signed with the endpoint's secret is refused and shown.
    const forged = JSON.stringify({...success.event, id: 'evt_forged'})
    const refusedForged = await fetch(`${receiver}/`, {method: 'POST', headers: {...signPayload(secret, 'evt_forged', forged)}, body: forged})
    expect(refusedForged.status).toBe(401)
    await waitFor(() => /refused a delivery \(401\): Signature mismatch/.test(run.stderr()), 10_000, 'the refusal shown')

    const stopped = await run.interrupt()
    expect(stopped.exitCode).toBe(130)
    expect(stopped.stderr).toMatch(/Nothing pending/)
    expect(main.received.some((r) => r.event.id === 'evt_forged')).toBe(false)
    // The endpoint is removed on exit.
    expect((await sandboxEndpoints(sandbox)).some((e) => e.url === `${receiver}/`)).toBe(false)

    // Replay: the routes listen last used, signed afresh.
    const replayed = await cli(['webhooks', 'replay', success.event.id])
    expect(replayed.exitCode).toBe(0)
    expect(replayed.stdout).toMatch(/\[200\]/)
    expect(eventsFor(main, ok)).toHaveLength(2)
    expect(eventsFor(main, ok)[1].headers['webhook-id']).toBe(success.event.id)
    // --forward-to overrides them.
    const elsewhere = await cli(['webhooks', 'replay', '--forward-to', `${failures.url}/other`, success.event.id, '--json'])
    expect(elsewhere.exitCode).toBe(0)
    expect(JSON.parse(elsewhere.stdout)).toMatchObject({event_id: success.event.id, ok: true, status: 200})
    expect(eventsFor(failures, ok)[0].path).toBe('/other')
    // Unknown id: exit 4. An app that refuses: exit 1.
    const unknown = await cli(['webhooks', 'replay', 'evt_nope'])
    expect(unknown.exitCode).toBe(4)
    expect(unknown.stderr).toMatch(/No event evt_nope in the local event log/)
    main.statusFor = () => 503
    const refused = await cli(['webhooks', 'replay', success.event.id])
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toMatch(/did not accept/)
  })

  it('an app down for a while gets every event once it is up; Ctrl-C reports what is pending; a restart resumes it', async () => {
    writeProfile(sandbox)
    markLocalSandbox(sandbox)
    const local = await app(await printSecret())
    await local.stop()
    const run = await listen(['--forward-to', `${local.url}/hooks`, '--json'])
    const ready = JSON.parse(run.stdout().split('\n')[0])
    expect(ready).toMatchObject({kind: 'ready', source: 'sandbox', forward_to: {default: `${local.url}/hooks`}})
    const ids = [await pay(sandbox, '237670000001', 'MTN'), await pay(sandbox, '237670000002', 'MTN'), await pay(sandbox, '237680000099', 'MTN')]
    await waitFor(() => (run.stdout().match(/"ok":false/g) ?? []).length >= 3, 10_000, 'failed attempts')
    const lines = run.stdout().trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.find((l) => l.kind === 'forward' && !l.ok)).toMatchObject({status: null, attempt: 1})
    await local.restart()
    // The listener finds the app back at its next retry (its backoff's time, run faster).
    await run.warped(() => waitFor(() => ids.every((id) => eventsFor(local, id).length > 0), 15_000, 'every event after the app came back'))
    // Deliberate: no second delivery of any of them comes in the next 3 s of the listener's time
    // (its retries' first steps several times over): not repeated.
    await run.quietFor(3_000)
    for (const id of ids) expect(eventsFor(local, id)).toHaveLength(1)
    expect(local.unverified).toBe(0)

    // An app that answers 500: the event stays pending; Ctrl-C says so.
    local.statusFor = () => 500
    const stuck = await pay(sandbox, '237690000001', 'ORANGE')
    await waitFor(() => eventsFor(local, stuck).length > 0, 10_000, 'the refused event')
    const event = eventsFor(local, stuck)[0].event
    const stopped = await run.interrupt()
    expect(stopped.exitCode).toBe(130)
    expect(stopped.stderr).toMatch(new RegExp(`1 event not yet delivered to your app: ${event.id}`))
    const last = JSON.parse(stopped.stdout.trim().split('\n').at(-1)!)
    expect(last).toMatchObject({kind: 'stopped', pending: [{event_id: event.id, last_status: 500}]})

    // Restarted, it resumes the event the app never accepted.
    local.statusFor = () => 200
    const again = await listen(['--forward-to', `${local.url}/hooks`])
    expect(again.stderr()).toMatch(/Resuming 1 event/)
    await waitFor(() => new RegExp(`${event.id} +\\[200\\]`).test(again.stdout()), 10_000, 'the resumed event')
    expect((await again.interrupt()).stderr).toMatch(/Nothing pending/)
  })
})

describe('svc webhooks listen with inbound deliveries', () => {
  it('needs an endpoint secret; refuses bad signatures and stale timestamps (401) and shows them', async () => {
    writeProfile(sandbox)
    const local = await app(await printSecret())
    const none = await cli(['webhooks', 'listen', '--source', 'inbound', '--forward-to', local.url])
    expect(none.exitCode).toBe(2)
    expect(none.stderr).toMatch(/--endpoint-secret-stdin/)
    const malformed = await cli(['webhooks', 'listen', '--endpoint-secret-stdin'], 'not-a-secret')
    expect(malformed.exitCode).toBe(2)

    const endpointSecret = generateSecret()
    // Given once (saved in the profile, masked in what is printed), then auto picks inbound.
    const saved = await cli(['webhooks', 'listen', '--endpoint-secret-stdin'], `${endpointSecret}\n`)
    expect(saved.exitCode).toBe(0)
    expect(saved.stderr).not.toContain(endpointSecret)
    expect(JSON.parse(readFileSync(join(temp.dir, 'config.json'), 'utf8')).profiles.dev.endpoint_secret).toBe(endpointSecret)

    const run = await listen(['--forward-to', `${local.url}/in`, '--json'])
    const ready = JSON.parse(run.stdout().split('\n')[0])
    expect(ready.source).toBe('inbound')
    const event = {id: 'evt_inbound_1', type: 'payment.success', created_at: new Date().toISOString(), environment: 'SANDBOX', data: {id: 'svcpay_test_in1', status: 'SUCCESS'}}
    const body = JSON.stringify(event)
    const post = (headers: Record<string, string>) =>
      fetch(`${ready.receiver_url}/`, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body})
    const badSignature = await post({...signPayload(generateSecret(), event.id, body)})
    expect(badSignature.status).toBe(401)
    const stale = await post({...signPayload(endpointSecret, event.id, body, Math.floor(Date.now() / 1000) - 600)})
    expect(stale.status).toBe(401)
    expect(local.received).toHaveLength(0)
    const good = await post({...signPayload(endpointSecret, event.id, body)})
    expect(good.status).toBe(200)
    await waitFor(() => local.received.length === 1, 10_000, 'the good delivery')
    expect(local.received[0].event.id).toBe(event.id)
    const lines = run.stdout().trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.kind === 'rejected').map((l) => l.reason)).toEqual(['signature_mismatch', 'timestamp_too_old'])
    const messages = lines.filter((l) => l.kind === 'rejected').map((l) => l.message)
    expect(messages[0]).toMatch(/^Signature mismatch/)
    expect(messages[1]).toMatch(/^The timestamp is 10 min( \d+ s)? in the past/)
    expect((await run.interrupt()).exitCode).toBe(130)
  })
})

describe('svc webhooks listen polling the payments list', () => {
  let slow: TestSandbox
  beforeAll(async () => {
    // Settlement only when the test moves the sandbox clock.
    slow = await startTestSandbox({settleAfterMs: 60 * 60 * 1000})
  })
  afterAll(() => slow.close())

  it('restarted between settlements, neither misses nor invents nor repeats an event', async () => {
    writeProfile(slow)
    const local = await app(await printSecret())
    const settle = () => slow.sb.clock.advance(60 * 60 * 1000 + 1000)
    // Settled before the first start: not an event.
    const before = await pay(slow, '237670000001', 'MTN')
    await settle()

    const args = ['--source', 'poll', '--poll-interval', '250ms', '--forward-to', `${local.url}/poll`]
    const first = await listen(args)
    expect(first.stderr()).toMatch(/following the payments list/)
    const scopeDir = join(temp.dir, 'webhooks', 'dev')
    await waitFor(() => readdirSync(scopeDir).some((f) => /^poll-.*\.json$/.test(f)), 10_000, 'the poll position')
    const p1 = await pay(slow, '237670000002', 'MTN')
    await settle()
    // Each seen at the listener's next poll (its interval's time, run faster).
    await first.warped(() => waitFor(() => eventsFor(local, p1).length > 0, 10_000, 'p1'))
    const p2 = await pay(slow, '237670000099', 'MTN')
    await first.warped(() =>
      waitFor(() => JSON.parse(readFileSync(join(scopeDir, readdirSync(scopeDir).find((f) => f.startsWith('poll-'))!), 'utf8')).watching[p2], 10_000, 'p2 watched'),
    )
    expect((await first.interrupt()).exitCode).toBe(130)

    // While stopped: p2 settles, p3 is created and settles.
    await settle()
    const p3 = await pay(slow, '237650000001', 'ORANGE')
    await settle()
    const second = await listen(args)
    await waitFor(() => eventsFor(local, p2).length > 0 && eventsFor(local, p3).length > 0, 10_000, 'p2 and p3')
    // Deliberate: nothing more arrives in the next 3 s of the listener's time (12 of its polls):
    // no event repeated or invented.
    await second.quietFor(3_000)
    expect((await second.interrupt()).exitCode).toBe(130)

    expect(eventsFor(local, before)).toHaveLength(0)
    for (const id of [p1, p2, p3]) expect(eventsFor(local, id)).toHaveLength(1)
    expect(eventsFor(local, p2)[0].event.type).toBe('payment.failed')
    expect(local.received).toHaveLength(3)
    expect(local.unverified).toBe(0)
  })
})
