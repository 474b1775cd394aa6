/**
 * The config directory as other processes and other users leave it: a lock with a time in the
 * future (a clock set back, a file copied from another machine) is stale after the normal wait;
 * a config file or directory others can read gets one warning line on stderr, as ssh does for keys.
 */
import {chmodSync, mkdirSync, utimesSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect} from 'vitest'

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
  it('`profiles use` goes through after the normal stale wait, not the 120 s give-up', {timeout: 90_000}, async ({temp}) => {
    const lock = join(temp.dir, 'config.json.lock')
    mkdirSync(lock)
    const future = new Date(Date.now() + 3_600_000)
    utimesSync(lock, future, future)
    const started = Date.now()
    const result = await runInProcess(['profiles', 'use', 'b'], {configDir: temp.dir, timeoutMs: 60_000})
    expect(result.signal).toBeNull()
    expect(result.exitCode, result.stderr).toBe(0)
    expect(Date.now() - started).toBeLessThan(60_000)
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
