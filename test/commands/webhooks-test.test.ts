/**
 * `svc webhooks test URL` graded against handlers of our own (test/lib/webhooks/handlers.ts), over
 * real HTTP (the command in-process; its terminal prompt on a pseudo-terminal): each wrong handler
 * fails exactly the cases it should, with the sentence that says why; the right ones pass all;
 * flags are checked before anything is sent.
 */
import {afterEach, describe, expect} from 'vitest'

import {generateSecret} from '../../src/contract/signature.js'
import type {CliResult} from '../helpers/cli.js'
import {test} from '../helpers/fixtures.js'
import {testClock} from '../helpers/clock.js'
import {runInProcess} from '../helpers/in-process.js'
import {runInPty} from '../helpers/pty.js'
import {startHandler, type Handler, type HandlerKind} from '../lib/webhooks/handlers.js'

const ACCEPT = ['valid-success', 'valid-failed', 'raw-body', 'duplicate', 'unknown-type', 'extra-fields', 'rotation', 'burst']
const REFUSE = ['bad-signature', 'wrong-secret', 'missing-headers', 'stale-timestamp', 'future-timestamp', 'tampered-body']
const ALL = [...ACCEPT, ...REFUSE]

interface JsonReport {
  url: string
  cases: Array<{name: string; expect: string; status: number | null; ms: number; verdict: string; detail: string | null}>
  passed: number
  failed: number
}

type Grade = (args: string[]) => Promise<CliResult>

// A config dir per test, and `svc webhooks test ARGS` run in-process with it.
const it = test.extend<{grade: Grade}>({
  grade: async ({temp}, use) => {
    await use((args) => runInProcess(['webhooks', 'test', ...args], {configDir: temp.dir}))
  },
})

let handler: Handler | undefined
const secret = generateSecret()

afterEach(async () => {
  await handler?.close()
  handler = undefined
})

function report(result: CliResult): JsonReport {
  return JSON.parse(result.stdout) as JsonReport
}

const failedCases = (r: JsonReport) => r.cases.filter((c) => c.verdict === 'fail').map((c) => c.name)
const caseOf = (r: JsonReport, name: string) => r.cases.find((c) => c.name === name)!

async function gradeHandler(grade: Grade, kind: HandlerKind, extra: string[] = [], delayMs?: number): Promise<{result: CliResult; json: JsonReport}> {
  handler = await startHandler(kind, secret, {delayMs})
  const result = await grade([handler.url, '--secret', secret, '--json', ...extra])
  return {result, json: report(result)}
}

describe('svc webhooks test: right handlers pass every case', () => {
  it('the standardwebhooks library, used as a developer would: 14 of 14, exit 0; the report cannot see it acted twice', async ({grade}) => {
    const {result, json} = await gradeHandler(grade, 'library')
    expect(result.exitCode).toBe(0)
    expect(json.cases.map((c) => c.name)).toEqual(ALL)
    expect(failedCases(json)).toEqual([])
    expect(json).toMatchObject({url: handler!.url, passed: 14, failed: 0})
    for (const c of json.cases) {
      expect(c.expect).toBe(ACCEPT.includes(c.name) ? '2xx' : '4xx')
      expect(typeof c.ms).toBe('number')
    }
    expect(caseOf(json, 'burst').status).toBe(200)
    expect(caseOf(json, 'bad-signature').status).toBe(401)
    // This handler does not deduplicate: it acted on the duplicated event twice, and the answers
    // alone cannot show it, which the duplicate note says, naming the event to look for.
    const duplicate = caseOf(json, 'duplicate')
    const id = /(evt_test_\w+)/.exec(duplicate.detail ?? '')?.[1]
    expect(duplicate.detail).toMatch(/cannot be seen from its answers/)
    expect(handler!.acted.filter((acted) => acted === id)).toHaveLength(2)
  })

  it('a handwritten one that deduplicates on webhook-id: every case passes, the human report is a table and a summary', async ({grade}) => {
    handler = await startHandler('handwritten', secret)
    const result = await grade([handler.url, '--secret', secret])
    expect(result.exitCode).toBe(0)
    const lines = result.stdout.split('\n')
    expect(lines[0]).toMatch(/^CASE\s+EXPECTED\s+ANSWER\s+LATENCY\s+VERDICT$/)
    for (const name of ALL) expect(result.stdout).toMatch(new RegExp(`^${name}\\s+(accept \\(2xx\\)|refuse \\(4xx\\))\\s+\\d{3}\\s+\\d+ ms\\s+pass$`, 'm'))
    expect(result.stdout).toMatch(/^14 of 14 cases passed, 0 failed\.$/m)
    expect(result.stdout).toMatch(/^duplicate: Both deliveries of evt_test_\w+ were answered 2xx/m)
    expect(result.stderr).toMatch(/Signing with the secret given by --secret \(whsec_…[A-Za-z0-9+/=]{4}\)/)
    expect(result.stderr).not.toContain(secret)
    expect(result.stdout).not.toContain(secret)
    // Deduplicated: each event acted on once, the duplicate included; only test ids reached it.
    expect(new Set(handler.acted).size).toBe(handler.acted.length)
    for (const id of handler.acted) expect(id).toMatch(/^evt_test_/)
  })
})

