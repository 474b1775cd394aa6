/**
 * Several `svc sandbox serve` on one machine, as a developer or a CI job leaves them: one sandbox
 * per data file (a second exits 2 naming the holder; a holder killed with SIGKILL does not block
 * the next), several sandboxes in one config directory (the first owns the profile `local`, the
 * others save their own and say so; `svc sandbox list`; stopping one leaves the others working;
 * dead entries cleaned), and a profile whose sandbox was stopped (exit 7 naming the command that
 * starts it; the walkthrough falls back to its own sandbox).
 */
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'

import {baseEnv, BIN, runCli} from '../helpers/cli.js'
import {freePort} from '../helpers/fault-proxy.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {startServe, type ServedSandbox} from '../helpers/sandbox.js'

let temp: ReturnType<typeof tempConfigDir>
let dataDir: string
let running: ServedSandbox[] = []
beforeEach(() => {
  temp = tempConfigDir()
  dataDir = mkdtempSync(join(tmpdir(), 'svc-instances-'))
})
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.kill('SIGKILL')))
  temp.cleanup()
  rmSync(dataDir, {recursive: true, force: true})
})

const serve = async (args: string[] = [], configDir = temp.dir) => {
  const served = await startServe(configDir, args)
  running.push(served)
  return served
}
const done = (served: ServedSandbox) => (running = running.filter((s) => s !== served))
// The serves are child processes (several at once, killed); the commands that read them run in-process.
const cli = (args: string[], configDir = temp.dir) => runInProcess(args, {configDir})
const portOf = (url: string) => new URL(url).port
const profiles = () => JSON.parse(readFileSync(join(temp.dir, 'config.json'), 'utf8')).profiles

describe('one sandbox per data file', {timeout: 120_000}, () => {
  it('a second serve on the same --data exits 2 at once naming the file and the holder’s PID; a holder killed with SIGKILL does not block the next', async () => {
    const file = join(dataDir, 'shop.db')
    const first = await serve(['--data', file])
    expect(first.info.pid).toEqual(expect.any(Number))
    // Another config directory too: it is the file that is held, not the config.
    const other = tempConfigDir()
    try {
      const started = Date.now()
      const second = await runCli(['sandbox', 'serve', '--port', '0', '--data', file], {configDir: other.dir, timeoutMs: 60_000})
      expect(second.exitCode, second.stderr).toBe(2)
      expect(Date.now() - started).toBeLessThan(20_000)
      expect(second.stderr).toContain(file)
      expect(second.stderr).toContain(`PID ${first.info.pid}`)
      expect(second.stdout).not.toMatch(/svc_sk_/)
    } finally {
      other.cleanup()
    }
    // The holder still serves.
    const env = {SVC_API_KEY: first.info.sandbox_key, SVC_BASE_URL: first.info.base_url}
    expect((await runInProcess(['pay', 'list'], {configDir: temp.dir, env})).exitCode).toBe(0)

    const killed = await first.kill('SIGKILL')
    done(first)
    expect(killed.signal).toBe('SIGKILL')
    const next = await serve(['--data', file])
    // Same data: the key minted by the first still works.
    const again = await runInProcess(['pay', 'list'], {configDir: temp.dir, env: {...env, SVC_BASE_URL: next.info.base_url}})
    expect(again.exitCode, again.stderr).toBe(0)
  })
})

describe('one sandbox per data file, a PID reused', {timeout: 120_000}, () => {
  it.runIf(existsSync('/proc/self/stat'))('an owner file naming a live PID that started at another time (reused after a SIGKILL) does not block the start', async () => {
    const file = join(dataDir, 'reused.db')
    // This test process is alive, but it is not the process that wrote this (its start time differs).
    writeFileSync(`${file}.owner`, JSON.stringify({pid: process.pid, pid_start: '1', started_at: new Date().toISOString()}), {mode: 0o600})
    const served = await serve(['--data', file])
    expect(JSON.parse(readFileSync(`${file}.owner`, 'utf8')).pid).toBe(served.info.pid)
  })
})

