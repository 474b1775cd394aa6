/**
 * `svc sandbox exec -- CMD`: a sandbox for the length of one command, as `firebase emulators:exec`
 * (start, seed, forward, run, stop, one exit code), and `svc sandbox serve --detach` / `svc sandbox
 * stop` for scripts that need separate steps. The process is what these tests test (its exit code,
 * its signals, what it leaves running), so every exec is a child process (runCli); CMD is
 * test/helpers/exec-app.mjs, an app that knows only the environment exec gives it.
 */
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'

import {freePort} from '../helpers/fault-proxy.js'
import {BIN, runCli, type CliResult} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {execArgv} from '../../src/lib/sandbox-exec/argv.js'
import {startServe, type ServedSandbox} from '../helpers/sandbox.js'

const APP = fileURLToPath(new URL('../helpers/exec-app.mjs', import.meta.url))
const SHOP_WEEK = fileURLToPath(new URL('../../examples/fixtures/shop-week.json', import.meta.url))

let temp: ReturnType<typeof tempConfigDir>
let work: string
let served: ServedSandbox[] = []
const leftover: number[] = []
beforeEach(() => {
  temp = tempConfigDir()
  work = mkdtempSync(join(tmpdir(), 'svc-exec-'))
})
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.kill('SIGKILL')))
  for (const pid of leftover.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL')
  temp.cleanup()
  rmSync(work, {recursive: true, force: true})
})

