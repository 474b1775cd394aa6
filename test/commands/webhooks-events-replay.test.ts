/**
 * `svc webhooks events` (the local event log as a list) and `svc webhooks replay --all-failed` /
 * `replay EVENT_ID --new-id`, as a user runs them: a real listener takes inbound deliveries and
 * forwards them to a real local app (verifying with `standardwebhooks`) that refuses some; then
 * the log is listed and the refused events are replayed.
 */
import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect} from 'vitest'

import {generateSecret, signPayload} from '../../src/contract/signature.js'
import {startCli, type CliResult} from '../helpers/cli.js'
import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {makeEvent, startReceiver, waitFor, type Receiver} from '../helpers/receiver.js'

const cleanups: Array<() => Promise<unknown> | void> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

type Cli = (args: string[], input?: string) => Promise<CliResult>
type Logged = {local: Receiver; events: ReturnType<typeof makeEvent>[]}

// A config dir per test with a profile of its own (the listener takes inbound deliveries: the
// service is never called); the commands run in-process with it, the listener as a process
// (stopped with Ctrl-C, exit 130).
const it = test.extend<{dir: string; cli: Cli; logThreeEvents: () => Promise<Logged>}>({
  dir: async ({temp}, use) => {
    mkdirSync(temp.dir, {recursive: true, mode: 0o700})
    const config = {current: 'dev', profiles: {dev: {api_key: `svc_sk_test_${'a'.repeat(32)}`, base_url: 'http://127.0.0.1:9'}}}
    writeFileSync(join(temp.dir, 'config.json'), JSON.stringify(config), {mode: 0o600})
    await use(temp.dir)
  },
  cli: async ({dir}, use) => {
    await use((args, input) => runInProcess(args, {configDir: dir, input}))
  },
  logThreeEvents: async ({dir, cli}, use) => {
    await use(() => logThreeEvents(dir, cli))
  },
})

interface Running {
  stdout(): string
  stderr(): string
  interrupt(): Promise<CliResult>
}

async function listen(dir: string, args: string[]): Promise<Running> {
  const run = startCli(['webhooks', 'listen', ...args], {configDir: dir, timeoutMs: 45_000})
  cleanups.push(async () => {
    if (!run.exited()) run.child().kill('SIGKILL')
    await run.result
  })
  await waitFor(() => /Press Ctrl-C to stop/.test(run.stderr()) || run.exited(), 15_000, 'the listener to be ready')
  if (run.exited()) throw new Error(`listen exited early:\n${run.stderr()}`)
  return {
    stdout: run.stdout,
    stderr: run.stderr,
    async interrupt() {
      run.child().kill('SIGINT')
      return run.result
    },
  }
}

/**
 * Three events through a real listener to an app that refuses the second (500): A delivered,
 * B failed, C delivered. Returns the app (now accepting everything) and the events.
 */
async function logThreeEvents(dir: string, cli: Cli): Promise<Logged> {
  const endpointSecret = generateSecret()
  expect((await cli(['webhooks', 'listen', '--endpoint-secret-stdin'], endpointSecret)).exitCode).toBe(0)
  const printed = await cli(['webhooks', 'listen', '--print-secret'])
  const local = await startReceiver({secret: printed.stdout.trim()})
  cleanups.push(() => local.close())
  const events = [makeEvent(1), makeEvent(2, 'payment.failed'), makeEvent(3)]
  local.statusFor = (delivery) => (delivery.event.id === events[1].id ? 500 : 200)
  const run = await listen(dir, ['--source', 'inbound', '--forward-to', `${local.url}/hooks`, '--json'])
  const receiver = JSON.parse(run.stdout().split('\n')[0]).receiver_url as string
  for (const event of events) {
    const body = JSON.stringify(event)
    const answer = await fetch(receiver, {method: 'POST', headers: {'content-type': 'application/json', ...signPayload(endpointSecret, event.id, body)}, body})
    expect(answer.status).toBe(200)
    // Received in order, a few ms apart, so that "newest first" has one answer.
    await waitFor(() => local.received.some((r) => r.event.id === event.id), 10_000, event.id)
  }
  await waitFor(() => (run.stdout().match(/"kind":"forward"/g) ?? []).length >= 3, 10_000, 'three forward attempts')
  expect((await run.interrupt()).exitCode).toBe(130)
  local.statusFor = () => 200
  return {local, events}
}

