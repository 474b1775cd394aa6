/**
 * The request journal over real HTTP: `svc sandbox requests [get]` (in-process) and `svc sandbox
 * logs tail` (a child process: streamed, stopped by SIGTERM or by the sandbox's end) against an
 * in-process sandbox (found through SVC_SANDBOX_URL / SVC_SANDBOX_ADMIN_TOKEN), `svc sandbox serve
 * --log` as a child process, and the journal kept on disk with --data.
 */
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {BIN, baseEnv, type CliResult} from '../helpers/cli.js'
import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

const adminEnv = (sandbox: TestSandbox) => ({SVC_SANDBOX_URL: sandbox.sb.url, SVC_SANDBOX_ADMIN_TOKEN: sandbox.sb.adminToken})

// The file's sandbox (its journal fills as the tests go), a config dir per test, and the stand-ins
// run in-process against the sandbox: `cli` as is, `json` with --json, exit 0 and parsed.
const it = test.extend<{cli: (args: string[]) => Promise<CliResult>; json: (args: string[]) => Promise<any>}>({
  cli: async ({sandbox, temp}, use) => {
    await use((args) => sandbox.cli(temp.dir, 'sandbox', runInProcess)(args, {env: adminEnv(sandbox)}))
  },
  json: async ({cli}, use) => {
    await use(async (args) => {
      const r = await cli([...args, '--json'])
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0)
      return JSON.parse(r.stdout)
    })
  },
})