describe('svc webhooks test: each wrong handler fails exactly its cases', () => {
  it('no signature check: fails every must-refuse case, saying it accepts forged events', async ({grade}) => {
    const {result, json} = await gradeHandler(grade, 'no-signature-check')
    expect(result.exitCode).toBe(1)
    expect(failedCases(json)).toEqual(REFUSE)
    expect(json).toMatchObject({passed: 8, failed: 6})
    expect(caseOf(json, 'bad-signature')).toMatchObject({status: 200, verdict: 'fail'})
    expect(caseOf(json, 'bad-signature').detail).toMatch(/accepted a delivery with an invalid signature .* verify webhook-signature/)
    expect(caseOf(json, 'missing-headers').detail).toMatch(/without the webhook-timestamp header/)
    expect(caseOf(json, 'stale-timestamp').detail).toMatch(/signed 10 minutes ago/)
    expect(caseOf(json, 'tampered-body').detail).toMatch(/changed after signing/)
  })

  it('verifies a re-serialised body: fails raw-body only, told to verify the raw bytes', async ({grade}) => {
    const {result, json} = await gradeHandler(grade, 'reserialised')
    expect(result.exitCode).toBe(1)
    expect(failedCases(json)).toEqual(['raw-body'])
    expect(caseOf(json, 'raw-body')).toMatchObject({status: 401})
    expect(caseOf(json, 'raw-body').detail).toMatch(/verifies a re-serialised body; verify the raw bytes/)
  })

  it('500 on an unknown event type: fails unknown-type only', async ({grade}) => {
    const {json} = await gradeHandler(grade, 'unknown-type-500')
    expect(failedCases(json)).toEqual(['unknown-type'])
    expect(caseOf(json, 'unknown-type')).toMatchObject({status: 500})
    expect(caseOf(json, 'unknown-type').detail).toMatch(/ignore the types you do not handle/)
  })

  it('crashes on missing headers: fails missing-headers only, as a crash', async ({grade}) => {
    const {json} = await gradeHandler(grade, 'crash-on-missing-headers')
    expect(failedCases(json)).toEqual(['missing-headers'])
    expect(caseOf(json, 'missing-headers')).toMatchObject({status: 500})
    expect(caseOf(json, 'missing-headers').detail).toMatch(/crashes \(HTTP 500\) on a delivery without the webhook-timestamp header: .*answer 400 or 401/)
  })

  it('checks only the first of several signatures: fails rotation only', async ({grade}) => {
    const {json} = await gradeHandler(grade, 'first-signature-only')
    expect(failedCases(json)).toEqual(['rotation'])
    expect(caseOf(json, 'rotation').detail).toMatch(/any one of them matches/)
  })

  // The handler's 6 s of work on the run's clock (pinned), which it moves on: the sender's 300 ms
  // deadline falls within, so each must-accept delivery meets it without real time passing. The
  // burst, whose deliveries go at once, runs on its own: each of its deliveries moves the clock
  // again, after the sender has moved on, which would time out the next case.
  it('sleeps 6 s before answering: every must-accept case fails past --timeout, the refusals (fast) pass', async ({temp}) => {
    const clock = testClock(Date.now())
    handler = await startHandler('slow', secret, {clock})
    const grade = async (only: string[]) => {
      const result = await runInProcess(['webhooks', 'test', handler!.url, '--secret', secret, '--json', '--timeout', '300ms', '--only', only.join(',')], {configDir: temp.dir, clock})
      return {result, json: report(result)}
    }
    const one = await grade(ALL.filter((name) => name !== 'burst'))
    const burst = await grade(['burst'])
    for (const {result} of [one, burst]) expect(result.exitCode).toBe(1)
    expect(failedCases(one.json)).toEqual(ACCEPT.filter((name) => name !== 'burst'))
    expect(failedCases(burst.json)).toEqual(['burst'])
    for (const name of ACCEPT) {
      const json = name === 'burst' ? burst.json : one.json
      expect(caseOf(json, name)).toMatchObject({status: null, verdict: 'fail'})
      expect(caseOf(json, name).ms).toBeGreaterThanOrEqual(300)
      expect(caseOf(json, name).detail).toMatch(/^No answer within 300 ms: .*do the slow work afterwards/)
    }
  })

  // The handler's work takes its 5.2 s on the run's clock (pinned), which it moves on.
  it('over 5 s but within the timeout: a pass with a warning (exit 0), told to answer first', async ({temp}) => {
    const clock = testClock(Date.now())
    handler = await startHandler('slow', secret, {delayMs: 5_200, clock})
    const result = await runInProcess(['webhooks', 'test', handler.url, '--secret', secret, '--only', 'valid-success'], {configDir: temp.dir, clock})
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^valid-success\s+accept \(2xx\)\s+200\s+5\.\d s\s+slow$/m)
    expect(result.stdout).toMatch(/^valid-success: Answered in 5\.\d s, over 5 s/m)
    expect(result.stdout).toMatch(/^1 of 1 case passed \(1 slow\), 0 failed\.$/m)
  })

  it('an app that is not running: one line saying nothing listens at that URL, exit 1, no battery', async ({grade}) => {
    handler = await startHandler('library', secret)
    const url = handler.url
    await handler.close()
    handler = undefined
    const result = await grade([url, '--secret', secret])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    const lines = result.stderr.trim().split('\n').filter((line) => /nothing is listening|No answer/i.test(line))
    expect(lines).toEqual([`Error: Nothing is listening at ${url} (connection refused): start your webhook handler there, then run svc webhooks test again.`])
    const json = await grade([url, '--secret', secret, '--json'])
    expect(json.exitCode).toBe(1)
    expect(JSON.parse(json.stdout).error).toMatchObject({code: 'handler_not_listening'})
  })
})