describe('svc webhooks events', () => {
  it('lists what listen received, newest first, with status, attempts and the last answer; filters; --json; bad flags exit 2', async ({cli, logThreeEvents}) => {
    const {events} = await logThreeEvents()
    const [a, b, c] = events
    const listed = await cli(['webhooks', 'events'])
    expect(listed.exitCode).toBe(0)
    const lines = listed.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^RECEIVED\s+EVENT\s+TYPE\s+STATUS\s+ATTEMPTS\s+LAST ANSWER$/)
    expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC\\s+${c.id}\\s+payment.success\\s+delivered\\s+1\\s+200$`))
    expect(lines[2]).toMatch(new RegExp(`${b.id}\\s+payment.failed\\s+failed\\s+\\d+\\s+500$`))
    expect(lines[3]).toMatch(new RegExp(`${a.id}\\s+payment.success\\s+delivered\\s+1\\s+200$`))

    const failed = await cli(['webhooks', 'events', '--status', 'failed', '--json'])
    const failedJson = JSON.parse(failed.stdout)
    expect(failedJson).toHaveLength(1)
    expect(failedJson[0]).toMatchObject({id: b.id, type: 'payment.failed', source: 'inbound', status: 'failed'})
    expect(failedJson[0].attempts[0]).toMatchObject({ok: false, status: 500, attempt: 1})

    const newest = JSON.parse((await cli(['webhooks', 'events', '--limit', '1', '--json'])).stdout)
    expect(newest.map((e: {id: string}) => e.id)).toEqual([c.id])
    const french = await cli(['webhooks', 'events', '--status', 'failed', '--lang', 'fr'])
    expect(french.stdout).toMatch(/^REÇU\s+ÉVÉNEMENT\s+TYPE\s+STATUT\s+ESSAIS\s+DERNIÈRE RÉPONSE$/m)
    expect(french.stdout).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} UTC\s+evt_test_000002\s+payment.failed\s+en échec/)

    const none = await cli(['webhooks', 'events', '--status', 'pending'])
    expect(none.exitCode).toBe(0)
    expect(none.stdout).toBe('')
    expect(none.stderr).toMatch(/No pending events logged for dev/)
    expect((await cli(['webhooks', 'events', '--status', 'lost'])).exitCode).toBe(2)
    const badLimit = await cli(['webhooks', 'events', '--limit', '0'])
    expect(badLimit.exitCode).toBe(2)
    expect(badLimit.stderr).toMatch(/--limit 0/)
  })

  it('an empty log says how events get there, and creates nothing', async ({cli, temp}) => {
    const empty = await cli(['webhooks', 'events'])
    expect(empty.exitCode).toBe(0)
    expect(empty.stderr).toMatch(/No events logged for dev yet: `svc webhooks listen` logs every event/)
    expect(JSON.parse((await cli(['webhooks', 'events', '--json'])).stdout)).toEqual([])
    expect(existsSync(join(temp.dir, 'webhooks'))).toBe(false)
  })
})

describe('svc webhooks replay --all-failed and --new-id', () => {
  it('--all-failed sends every event the app never accepted, once, and they are delivered after', async ({cli, logThreeEvents}) => {
    const {local, events} = await logThreeEvents()
    const before = local.received.length
    const replayed = await cli(['webhooks', 'replay', '--all-failed'])
    expect(replayed.exitCode, replayed.stderr).toBe(0)
    expect(replayed.stdout).toMatch(new RegExp(`payment.failed +${events[1].id} +\\[200\\]`))
    // Only the failed one went out, under its own webhook-id.
    const sent = local.received.slice(before)
    expect(sent.map((r) => r.event.id)).toEqual([events[1].id])
    expect(sent[0].headers['webhook-id']).toBe(events[1].id)
    expect(JSON.parse((await cli(['webhooks', 'events', '--status', 'failed', '--json'])).stdout)).toEqual([])
    // Nothing left: says so, exit 0, sends nothing.
    const again = await cli(['webhooks', 'replay', '--all-failed', '--json'])
    expect(again.exitCode).toBe(0)
    expect(JSON.parse(again.stdout)).toEqual({kind: 'replay_all_failed', replayed: 0, delivered: 0, failed: 0, events: []})
    expect(local.received.length).toBe(before + 1)
  })

  it('--all-failed exits 1 when the app still refuses, and the events stay failed', async ({cli, logThreeEvents}) => {
    const {local, events} = await logThreeEvents()
    local.statusFor = () => 503
    const replayed = await cli(['webhooks', 'replay', '--all-failed', '--json'])
    expect(replayed.exitCode).toBe(1)
    expect(JSON.parse(replayed.stdout)).toMatchObject({kind: 'replay_all_failed', replayed: 1, delivered: 0, failed: 1, events: [{event_id: events[1].id, status: 503, ok: false}]})
    const human = await cli(['webhooks', 'replay', '--all-failed'])
    expect(human.exitCode).toBe(1)
    expect(human.stderr).toMatch(/1 of 1 replayed event not accepted by your app/)
    expect(JSON.parse((await cli(['webhooks', 'events', '--status', 'failed', '--json'])).stdout)[0].id).toBe(events[1].id)
  })

  it('--new-id sends the same event under a fresh webhook-id, so an app that dedupes acts on it', async ({cli, logThreeEvents}) => {
    const {local, events} = await logThreeEvents()
    // An app that dedupes on webhook-id: a plain replay of A is a no-op for it.
    const acted: string[] = []
    const seen = new Set<string>()
    local.statusFor = (delivery) => {
      const id = String(delivery.headers['webhook-id'])
      if (!seen.has(id)) {
        seen.add(id)
        acted.push(delivery.event.id)
      }
      return 200
    }
    expect((await cli(['webhooks', 'replay', events[0].id])).exitCode).toBe(0)
    expect((await cli(['webhooks', 'replay', events[0].id])).exitCode).toBe(0)
    expect(acted).toEqual([events[0].id])
    const fresh = await cli(['webhooks', 'replay', events[0].id, '--new-id', '--json'])
    expect(fresh.exitCode).toBe(0)
    const json = JSON.parse(fresh.stdout)
    const last = local.received.at(-1)!
    expect(json).toMatchObject({kind: 'replay', event_id: events[0].id, ok: true, webhook_id: last.headers['webhook-id']})
    expect(last.headers['webhook-id']).toMatch(new RegExp(`^${events[0].id}_replay_[0-9a-f]{12}$`))
    // The event itself is unchanged (and verified, or the app would not have recorded it).
    expect(last.event).toEqual(events[0])
    expect(acted).toEqual([events[0].id, events[0].id])
    const human = await cli(['webhooks', 'replay', events[0].id, '--new-id'])
    expect(human.stdout).toMatch(/as webhook-id evt_test_000001_replay_[0-9a-f]{12}/)
  })

  it('needs an EVENT_ID or --all-failed, not both (exit 2, nothing sent)', async ({cli}) => {
    const neither = await cli(['webhooks', 'replay', '--forward-to', 'http://127.0.0.1:9/x'])
    expect(neither.exitCode).toBe(2)
    expect(neither.stderr).toMatch(/EVENT_ID or --all-failed/)
    const both = await cli(['webhooks', 'replay', 'evt_1', '--all-failed', '--forward-to', 'http://127.0.0.1:9/x'])
    expect(both.exitCode).toBe(2)
    expect(both.stderr).toMatch(/EVENT_ID or --all-failed/)
  })
})