/** Whether the process still runs: a zombie (ended, not yet reaped by its parent) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

/** Whether anything answers at this base URL. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/v1/openapi.json`, {signal: AbortSignal.timeout(5000)})
    return true
  } catch {
    return false
  }
}

const registry = () => {
  const file = join(temp.dir, 'sandboxes.json')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).sandboxes as Array<{pid: number; base_url: string}>) : []
}
const profiles = () => {
  const file = join(temp.dir, 'config.json')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as {current?: string; profiles: Record<string, {base_url: string; api_key: string}>}) : {profiles: {}}
}

const exec = (args: string[], env: Record<string, string | undefined> = {}, extra: Partial<Parameters<typeof runCli>[1]> = {}): Promise<CliResult> =>
  runCli(['sandbox', 'exec', '--settle-after', '0', ...args], {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0', ...env}, timeoutMs: 120_000, ...extra})

describe('svc sandbox exec', {timeout: 180_000}, () => {
  it('runs CMD against a sandbox of its own with the settings in its environment, and exits with its code (0, 3, 1)', async () => {
    // Another sandbox of the same config directory owns `local`, the current profile; the
    // environment names a profile too: CMD's settings and svc commands inside it still reach exec's sandbox.
    const other = await startServe(temp.dir)
    served.push(other)
    const before = profiles()
    expect(before.current).toBe('local')
    for (const code of [0, 3, 1]) {
      const out = join(work, `env-${code}.json`)
      const result = await exec(['--', process.execPath, APP, 'env', out, String(code)], {SVC_PROFILE: 'local'})
      expect(result.exitCode, result.stderr).toBe(code)
      const seen = JSON.parse(readFileSync(out, 'utf8'))
      expect(seen.SVC_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(seen.SVC_BASE_URL).not.toBe(other.info.base_url)
      expect(seen.SVC_SANDBOX_URL).toBe(seen.SVC_BASE_URL)
      expect(seen.SVC_API_KEY).toMatch(/^svc_sk_(test|sandbox)_/)
      expect(seen.SVC_LIVE_API_KEY).toMatch(/^svc_sk_live_/)
      expect(seen.SVC_WEBHOOK_SECRET).toMatch(/^whsec_/)
      expect(seen.SVC_SANDBOX_ADMIN_TOKEN).toEqual(expect.any(String))
      expect(seen.SVC_PROFILE).toBeNull()
      expect(seen.payment.status, JSON.stringify(seen.payment)).toBe(201)
      // Exec's own lines on stderr, prefixed; CMD wrote nothing on stdout, nor did exec.
      expect(result.stdout).toBe('')
      expect(result.stderr).toMatch(/^svc exec: /m)
      if (code !== 0) expect(result.stderr).toContain(String(code))
    }
    // The payments went to exec's sandboxes, not to the one that owns `local`.
    const list = await fetch(`${other.info.base_url}/v1/payments`, {headers: {"x-api-key": other.info.sandbox_key}}).then((r) => r.json() as Promise<any>)
    expect(list.data ?? list).toHaveLength(0)
    // No profile saved or changed, and only the other sandbox left in the registry.
    expect(profiles()).toEqual(before)
    expect(registry().map((e) => e.base_url)).toEqual([other.info.base_url])
  })

  it('svc commands inside CMD reach exec’s sandbox, whatever profile is current', async () => {
    const other = await startServe(temp.dir)
    served.push(other)
    const script = `"${process.execPath}" "${BIN}" pay create --amount 700 --phone 237670000001 --operator MTN --jq .id`
    const result = await exec(['--', 'sh', '-c', script])
    expect(result.exitCode, result.stderr).toBe(0)
    const id = result.stdout.trim()
    expect(id).toMatch(/^svcpay_/)
    // The payment is not in the other sandbox.
    const there = await fetch(`${other.info.base_url}/v1/payments/${id}/status`, {headers: {'x-api-key': other.info.sandbox_key}})
    expect(there.status).toBe(404)
  })

  it('a CMD that cannot be started: exit 127 naming it, nothing left behind', async () => {
    const result = await exec(['--', 'svc-no-such-command-here'])
    expect(result.exitCode).toBe(127)
    expect(result.stderr).toContain('svc-no-such-command-here')
    expect(registry()).toEqual([])
  })

  it('without a CMD: exit 2 saying what to give', async () => {
    const result = await exec([])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toMatch(/--/)
  })

  it('--fixtures seeds the sandbox before CMD starts; the answers are in SVC_FIXTURES_FILE', async () => {
    const result = await exec(['--fixtures', SHOP_WEEK, '--', process.execPath, APP, 'fixtures'])
    expect(result.exitCode, result.stderr).toBe(0)
    const found = JSON.parse(result.stdout) as Array<{step: string; id: string; status: number}>
    expect(found.map((f) => f.step)).toContain('monday_bread')
    expect(found.every((f) => f.status === 200)).toBe(true)
    expect(result.stderr).toMatch(/svc exec: .*shop-week\.json/)
  })

  it('--fixtures with a broken file: CMD never runs, exit 2 naming the file', async () => {
    const broken = join(work, 'broken.json')
    writeFileSync(broken, JSON.stringify({steps: [{name: 'x', method: 'POST', path: '/v1/payments', body: {amount: '${nope.id}'}}]}))
    const marker = join(work, 'ran')
    const result = await exec(['--fixtures', broken, '--', process.execPath, APP, 'env', marker, '0'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('broken.json')
    expect(existsSync(marker)).toBe(false)
    expect(registry()).toEqual([])
  })

  it('--forward-to delivers the sandbox’s events signed with SVC_WEBHOOK_SECRET, which CMD verifies', async () => {
    const port = await freePort()
    const result = await exec(['--forward-to', `http://127.0.0.1:${port}/hooks`, '--', process.execPath, APP, 'webhook', String(port)])
    expect(result.stdout).toMatch(/verified payment\./)
    expect(result.exitCode, result.stderr + result.stdout).toBe(0)
  })

  it('--forward-to forwards the LIVE environment’s events too (a payment the customer approves)', async () => {
    const port = await freePort()
    const result = await exec(['--forward-to', `http://127.0.0.1:${port}/hooks`, '--', process.execPath, APP, 'webhook', String(port), 'live'])
    expect(result.stdout).toMatch(/verified payment\.success/)
    expect(result.exitCode, result.stderr + result.stdout).toBe(0)
    expect(result.stderr).toMatch(/svc exec: LIVE /)
  })

  it('--journal-on-failure prints the requests the app made when CMD fails, and nothing when it succeeds', async () => {
    const failed = await exec(['--journal-on-failure', '--', process.execPath, APP, 'env', join(work, 'a.json'), '1'])
    expect(failed.exitCode).toBe(1)
    expect(failed.stderr).toMatch(/POST\s+201\s.*\/v1\/payments/)
    const passed = await exec(['--journal-on-failure', '--', process.execPath, APP, 'env', join(work, 'b.json'), '0'])
    expect(passed.exitCode).toBe(0)
    expect(passed.stderr).not.toMatch(/\/v1\/payments/)
  })

  it('--journal-on-failure FILE writes them to FILE', async () => {
    const file = join(work, 'journal.txt')
    const failed = await exec([`--journal-on-failure=${file}`, '--', process.execPath, APP, 'env', join(work, 'a.json'), '3'])
    expect(failed.exitCode).toBe(3)
    expect(readFileSync(file, 'utf8')).toMatch(/POST\s+201\s.*\/v1\/payments/)
    expect(failed.stderr).toContain(file)
  })

  it('SIGTERM to exec reaches CMD first, then the sandbox stops: exit 143, no process and no registry entry left', async () => {
    const out = join(work, 'wait.json')
    let child!: import('node:child_process').ChildProcess
    const ended = exec(['--', process.execPath, APP, 'wait', out], {}, {onSpawn: (c) => (child = c)})
    await vi.waitFor(() => expect(existsSync(out)).toBe(true), {timeout: 60_000, interval: 50})
    const seen = JSON.parse(readFileSync(out, 'utf8'))
    leftover.push(seen.pid)
    expect(registry().map((e) => e.base_url)).toEqual([seen.SVC_BASE_URL])
    // `svc sandbox list` shows it, with no profile.
    const list = await runInProcess(['sandbox', 'list'], {configDir: temp.dir})
    expect(list.stdout).toMatch(new RegExp(`${seen.SVC_BASE_URL}.*\\(none: sandbox exec\\)`))
    child.kill('SIGTERM')
    const result = await ended
    expect(result.exitCode, result.stderr).toBe(143)
    expect(alive(seen.pid)).toBe(false)
    expect(await answers(seen.SVC_BASE_URL)).toBe(false)
    expect(registry()).toEqual([])
  })

  it('SIGINT goes to CMD, which decides: a CMD that ends cleanly on it makes exec exit 0', async () => {
    const out = join(work, 'ready')
    const script = `trap 'echo cleaned up; exit 0' INT; touch "${out}"; while :; do sleep 0.05; done`
    let child!: import('node:child_process').ChildProcess
    const ended = exec(['--', 'sh', '-c', script], {}, {onSpawn: (c) => (child = c)})
    await vi.waitFor(() => expect(existsSync(out)).toBe(true), {timeout: 60_000, interval: 50})
    child.kill('SIGINT')
    const result = await ended
    expect(result.stdout).toContain('cleaned up')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(registry()).toEqual([])
  })

  it('a signal before CMD has started: the start is abandoned, CMD never runs, nothing left (exit 143)', async () => {
    const marker = join(work, 'ran')
    let child!: import('node:child_process').ChildProcess
    let stderr = ''
    // The client paced to 30 requests a minute: the seeding lasts seconds, the signal lands in it.
    const ended = exec(['--fixtures', SHOP_WEEK, '--', process.execPath, APP, 'env', marker, '0'], {SVC_RATE_LIMIT: '30'}, {
      onSpawn: (c) => {
        child = c
        c.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
      },
    })
    // The sandbox answers; the fixtures are being run.
    await vi.waitFor(() => expect(stderr).toMatch(/svc exec: .*ready/), {timeout: 60_000, interval: 20})
    child.kill('SIGTERM')
    const result = await ended
    expect(result.exitCode, result.stderr).toBe(143)
    expect(result.stderr).toMatch(/svc exec: SIGTERM before the command started/)
    expect(result.stderr).not.toMatch(/svc exec: running/)
    expect(existsSync(marker)).toBe(false)
    expect(registry()).toEqual([])
  })

  it('kill -9 of exec leaves no sandbox running', async () => {
    const out = join(work, 'wait.json')
    let child!: import('node:child_process').ChildProcess
    void exec(['--', process.execPath, APP, 'wait', out], {}, {onSpawn: (c) => (child = c)})
    await vi.waitFor(() => expect(existsSync(out)).toBe(true), {timeout: 60_000, interval: 50})
    const seen = JSON.parse(readFileSync(out, 'utf8'))
    // CMD, like any process whose parent is killed with SIGKILL, is the test's to end.
    leftover.push(seen.pid)
    expect(await answers(seen.SVC_BASE_URL)).toBe(true)
    const gone = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    // Not `ended`: CMD, still running, holds the pipes runCli waits on.
    await gone
    await vi.waitFor(async () => expect(await answers(seen.SVC_BASE_URL)).toBe(false), {timeout: 10_000, interval: 100})
    // Its registry entry is dead: `svc sandbox list` shows none.
    const list = await runCli(['sandbox', 'list', '--json'], {configDir: temp.dir})
    expect(JSON.parse(list.stdout)).toEqual([])
  })
})

describe('svc sandbox serve --detach, svc sandbox stop', {timeout: 180_000}, () => {
  it('serve --detach returns once the sandbox answers, printing lines a shell can eval; stop stops it, its entry and profile gone', async () => {
    const started = await runCli(['sandbox', 'serve', '--detach', '--port', '0'], {configDir: temp.dir, timeoutMs: 120_000})
    expect(started.exitCode, started.stderr).toBe(0)
    const script = `${started.stdout}\nprintf '%s\\n' "$SVC_BASE_URL" "$SVC_API_KEY" "$SVC_LIVE_API_KEY" "$SVC_SANDBOX_URL" "$SVC_SANDBOX_ADMIN_TOKEN" "$SVC_WEBHOOK_SECRET"`
    const evaluated = await new Promise<string>((resolve) => {
      const sh = spawn('sh', ['-c', script], {stdio: ['ignore', 'pipe', 'inherit']})
      let text = ''
      sh.stdout.on('data', (d: Buffer) => (text += d.toString()))
      sh.on('close', () => resolve(text))
    })
    const [base, key, live, sandboxUrl, token, secret] = evaluated.split('\n')
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(key).toMatch(/^svc_sk_/)
    expect(live).toMatch(/^svc_sk_live_/)
    expect(sandboxUrl).toBe(base)
    expect(token!.length).toBeGreaterThanOrEqual(16)
    expect(secret).toMatch(/^whsec_/)
    const [entry] = registry()
    leftover.push(entry!.pid)
    expect(entry!.base_url).toBe(base)
    expect(await answers(base!)).toBe(true)
    expect(profiles().profiles.local?.base_url).toBe(base)

    const stopped = await runCli(['sandbox', 'stop', '--profile', 'local'], {configDir: temp.dir, timeoutMs: 60_000})
    expect(stopped.exitCode, stopped.stderr).toBe(0)
    expect(alive(entry!.pid)).toBe(false)
    expect(await answers(base!)).toBe(false)
    expect(registry()).toEqual([])
    expect(profiles().profiles.local).toBeUndefined()
  })

  it('beside another sandbox (the current profile): `eval "$(svc sandbox serve --detach)"` as the README says exports the settings, so the next svc status and svc sandbox stop act on the detached sandbox and leave the other running', async () => {
    const other = await startServe(temp.dir)
    served.push(other)
    const started = await runCli(['sandbox', 'serve', '--detach', '--port', '0'], {configDir: temp.dir, timeoutMs: 120_000})
    expect(started.exitCode, started.stderr).toBe(0)
    const entry = registry().find((e) => e.base_url !== other.info.base_url)!
    leftover.push(entry.pid)
    const name = `local-${new URL(entry.base_url).port}`
    // The hint names the profile once, as a command that works when pasted.
    expect(started.stderr).toContain(`\`svc sandbox stop --profile ${name}\``)
    const svc = `"${process.execPath}" "${BIN}"`
    const script = `set -e\neval "$(cat)"\n${svc} status --json\n${svc} sandbox stop`
    const result = await new Promise<{code: number | null; out: string; err: string}>((resolve) => {
      const sh = spawn('sh', ['-c', script], {env: {PATH: process.env.PATH, HOME: process.env.HOME, SVC_CONFIG_DIR: temp.dir, LANG: 'C.UTF-8'}, stdio: ['pipe', 'pipe', 'pipe']})
      let out = ''
      let err = ''
      sh.stdout.on('data', (d: Buffer) => (out += d.toString()))
      sh.stderr.on('data', (d: Buffer) => (err += d.toString()))
      sh.on('close', (code) => resolve({code, out, err}))
      sh.stdin.end(started.stdout)
    })
    expect(result.code, result.err).toBe(0)
    expect(JSON.parse(result.out)).toMatchObject({base_url: entry.base_url, profile: null, reachable: true, key_accepted: true})
    expect(result.err).toContain(entry.base_url)
    await vi.waitFor(() => expect(alive(entry.pid)).toBe(false), {timeout: 30_000, interval: 100})
    expect(await answers(other.info.base_url)).toBe(true)
    expect(registry().map((e) => e.base_url)).toEqual([other.info.base_url])
  })

  it('serve --detach --json with --data; stop --all flushes the data: a payment made is there at the next start', async () => {
    const data = join(work, 'shop.db')
    const started = await runCli(['sandbox', 'serve', '--detach', '--json', '--port', '0', '--data', data], {configDir: temp.dir, timeoutMs: 120_000})
    expect(started.exitCode, started.stderr).toBe(0)
    const settings = JSON.parse(started.stdout)
    expect(Object.keys(settings)).toEqual(
      expect.arrayContaining(['SVC_BASE_URL', 'SVC_API_KEY', 'SVC_LIVE_API_KEY', 'SVC_WEBHOOK_SECRET', 'SVC_SANDBOX_URL', 'SVC_SANDBOX_ADMIN_TOKEN']),
    )
    leftover.push(registry()[0]!.pid)
    const made = await fetch(`${settings.SVC_BASE_URL}/v1/payments`, {
      method: 'POST',
      headers: {'x-api-key': settings.SVC_API_KEY, 'content-type': 'application/json'},
      body: JSON.stringify({amount: 900, phone_number: '237670000001', operator: 'MTN', payment_method: 'mobile_money'}),
    }).then((r) => r.json() as Promise<any>)
    const stopped = await runCli(['sandbox', 'stop', '--all'], {configDir: temp.dir, timeoutMs: 60_000})
    expect(stopped.exitCode, stopped.stderr).toBe(0)
    expect(registry()).toEqual([])
    const again = await startServe(temp.dir, ['--data', data])
    served.push(again)
    const read = await fetch(`${again.info.base_url}/v1/payments/${made.id}/status`, {headers: {'x-api-key': again.info.sandbox_key}})
    expect(read.status).toBe(200)
  })

  it('stop --all also stops an exec’d sandbox, through its command (SIGTERM to exec, then to CMD)', async () => {
    const out = join(work, 'wait.json')
    const ended = exec(['--', process.execPath, APP, 'wait', out])
    await vi.waitFor(() => expect(existsSync(out)).toBe(true), {timeout: 60_000, interval: 50})
    const seen = JSON.parse(readFileSync(out, 'utf8'))
    leftover.push(seen.pid)
    const stopped = await runCli(['sandbox', 'stop', '--all'], {configDir: temp.dir, timeoutMs: 60_000})
    expect(stopped.exitCode, stopped.stderr).toBe(0)
    expect(stopped.stderr).toContain(seen.SVC_BASE_URL)
    const result = await ended
    expect(result.exitCode).toBe(143)
    expect(alive(seen.pid)).toBe(false)
    expect(registry()).toEqual([])
  })

  it('serve --detach on a port in use: serve’s own message and exit 2, nothing left (no entry, no log)', async () => {
    const busy = await startServe(temp.dir)
    served.push(busy)
    const port = new URL(busy.info.base_url).port
    const result = await runCli(['sandbox', 'serve', '--detach', '--port', port], {configDir: temp.dir, timeoutMs: 120_000})
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(port)
    expect(result.stdout).toBe('')
    expect(registry().map((e) => e.base_url)).toEqual([busy.info.base_url])
    expect(existsSync(join(temp.dir, 'sandboxes')) ? readdirSync(join(temp.dir, 'sandboxes')) : []).toEqual([])
  })

  it('stop with nothing running: exit 7 saying so; stop --profile naming no sandbox: exit 7 naming it', async () => {
    const none = await runCli(['sandbox', 'stop', '--all'], {configDir: temp.dir})
    expect(none.exitCode).toBe(7)
    const named = await runCli(['sandbox', 'stop', '--profile', 'shop'], {configDir: temp.dir})
    expect(named.exitCode).toBe(7)
    expect(named.stderr).toContain('shop')
  })
})

// Flags and files refused before anything starts: no process of its own is under test, so in-process.
describe('svc sandbox exec: bad input starts nothing', () => {
  const run = (args: string[]) => runInProcess(['sandbox', 'exec', ...args], {configDir: temp.dir})

  it('a bad serve flag, --forward-to or fixtures file: exit 2 naming it, no sandbox started', async () => {
    const settle = await run(['--settle-after', 'soon', '--', 'true'])
    expect(settle.exitCode).toBe(2)
    expect(settle.stderr).toMatch(/^svc exec: .*--settle-after/m)
    const forward = await run(['--forward-to', 'ftp://example.com/hooks', '--', 'true'])
    expect(forward.exitCode).toBe(2)
    expect(forward.stderr).toContain('ftp://example.com/hooks')
    const missing = await run(['--fixtures', join(work, 'none.json'), '--', 'true'])
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toContain('none.json')
    expect(registry()).toEqual([])
  })

  it('two fixtures files with a step of the same name: exit 2 naming the step and both files', async () => {
    const copy = join(work, 'again.json')
    writeFileSync(copy, readFileSync(SHOP_WEEK))
    const result = await run(['--fixtures', SHOP_WEEK, '--fixtures', copy, '--', 'true'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('monday_bread')
    expect(result.stderr).toContain('again.json')
    expect(registry()).toEqual([])
  })

  it('--journal-on-failure takes a FILE or nothing; what follows `--` is the command, untouched', () => {
    expect(execArgv(['--journal-on-failure', '--', 'npm', 'test', '--journal-on-failure'])).toEqual({
      flags: ['--journal-on-failure=-', '--', 'npm', 'test', '--journal-on-failure'],
      command: ['npm', 'test', '--journal-on-failure'],
    })
    expect(execArgv(['--journal-on-failure', '--log', '--', 'x']).flags).toEqual(['--journal-on-failure=-', '--log', '--', 'x'])
    expect(execArgv(['--journal-on-failure', 'out.txt', '--', 'x']).flags).toEqual(['--journal-on-failure', 'out.txt', '--', 'x'])
    expect(execArgv(['--port', '0']).command).toEqual([])
  })
})
