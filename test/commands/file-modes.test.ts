/**
 * File modes. Files the user asks for (an invoice PDF, an import's results file) are created as
 * any tool creates them, with the umask: under umask 022 they are 0644, so the accountant sharing
 * the folder can open them; under 077, 0600. What svc keeps for itself (config, caches, journals,
 * event logs) stays 0600 in 0700 directories whatever the umask.
 */
import {spawn} from 'node:child_process'
import {mkdtempSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect} from 'vitest'

import {BIN, baseEnv, countSpawn, type CliResult} from '../helpers/cli.js'
import {test} from '../helpers/fixtures.js'
import type {TestSandbox} from '../helpers/sandbox.js'

// The file's sandbox (test/helpers/fixtures.ts) and one directory for the file (`dir`): the runs of
// every test share its config dir, so the last test finds what all of them left there.
const it = test.extend<{dir: string}>({
  dir: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-modes-'))
      try {
        await use(dir)
      } finally {
        rmSync(dir, {recursive: true, force: true})
      }
    },
    {scope: 'file'},
  ],
})

const mode = (path: string) => statSync(path).mode & 0o777
const configDir = (dir: string) => join(dir, 'config')

/**
 * The built CLI under a given umask, as a shell that set it would start it (a child process: the
 * umask is the process's).
 */
function cli(sandbox: TestSandbox, dir: string, args: string[], umask = '022'): Promise<CliResult> {
  countSpawn('cli', args)
  const env = {...baseEnv(configDir(dir)), ...sandbox.env(), SVC_RATE_LIMIT: '0'}
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, BIN, ...args], {env, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.on('error', reject)
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer)
      resolve({stdout, stderr, exitCode, signal})
    })
  })
}

/** Every file and directory under `root`, with its mode. */
function walk(root: string): Array<{path: string; dir: boolean; mode: number}> {
  const out: Array<{path: string; dir: boolean; mode: number}> = []
  for (const entry of readdirSync(root, {withFileTypes: true})) {
    const path = join(root, entry.name)
    out.push({path, dir: entry.isDirectory(), mode: mode(path)})
    if (entry.isDirectory()) out.push(...walk(path))
  }
  return out
}

describe('files the user asks for: created with the umask', () => {
  for (const format of ['csv', 'jsonl', 'json']) {
    it(`invoice import results file (${format}): 0644 under umask 022, 0600 under 077`, async ({sandbox, dir}) => {
      const source = join(dir, `rows-${format}.csv`)
      writeFileSync(source, `customer_name,customer_email,due_date,items\r\nAwa ${format},awa@example.com,2099-12-31,Bread:500:3\r\n`)
      const results = join(dir, `results.${format}`)
      const r = await cli(sandbox, dir, ['invoice', 'import', source, '--results', results])
      expect(r.exitCode, r.stderr).toBe(0)
      expect(mode(results).toString(8)).toBe('644')
      rmSync(results)
      const strict = await cli(sandbox, dir, ['invoice', 'import', source, '--results', results, '--recheck'], '077')
      expect(strict.exitCode, strict.stderr).toBe(0)
      expect(mode(results).toString(8)).toBe('600')
    })
  }

  it('invoice pdf: 0644 under umask 022', async ({sandbox, dir}) => {
    const created = await cli(sandbox, dir, ['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-12-31', '--item', 'Bread:500:3', '--publish', '--json'])
    expect(created.exitCode, created.stderr).toBe(0)
    const id = JSON.parse(created.stdout).id
    const target = join(dir, 'out.pdf')
    const r = await cli(sandbox, dir, ['invoice', 'pdf', id, '-o', target])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(mode(target).toString(8)).toBe('644')
  })
})

describe('what svc keeps for itself: 0600 files in 0700 directories, whatever the umask', () => {
  it('config, caches, journals and event logs after runs under umask 022', async ({sandbox, dir}) => {
    // A profile (config), the service description cache (any API call), the reminder journal.
    expect((await cli(sandbox, dir, ['invoice', 'list'])).exitCode).toBe(0)
    const remind = await cli(sandbox, dir, ['invoice', 'remind', '--overdue', '--yes'])
    expect(remind.exitCode === 0 || remind.exitCode === 1, remind.stderr).toBe(true)
    const entries = [{path: configDir(dir), dir: true, mode: mode(configDir(dir))}, ...walk(configDir(dir))]
    expect(entries.length).toBeGreaterThan(0)
    const loose = entries.filter((e) => (e.dir ? e.mode !== 0o700 : e.mode !== 0o600))
    expect(loose.map((e) => `${e.path} ${e.mode.toString(8)}`)).toEqual([])
  })
})
