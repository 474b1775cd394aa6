/**
 * `svc webhooks events` (the local event log as a list) and `svc webhooks replay --all-failed` /
 * `replay EVENT_ID --new-id`, as a user runs them: a real listener takes inbound deliveries and
 * forwards them to a real local app (verifying with `standardwebhooks`) that refuses some; then
 * the log is listed and the refused events are replayed.
 */
import type {ChildProcess} from 'node:child_process'
import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {generateSecret, signPayload} from '../../src/contract/signature.js'
import {runCli, type CliResult} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {makeEvent, startLocalApp, waitFor, type LocalApp} from '../lib/webhooks/local-app.js'

let temp: ReturnType<typeof tempConfigDir>
const cleanups: Array<() => Promise<unknown> | void> = []

beforeEach(() => {
  temp = tempConfigDir()
  mkdirSync(temp.dir, {recursive: true, mode: 0o700})
  // A profile of its own (the listener takes inbound deliveries: the service is never called).
  const config = {current: 'dev', profiles: {dev: {api_key: `svc_sk_test_${'a'.repeat(32)}`, base_url: 'http://127.0.0.1:9'}}}
  writeFileSync(join(temp.dir, 'config.json'), JSON.stringify(config), {mode: 0o600})
})
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
  temp.cleanup()
})

const cli = (args: string[], input?: string) => runCli(args, {configDir: temp.dir, input})

interface Running {
  stdout(): string
  stderr(): string
  interrupt(): Promise<CliResult>
}

async function listen(args: string[]): Promise<Running> {
  let child!: ChildProcess
  let out = ''
  let err = ''
  let exited = false
  const result = runCli(['webhooks', 'listen', ...args], {
    configDir: temp.dir,
    timeoutMs: 45_000,
    onSpawn(spawned) {
      child = spawned
      spawned.stdout!.on('data', (d: string) => (out += d))
      spawned.stderr!.on('data', (d: string) => (err += d))
    },
  })
  void result.then(() => (exited = true))
  cleanups.push(async () => {
    if (!exited) child.kill('SIGKILL')
    await result
  })
  await waitFor(() => /Press Ctrl-C to stop/.test(err) || exited, 15_000, 'the listener to be ready')
  if (exited) throw new Error(`listen exited early:\n${err}`)
  return {
    stdout: () => out,
    stderr: () => err,
    async interrupt() {
      child.kill('SIGINT')
      return result
    },
  }
}

/**
 * Three events through a real listener to an app that refuses the second (500): A delivered,
 * B failed, C delivered. Returns the app (now accepting everything) and the events.
 */
async function logThreeEvents(): Promise<{local: LocalApp; events: ReturnType<typeof makeEvent>[]}> {
  const endpointSecret = generateSecret()
  expect((await cli(['webhooks', 'listen', '--endpoint-secret-stdin'], endpointSecret)).exitCode).toBe(0)
  const printed = await cli(['webhooks', 'listen', '--print-secret'])
  const local = await startLocalApp(printed.stdout.trim())
  cleanups.push(() => local.close())
  const events = [makeEvent(1), makeEvent(2, 'payment.failed'), makeEvent(3)]
  local.statusFor = (delivery) => (delivery.event.id === events[1].id ? 500 : 200)
  const run = await listen(['--source', 'inbound', '--forward-to', `${local.url}/hooks`, '--json'])
  const receiver = JSON.parse(run.stdout().split('\n')[0]).receiver_url as string
  for (const event of events) {
    const body = JSON.stringify(event)
    const answer = await fetch(receiver, {method: 'POST', headers: {'content-type': 'application/json', ...signPayload(endpointSecret, event.id, body)}, body})
    expect(answer.status).toBe(200)
    // Received in order, a few ms apart, so that "newest first" has one answer.
    await waitFor(() => local.received.some((r) => r.event.id === event.id), 5_000, event.id)
  }
  await waitFor(() => (run.stdout().match(/"kind":"forward"/g) ?? []).length >= 3, 5_000, 'three forward attempts')
  expect((await run.interrupt()).exitCode).toBe(130)
  local.statusFor = () => 200
  return {local, events}
}

describe('svc webhooks events', () => {
  it('lists what listen received, newest first, with status, attempts and the last answer; filters; --json; bad flags exit 2', async () => {
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

  it('an empty log says how events get there, and creates nothing', async () => {
    const empty = await cli(['webhooks', 'events'])
    expect(empty.exitCode).toBe(0)
    expect(empty.stderr).toMatch(/No events logged for dev yet: `svc webhooks listen` logs every event/)
    expect(JSON.parse((await cli(['webhooks', 'events', '--json'])).stdout)).toEqual([])
    expect(existsSync(join(temp.dir, 'webhooks'))).toBe(false)
  })
})
