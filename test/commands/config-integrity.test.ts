/**
 * The config file under concurrent processes and in bad shape (issue 18). Every read-modify-write
 * is under a lock, so no concurrent `svc login` or `profiles use` loses another's update; a config
 * that cannot be read, parsed or understood is an error naming the file and what is wrong (exit 2),
 * and the file is left exactly as it was (those runs in-process: the processes at once are what the
 * first tests are about, the bad shapes are the command's answers). The processes at once are a few
 * whole `svc` processes and, for the numbers, plain node processes that run the same write
 * (test/helpers/config-writers.ts: saveProfile and useProfile, lock and durable write included):
 * without the lock, both tests lose profiles in every run (tried by taking the lock out of
 * updateConfig, and out of useProfile alone).
 */
import {mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {configWriters, type ConfigWriters} from '../helpers/config-writers.js'
import {runInProcess} from '../helpers/in-process.js'
import {it, type CommandFixtures, type TempConfigDir} from '../helpers/fixtures.js'

const configFile = (temp: TempConfigDir) => join(temp.dir, 'config.json')
const saved = (temp: TempConfigDir) => JSON.parse(readFileSync(configFile(temp), 'utf8'))
const login = ({sandbox, temp}: CommandFixtures, profile: string) =>
  runCli(['login', '--api-key-stdin', '--profile', profile, '--base-url', sandbox.sb.url], {
    configDir: temp.dir,
    input: sandbox.sb.keys.sandbox,
    // 100 processes on 2 cores (often shared): generous deadlines, so that only a lost profile fails.
    env: {SVC_RATE_LIMIT: '0', SVC_TIMEOUT: '240s'},
    timeoutMs: 280_000,
  })

describe('concurrent writers lose nothing', () => {
  // The writers beside the `svc` processes: login's and `profiles use`'s own write (saveProfile,
  // useProfile: lock and durable write included) in plain node processes, ~30 ms of CPU each to
  // start where a whole `svc` process takes ~100 ms (test/helpers/config-writers.ts).
  let writers: ConfigWriters
  beforeAll(async () => {
    writers = await configWriters()
  })
  afterAll(() => writers?.cleanup())

  it('100 concurrent writers into one config dir (10 `svc login --profile pN` processes, 90 logins\' writes in 6 more): all 100 profiles saved', {timeout: 300_000}, async ({sandbox, temp}) => {
    const N = 100
    const LOGINS = 10
    const PER_WRITER = 15
    // All started at once: the whole processes, and the plain ones, each with 15 writers at once.
    const results = await Promise.all([
      ...Array.from({length: LOGINS}, (_, i) => login({sandbox, temp}, `p${i}`)),
      ...Array.from({length: (N - LOGINS) / PER_WRITER}, (_, w) => writers.save(temp.dir, `p${LOGINS + w * PER_WRITER}_`, PER_WRITER, sandbox.sb.keys.sandbox, sandbox.sb.url)),
    ])
    for (const r of results) expect(r.exitCode, r.stderr).toBe(0)
    const profiles = Object.keys(saved(temp).profiles)
    const expected = [
      ...Array.from({length: LOGINS}, (_, i) => `p${i}`),
      ...Array.from({length: N - LOGINS}, (_, i) => `p${LOGINS + Math.floor(i / PER_WRITER) * PER_WRITER}_${i % PER_WRITER}`),
    ]
    expect(profiles.length).toBe(N)
    expect(profiles.sort()).toEqual(expected.sort())
    expect(statSync(configFile(temp)).mode & 0o777).toBe(0o600)
    // No lock left behind.
    expect(() => statSync(`${configFile(temp)}.lock`)).toThrow()
  })

  it('`login c` racing `profiles use b`, 20 times: c is never lost', {timeout: 300_000}, async ({sandbox, temp}) => {
    // The two profiles to start from, in-process; the racing runs below are processes.
    for (const name of ['a', 'b']) {
      const r = await runInProcess(['login', '--api-key-stdin', '--profile', name, '--base-url', sandbox.sb.url], {configDir: temp.dir, input: sandbox.sb.keys.sandbox, env: {SVC_RATE_LIMIT: '0'}})
      expect(r.exitCode, r.stderr).toBe(0)
    }
    // Each time, login's write of c against `profiles use b`'s write: whole `svc` processes the
    // first times, then the same two writes in plain node processes (`profiles use b` ten times in
    // a row, so that one of them lands near c's whatever the start-up times).
    for (let trial = 0; trial < 20; trial++) {
      const whole = trial < 4
      const [c, use] = await Promise.all(
        whole
          ? [login({sandbox, temp}, `c${trial}`), runCli(['profiles', 'use', 'b'], {configDir: temp.dir})]
          : [writers.save(temp.dir, `c${trial}_`, 1, sandbox.sb.keys.sandbox, sandbox.sb.url), writers.use(temp.dir, 'b', 10)],
      )
      expect(c.exitCode, c.stderr).toBe(0)
      expect(use.exitCode, use.stderr).toBe(0)
      expect(Object.keys(saved(temp).profiles), `trial ${trial}`).toContain(whole ? `c${trial}` : `c${trial}_0`)
    }
  })
})

describe('a config in bad shape: a clear error naming the file, exit 2, the file untouched', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not JSON', '{not json', /not valid JSON/],
    ['JSON null', 'null', /not a JSON object/],
    ['profiles is null', '{"profiles": null}', /"profiles" must be an object/],
    ['profiles is a list', '{"profiles": []}', /"profiles" must be an object/],
    ['a profile is null', '{"current": "shop", "profiles": {"shop": null}}', /profile "shop" must be an object/],
    ['an api_key that is not text', '{"current": "shop", "profiles": {"shop": {"api_key": 42}}}', /profiles\.shop\.api_key must be text/],
    ['an endpoint secret that is not text', '{"current": "shop", "profiles": {"shop": {"api_key": "svc_sk_test_x", "endpoint_secret": 7}}}', /profiles\.shop\.endpoint_secret must be text/],
    ['current that is not text', '{"current": 3, "profiles": {}}', /"current" must be text/],
  ]
  for (const [name, text, what] of cases) {
    it(name, async ({sandbox, temp}) => {
      mkdirSync(temp.dir, {recursive: true, mode: 0o700})
      writeFileSync(configFile(temp), text, {mode: 0o600})
      for (const args of [['profiles', 'list'], ['pay', 'list'], ['profiles', 'use', 'shop'], ['webhooks', 'listen', '--print-secret']]) {
        const r = await runInProcess(args, {configDir: temp.dir, env: {SVC_BASE_URL: sandbox.sb.url}})
        expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2)
        expect(r.stderr).toContain(configFile(temp))
        expect(r.stderr).toMatch(what)
        expect(r.stderr).not.toMatch(/Cannot read properties|is not a function|No profiles yet|No API key/)
      }
      const json = await runInProcess(['profiles', 'list', '--json'], {configDir: temp.dir})
      expect(json.exitCode).toBe(2)
      expect(JSON.parse(json.stdout).error.code).toBe('config_invalid')
      const login = await runInProcess(['login', '--api-key-stdin', '--profile', 'x', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: sandbox.sb.keys.sandbox})
      expect(login.exitCode).toBe(2)
      expect(readFileSync(configFile(temp), 'utf8')).toBe(text)
    })
  }

  it('a config that cannot be read (a directory in its place) is not read as empty', async ({temp}) => {
    mkdirSync(configFile(temp), {recursive: true})
    const r = await runInProcess(['profiles', 'list'], {configDir: temp.dir})
    expect(r.exitCode, r.stderr).toBe(2)
    expect(r.stderr).toContain(configFile(temp))
    expect(r.stderr).toMatch(/cannot be read \(EISDIR\)/)
    expect(r.stderr).not.toMatch(/No profiles yet/)
  })
})
