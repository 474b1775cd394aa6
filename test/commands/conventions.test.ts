/**
 * One convention across commands (docs/conventions.md), against a local sandbox: an unknown
 * profile exits 2 everywhere; no raw JSON in human output; durations rounded for people; help
 * and usage without residue; one line on Ctrl-C; the spinner honours NO_COLOR; the operator
 * shown with a payment. In-process where the process itself is not what is tested.
 */
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {Config} from '@oclif/core'
import {describe, expect} from 'vitest'

import SvcHelp from '../../src/help.js'
import {en} from '../../src/lib/i18n/en/index.js'
import {fr} from '../../src/lib/i18n/fr/index.js'
import {formatDurationForPeople} from '../../src/lib/time/duration.js'
import {withSandbox, type TempConfigDir} from '../helpers/fixtures.js'
import {realPng} from '../helpers/images.js'
import {runInProcess} from '../helpers/in-process.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import type {TestSandbox} from '../helpers/sandbox.js'

// The file's sandbox (payments settle at once); a config dir per test holding a profile `dev` on it;
// `cli`: the commands in-process on them; `admin`: the environment that reaches the sandbox's admin API.
const it = withSandbox({settleAfterMs: 0}).extend<{temp: TempConfigDir; cli: ReturnType<TestSandbox['cli']>; admin: Record<string, string>}>({
  temp: async ({sandbox, temp}, use) => {
    mkdirSync(temp.dir, {recursive: true, mode: 0o700})
    writeFileSync(join(temp.dir, 'config.json'), JSON.stringify({current: 'dev', profiles: {dev: {api_key: sandbox.sb.keys.sandbox, base_url: sandbox.sb.url}}}), {mode: 0o600})
    await use(temp)
  },
  cli: async ({sandbox, temp}, use) => use(sandbox.cli(temp.dir, 'sandbox', runInProcess)),
  admin: async ({sandbox}, use) => use({SVC_SANDBOX_URL: sandbox.sb.url, SVC_SANDBOX_ADMIN_TOKEN: sandbox.sb.adminToken}),
})

describe('an unknown profile', () => {
  it.for([
    [['pay', 'list', '--profile', 'nope']],
    [['invoice', 'list', '--profile', 'nope']],
    [['profiles', 'show', 'nope']],
    [['profiles', 'use', 'nope']],
    [['profiles', 'remove', 'nope']],
    [['logout', '--profile', 'nope']],
  ])('svc %j exits 2, naming it', async ([args], {temp}) => {
    const result = await runInProcess(args, {configDir: temp.dir})
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.stderr).toContain('No profile named "nope"')
  })
})

