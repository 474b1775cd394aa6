/**
 * The config directory as other processes and other users leave it: a lock with a time in the
 * future (a clock set back, a file copied from another machine) is stale after the normal wait;
 * a config file or directory others can read gets one warning line on stderr, as ssh does for keys.
 */
import {chmodSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, vi} from 'vitest'

import {testClock} from '../helpers/clock.js'
import {runInProcess} from '../helpers/in-process.js'
import {test, type TempConfigDir} from '../helpers/fixtures.js'

// The config dir of each test (test/helpers/fixtures.ts), with two profiles already saved.
const it = test.extend<{temp: TempConfigDir}>({
  temp: async ({temp}, use) => {
    mkdirSync(temp.dir, {mode: 0o700})
    const profile = {api_key: 'svc_sk_test_0123456789abcdef0123', base_url: 'http://127.0.0.1:9'}
    writeFileSync(join(temp.dir, 'config.json'), JSON.stringify({current: 'a', profiles: {a: profile, b: profile}}), {mode: 0o600})
    await use(temp)
  },
})

const warnings = (stderr: string) => stderr.split('\n').filter((line) => /readable by others/.test(line))

describe('config lock with a future time', () => {
  // The wait is the run's clock (pinned): the test moves it, and sees the run still waiting just
  // before the lock's stale time (10 s) and through just after it.
  // Every command that writes the config waits on the same lock, on its run's clock.
  it.for([
    {name: 'profiles use', command: ['profiles', 'use', 'b'], saved: (config: any) => expect(config.current).toBe('b')},
    {name: 'config set', command: ['config', 'set', 'invoice.prefix', 'SHOP'], saved: (config: any) => expect(config.profiles.a.settings).toEqual({'invoice.prefix': 'SHOP'})},
  ])('`$name` goes through after the normal stale wait, not the 120 s give-up', async ({command, saved}, {temp}) => {
    const lock = join(temp.dir, 'config.json.lock')
    mkdirSync(lock)
    const future = new Date(Date.now() + 3_600_000)
    utimesSync(lock, future, future)
    const clock = testClock(Date.now())
    let done = false
    const run = runInProcess(command, {configDir: temp.dir, clock}).finally(() => (done = true))
    await vi.waitFor(() => expect(clock.waiting('wait')).toHaveLength(1), {timeout: 10_000})
    clock.advance(9_000)
    await vi.waitFor(() => expect(clock.waiting('wait')).toHaveLength(1), {timeout: 10_000})
    expect(done, 'still waiting before the stale time').toBe(false)
    expect(existsSync(lock)).toBe(true)
    clock.advance(1_100)
    // Each retry of the lock waits a few ms on the clock: move it on until the run is through.
    await vi.waitFor(
      () => {
        clock.advance(25)
        expect(done).toBe(true)
      },
      // Well under the 10 s a lock's time would take to be seen unchanged on the machine's clock.
      {timeout: 5_000, interval: 5},
    )
    const result = await run
    expect(result.exitCode, result.stderr).toBe(0)
    saved(JSON.parse(readFileSync(join(temp.dir, 'config.json'), 'utf8')))
  })
})

describe('config readable by others', () => {
  it('a 0644 config file: one warning line on stderr naming the file and the fix; stdout unchanged', async ({temp}) => {
    chmodSync(join(temp.dir, 'config.json'), 0o644)
    const result = await runInProcess(['profiles', 'list', '--json'], {configDir: temp.dir})
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toHaveLength(2)
    const lines = warnings(result.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(join(temp.dir, 'config.json'))
    expect(lines[0]).toContain('chmod 600')
  })

  it('a 0755 config directory: one warning line naming the directory', async ({temp}) => {
    chmodSync(temp.dir, 0o755)
    const result = await runInProcess(['profiles', 'list'], {configDir: temp.dir})
    expect(result.exitCode, result.stderr).toBe(0)
    const lines = warnings(result.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(temp.dir)
    expect(lines[0]).toContain('chmod 700')
  })

  it('0600 in 0700: no warning', async ({temp}) => {
    const result = await runInProcess(['profiles', 'list'], {configDir: temp.dir})
    expect(result.exitCode, result.stderr).toBe(0)
    expect(warnings(result.stderr)).toHaveLength(0)
  })
})