describe('one sandbox per data file, a zombie holder', {timeout: 120_000}, () => {
  it.runIf(existsSync('/proc/self/stat'))('a serve killed but not yet reaped by its parent (a zombie) does not block the next start on its file', async () => {
    const file = join(dataDir, 'zombie.db')
    // The serve's parent is a `sleep` that never waits for its children: once killed, the serve stays a zombie.
    const parent = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" sandbox serve --port 0 --data "${file}" >/dev/null 2>&1 & exec sleep 600`], {
      env: baseEnv(temp.dir),
      stdio: 'ignore',
    })
    try {
      await vi.waitFor(() => expect(existsSync(`${file}.owner`)).toBe(true), {timeout: 60_000, interval: 100})
      const holder = JSON.parse(readFileSync(`${file}.owner`, 'utf8')).pid as number
      process.kill(holder, 'SIGKILL')
      await vi.waitFor(() => expect(readFileSync(`/proc/${holder}/stat`, 'utf8')).toMatch(/\) Z /), {timeout: 20_000, interval: 50})
      const next = await serve(['--data', file])
      expect(JSON.parse(readFileSync(`${file}.owner`, 'utf8')).pid).toBe(next.info.pid)
      const r = await runInProcess(['pay', 'list'], {configDir: temp.dir, env: {SVC_API_KEY: next.info.sandbox_key, SVC_BASE_URL: next.info.base_url}})
      expect(r.exitCode, r.stderr).toBe(0)
    } finally {
      parent.kill('SIGKILL')
    }
  })
})

describe('one sandbox per data file, started at once', {timeout: 120_000}, () => {
  it('3 serves on one --data started together: exactly one runs, the others exit 2 naming its PID', async () => {
    const file = join(dataDir, 'race.db')
    const outcomes = await Promise.allSettled(Array.from({length: 3}, () => serve(['--data', file])))
    const started = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))
    expect(started).toHaveLength(1)
    for (const o of outcomes) if (o.status === 'rejected') expect(String(o.reason)).toMatch(new RegExp(`serve exited 2: .*PID ${started[0].info.pid}`, 's'))
  })
})

