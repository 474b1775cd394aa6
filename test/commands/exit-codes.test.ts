/**
 * The README's exit codes, one run each where no other test owns it (in-process: the code is the
 * run's value), and the unknown command (127, answered by the binary itself, so child processes):
 * a did-you-mean suggestion on and off a terminal, the JSON envelope under --json, French too.
 * Elsewhere: 6 and 7 for every fault (test/hardening/faults-*), 130 at a prompt
 * (test/commands/login.test.ts), 130 and 143 of the long-running commands (test/commands/signals.test.ts).
 */
import {describe, expect} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {skippingClock} from '../helpers/clock.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'

type Run = (args: string[], env?: Record<string, string | undefined>) => ReturnType<typeof runCli>

// The file's sandbox (payments settle after 100 ms of its time) and a config dir per test
// (test/helpers/fixtures.ts): `inProcess` for the exit codes of the commands (values of the run), on
// a clock the sandbox shares that jumps through the runs' waits (a watch's interval, its --timeout),
// firing the settlements on the way: a watch takes no real time; `cli` (a child process) for an
// unknown command, which only the binary answers.
const clock = skippingClock()
const it = withSandbox({settleAfterMs: 100, clock}).extend<{cli: Run; inProcess: Run}>({
  cli: async ({sandbox, temp}, use) => use((args, env = {}) => runCli(args, {configDir: temp.dir, env: {...sandbox.env(), ...env}})),
  inProcess: async ({sandbox, temp}, use) => use((args, env = {}) => runInProcess(args, {configDir: temp.dir, env: {...sandbox.env(), ...env}, clock})),
})

describe('exit codes of the README', () => {
  it('0 (SUCCESS) and 1 (FAILED) from pay create --watch', {timeout: 60_000}, async ({inProcess}) => {
    const ok = await inProcess(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--watch', '--interval', '250ms'])
    expect(ok.exitCode, ok.stderr).toBe(0)
    const failed = await inProcess(['pay', 'create', '--amount', '1000', '--phone', '670000099', '--watch', '--interval', '250ms'])
    expect(failed.exitCode, failed.stderr).toBe(1)
  })

  it('2 (bad input), 3 (unknown key), 4 (no such payment), 5 (PDF of a draft)', {timeout: 60_000}, async ({inProcess}) => {
    expect((await inProcess(['pay', 'create', '--amount', '50.5', '--phone', '670000001'])).exitCode).toBe(2)
    expect((await inProcess(['pay', 'list'], {SVC_API_KEY: 'svc_sk_test_nosuchkeynosuchkey0000'})).exitCode).toBe(3)
    expect((await inProcess(['pay', 'status', 'svcpay_test_nosuchpayment00000000'])).exitCode).toBe(4)
    const draft = await inProcess(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-12-31', '--item', 'Bread:500:3', '--json'])
    expect((await inProcess(['invoice', 'pdf', JSON.parse(draft.stdout).id, '-o', '-'])).exitCode).toBe(5)
  })

  it('8: watch timed out while still PENDING', {timeout: 60_000}, async ({sandbox, inProcess}) => {
    // A live payment waits for the customer's handset (svc sandbox approve): still PENDING at the timeout.
    const live = {SVC_API_KEY: sandbox.sb.keys.live}
    const pending = await inProcess(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--yes', '--json'], live)
    const watch = await inProcess(['pay', 'watch', JSON.parse(pending.stdout).id, '--interval', '250ms', '--timeout', '1s'], live)
    expect(watch.exitCode, watch.stderr).toBe(8)
  })

  it('webhooks verify with a malformed --secret is bad input: exit 2', async ({inProcess}) => {
    const r = await inProcess(['webhooks', 'verify', '--secret', 'nope', '--payload', '/dev/null', '--header', 'webhook-id: msg_1'])
    expect(r.exitCode, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/--secret/)
  })
})

describe('127: no such command', () => {
  it('not on a terminal: the suggestion, exit 127', async ({cli}) => {
    const r = await cli(['pya', 'list'])
    expect(r.exitCode).toBe(127)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/"pya list" is not a svc command\. Did you mean `svc pay list`\?/)
    expect(r.stderr).toMatch(/svc help/)
  })

  it('--json: the error envelope on stdout, exit 127', async ({cli}) => {
    const r = await cli(['pya', 'list', '--json'])
    expect(r.exitCode).toBe(127)
    expect(JSON.parse(r.stdout)).toEqual({
      error: {status: null, code: 'command_not_found', message: expect.stringMatching(/"pya list" is not a svc command/), suggestion: 'pay list'},
    })
  })

  it('--json is the same in French; the text follows --lang', async ({cli}) => {
    const en = await cli(['pya', 'list', '--json'])
    const fr = await cli(['pya', 'list', '--json', '--lang', 'fr'])
    expect(fr.stdout).toBe(en.stdout)
    const text = await cli(['pya', 'list'], {LANG: 'fr_FR.UTF-8'})
    expect(text.exitCode).toBe(127)
    expect(text.stderr).toMatch(/n’est pas une commande svc\. Vouliez-vous dire `svc pay list` \?/)
  })

  it('on a terminal: the suggestion too, no question, exit 127', async ({temp}) => {
    const session = runInPty(['pya', 'list'], {configDir: temp.dir})
    const {exitCode} = await session.exit
    expect(exitCode).toBe(127)
    expect(stripAnsi(session.output())).toMatch(/Did you mean `svc pay list`\?/)
  })
})