describe('human output', () => {
  it('no raw JSON in the sandbox views: a logo is its type and size, scopes a list', async ({temp, cli, admin}) => {
    const logo = join(temp.dir, 'logo.png')
    writeFileSync(logo, realPng(16, 16))
    expect((await cli(['sandbox', 'business', 'set', '--logo', logo], {env: admin})).exitCode).toBe(0)
    const business = await cli(['sandbox', 'business', 'show'], {env: admin})
    expect(business.exitCode, business.stderr).toBe(0)
    expect(business.stdout).toMatch(/image\/png, \d+ B/)
    const keys = await cli(['sandbox', 'keys', 'list'], {env: admin})
    for (const text of [business.stdout, keys.stdout]) expect(text).not.toMatch(/[{[]"/)
  })

  it('durations are rounded for people', async ({cli, admin}) => {
    expect(formatDurationForPeople(10 * 86_400_000 - 1)).toBe('10d')
    expect(formatDurationForPeople(5_371_000)).toBe('1h30m')
    expect(formatDurationForPeople(2_456)).toBe('2.5s')
    expect(formatDurationForPeople(250)).toBe('250ms')
    const advanced = await cli(['sandbox', 'clock', 'advance', '9d23h59m59.999s'], {env: admin})
    expect(advanced.exitCode, advanced.stderr).toBe(0)
    expect(advanced.stdout).toMatch(/AHEAD OF REAL TIME\s+10d\n/)
  })

  it('pay create and pay status show the operator', async ({cli}) => {
    const created = await cli(['pay', 'create', '--amount', '500', '--phone', '690000001'])
    expect(created.exitCode, created.stderr).toBe(0)
    expect(created.stdout).toMatch(/OPERATOR\s+ORANGE\n/)
    const id = /ID\s+(\S+)/.exec(created.stdout)![1]!
    const status = await cli(['pay', 'status', id])
    expect(status.stdout).toMatch(/OPERATOR\s+ORANGE \(from the number\)\n/)
    const french = await cli(['pay', 'status', id, '--lang', 'fr'])
    expect(french.stdout).toMatch(/OPÉRATEUR\s+ORANGE \(d’après le numéro\)\n/)
  })
})

describe('table headers', () => {
  it('are in one case, UPPER CASE, in both languages', () => {
    const header = /^(walk\.col\.|hooktest\.col|fixtures\.head|local\.col|report\.table|webhooks\.events\.col|raw\.ops|core\.table|pay\.table|invoice\.table|local\.numbers\.(operator|number|national|outcome)$|local\.serve\.(baseUrl|sandboxKey|liveKey|payUrl|admin)$)/
    let count = 0
    for (const catalogue of [en, fr] as Array<Record<string, string>>) {
      for (const [key, text] of Object.entries(catalogue).filter(([key]) => header.test(key))) {
        count++
        expect(text, key).toBe(text.toLocaleUpperCase('fr'))
      }
    }
    expect(count).toBeGreaterThan(60)
  })
})

describe('help', () => {
  it('no usage line keeps oclif\'s residue of exclusive flags; every topic has its own description', async () => {
    const config = await Config.load(fileURLToPath(new URL('../..', import.meta.url)))
    const help = new SvcHelp(config)
    for (const command of config.commands) {
      const text = help.formatCommand(command)
      expect(text, command.id).not.toMatch(/\|\s*[\])]|[[(]\s*\|/)
    }
    const summaries = new Set(config.commands.map((c) => c.summary))
    expect(config.commands.length).toBeGreaterThan(50)
    // (Ids read `files upload` or `files:upload` depending on how the commands were loaded.)
    const ids = config.commands.map((c) => c.id.replaceAll(' ', ':'))
    const parents = config.topics.filter((t) => t.name.includes(':') && ids.some((id) => id.startsWith(`${t.name.replaceAll(' ', ':')}:`)))
    expect(parents.map((t) => t.name.replaceAll(' ', ':'))).toContain('sandbox:faults')
    for (const topic of parents) {
      expect(topic.description, topic.name).toBeTruthy()
      expect(summaries.has(topic.description), topic.name).toBe(false)
    }
  })
})

describe('a person at a terminal', () => {
  it('Ctrl-C in pay watch says how to resume, once (no second "Interrupted."); the spinner has no colour under NO_COLOR', async ({sandbox, temp}) => {
    await sandbox.admin('PUT', '/numbers/237670112233', {operator: 'MTN', outcome: 'PENDING'})
    const session = runInPty(['pay', 'create', '--amount', '700', '--phone', '670112233', '--watch', '--interval', '30s'], {
      configDir: temp.dir,
      env: {NO_COLOR: '1', SVC_RATE_LIMIT: '0'},
    })
    await session.waitFor('PENDING', 20_000)
    session.type('\u0003')
    const {exitCode} = await session.exit
    const screen = stripAnsi(session.output())
    expect(exitCode).toBe(130)
    // Wrapped at word boundaries to the terminal, the command to paste on one line.
    expect(screen).toMatch(/Resume with:\s+svc pay watch svcpay_test_/)
    expect(screen).not.toContain('Interrupted.')
    // No colour code at all: the spinner's frames and text are plain.
    expect(session.output()).not.toMatch(/\u001b\[(3\d|9\d|1|2)m/)
  }, 40_000)

  it('Ctrl-C where the command has nothing to add prints "Interrupted." once', async ({temp}) => {
    const session = runInPty(['sandbox', 'serve', '--port', '0'], {configDir: join(temp.dir, 'serve')})
    await session.waitFor('Ctrl-C', 20_000)
    session.type('\u0003')
    const {exitCode} = await session.exit
    expect(exitCode).toBe(130)
    expect(stripAnsi(session.output()).match(/Interrupted\./g)).toHaveLength(1)
  }, 40_000)
})
