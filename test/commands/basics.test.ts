import {statSync, writeFileSync, mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {ANSI, runCli} from '../helpers/cli.js'
import {it} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'

describe('svc basics, without a TTY (child process for --version and --help; in-process for the rest)', () => {
  it('--version is answered fast path, in oclif format', async ({temp}) => {
    const r = await runCli(['--version'], {configDir: temp.dir})
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/^svc-momo-cli\/\d+\.\d+\.\d+ \w+-\w+ node-v\d+/)
  })

  it('sandbox numbers: the spec table on stdout, the footnote on stderr, no ANSI', async ({temp}) => {
    const r = await runInProcess(['sandbox', 'numbers'], {configDir: temp.dir})
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/ORANGE\s+237650000001\s+650000001\s+SUCCESS/)
    expect(r.stdout).toMatch(/MTN\s+237670000099\s+670000099\s+FAILED/)
    expect(r.stdout.trim().split('\n')).toHaveLength(11)
    expect(r.stderr).toMatch(/randomly/)
    expect(r.stdout + r.stderr).not.toMatch(ANSI)
    const json = await runInProcess(['sandbox', 'numbers', '--json'], {configDir: temp.dir})
    expect(JSON.parse(json.stdout)).toContainEqual({phone: '237650000001', operator: 'ORANGE', outcome: 'SUCCESS'})
  })

  it('every command has examples in its --help', async ({temp}) => {
    const r = await runCli(['--help'], {configDir: temp.dir})
    expect(r.exitCode).toBe(0)
    // The root page has examples of its own, and each topic its own description.
    expect(r.stdout).toMatch(/EXAMPLES\n[\s\S]*\$ svc sandbox walkthrough/)
    expect(r.stdout).toMatch(/invoice\s+Itemised invoices/)
    const manifest = JSON.parse((await import('node:fs')).readFileSync(join(import.meta.dirname, '../../oclif.manifest.json'), 'utf8'))
    const ids = Object.keys(manifest.commands)
    expect(ids.length).toBeGreaterThan(5)
    for (const id of ids) expect(manifest.commands[id].examples?.length, `${id} has examples`).toBeGreaterThan(0)
    const help = await runCli(['pay', 'create', '--help'], {configDir: temp.dir})
    expect(help.stdout).toContain('EXAMPLES')
    expect(help.stdout).toContain('pay create --amount 5000 --phone 670000001')
  })

  it('bad input is exit 2 with a message naming the field, nothing on stdout', async ({temp}) => {
    const cases: [string[], RegExp][] = [
      [['pay', 'create', '--amount', '50.5', '--phone', '670000001'], /--amount/],
      [['pay', 'create', '--amount', '0', '--phone', '670000001'], /--amount/],
      [['pay', 'create', '--amount', '1e3', '--phone', '670000001'], /--amount/],
      [['pay', 'create', '--amount', '5000', '--phone', '12345'], /--phone/],
      [['pay', 'create', '--amount', '5000', '--phone', '660000001'], /Nexttel/],
      [['pay', 'create', '--amount', '5000', '--phone', '620000001'], /Camtel/],
      [['pay', 'create', '--amount', '5000', '--phone', '670000001', '--operator', 'NEXTTEL'], /--operator/],
      [['pay', 'create', '--amount', '5000'], /--phone/],
      [['pay', 'list', '--nope'], /Unknown flag --nope/],
      [['pay', 'list', '--limit', '500'], /--limit/],
      [['pay', 'create', '--amount', '5000', '--phone', '670000001', '--api-key', 'sk_live_123456789'], /svc_sk_test_/],
    ]
    for (const [args, message] of cases) {
      const r = await runInProcess(args, {configDir: temp.dir})
      expect(r.exitCode, args.join(' ')).toBe(2)
      expect(r.stderr, args.join(' ')).toMatch(message)
      expect(r.stdout, args.join(' ')).toBe('')
    }
  })

  it('--json errors are an {"error": …} envelope on stdout with the same exit code', async ({temp}) => {
    const r = await runInProcess(['pay', 'create', '--amount', '-5', '--phone', '670000001', '--json'], {configDir: temp.dir})
    expect(r.exitCode).toBe(2)
    const body = JSON.parse(r.stdout)
    expect(body.error).toMatchObject({code: 'invalid_input', field: 'amount'})
    expect(body.error.message).toMatch(/amount/)
    const parse = await runInProcess(['pay', 'list', '--nope', '--json'], {configDir: temp.dir})
    expect(parse.exitCode).toBe(2)
    expect(JSON.parse(parse.stdout).error.message).toMatch(/Unknown flag --nope/)
  })

  it('no key: exit 3 naming how to give one', async ({temp}) => {
    const r = await runInProcess(['pay', 'list'], {configDir: temp.dir})
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toMatch(/svc login/)
  })

  it('profiles: none, corrupt config, unknown profile', async ({temp}) => {
    const none = await runInProcess(['profiles', 'list'], {configDir: temp.dir})
    expect(none.exitCode).toBe(0)
    expect(none.stdout).toBe('')
    expect(none.stderr).toMatch(/svc login/)
    expect(JSON.parse((await runInProcess(['profiles', 'list', '--json'], {configDir: temp.dir})).stdout)).toEqual([])
    const use = await runInProcess(['profiles', 'use', 'ghost'], {configDir: temp.dir})
    // An unknown profile is bad input, exit 2, in every command (docs/conventions.md).
    expect(use.exitCode).toBe(2)
    mkdirSync(temp.dir, {recursive: true})
    writeFileSync(join(temp.dir, 'config.json'), '{oops')
    const corrupt = await runInProcess(['profiles', 'list'], {configDir: temp.dir})
    expect(corrupt.exitCode).toBe(2)
    expect(corrupt.stderr).toMatch(/config\.json cannot be used: it is not valid JSON/)
  })

  it('a live key refuses to move money without --yes when not interactive (before any request)', async ({temp}) => {
    const r = await runInProcess(['pay', 'create', '--amount', '5000', '--phone', '670000001', '--base-url', 'http://127.0.0.1:9'], {
      configDir: temp.dir,
      env: {SVC_API_KEY: 'svc_sk_live_canarycanarycanary0001'},
    })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/--yes/)
    expect(r.stderr).not.toContain('canarycanarycanary0001')
    expect(r.stderr).toContain('svc_sk_live_…0001')
  })

  it('login refuses a key of another prefix before writing anything', async ({temp}) => {
    const r = await runInProcess(['login', '--api-key-stdin', '--base-url', 'http://127.0.0.1:9'], {
      configDir: temp.dir,
      input: 'not-a-key',
    })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/svc_sk_test_/)
    // Refused before anything was written.
    expect(() => statSync(join(temp.dir, 'config.json'))).toThrow()
  })
})
