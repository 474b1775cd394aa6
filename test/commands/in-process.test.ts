/**
 * The in-process runner answers as the built CLI does: for the tests that moved to it (flags,
 * validation, formatting), the same stdout, stderr and exit code as a child process, in English
 * and French, human and --json; and it leaves the test process as it found it.
 */
import {describe, expect} from 'vitest'

import {generateSecret, signPayload} from '../../src/contract/signature.js'
import {runCli} from '../helpers/cli.js'
import {it} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'

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
    const child = await runCli(args, {configDir: temp.dir, env})
    const exitCode = process.exitCode
    const listeners = process.listenerCount('SIGINT')
    const lang = process.env.LANG
    const inProcess = await runInProcess(args, {configDir: temp.dir, env})
    expect(inProcess).toEqual(child)
    expect(process.exitCode).toBe(exitCode)
    expect(process.listenerCount('SIGINT')).toBe(listeners)
    expect(process.env.LANG).toBe(lang)
    expect(process.env.SVC_CONFIG_DIR).toBeUndefined()
  })

  it('stdin: the input a test gives reaches the command, as a child process reads it', async ({temp}) => {
    const secret = generateSecret()
    const payload = '{"type":"payment.success"}'
    const headers = Object.entries(signPayload(secret, 'msg_1', payload)).flatMap(([name, value]) => ['--header', `${name}: ${value}`])
    const args = ['webhooks', 'verify', '--payload', '-', '--secret', secret, ...headers]
    const child = await runCli(args, {configDir: temp.dir, input: payload})
    const inProcess = await runInProcess(args, {configDir: temp.dir, input: payload})
    expect(inProcess).toEqual(child)
    expect(inProcess.exitCode).toBe(0)
    // Another body than the one signed: refused, so the body read is the input given.
    expect((await runInProcess(args, {configDir: temp.dir, input: payload + ' '})).exitCode).toBe(1)
  })
})
