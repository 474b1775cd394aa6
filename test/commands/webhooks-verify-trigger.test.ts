/**
 * `svc webhooks verify` (each reason it gives, exit 0/1/2, --json) and `svc webhooks trigger`
 * (a real sandbox payment whose real event arrives; refused on a LIVE key), in-process: stdin is
 * the command's own (its context's), and the payment and its event go over real HTTP.
 */
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {generateSecret, signPayload} from '../../src/contract/signature.js'
import {skippingClock} from '../helpers/clock.js'
import {withSandbox} from '../helpers/fixtures.js'
import {startReceiver, waitFor} from '../helpers/receiver.js'
import {runInProcess} from '../helpers/in-process.js'

// The file's sandbox (payments settle after 200 ms of its time, on a clock the trigger's runs share,
// which jumps through their waits: a watch takes no real time), and this test's config dir, made
// (the payloads are written in it).
const clock = skippingClock()
const it = withSandbox({clock}).extend<{dir: string}>({
  dir: async ({temp}, use) => {
    mkdirSync(temp.dir, {recursive: true, mode: 0o700})
    await use(temp.dir)
  },
})

describe('svc webhooks verify', () => {
  const secret = generateSecret()
  const body = JSON.stringify({id: 'evt_v1', type: 'payment.success', created_at: '2026-01-01T00:00:00Z', data: {id: 'svcpay_test_1'}})
  const payloadFile = (dir: string) => {
    const path = join(dir, 'body.json')
    writeFileSync(path, body)
    return path
  }
  const headerFlags = (headers: object) => Object.entries(headers).flatMap(([k, v]) => ['--header', `${k}: ${v}`])
  const verify = (dir: string, args: string[], input?: string) => runInProcess(['webhooks', 'verify', ...args], {configDir: dir, input})
  const verifyInProcess = (dir: string, args: string[]) => runInProcess(['webhooks', 'verify', ...args], {configDir: dir})

  it('OK for a good delivery (file or stdin), exit 0; --json prints the report', async ({dir}) => {
    const headers = signPayload(secret, 'evt_v1', body)
    const ok = await verify(dir, ['--secret', secret, '--payload', payloadFile(dir), ...headerFlags(headers)])
    expect(ok.exitCode).toBe(0)
    expect(ok.stdout).toMatch(/^Signature valid: webhook-id evt_v1/)
    const fromStdin = await verify(dir, ['--secret', secret, '--payload', '-', ...headerFlags(headers), '--json'], body)
    expect(fromStdin.exitCode).toBe(0)
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ok: true, webhookId: 'evt_v1', timestamp: Number(headers['webhook-timestamp'])})
  })

  it('exit 1 with the precise reason: mismatch, stale, future, header missing', async ({dir}) => {
    const path = payloadFile(dir)
    const now = Math.floor(Date.now() / 1000)
    const cases: Array<[string[], RegExp, string]> = [
      [['--secret', generateSecret(), ...headerFlags(signPayload(secret, 'evt_v1', body))], /Signature mismatch/, 'signature_mismatch'],
      [['--secret', secret, ...headerFlags(signPayload(secret, 'evt_v1', body, now - 600))], /10 min( \d+ s)? in the past, beyond the 5 min tolerance/, 'timestamp_too_old'],
      [['--secret', secret, ...headerFlags(signPayload(secret, 'evt_v1', body, now + 900))], /1[45] min( \d+ s)? in the future/, 'timestamp_too_new'],
      [['--secret', secret, ...headerFlags({...signPayload(secret, 'evt_v1', body), 'webhook-signature': ''}).slice(0, 4)], /Header webhook-signature is missing/, 'header_missing'],
    ]
    for (const [args, message, reason] of cases) {
      const human = await verifyInProcess(dir, [...args, '--payload', path])
      expect(human.exitCode, reason).toBe(1)
      expect(human.stderr, reason).toMatch(message)
      const json = await verifyInProcess(dir, [...args, '--payload', path, '--json'])
      expect(json.exitCode, reason).toBe(1)
      expect(JSON.parse(json.stdout), reason).toMatchObject({ok: false, reason})
    }
  })

  it('a malformed --secret is bad input: exit 2, naming the flag (text and --json)', async ({dir}) => {
    const path = payloadFile(dir)
    for (const bad of ['whsec_!!notbase64', 'nope']) {
      const args = ['--secret', bad, ...headerFlags(signPayload(secret, 'evt_v1', body)), '--payload', path]
      const human = await verify(dir, args)
      expect(human.exitCode).toBe(2)
      expect(human.stderr).toMatch(/The secret is malformed.*--secret/)
      const json = await verify(dir, [...args, '--json'])
      expect(json.exitCode).toBe(2)
      expect(JSON.parse(json.stdout).error).toMatchObject({code: 'secret_malformed', field: '--secret'})
    }
  })

  it('--tolerance widens the window; a trailing newline is pointed out; unusable flags exit 2', async ({dir}) => {
    const path = payloadFile(dir)
    const stale = signPayload(secret, 'evt_v1', body, Math.floor(Date.now() / 1000) - 600)
    expect((await verifyInProcess(dir, ['--secret', secret, '--payload', path, ...headerFlags(stale), '--tolerance', '15m'])).exitCode).toBe(0)
    const withNewline = join(dir, 'newline.json')
    writeFileSync(withNewline, `${body}\n`)
    const hinted = await verifyInProcess(dir, ['--secret', secret, '--payload', withNewline, ...headerFlags(signPayload(secret, 'evt_v1', body))])
    expect(hinted.exitCode).toBe(1)
    expect(hinted.stderr).toMatch(/verify without the trailing newline/)
    const missing = await verifyInProcess(dir, ['--secret', secret, '--payload', join(dir, 'nope.json'), ...headerFlags(stale)])
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toMatch(/Cannot read --payload/)
    const badHeader = await verifyInProcess(dir, ['--secret', secret, '--payload', path, '--header', 'no colon here'])
    expect(badHeader.exitCode).toBe(2)
  })
})

