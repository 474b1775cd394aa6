/**
 * Hints that work when pasted: a hint naming a command repeats the flags that chose the profile,
 * key or base URL of the run it comes from (the key as `--api-key "$SVC_API_KEY"` or the name of
 * the profile that holds it, never the secret). Each hint is taken from the output and run as a
 * shell would run it, in a shell where SVC_API_KEY holds the key the person used.
 */
import {describe, expect} from 'vitest'

import {skippingClock} from '../helpers/clock.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess as run, type InProcessOptions} from '../helpers/in-process.js'

// The sandbox and the runs on one clock that jumps through the runs' waits (a watch's interval,
// its --timeout), firing the settlements (300 ms of sandbox time) on the way: a watch takes no real time.
const clock = skippingClock()
const it = withSandbox({settleAfterMs: 300, clock})
const runInProcess = (args: string[], options: InProcessOptions) => run(args, {...options, clock})

/** The `svc …` command in a hint (`Run `svc …` again`, `Resume with: svc …`), as the words a POSIX shell makes of it with `env`. */
function pasted(text: string, env: Record<string, string>): string[] {
  const line = text.match(/`(svc [^`]+)`/)?.[1] ?? text.match(/(svc [^\n]+)/)?.[1]
  expect(line, text).toBeDefined()
  const words: string[] = []
  for (const match of line!.trim().matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    const word = match[1] !== undefined ? match[1].replace(/\$(\w+)/g, (_, name: string) => env[name] ?? '') : (match[2] ?? match[3]!)
    words.push(word)
  }
  expect(words[0]).toBe('svc')
  return words.slice(1)
}

describe('hints repeat what chose the profile, key and base URL', () => {
  it('after `svc --api-key $LIVE pay watch ID --timeout …` (the current profile a SANDBOX one), the hint pasted watches the same payment with the same key', async ({sandbox, temp}) => {
    const cli = (args: string[], env: Record<string, string> = {}) => runInProcess(args, {configDir: temp.dir, env})
    const login = await runInProcess(['login', '--api-key-stdin', '--profile', 'local', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: sandbox.sb.keys.sandbox})
    expect(login.exitCode, login.stderr).toBe(0)
    const live = sandbox.sb.keys.live

    const created = await cli(['--api-key', live, 'pay', 'create', '--amount', '900', '--phone', '670000001', '--yes', '--json'])
    expect(created.exitCode, created.stderr).toBe(0)
    const id = JSON.parse(created.stdout).id as string
    const timedOut = await cli(['--api-key', live, 'pay', 'watch', id, '--interval', '250ms', '--timeout', '1s'])
    expect(timedOut.exitCode).toBe(8)
    expect(timedOut.stderr).toContain(`svc --api-key "$SVC_API_KEY" pay watch ${id}`)
    expect(timedOut.stdout + timedOut.stderr).not.toContain(live)

    await sandbox.admin('POST', `/payments/${id}/approve`)
    // Pasted in a shell where SVC_API_KEY is unset: the flag is empty, and the message says so (not "unrecognised"), exit 2, nothing sent.
    const unset = await cli(pasted(timedOut.stderr, {}))
    expect(unset.exitCode).toBe(2)
    expect(unset.stderr).toContain('--api-key is empty (is SVC_API_KEY set?)')
    expect(unset.stderr).not.toMatch(/Unrecognised/)
    const unsetFr = await cli(['--lang', 'fr', ...pasted(timedOut.stderr, {})])
    expect(unsetFr.exitCode).toBe(2)
    expect(unsetFr.stderr).toContain('--api-key est vide (SVC_API_KEY est-elle définie ?)')
    // Pasted in the person's shell (SVC_API_KEY holds the key): the same payment, exit 0.
    const again = await cli(pasted(timedOut.stderr, {SVC_API_KEY: live}), {SVC_API_KEY: live})
    expect(again.exitCode, again.stderr).toBe(0)
  })

  it('a key that a profile holds is named by that profile; --profile and --base-url are repeated as given', async ({sandbox, temp}) => {
    const cli = (args: string[]) => runInProcess(args, {configDir: temp.dir})
    const save = (name: string, key: string) => runInProcess(['login', '--api-key-stdin', '--profile', name, '--base-url', sandbox.sb.url], {configDir: temp.dir, input: key})
    expect((await save('shoplive', sandbox.sb.keys.live)).exitCode).toBe(0)
    expect((await save('local', sandbox.sb.keys.sandbox)).exitCode).toBe(0)

    // --profile: the hint after a create names it.
    const created = await cli(['--profile', 'shoplive', 'pay', 'create', '--amount', '700', '--phone', '670000001', '--yes'])
    expect(created.exitCode, created.stderr).toBe(0)
    const id = created.stdout.match(/svcpay_\w+/)![0]
    expect(created.stderr).toContain(`svc --profile shoplive pay watch ${id}`)
    await sandbox.admin('POST', `/payments/${id}/approve`)
    const watched = await cli([...pasted(created.stderr, {}), '--timeout', '20s'])
    expect(watched.exitCode, watched.stderr).toBe(0)

    // --api-key with a key a profile holds: that profile's name, never the key.
    const second = await cli(['--api-key', sandbox.sb.keys.live, 'pay', 'create', '--amount', '800', '--phone', '670000001', '--yes'])
    expect(second.exitCode, second.stderr).toBe(0)
    expect(second.stderr).toMatch(/svc --profile shoplive pay watch svcpay_\w+/)
    expect(second.stderr).not.toContain(sandbox.sb.keys.live)

    // --base-url given: repeated as given, beside the key's profile.
    const third = await cli(['--base-url', sandbox.sb.url, '--profile', 'shoplive', 'pay', 'create', '--amount', '600', '--phone', '670000001', '--yes'])
    expect(third.exitCode, third.stderr).toBe(0)
    expect(third.stderr).toContain(`svc --profile shoplive --base-url ${sandbox.sb.url} pay watch`)
  })
})