const post = (sandbox: TestSandbox, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${sandbox.sb.url}${path}`, {method: 'POST', headers: {'x-api-key': sandbox.sb.keys.sandbox, 'content-type': 'application/json', ...headers}, body: JSON.stringify(body)})

describe('svc sandbox requests', () => {
  it('lists what the app sent, newest first, as a bare array: one POST /v1/payments of 5,000 with its key masked and no secret', async ({json, sandbox}) => {
    const created = await post(sandbox, '/v1/payments', {amount: 5000, phone_number: '670000001', operator: 'MTN'}, {'idempotency-key': 'idem-journal-1'})
    expect(created.status).toBe(201)
    await sandbox.get('/v1/payments?limit=1')
    const list = await json(['sandbox', 'requests', '--method', 'post', '--path', '/v1/payments'])
    expect(Array.isArray(list)).toBe(true)
    expect(list).toHaveLength(1)
    const [entry] = list
    expect(entry).toMatchObject({method: 'POST', path: '/v1/payments', status: 201, environment: 'SANDBOX', idempotency_key: 'idem-journal-1'})
    expect(JSON.parse(entry.request_body)).toMatchObject({amount: 5000})
    expect(JSON.parse(entry.response_body)).toMatchObject({status: 'PENDING', amount: 5000})
    expect(entry.key).toMatch(/^svc_sk_test_….{4}$/)
    const text = JSON.stringify(entry)
    expect(text).not.toContain(sandbox.sb.keys.sandbox)
    expect(entry.request_headers['x-api-key']).toBeUndefined()

    // An admin request is journalled, its Authorization header (the admin token) is not.
    const admin = await fetch(`${sandbox.sb.adminUrl}/keys`, {headers: {authorization: `Bearer ${sandbox.sb.adminToken}`}})
    expect(admin.status).toBe(200)
    const all = await json(['sandbox', 'requests'])
    expect(all[0]).toMatchObject({method: 'GET', path: '/_admin/keys', key: null})
    expect(all[1]).toMatchObject({method: 'GET', path: '/v1/payments', query: 'limit=1'})
    expect(all[2].id).toBe(entry.id)
    expect(all[0].request_headers.authorization).toBeUndefined()
    // The admin token never appears, nor the journal's own reads.
    expect(JSON.stringify(all)).not.toContain(sandbox.sb.adminToken)
    expect(all.some((e: {path: string}) => e.path.startsWith('/_admin/requests'))).toBe(false)
  })

  it('filters by status class or status and by age; get shows one whole', async ({cli, json, sandbox}) => {
    const unauthorised = await fetch(`${sandbox.sb.url}/v1/payments`, {headers: {'x-api-key': 'svc_sk_test_notakeyatall'}})
    expect(unauthorised.status).toBe(401)
    const fourxx = await json(['sandbox', 'requests', '--status', '4xx'])
    expect(fourxx.length).toBeGreaterThan(0)
    expect(fourxx.every((e: {status: number}) => e.status >= 400 && e.status < 500)).toBe(true)
    expect(await json(['sandbox', 'requests', '--status', '201'])).toSatisfy((l: Array<{status: number}>) => l.every((e) => e.status === 201))
    expect(await json(['sandbox', 'requests', '--since', '1ms', '--path', '/nothing'])).toEqual([])

    const one = await json(['sandbox', 'requests', 'get', fourxx[0].id])
    expect(one).toMatchObject({id: fourxx[0].id, status: 401})
    const human = await cli(['sandbox', 'requests', 'get', fourxx[0].id])
    expect(human.exitCode).toBe(0)
    expect(human.stdout).toContain('Response body')
    expect(human.stdout).toContain('unauthorized')
    const missing = await cli(['sandbox', 'requests', 'get', 'req_999999'])
    expect(missing.exitCode).toBe(4)
  })

  it('refuses a bad filter naming the flag, sending nothing', async ({cli}) => {
    const bad = await cli(['sandbox', 'requests', '--status', 'ok'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('--status')
    const path = await cli(['sandbox', 'requests', '--path', 'v1'])
    expect(path.exitCode).toBe(2)
    expect(path.stderr).toContain('--path')
  })

  it('cuts bodies at 64 KiB', async ({json, sandbox}) => {
    const big = 'x'.repeat(100 * 1024)
    await post(sandbox, '/v1/payments', {amount: 10, phone_number: '670000001', operator: 'MTN', note: big})
    const [entry] = await json(['sandbox', 'requests', '--method', 'POST', '--status', '400'])
    expect(entry.truncated).toBe(true)
    expect(entry.request_bytes).toBeGreaterThan(100 * 1024)
    expect(Buffer.byteLength(entry.request_body)).toBeLessThanOrEqual(64 * 1024)
  })
})

describe('svc sandbox logs tail', () => {
  it('streams each request as it happens, filtered, one JSON object per line, and stops cleanly on SIGTERM', async ({sandbox, temp}) => {
    const tail = startTail(['--method', 'POST', '--json'], {...baseEnv(temp.dir), ...adminEnv(sandbox)})
    await tail.firstLine(async () => {
      await sandbox.get('/v1/payments?limit=1')
      await post(sandbox, '/v1/payments', {amount: 777, phone_number: '670000001', operator: 'MTN'})
    })
    const lines = tail.out.trim().split('\n').map((line) => JSON.parse(line))
    expect(lines.every((e) => e.method === 'POST')).toBe(true)
    expect(lines[0]).toMatchObject({path: '/v1/payments', status: 201})
    tail.child.kill('SIGTERM')
    expect(await tail.ended).toBe(143)
    expect(tail.err).not.toContain('Error:')
  })
})

describe('svc sandbox logs tail: the app’s requests, svc’s own with --all', () => {
  it('a stand-in command’s request streams only to the tail with --all; the app’s to both', async ({sandbox, temp, cli}) => {
    const env = {...baseEnv(temp.dir), ...adminEnv(sandbox)}
    const appRequest = (marker: string) => fetch(`${sandbox.sb.adminUrl}/fees?m=${marker}`, {headers: {authorization: `Bearer ${sandbox.sb.adminToken}`}})
    const app = startTail(['--path', '/_admin/fees', '--json'], env)
    const all = startTail(['--path', '/_admin/fees', '--all', '--json'], env)
    await app.firstLine(() => appRequest('start'))
    await all.firstLine(() => appRequest('start'))
    // svc's own (the admin client of `svc sandbox fees show`), then the app's once more.
    expect((await cli(['sandbox', 'fees', 'show'])).exitCode).toBe(0)
    await appRequest('end')
    const lines = (tail: typeof app) => tail.out.trim().split('\n').map((line) => JSON.parse(line) as {query: string; origin: string})
    await expect.poll(() => lines(app).some((e) => e.query === 'm=end') && lines(all).some((e) => e.query === 'm=end'), {timeout: 20_000}).toBe(true)
    expect(lines(app).every((e) => e.origin === 'app')).toBe(true)
    expect(lines(all).filter((e) => e.origin === 'stand-in')).toHaveLength(1)
    for (const tail of [app, all]) {
      tail.child.kill('SIGTERM')
      expect(await tail.ended).toBe(143)
    }
  })
})

describe('svc sandbox logs tail when the sandbox stops', () => {
  it('prints one line per request, then says the sandbox stopped streaming and exits 7', async ({temp}) => {
    const other = await startTestSandbox()
    const tail = startTail(['--path', '/v1'], {...baseEnv(temp.dir), ...adminEnv(other)})
    await tail.firstLine(() => other.get('/v1/payments?limit=3'))
    expect(tail.out.split('\n')[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3}  GET\s+200\s+[\d.]+ ms  SANDBOX  \/v1\/payments\?limit=3  svc_sk_test_…/)
    await other.close()
    expect(await tail.ended).toBe(7)
    expect(tail.err).toContain('stopped streaming')
  })
})

describe('svc sandbox serve --log and --data', () => {
  it('prints one line per request, and keeps the journal across a restart with --data', async ({temp}) => {
    const {startServe} = await import('../helpers/sandbox.js')
    const file = join(temp.dir, '..', 'journal.db')
    const served = await startServe(temp.dir, ['--log', '--data', file])
    const key = served.info.sandbox_key as string
    expect(served.info.inspector_url).toMatch(/\/_inspector\/login\?code=/)
    const answer = await fetch(`${served.info.base_url}/v1/payments?limit=2`, {headers: {'x-api-key': key}})
    expect(answer.status).toBe(200)
    // A secret in the query: masked in the line as in the journal (and the data file).
    const leaked = await fetch(`${served.info.base_url}/v1/payments?note=${key}`, {headers: {'x-api-key': key}})
    expect(leaked.status).toBe(200)
    const stopped = await served.stop()
    expect(stopped.stderr).toMatch(/GET\s+200\s+[\d.]+ ms\s+SANDBOX\s+\/v1\/payments\?limit=2\s+svc_sk_test_…/)
    expect(stopped.stderr).toContain(`/v1/payments?note=svc_sk_test_…${key.slice(-4)}`)
    expect(stopped.stderr).not.toContain(key)
    expect(readFileSync(file).includes(key)).toBe(false)

    const again = await startServe(temp.dir, ['--data', file])
    const list = await runList(again.info.base_url, again.info.admin_token)
    expect(list.some((e: {path: string; query: string}) => e.path === '/v1/payments' && e.query === 'limit=2')).toBe(true)
    await again.stop()
  })
})

/** `svc sandbox logs tail ARGS` as a process (it streams until signalled or the sandbox stops). */
function startTail(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'logs', 'tail', ...args], {env, stdio: ['ignore', 'pipe', 'pipe']})
  const tail = {
    child,
    out: '',
    err: '',
    ended: new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code))),
    /** Sends requests (`send`) until a first line is streamed: the stream starts after the process does. */
    async firstLine(send: () => Promise<unknown>): Promise<void> {
      const deadline = Date.now() + 30_000
      while (!tail.out.includes('\n')) {
        if (Date.now() > deadline) throw new Error(`no streamed request: ${tail.err}`)
        await send()
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
  }
  child.stdout.on('data', (d: Buffer) => (tail.out += d))
  child.stderr.on('data', (d: Buffer) => (tail.err += d))
  return tail
}

async function runList(url: string, token: string) {
  const response = await fetch(`${url}/_admin/requests?path=/v1`, {headers: {authorization: `Bearer ${token}`}})
  return ((await response.json()) as {data: Array<{path: string; query: string}>}).data
}
