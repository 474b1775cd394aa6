/**
 * `svc sandbox serve --data`, `svc sandbox reset [--all]` and `svc sandbox snapshot …`, run as a
 * developer runs them: the built CLI against a served sandbox, over HTTP.
 */
import {copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, describe, expect, it} from 'vitest'

import {ANSI, runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {startServe, type ServedSandbox} from '../helpers/sandbox.js'

const withoutSqlite = fileURLToPath(new URL('../helpers/without-sqlite.mjs', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'svc-storage-'))
afterAll(() => rmSync(dataDir, {recursive: true, force: true}))

/** The commands against the served sandbox run in-process (the served sandbox is the child process). */
function cliFor(configDir: string) {
  const cli = (args: string[], env: Record<string, string> = {}) => runInProcess(args, {configDir, env})
  const json = async (args: string[], env: Record<string, string> = {}) => {
    const r = await cli([...args, '--json'], env)
    expect(r.exitCode, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0)
    return JSON.parse(r.stdout)
  }
  const pay = (amount: number) => json(['pay', 'create', '--amount', String(amount), '--phone', '670000001', '--profile', 'local'])
  return {cli, json, pay}
}

async function paymentTotal(served: ServedSandbox): Promise<number> {
  const response = await fetch(`${served.info.base_url}/v1/payments?limit=1`, {headers: {'x-api-key': served.info.sandbox_key}})
  return ((await response.json()) as {total: number}).total
}

describe.each([
  ['on disk (--data)', true],
  ['in memory', false],
])('svc sandbox snapshot and reset, %s', (_name, onDisk) => {
  it('save, list, restore (all at once), delete; bad names refused before sending', async () => {
    const temp = tempConfigDir()
    const dataFile = join(dataDir, `snapshots-${onDisk}.db`)
    const served = await startServe(temp.dir, onDisk ? ['--data', dataFile] : [])
    const {cli, json, pay} = cliFor(temp.dir)
    try {
      expect(served.info.storage).toBe(onDisk ? 'sqlite' : 'memory')
      await pay(1000)
      await pay(2000)
      const saved = await json(['sandbox', 'snapshot', 'save', 'two-payments'])
      expect(saved).toMatchObject({name: 'two-payments', created_at: expect.any(String)})
      const text = await cli(['sandbox', 'snapshot', 'save', 'again'])
      expect(text.exitCode).toBe(0)
      expect(text.stdout).toBe('')
      expect(text.stderr).toContain('Saved snapshot "again"')
      await pay(3000)
      expect(await paymentTotal(served)).toBe(3)

      const listed = await cli(['sandbox', 'snapshot', 'list'])
      expect(listed.stdout).toMatch(/NAME\s+CREATED\s+BYTES/)
      expect(listed.stdout).toContain('two-payments')
      expect(listed.stdout).not.toMatch(ANSI)
      expect((await json(['sandbox', 'snapshot', 'list'])).map((s: {name: string}) => s.name).sort()).toEqual(['again', 'two-payments'])

      expect(await json(['sandbox', 'snapshot', 'restore', 'two-payments'])).toMatchObject({name: 'two-payments', restored: true})
      expect(await paymentTotal(served)).toBe(2)
      // The key of the profile still works, and new writes go on from the restored state.
      await pay(4000)
      expect(await paymentTotal(served)).toBe(3)

      const french = await cli(['sandbox', 'snapshot', 'delete', 'again', '--lang', 'fr'])
      expect(french.exitCode).toBe(0)
      expect(french.stderr).toContain('Instantané « again » supprimé.')
      const missing = await cli(['sandbox', 'snapshot', 'restore', 'again', '--json'])
      expect(missing.exitCode).toBe(4)
      expect(JSON.parse(missing.stdout).error.message).toContain('No snapshot named "again"')

      for (const bad of ['../etc', '.hidden', 'a b', 'x'.repeat(65)]) {
        const refused = await cli(['sandbox', 'snapshot', 'save', bad])
        expect(refused.exitCode, bad).toBe(2)
        expect(refused.stderr).toContain(`Invalid snapshot name "${bad}"`)
      }
      if (onDisk) expect(existsSync(join(`${dataFile}.snapshots`, 'two-payments.sqlite'))).toBe(true)
    } finally {
      await served.stop()
      temp.cleanup()
    }
  }, 90_000)

  it('reset empties the data and keeps keys and endpoints; --all mints new keys into the "local" profile', async () => {
    const temp = tempConfigDir()
    const dataFile = join(dataDir, `reset-${onDisk}.db`)
    const served = await startServe(temp.dir, onDisk ? ['--data', dataFile] : [])
    const {cli, json, pay} = cliFor(temp.dir)
    try {
      await pay(1000)
      await json(['sandbox', 'webhooks', 'add', 'http://127.0.0.1:9/hooks'])
      const reset = await cli(['sandbox', 'reset'])
      expect(reset.exitCode).toBe(0)
      expect(reset.stdout).toBe('')
      expect(reset.stderr).toContain('Keys, webhook endpoints and settings are kept.')
      expect(await paymentTotal(served)).toBe(0)
      expect((await json(['sandbox', 'webhooks', 'list']))).toHaveLength(1)
      expect(await json(['pay', 'list', '--profile', 'local'])).toEqual([])

      const all = await json(['sandbox', 'reset', '--all'])
      expect(all).toMatchObject({reset: true, all: true, profile_updated: true, keys: {sandbox: expect.stringMatching(/^svc_sk_test_/), live: expect.stringMatching(/^svc_sk_live_/)}})
      expect((await json(['sandbox', 'webhooks', 'list']))).toEqual([])
      // The key serve printed is gone; the profile has the new one.
      const old = await fetch(`${served.info.base_url}/v1/payments`, {headers: {'x-api-key': served.info.sandbox_key}})
      expect(old.status).toBe(401)
      await pay(500)
      expect((await json(['pay', 'list', '--profile', 'local'])).map((p: {amount: number}) => p.amount)).toEqual([500])
    } finally {
      await served.stop()
      temp.cleanup()
    }
  }, 90_000)
})

describe('svc sandbox serve --data with a JSON data file of an older svc', () => {
  it('imports it once and says so on stderr; the old key and payments are there', async () => {
    const temp = tempConfigDir()
    const dataFile = join(dataDir, 'old.json')
    copyFileSync(new URL('../sandbox/fixtures/legacy-v1.json', import.meta.url), dataFile)
    const ids = JSON.parse(readFileSync(new URL('../sandbox/fixtures/legacy-v1.ids.json', import.meta.url), 'utf8'))
    try {
      const served = await startServe(temp.dir, ['--data', dataFile])
      const status = await runInProcess(['pay', 'status', ids.settled, '--json'], {configDir: temp.dir, env: {SVC_API_KEY: ids.key, SVC_BASE_URL: served.info.base_url}})
      expect(JSON.parse(status.stdout).status).toBe('SUCCESS')
      const ended = await served.stop()
      expect(ended.stderr).toContain(`Imported the JSON data file ${dataFile}`)
      expect(ended.stderr).toContain(`the JSON file is kept as ${dataFile}.v1.json`)
      const again = await startServe(temp.dir, ['--data', dataFile])
      expect((await again.stop()).stderr).not.toContain('Imported')
    } finally {
      temp.cleanup()
    }
  }, 60_000)
})

describe('svc without better-sqlite3 (an optional dependency that failed to install)', () => {
  const env = {NODE_OPTIONS: `--import ${withoutSqlite}`}

  it('serve --data says what is missing (exit 1, no file created); serve in memory and other commands still work', async () => {
    const temp = tempConfigDir()
    try {
      const dataFile = join(dataDir, 'never.db')
      const refused = await runCli(['sandbox', 'serve', '--port', '0', '--data', dataFile], {configDir: temp.dir, env})
      expect(refused.exitCode).toBe(1)
      expect(refused.stderr).toContain('--data needs the better-sqlite3 module, which could not be loaded')
      expect(refused.stderr).toContain('leave out --data for an in-memory sandbox')
      expect(existsSync(dataFile)).toBe(false)
      const french = await runCli(['--lang', 'fr', 'sandbox', 'serve', '--port', '0', '--data', dataFile, '--json'], {configDir: temp.dir, env})
      expect(french.exitCode).toBe(1)
      expect(JSON.parse(french.stdout).error.code).toBe('storage_unavailable')

      expect((await runCli(['--version'], {configDir: temp.dir, env})).exitCode).toBe(0)
      expect((await runCli(['sandbox', 'numbers', '--json'], {configDir: temp.dir, env})).exitCode).toBe(0)
      const served = await startServe(temp.dir, [], env)
      try {
        expect(served.info.storage).toBe('memory')
        const created = await runCli(['--profile', 'local', 'pay', 'create', '--amount', '100', '--phone', '670000001', '--json'], {configDir: temp.dir, env})
        expect(created.exitCode).toBe(0)
        expect((await runCli(['sandbox', 'snapshot', 'save', 'mem', '--json'], {configDir: temp.dir, env})).exitCode).toBe(0)
      } finally {
        await served.stop()
      }
    } finally {
      temp.cleanup()
    }
  }, 90_000)
})