describe('several sandboxes, one config directory', {timeout: 180_000}, () => {
  it('the first owns `local`, the second saves `local-PORT` and says so; list shows both; stopping the second leaves the first working', async () => {
    const a = await serve()
    const b = await serve()
    expect(a.info.profile).toBe('local')
    const bName = `local-${portOf(b.info.base_url)}`
    expect(b.info.profile).toBe(bName)
    expect(profiles().local.base_url).toBe(a.info.base_url)
    expect(profiles()[bName].base_url).toBe(b.info.base_url)

    const listed = await cli(['sandbox', 'list', '--json'])
    expect(listed.exitCode, listed.stderr).toBe(0)
    const entries = JSON.parse(listed.stdout)
    expect(entries).toEqual([
      expect.objectContaining({url: a.info.base_url, pid: a.info.pid, data_file: null, profile: 'local'}),
      expect.objectContaining({url: b.info.base_url, pid: b.info.pid, data_file: null, profile: bName}),
    ])
    expect(JSON.stringify(entries)).not.toContain(a.info.admin_token)
    const table = await cli(['sandbox', 'list'])
    expect(table.stdout).toContain(a.info.base_url)
    expect(table.stdout).toContain(bName)
    expect(statSync(join(temp.dir, 'sandboxes.json')).mode & 0o777).toBe(0o600)

    // The stand-ins follow the profile in use: the current one (`local`) is the first sandbox.
    const keysOf = async (args: string[]) => {
      const r = await cli(['sandbox', 'keys', 'list', '--json', ...args])
      expect(r.exitCode, r.stderr).toBe(0)
      return JSON.stringify(JSON.parse(r.stdout))
    }
    expect(await keysOf([])).toContain(a.info.sandbox_key.slice(-4))
    expect(await keysOf(['--profile', bName])).toContain(b.info.sandbox_key.slice(-4))

    const bEnded = await b.stop()
    done(b)
    expect(bEnded.stderr).toContain(bName)
    expect(bEnded.stderr).toMatch(/`local`|"local"/)
    // The first is untouched: its profile, its admin state, the stand-ins.
    expect(profiles().local.base_url).toBe(a.info.base_url)
    expect((await cli(['pay', 'list', '--profile', 'local'])).exitCode).toBe(0)
    expect((await cli(['sandbox', 'balance'])).exitCode).toBe(0)
    expect(JSON.parse((await cli(['sandbox', 'list', '--json'])).stdout)).toEqual([expect.objectContaining({pid: a.info.pid})])

    // A sandbox killed with SIGKILL leaves an entry: it is cleaned up, not listed.
    await a.kill('SIGKILL')
    done(a)
    expect(JSON.parse((await cli(['sandbox', 'list', '--json'])).stdout)).toEqual([])
    expect(JSON.parse(readFileSync(join(temp.dir, 'sandboxes.json'), 'utf8')).sandboxes).toEqual([])
    // `local` is free again: the next serve takes it.
    const c = await serve()
    expect(c.info.profile).toBe('local')
    expect(profiles().local.base_url).toBe(c.info.base_url)
  })

  it('4 serves started at once in one config directory: exactly one owns `local`, each has its own profile and entry', async () => {
    const all = await Promise.all(Array.from({length: 4}, () => serve()))
    const names = all.map((s) => s.info.profile)
    expect(names.filter((n) => n === 'local')).toHaveLength(1)
    expect(new Set(names).size).toBe(4)
    for (const s of all) expect(profiles()[s.info.profile].base_url).toBe(s.info.base_url)
    const listed = JSON.parse((await cli(['sandbox', 'list', '--json'])).stdout) as Array<{pid: number; profile: string}>
    expect(listed.map((e) => e.pid).sort()).toEqual(all.map((s) => s.info.pid).sort())
  })

  it('--profile-name NAME saves that profile; a name a running sandbox owns is refused (exit 2)', async () => {
    const a = await serve(['--profile-name', 'ci-shop'])
    expect(a.info.profile).toBe('ci-shop')
    expect(profiles()['ci-shop'].base_url).toBe(a.info.base_url)
    // A second serve: a process of its own, refused while the first runs.
    const clash = await runCli(['sandbox', 'serve', '--port', '0', '--profile-name', 'ci-shop'], {configDir: temp.dir, timeoutMs: 60_000})
    expect(clash.exitCode).toBe(2)
    expect(clash.stderr).toContain('ci-shop')
    expect(clash.stderr).toContain(`PID ${a.info.pid}`)
    const bad = await cli(['sandbox', 'serve', '--port', '0', '--profile-name', 'no spaces'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('--profile-name')
  })
})

describe('a stopped sandbox is named as such', {timeout: 180_000}, () => {
  it('a command whose profile points at a stopped serve: exit 7, "not running", and the command that starts it', async () => {
    const file = join(dataDir, 'kept.db')
    const a = await serve(['--data', file])
    await a.stop()
    done(a)
    const port = portOf(a.info.base_url)
    for (const args of [['pay', 'list', '--profile', 'local'], ['pay', 'list']]) {
      const r = await cli(args)
      expect(r.exitCode, r.stderr).toBe(7)
      expect(r.stderr).toMatch(/not running/)
      expect(r.stderr).toContain(`svc sandbox serve --port ${port} --data ${file}`)
    }
    const json = await cli(['pay', 'list', '--json'])
    expect(json.exitCode).toBe(7)
    expect(JSON.parse(json.stdout).error.code).toBe('sandbox_not_running')
    // The stand-ins say the same.
    const balance = await cli(['sandbox', 'balance'])
    expect(balance.exitCode).toBe(7)
    expect(balance.stderr).toMatch(/svc sandbox serve/)
    expect(existsSync(file)).toBe(true)
  })

  it('nothing running at the address given: exit 7 naming the address and the flag or variable that gave it', async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const flagged = await runInProcess(['--base-url', url, 'sandbox', 'balance'], {configDir: temp.dir})
    expect(flagged.exitCode, flagged.stderr).toBe(7)
    expect(flagged.stderr).toContain(`No sandbox is running at ${url}, the address given by --base-url`)
    expect(flagged.stderr).not.toContain('--profile, --api-key')
    const fromEnv = await runInProcess(['sandbox', 'balance', '--lang', 'fr'], {configDir: temp.dir, env: {SVC_BASE_URL: url}})
    expect(fromEnv.exitCode).toBe(7)
    expect(fromEnv.stderr).toContain(`Aucune sandbox ne tourne à ${url}, l’adresse donnée par SVC_BASE_URL`)
  })

  it('the walkthrough after a stopped serve runs its own in-process sandbox, saying so on stderr (exit 0, not spec violations)', async () => {
    const a = await serve()
    await a.stop()
    done(a)
    const r = await runInProcess(['sandbox', 'walkthrough', '--settle-after', '250ms'], {configDir: temp.dir, env: {CI: 'true'}})
    expect(r.exitCode, r.stderr + r.stdout).toBe(0)
    expect(r.stderr).toContain(a.info.base_url)
    expect(r.stderr).toMatch(/not running/)
    expect(r.stdout).not.toMatch(/✗/)
  })
})
