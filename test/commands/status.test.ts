/**
 * `svc status`, as `gh auth status`: what the next command uses (profile, environment, base URL,
 * masked key, language), a local sandbox's PID and data file, and whether it answers: exit 0
 * running, 7 stopped (with the command that starts it), 3 when the key is refused.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterEach, describe, expect, it} from 'vitest'

import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {startServe} from '../helpers/sandbox.js'

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('svc status', {timeout: 120_000}, () => {
  it('a local sandbox running (exit 0, its PID and data file), then stopped (exit 7, the command that starts it); --json; never the key whole', async () => {
    const temp = tempConfigDir()
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-status-'))
    cleanups.push(() => {
      temp.cleanup()
      rmSync(dataDir, {recursive: true, force: true})
    })
    const file = join(dataDir, 'shop.db')
    const served = await startServe(temp.dir, ['--data', file])
    cleanups.push(() => served.kill('SIGKILL'))
    const cli = (args: string[], env: Record<string, string> = {}) => runInProcess(args, {configDir: temp.dir, env})

    const running = await cli(['status'])
    expect(running.exitCode, running.stderr).toBe(0)
    expect(running.stdout).toMatch(/local \(current\)/)
    expect(running.stdout).toContain('SANDBOX')
    expect(running.stdout).toContain(served.info.base_url)
    expect(running.stdout).toContain(`svc_sk_test_…${served.info.sandbox_key.slice(-4)}`)
    expect(running.stdout).toContain(`PID ${served.info.pid}`)
    expect(running.stdout).toContain(file)
    expect(running.stdout + running.stderr).not.toContain(served.info.sandbox_key)

    const json = await cli(['status', '--json'])
    expect(json.exitCode).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({
      profile: 'local',
      current: true,
      environment: 'SANDBOX',
      base_url: served.info.base_url,
      language: 'en',
      local_sandbox: {running: true, pid: served.info.pid, data_file: file},
      reachable: true,
      key_accepted: true,
    })

    // The LIVE key given as a flag: the flag is named as what chose it.
    const live = await cli(['status', '--api-key', served.info.live_key, '--json'])
    expect(live.exitCode, live.stderr).toBe(0)
    expect(JSON.parse(live.stdout)).toMatchObject({environment: 'LIVE', chosen_by: ['--api-key', 'current profile']})
    expect(live.stdout).not.toContain(served.info.live_key)

    // A key the sandbox does not know: reachable, refused, exit 3.
    const refused = await cli(['status', '--api-key', 'svc_sk_test_0000000000000000000000000000'])
    expect(refused.exitCode).toBe(3)
    expect(refused.stdout).toMatch(/key is refused/)

    await served.stop()
    const stopped = await cli(['status'])
    expect(stopped.exitCode).toBe(7)
    expect(stopped.stdout).toMatch(/not running/)
    expect(stopped.stdout).toContain(file)
    expect(stopped.stderr).toContain(`svc sandbox serve --port ${new URL(served.info.base_url).port} --data ${file}`)
    const stoppedJson = await cli(['status', '--json'])
    expect(stoppedJson.exitCode).toBe(7)
    expect(JSON.parse(stoppedJson.stdout)).toMatchObject({reachable: false, local_sandbox: {running: false, pid: null, data_file: file}})
  })

  it('in French, with no profile at all and an address that does not answer: exit 7', async () => {
    const temp = tempConfigDir()
    cleanups.push(() => temp.cleanup())
    const r = await runInProcess(['status', '--lang', 'fr', '--base-url', 'http://127.0.0.1:9'], {configDir: temp.dir})
    expect(r.exitCode).toBe(7)
    expect(r.stdout).toMatch(/PROFIL/)
    expect(r.stdout).toMatch(/JOIGNABLE\s+non/)
  })
})
