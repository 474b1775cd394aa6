/**
 * cli.md's exit codes, one run each where no other test owns it, and the unknown command (127):
 * a did-you-mean suggestion on and off a terminal, the JSON envelope under --json, French too.
 * Elsewhere: 6 and 7 for every fault (test/hardening/faults-*), 130 at a prompt
 * (test/commands/login.test.ts), 130 and 143 of the long-running commands (test/commands/signals.test.ts).
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sandbox: TestSandbox
let temp: ReturnType<typeof tempConfigDir>
beforeAll(async () => {
  sandbox = await startTestSandbox({settleAfterMs: 100})
  temp = tempConfigDir()
})
afterAll(async () => {
  await sandbox.close()
  temp.cleanup()
})

const cli = (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, {configDir: temp.dir, env: {...sandbox.env(), ...env}})

describe('exit codes of cli.md', () => {
  it('0 (SUCCESS) and 1 (FAILED) from pay create --watch', {timeout: 60_000}, async () => {
    const ok = await cli(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--watch', '--interval', '250ms'])
    expect(ok.exitCode, ok.stderr).toBe(0)
    const failed = await cli(['pay', 'create', '--amount', '1000', '--phone', '670000099', '--watch', '--interval', '250ms'])
    expect(failed.exitCode, failed.stderr).toBe(1)
  })

  it('2 (bad input), 3 (unknown key), 4 (no such payment), 5 (PDF of a draft)', {timeout: 60_000}, async () => {
    expect((await cli(['pay', 'create', '--amount', '50.5', '--phone', '670000001'])).exitCode).toBe(2)
    expect((await cli(['pay', 'list'], {SVC_API_KEY: 'svc_sk_test_nosuchkeynosuchkey0000'})).exitCode).toBe(3)
    expect((await cli(['pay', 'status', 'svcpay_test_nosuchpayment00000000'])).exitCode).toBe(4)
    const draft = await cli(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-12-31', '--item', 'Bread:500:3', '--json'])
    expect((await cli(['invoice', 'pdf', JSON.parse(draft.stdout).id, '-o', '-'])).exitCode).toBe(5)
  })

  it('8: watch timed out while still PENDING', {timeout: 60_000}, async () => {
    // A live payment waits for the customer's handset (svc sandbox approve): still PENDING at the timeout.
    const live = {SVC_API_KEY: sandbox.sb.keys.live}
    const pending = await cli(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--yes', '--json'], live)
    const watch = await cli(['pay', 'watch', JSON.parse(pending.stdout).id, '--interval', '250ms', '--timeout', '1s'], live)
    expect(watch.exitCode, watch.stderr).toBe(8)
  })

  it('webhooks verify with a malformed --secret is bad input: exit 2', async () => {
    const r = await cli(['webhooks', 'verify', '--secret', 'nope', '--payload', '/dev/null', '--header', 'webhook-id: msg_1'])
    expect(r.exitCode, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/--secret/)
  })
})

describe('127: no such command', () => {
  it('not on a terminal: the suggestion, exit 127', async () => {
    const r = await cli(['pya', 'list'])
    expect(r.exitCode).toBe(127)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/"pya list" is not a svc command\. Did you mean `svc pay list`\?/)
    expect(r.stderr).toMatch(/svc help/)
  })

  it('--json: the error envelope on stdout, exit 127', async () => {
    const r = await cli(['pya', 'list', '--json'])
    expect(r.exitCode).toBe(127)
    expect(JSON.parse(r.stdout)).toEqual({
      error: {status: null, code: 'command_not_found', message: expect.stringMatching(/"pya list" is not a svc command/), suggestion: 'pay list'},
    })
  })

  it('--json is the same in French; the text follows --lang', async () => {
    const en = await cli(['pya', 'list', '--json'])
    const fr = await cli(['pya', 'list', '--json', '--lang', 'fr'])
    expect(fr.stdout).toBe(en.stdout)
    const text = await cli(['pya', 'list'], {LANG: 'fr_FR.UTF-8'})
    expect(text.exitCode).toBe(127)
    expect(text.stderr).toMatch(/n’est pas une commande svc\. Vouliez-vous dire `svc pay list` \?/)
  })

  it('on a terminal: the suggestion too, no question, exit 127', async () => {
    const session = runInPty(['pya', 'list'], {configDir: temp.dir})
    const {exitCode} = await session.exit
    expect(exitCode).toBe(127)
    expect(stripAnsi(session.output())).toMatch(/Did you mean `svc pay list`\?/)
  })
})
