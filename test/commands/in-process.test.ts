/**
 * The in-process runner answers as the built CLI does: for the tests that moved to it (flags,
 * validation, formatting), the same stdout, stderr and exit code as a child process, in English
 * and French, human and --json; and it leaves the test process as it found it. Both runs read one
 * pinned clock (test/helpers/clock.ts): what a run says about time ("signed just now") is the same
 * whichever second each started in.
 */
import {describe, expect} from 'vitest'

import {generateSecret, signPayload} from '../../src/contract/signature.js'
import {runCli} from '../helpers/cli.js'
import {testClock} from '../helpers/clock.js'
import {it} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'

/** The instant both runs of a case read. */
const AT = Date.parse('2026-11-28T09:30:00Z')

const KEY = {SVC_API_KEY: 'svc_sk_test_abcdefghijklmnopqrstuv1234', SVC_BASE_URL: 'http://127.0.0.1:9'}

describe('runInProcess', () => {
  it.for<[string, string[], Record<string, string>]>([
    ['a bad amount', ['pay', 'create', '--amount', '50.5', '--phone', '670000001'], KEY],
    ['a bad phone, in French', ['pay', 'create', '--amount', '500', '--phone', '12', '--lang', 'fr'], KEY],
    ['a --json error envelope', ['pay', 'create', '--amount', '-5', '--phone', '670000001', '--json'], KEY],
    ['an oclif parse error', ['pay', 'list', '--nope'], KEY],
    ['no key', ['pay', 'list'], {}],
    ['a LIVE key without --yes', ['pay', 'create', '--amount', '500', '--phone', '670000001'], {...KEY, SVC_API_KEY: 'svc_sk_live_canarycanarycanary0001'}],
    ['a table', ['sandbox', 'numbers'], {}],
    ['global flags before the command', ['--lang', 'fr', '--json', 'pay', 'create', '--amount', '50.5', '--phone', '670000001'], KEY],
    ['a global flag with = before the command', ['--lang=fr', 'sandbox', 'numbers'], {}],
  ])('%s: the same as a child process', async ([, args, env], {temp}) => {
    const clock = testClock(AT)
    const child = await runCli(args, {configDir: temp.dir, env, clock})
    const exitCode = process.exitCode
    const listeners = process.listenerCount('SIGINT')
    const lang = process.env.LANG
    const inProcess = await runInProcess(args, {configDir: temp.dir, env, clock})
    expect(inProcess).toEqual(child)
    expect(process.exitCode).toBe(exitCode)
    expect(process.listenerCount('SIGINT')).toBe(listeners)
    expect(process.env.LANG).toBe(lang)
    expect(process.env.SVC_CONFIG_DIR).toBeUndefined()
  })

  it('stdin: the input a test gives reaches the command, as a child process reads it', async ({temp}) => {
    const secret = generateSecret()
    const payload = '{"type":"payment.success"}'
    // Signed at AT; both runs verify it at AT.
    const headers = Object.entries(signPayload(secret, 'msg_1', payload, AT / 1000)).flatMap(([name, value]) => ['--header', `${name}: ${value}`])
    const args = ['webhooks', 'verify', '--payload', '-', '--secret', secret, ...headers]
    const child = await runCli(args, {configDir: temp.dir, input: payload, clock: testClock(AT)})
    const inProcess = await runInProcess(args, {configDir: temp.dir, input: payload, clock: testClock(AT)})
    expect(inProcess).toEqual(child)
    expect(inProcess.stdout).toMatch(/just now/)
    expect(inProcess.exitCode).toBe(0)
    // Another body than the one signed: refused, so the body read is the input given.
    expect((await runInProcess(args, {configDir: temp.dir, input: payload + ' ', clock: testClock(AT)})).exitCode).toBe(1)
  })
})
