/**
 * The package as a user installs it: `npm pack` gives svc-momo-cli-0.1.0.tgz, which installs
 * globally into an empty prefix (`npm install -g ./svc-momo-cli-0.1.0.tgz --prefix DIR`) with no
 * network at all: `--offline` and an empty npm cache, so every dependency must come from the
 * tarball itself (package.json `bundleDependencies`). Then `DIR/bin/svc --version`,
 * `svc sandbox walkthrough` and `svc sandbox serve` (a request to it, then SIGINT) work from the
 * installed copy, with a fresh HOME and config dir. The optional better-sqlite3 (a native module
 * fetched or compiled at install time, needed only by `sandbox serve --data`) is left out here:
 * `--omit=optional`.
 *
 * Where the CPU goes: `npm pack` (~8 s, half of it gzip at level 9; at level 1, which a preload
 * sets for the pack alone (test/helpers/gzip-fastest.cjs), ~5 s: the tarball holds the same files
 * and installs the same way, its bytes only compressed less), then npm unpacks the tarball's ~7,200
 * files three times (to read its manifest, its bundled tree, then into the prefix). On a disk each
 * file created costs system time (on the 2-core development machine ~20 s of it for the install);
 * so the work directory (tarball, npm's cache and temporary files, the prefix, HOME) is in the
 * suite's temporary directory, on a memory-backed file system when the machine has one
 * (vitest.config.ts), which cuts the install to ~9 s; npm's file work on one libuv thread instead of four (UV_THREADPOOL_SIZE=1, for the install
 * alone) saves ~2 s more of system time, the threads' wake-ups, and no wall time on two cores. The
 * commands and what npm installs are the same wherever the directory is and whatever the threads.
 */
import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const GZIP_FASTEST = fileURLToPath(new URL('../helpers/gzip-fastest.cjs', import.meta.url))
const VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string

let work: string
let prefix: string
let env: Record<string, string>

interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Run `file args` to its end (killed after `timeoutMs`), with `env` added; `onStdout` sees stdout as it comes, with the child. */
function run(file: string, args: string[], options: {cwd?: string; timeoutMs?: number; env?: Record<string, string>; onStdout?: (all: string, child: ReturnType<typeof spawn>) => void} = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {cwd: options.cwd ?? work, env: {...env, ...options.env}, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d
      options.onStdout?.(stdout, child)
    })
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({code, signal, stdout, stderr})
    })
  })
}

beforeAll(async () => {
  expect(existsSync(join(root, 'dist/commands')), 'npm run build first').toBe(true)
  work = mkdtempSync(join(tmpdir(), 'svc-package-'))
  prefix = join(work, 'prefix')
  for (const dir of ['prefix', 'home', 'config', 'empty-cache']) mkdirSync(join(work, dir))
  env = {
    PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: join(work, 'home'),
    LANG: 'C.UTF-8',
    SVC_CONFIG_DIR: join(work, 'config'),
    CI: 'true',
    npm_config_cache: join(work, 'empty-cache'),
    npm_config_update_notifier: 'false',
  }
  // dist/ is already built (npm test builds first): no prepare script here.
  // Compressed at gzip's fastest level (test/helpers/gzip-fastest.cjs): the same files in it.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], {cwd: root, timeoutMs: 240_000, env: {NODE_OPTIONS: `--require ${JSON.stringify(GZIP_FASTEST)}`}})
  expect(packed.code, packed.stderr).toBe(0)
}, 250_000)

afterAll(() => {
  if (work) rmSync(work, {recursive: true, force: true})
})

describe('the packed tarball', () => {
  it(`installs into an empty prefix offline, with an empty npm cache`, async () => {
    const tarball = `svc-momo-cli-${VERSION}.tgz`
    expect(readdirSync(work)).toContain(tarball)
    const installed = await run('npm', ['install', '-g', `./${tarball}`, '--prefix', prefix, '--offline', '--omit=optional', '--no-audit', '--no-fund'], {timeoutMs: 240_000, env: {UV_THREADPOOL_SIZE: '1'}})
    expect(installed.code, installed.stderr).toBe(0)
    expect(existsSync(join(prefix, 'bin/svc'))).toBe(true)
    // Nothing of the repository: the installed copy has its own dependencies.
    expect(existsSync(join(prefix, 'lib/node_modules/svc-momo-cli/node_modules/@oclif/core/package.json'))).toBe(true)
  }, 250_000)

  it('DIR/bin/svc --version', async () => {
    const r = await run(join(prefix, 'bin/svc'), ['--version'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^svc-momo-cli/${VERSION.replace(/\./g, '\\.')} `))
  })

  it('svc sandbox walkthrough (from PATH)', async () => {
    const r = await run('svc', ['sandbox', 'walkthrough', '--settle-after', '250ms'], {timeoutMs: 120_000})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/Always-SUCCESS number settles\s+SUCCESS\s+SUCCESS\s+✓/)
    expect(r.stdout).toMatch(/Invoice paid on its checkout page\s+PAID\s+PAID\s+✓/)
    expect(r.stdout).not.toMatch(/✗/)
  }, 130_000)

  it('svc sandbox serve: answers a payment, stops on SIGINT (exit 130)', async () => {
    let info: {base_url: string; sandbox_key: string} | undefined
    let created: {status: number; body: {status?: string}} | undefined
    const served = await run('svc', ['sandbox', 'serve', '--port', '0', '--json'], {
      timeoutMs: 90_000,
      onStdout(all, child) {
        if (info) return
        try {
          info = JSON.parse(all)
        } catch {
          return
        }
        void (async () => {
          const response = await fetch(`${info!.base_url}/v1/payments`, {
            method: 'POST',
            headers: {'x-api-key': info!.sandbox_key, 'content-type': 'application/json'},
            body: JSON.stringify({amount: 5000, phone_number: '670000001', operator: 'MTN'}),
          })
          created = {status: response.status, body: (await response.json()) as {status?: string}}
          child.kill('SIGINT')
        })().catch(() => child.kill('SIGINT'))
      },
    })
    expect(info?.sandbox_key, served.stderr).toMatch(/^svc_sk_test_/)
    expect(created).toEqual({status: 201, body: expect.objectContaining({status: 'PENDING', amount: 5000})})
    expect(served.code, served.stderr).toBe(130) // interrupted (README.md, "Exit codes"), after a clean stop
  }, 100_000)
})