describe('svc webhooks test: secret, flags, languages', () => {
  it('signs by default with the local signing secret that `webhooks listen` uses', async ({grade, temp}) => {
    const printed = await runInProcess(['webhooks', 'listen', '--print-secret'], {configDir: temp.dir})
    expect(printed.exitCode).toBe(0)
    const local = printed.stdout.trim()
    handler = await startHandler('library', local)
    const result = await grade([handler.url, '--only', 'valid-success,wrong-secret'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/local signing secret whsec_…[A-Za-z0-9+/=]{4} \(default\), the one svc webhooks listen signs with/)
  })

  it('--only: the named cases in the battery order; an unknown or empty one exits 2 naming --only and the cases, nothing sent', async ({grade}) => {
    handler = await startHandler('handwritten', secret)
    const some = report(await grade([handler.url, '--secret', secret, '--json', '--only', 'tampered-body, raw-body']))
    expect(some.cases.map((c) => c.name)).toEqual(['raw-body', 'tampered-body'])
    const before = handler.acted.length
    for (const only of ['raw-body,nope', ',']) {
      const bad = await grade([handler.url, '--secret', secret, '--only', only])
      expect(bad.exitCode, only).toBe(2)
      expect(bad.stderr, only).toMatch(/--only.*valid-success, valid-failed, raw-body, .*tampered-body/)
    }
    const json = await grade([handler.url, '--secret', secret, '--only', 'nope', '--json'])
    expect(json.exitCode).toBe(2)
    expect(JSON.parse(json.stdout).error).toMatchObject({code: 'invalid_input', field: 'only'})
    expect(handler.acted.length).toBe(before)
  })

  it('a bad URL, --timeout or --secret exits 2 naming it', async ({grade}) => {
    const cases: Array<[string[], RegExp]> = [
      [['ftp://localhost/x', '--secret', secret], /Invalid URL "ftp:\/\/localhost\/x"/],
      [['http://localhost:1/x', '--secret', secret, '--timeout', 'soon'], /Invalid --timeout "soon"/],
      [['http://localhost:1/x', '--secret', 'whsec_!!'], /The --secret is malformed/],
    ]
    for (const [args, message] of cases) {
      const result = await grade(args)
      expect(result.exitCode, args.join(' ')).toBe(2)
      expect(result.stderr, args.join(' ')).toMatch(message)
    }
  })

  it('a host off this machine is refused without --yes when not interactive (exit 2), before anything is sent', async ({grade}) => {
    const result = await grade(['https://hooks.example.com/webhooks', '--secret', secret])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toMatch(/hooks\.example\.com, which is not on this machine: pass --yes/)
    const json = await grade(['http://192.168.1.20:3000/webhooks', '--secret', secret, '--json'])
    expect(json.exitCode).toBe(2)
    expect(JSON.parse(json.stdout).error).toMatchObject({code: 'confirmation_required', field: 'yes'})
  })

  it('foo.localhost is this machine only if it resolves to loopback here', async ({grade}) => {
    const {lookup} = await import('node:dns/promises')
    const addresses = await lookup('foo.localhost', {all: true}).catch(() => [])
    const loopback = addresses.length > 0 && addresses.every((a) => a.address === '::1' || a.address.startsWith('127.'))
    handler = await startHandler('library', secret)
    const url = handler.url.replace('127.0.0.1', 'foo.localhost')
    const result = await grade([url, '--secret', secret, '--only', 'valid-success', '--json'])
    if (loopback) {
      expect(result.exitCode, result.stderr).toBe(0)
    } else {
      // Not known to be this machine: asked about, so refused without --yes, nothing sent.
      expect(result.exitCode, result.stderr).toBe(2)
      expect(JSON.parse(result.stdout).error).toMatchObject({code: 'confirmation_required', field: 'yes'})
      expect(handler.acted.length).toBe(0)
    }
  })

  it('on a terminal, a host off this machine is asked about first; declining sends nothing (exit 2)', async ({temp}) => {
    const session = runInPty(['webhooks', 'test', 'https://hooks.example.invalid/webhooks', '--secret', secret], {configDir: temp.dir})
    try {
      await session.waitFor('Send 66 signed test deliveries to hooks.example.invalid? It is not on this machine.')
      session.type('n\r')
      expect((await session.exit).exitCode).toBe(2)
      await session.waitFor('Nothing sent.')
      expect(session.output()).not.toMatch(/Testing https:/)
    } finally {
      session.kill()
    }
  })

  it('speaks French (table, sentences, summary); --json stays English and keeps its shape', async ({grade}) => {
    handler = await startHandler('reserialised', secret)
    const fr = await grade([handler.url, '--secret', secret, '--only', 'valid-success,raw-body', '--lang', 'fr'])
    expect(fr.exitCode).toBe(1)
    expect(fr.stdout).toMatch(/^CAS\s+ATTENDU\s+RÉPONSE\s+LATENCE\s+AVIS$/m)
    expect(fr.stdout).toMatch(/^raw-body\s+accepter \(2xx\)\s+401\s+\d+ ms\s+ÉCHEC$/m)
    expect(fr.stdout).toMatch(/^raw-body : Votre gestionnaire a refusé un corps correctement signé/m)
    expect(fr.stdout).toMatch(/^1 cas réussi sur 2, 1 en échec\.$/m)
    const en = report(await grade([handler.url, '--secret', secret, '--only', 'valid-success,raw-body', '--json']))
    const frJson = report(await grade([handler.url, '--secret', secret, '--only', 'valid-success,raw-body', '--json', '--lang', 'fr']))
    const strip = (r: JsonReport) => ({...r, cases: r.cases.map((c) => ({...c, ms: 0}))})
    expect(strip(frJson)).toEqual(strip(en))
    expect(Object.keys(en)).toEqual(['url', 'cases', 'passed', 'failed'])
    expect(Object.keys(en.cases[0])).toEqual(['name', 'expect', 'status', 'ms', 'verdict', 'detail'])
  })
})