describe('svc webhooks trigger', () => {
  it('makes a real sandbox payment with a test number, and the real event arrives', async ({sandbox, dir}) => {
    // A free port for the endpoint's receiver, which needs the secret registration gives.
    const probe = await startReceiver({secret: generateSecret()})
    await probe.close()
    const endpoint = await sandbox.admin('POST', '/webhook-endpoints', {url: `${probe.url}/`, environment: 'SANDBOX'})
    const app = await startReceiver({secret: endpoint.secret, port: probe.port})
    try {
      const r = await runInProcess(['webhooks', 'trigger', 'payment.failed', '--operator', 'ORANGE'], {configDir: dir, env: sandbox.env(), clock})
      expect(r.exitCode).toBe(0)
      expect(r.stdout).toMatch(/STATUS\s+PENDING/)
      expect(r.stdout).toMatch(/PHONE\s+237650000099/)
      expect(r.stderr).toMatch(/payment\.failed event follows when it settles/)
      const id = /ID\s+(svcpay_test_\w+)/.exec(r.stdout)![1]
      // It settles when its 200 ms have passed on the sandbox's clock.
      clock.advance(200)
      await waitFor(() => app.received.some((d) => (d.event.data as {id: string}).id === id), 10_000, 'the event')
      expect(app.received.find((d) => (d.event.data as {id: string}).id === id)!.event.type).toBe('payment.failed')

      const watched = await runInProcess(['webhooks', 'trigger', 'payment.success', '--watch', '--json'], {configDir: dir, env: sandbox.env(), clock})
      expect(watched.exitCode).toBe(0)
      const payment = JSON.parse(watched.stdout)
      expect(payment).toMatchObject({status: 'SUCCESS', phone_number: '237670000001'})
      await waitFor(() => app.received.some((d) => d.event.type === 'payment.success' && (d.event.data as {id: string}).id === payment.id), 10_000, 'the success event')
      expect(app.unverified).toBe(0)
    } finally {
      await app.close()
      await sandbox.admin('DELETE', `/webhook-endpoints/${endpoint.id}`)
    }
  })

  it('is refused with a LIVE key (exit 2), before any payment', async ({sandbox, dir}) => {
    const before = (await sandbox.get('/v1/payments?limit=100', sandbox.sb.keys.live)).data.length
    const r = await runInProcess(['webhooks', 'trigger', 'payment.success'], {configDir: dir, env: sandbox.env('live')})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/sandbox keys .* only, and svc_sk_live_…\w{4} is a LIVE key/)
    expect((await sandbox.get('/v1/payments?limit=100', sandbox.sb.keys.live)).data.length).toBe(before)
  })
})
