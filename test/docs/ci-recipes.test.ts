/**
 * docs/ci.md's recipes run as written: each shell block of the page, in a project of its own (a
 * package.json whose `npm test` is a small app that reaches the sandbox only through the variables
 * it is given, and the fixtures file the recipes name), with `svc` on PATH as the built launcher.
 * Each block must end 0, the app's tests must have passed against a sandbox, and nothing may be
 * left: no running sandbox in the registry, no profile. The one change made to a block: the app's
 * webhook port (3000 in the page) becomes a free port, so that the test holds on a machine where
 * something listens on 3000; the app listens there.
 */
import {spawn} from 'node:child_process'
import {chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {freePort} from '../helpers/fault-proxy.js'
import {BIN} from '../helpers/cli.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PAGE = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8')
const BLOCKS = [...PAGE.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]!)

/** The app under test: its `npm test`. Listens on APP_PORT for forwarded events while it runs. */
const APP = `
import {readFileSync} from 'node:fs'
import {createServer} from 'node:http'
const {SVC_BASE_URL: base, SVC_API_KEY: key, SVC_FIXTURES_FILE: fixtures, APP_PORT: port} = process.env
if (!base || !key) { console.error('no sandbox settings'); process.exit(1) }
const server = createServer((req, res) => res.writeHead(200).end()).listen(Number(port), '127.0.0.1')
const list = await fetch(base + '/v1/payments', {headers: {'x-api-key': key}})
if (list.status !== 200) { console.error('payments list: ' + list.status); process.exit(1) }
if (fixtures && !JSON.parse(readFileSync(fixtures, 'utf8')).monday_bread?.id) { console.error('no seeded invoice'); process.exit(1) }
if (!fixtures && readFileSyncOr('seeded.json') && !JSON.parse(readFileSyncOr('seeded.json')).monday_bread?.id) process.exit(1)
console.log('app tests passed against ' + base)
server.close()
function readFileSyncOr(path) { try { return readFileSync(path, 'utf8') } catch { return '' } }
`

let project: string
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'svc-ci-recipes-'))
  mkdirSync(join(project, 'bin'))
  mkdirSync(join(project, 'test/fixtures'), {recursive: true})
  writeFileSync(join(project, 'bin/svc'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
  chmodSync(join(project, 'bin/svc'), 0o755)
  writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'shop', private: true, type: 'module', scripts: {test: 'node app.mjs'}}))
  writeFileSync(join(project, 'app.mjs'), APP)
  copyFileSync(join(ROOT, 'examples/fixtures/shop-week.json'), join(project, 'test/fixtures/shop-week.json'))
})
afterAll(() => rmSync(project, {recursive: true, force: true}))

function sh(script: string, env: Record<string, string>): Promise<{code: number | null; out: string}> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-e', '-c', script], {cwd: project, env, stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('close', (code) => resolve({code, out}))
  })
}

describe('docs/ci.md: the recipes run', {timeout: 180_000}, () => {
  it('has the recipes of the first way (exec, and serve --detach with stop)', () => {
    expect(BLOCKS.some((b) => b.includes('svc sandbox exec -- npm test'))).toBe(true)
    expect(BLOCKS.some((b) => b.includes('serve --detach') && b.includes('svc sandbox stop'))).toBe(true)
  })

  it.each(BLOCKS.map((block, i) => [i + 1, block] as const))('block %i runs: the app’s tests pass against a sandbox, nothing left behind', async (_n, block) => {
    const configDir = join(project, `config-${_n}`)
    const port = await freePort()
    const result = await sh(block.replaceAll(':3000/', `:${port}/`), {
      PATH: `${join(project, 'bin')}:${process.env.PATH}`,
      HOME: process.env.HOME ?? '/tmp',
      SVC_CONFIG_DIR: configDir,
      SVC_RATE_LIMIT: '0',
      APP_PORT: String(port),
      LANG: 'C.UTF-8',
    })
    expect(result.code, result.out).toBe(0)
    expect(result.out).toMatch(/app tests passed against http:\/\/127\.0\.0\.1:\d+/)
    const registry = join(configDir, 'sandboxes.json')
    if (existsSync(registry)) expect(JSON.parse(readFileSync(registry, 'utf8')).sandboxes).toEqual([])
    const config = join(configDir, 'config.json')
    if (existsSync(config)) expect(JSON.parse(readFileSync(config, 'utf8')).profiles).toEqual({})
  })
})
