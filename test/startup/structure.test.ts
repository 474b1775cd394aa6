/**
 * Start-up structure (issue 8): what the built CLI loads for the calls shell loops and CI make
 * most. Times are noisy on a shared machine (bench/startup/run.mjs measures them); the modules a
 * call loads are not, and they are what the time is made of. Runs `node bin/run.cjs` over dist/
 * (`npm test` builds first) with a module-load trace (trace-loads.mjs).
 */
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, sep} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = join(root, 'bin/run.cjs')
const tracer = join(root, 'test/startup/trace-loads.mjs')

/** Packages no read-only, offline call should pay for; each is loaded where it is needed. */
const HEAVY = ['undici', 'ora', '@inquirer/prompts', '@inquirer/core', 'chalk', 'ajv', 'pdfkit', 'cli-table3', '@modelcontextprotocol/sdk', 'zod', 'better-sqlite3']

interface Trace {
  exitCode: number | null
  stdout: string
  stderr: string
  /** Packages loaded from node_modules (`@scope/name` or `name`), nested ones included. */
  packages: Set<string>
  /** Files of the CLI itself (bin/, dist/), relative to the repository. */
  own: string[]
}

let tmp: string

beforeAll(() => {
  if (!existsSync(join(root, 'dist/main.js')) || !existsSync(join(root, 'oclif.manifest.json'))) {
    throw new Error('The CLI is not built: run `npm run build` (npm test does) before test/startup.')
  }
  tmp = mkdtempSync(join(tmpdir(), 'svc-startup-'))
})

afterAll(() => {
  if (tmp) rmSync(tmp, {recursive: true, force: true})
})

let runs = 0

/** A call's environment: nothing of the developer's own, HOME and the config in this test's temp dir. */
function callEnv(configDir: string): Record<string, string> {
  return {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, LANG: 'C.UTF-8', SVC_CONFIG_DIR: configDir}
}
/** Runs the built CLI under the tracer (asynchronously: a sandbox in this process must answer it). */
async function traced(args: string[], env: Record<string, string> = {}): Promise<Trace> {
  runs += 1
  const traceFile = join(tmp, `trace-${runs}.txt`)
  const configDir = mkdtempSync(join(tmp, 'config-'))
  const child = spawn(process.execPath, ['--import', tracer, bin, ...args], {
    cwd: tmp,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {...callEnv(configDir), SVC_TRACE_LOADS: traceFile, ...env},
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve(code))
  }).finally(() => clearTimeout(timer))
  const files = existsSync(traceFile) ? [...new Set(readFileSync(traceFile, 'utf8').split('\n').filter(Boolean))] : []
  const packages = new Set<string>()
  for (const file of files) {
    const at = file.lastIndexOf(`${sep}node_modules${sep}`)
    if (at === -1) continue
    const parts = file.slice(at + '/node_modules/'.length).split(sep)
    packages.add(parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0])
  }
  const own = files
    .filter((f) => f.startsWith(root) && !f.slice(root.length).includes('node_modules'))
    .map((f) => f.slice(root.length).split(sep).join('/'))
    .filter((f) => !f.startsWith('test/'))
  return {exitCode: status, stdout, stderr, packages, own}
}

const probe = join(root, 'test/startup/esm-probe.cjs')

/** The internal modules of Node's ESM loader that a call of the built CLI loaded (esm-probe.cjs). */
async function esmLoaderModules(args: string[]): Promise<string[]> {
  const out = join(tmp, `esm-${runs++}.txt`)
  const child = spawn(process.execPath, ['-r', probe, bin, ...args], {
    cwd: tmp,
    stdio: 'ignore',
    env: {...callEnv(mkdtempSync(join(tmp, 'config-'))), SVC_ESM_PROBE: out},
  })
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  expect(code, args.join(' ')).toBe(0)
  return readFileSync(out, 'utf8').split('\n').filter(Boolean)
}

function loadedHeavy(trace: Trace): string[] {
  return HEAVY.filter((name) => trace.packages.has(name))
}

/** The sandbox's code, found by its entry point's definition in whatever chunk holds it. */
function loadsSandbox(trace: Trace): boolean {
  return trace.own.some((f) => f.startsWith('dist/') && /function startSandbox\(/.test(readFileSync(join(root, f), 'utf8')))
}

describe('start-up structure of the built CLI', () => {
  it('the tracer sees what a call loads (a check of the check)', async () => {
    const trace = await traced(['sandbox', 'numbers'])
    expect(trace.exitCode).toBe(0)
    expect(trace.own).toContain('bin/run.cjs')
    expect(trace.own).toContain('dist/commands/sandbox/numbers.js')
    const help = await traced(['help', 'pay'])
    expect(help.packages.has('@oclif/plugin-help')).toBe(true) // a package from node_modules
  })

  it('`svc --version` loads nothing but bin/run.cjs', async () => {
    const trace = await traced(['--version'])
    expect(trace.exitCode).toBe(0)
    expect(trace.stdout).toMatch(/^svc-momo-cli\/\d+\.\d+\.\d+ /)
    expect(trace.own).toEqual(['bin/run.cjs'])
    expect([...trace.packages]).toEqual([])
  })

  it('`svc profiles list` loads oclif bundled, one command file, no plugin, none of the heavy packages', async () => {
    const trace = await traced(['profiles', 'list'])
    expect(trace.exitCode).toBe(0)
    expect(loadedHeavy(trace)).toEqual([])
    expect(loadsSandbox(trace)).toBe(false)
    // @oclif/core comes from dist/ as one chunk, not ~160 CommonJS files from node_modules;
    // the plugins (help, not-found, autocomplete) are not loaded for our own commands.
    expect([...trace.packages].filter((p) => p.startsWith('@oclif/'))).toEqual([])
    // Only the command that runs: a manifest, not a scan of dist/commands.
    expect(trace.own.filter((f) => f.startsWith('dist/commands/'))).toEqual(['dist/commands/profiles/list.js'])
    // A handful of files, each a resolve, read and compile (or a code-cache read): the launcher
    // and its compile cache, dist/main.js, the one core chunk (oclif and the base command's graph),
    // the command, and what it shares with a few other commands (scripts/build.mjs, "one core
    // chunk"). It was 18 before that.
    expect(trace.own.filter((f) => f.startsWith('bin/')).sort()).toEqual(['bin/compile-cache.cjs', 'bin/run.cjs'])
    expect(trace.own.filter((f) => f.startsWith('dist/')).length, trace.own.join('\n')).toBeLessThanOrEqual(5)
    // @oclif/core's dependencies that only serve other paths stay unloaded.
    for (const name of ['semver', 'tinyglobby', 'minimatch', 'ejs', 'lilconfig', 'cli-spinners']) {
      expect(trace.packages.has(name), name).toBe(false)
    }
  })

  it('`svc profiles list --json` loads no package from node_modules at all', async () => {
    const trace = await traced(['profiles', 'list', '--json'])
    expect(trace.exitCode).toBe(0)
    expect(JSON.parse(trace.stdout)).toEqual([])
    expect([...trace.packages]).toEqual([])
  })

  it('`svc sandbox numbers` prints its table as plain text: no table package, colour, spinner, prompt, HTTP client or sandbox', async () => {
    const trace = await traced(['sandbox', 'numbers'])
    expect(trace.exitCode).toBe(0)
    expect(trace.stdout).toMatch(/^OPERATOR {4,}\S/m)
    expect(loadedHeavy(trace)).toEqual([])
    expect([...trace.packages]).toEqual([])
    expect(loadsSandbox(trace)).toBe(false)
  })

  it('`svc pay list --help` renders help from the manifest: no command file, no HTTP client', async () => {
    const trace = await traced(['pay', 'list', '--help'])
    expect(trace.exitCode).toBe(0)
    expect(trace.stdout).toContain('List payments, newest first.')
    expect(loadedHeavy(trace)).toEqual([])
    expect(loadsSandbox(trace)).toBe(false)
    expect(trace.own.filter((f) => f.startsWith('dist/commands/'))).toEqual([])
    // No package at all: not the plugins, nor EJS for the `<%= config.bin %>` of the examples.
    expect([...trace.packages]).toEqual([])
    expect(trace.stdout).toContain('$ svc pay list --status FAILED')
  })

  it('`svc pay status ID` (one API call to a local sandbox) loads neither undici (unless a proxy is set), the sandbox, prompts nor spinners', async () => {
    const {startSandbox} = (await import(pathToFileURL(join(root, 'dist/sandbox/index.js')).href)) as typeof import('../../src/sandbox/index.js')
    const sandbox = await startSandbox({port: 0, rateLimit: 0, seed: 1})
    try {
      const response = await fetch(`${sandbox.url}/v1/payments`, {
        method: 'POST',
        headers: {'x-api-key': sandbox.keys.sandbox, 'content-type': 'application/json'},
        body: JSON.stringify({amount: 1000, phone_number: '237670000001', operator: 'MTN'}),
      })
      const {id} = (await response.json()) as {id: string}
      const trace = await traced(['pay', 'status', id, '--api-key', sandbox.keys.sandbox, '--base-url', sandbox.url, '--json'])
      expect(trace.exitCode, trace.stderr).toBe(0)
      expect(JSON.parse(trace.stdout).id).toBe(id)
      // A direct connection goes over node:http: undici (its chunk, or the package) never loads.
      const undiciChunk = (t: Trace) => t.own.some((f) => /^dist\/chunks\/undici-[^/]+\.js$/.test(f))
      expect(undiciChunk(trace)).toBe(false)
      expect(trace.packages.has('undici')).toBe(false)
      // node:http comes through require, not import(): no ESM loader either.
      expect(await esmLoaderModules(['pay', 'status', id, '--api-key', sandbox.keys.sandbox, '--base-url', sandbox.url, '--json'])).toEqual([])
      // Through a proxy, undici's EnvHttpProxyAgent carries it (NO_PROXY lets this one through direct).
      const proxied = await traced(['pay', 'status', id, '--api-key', sandbox.keys.sandbox, '--base-url', sandbox.url, '--json'], {
        HTTPS_PROXY: 'http://127.0.0.1:9',
        HTTP_PROXY: 'http://127.0.0.1:9',
        NO_PROXY: '127.0.0.1',
      })
      expect(proxied.exitCode, proxied.stderr).toBe(0)
      expect(undiciChunk(proxied)).toBe(true)
      for (const name of ['ora', '@inquirer/prompts', 'chalk', 'pdfkit', 'cli-table3']) expect(trace.packages.has(name), name).toBe(false)
      expect(loadsSandbox(trace)).toBe(false)
      expect([...trace.packages].filter((p) => p.startsWith('@oclif/'))).toEqual([])
    } finally {
      await sandbox.close()
    }
  })

  it('the calls above stay in CommonJS: Node never starts its ESM loader (~9 ms)', async () => {
    // The probe does see the loader when it starts (a check of the check): an ES module entry.
    const esm = join(tmp, 'entry.mjs')
    writeFileSync(esm, '')
    const probed = spawn(process.execPath, ['-r', probe, esm], {stdio: 'ignore', env: {SVC_ESM_PROBE: join(tmp, 'esm-entry.txt')}})
    await new Promise((resolve) => probed.on('close', resolve))
    expect(readFileSync(join(tmp, 'esm-entry.txt'), 'utf8')).toContain('internal/modules/esm/loader')
    for (const args of [['--version'], ['profiles', 'list'], ['sandbox', 'numbers'], ['pay', 'list', '--help']]) {
      expect(await esmLoaderModules(args), args.join(' ')).toEqual([])
    }
  })

  it('the MCP SDK loads for `svc mcp` and for no other command', async () => {
    // A check of the check: `svc mcp` with stdin at its end serves, sees the client gone, stops.
    const mcp = await traced(['mcp', '--api-key', 'svc_sk_test_0123456789abcdef'])
    expect(mcp.exitCode, mcp.stderr).toBe(0)
    expect(mcp.stdout).toBe('')
    expect(mcp.packages.has('@modelcontextprotocol/sdk')).toBe(true)
    // Other commands never load it (nor zod, which it brings), whatever they do.
    for (const args of [['profiles', 'list'], ['sandbox', 'numbers'], ['pay', 'list', '--help'], ['pay', 'create', '--amount', '5.5', '--phone', '670000001']]) {
      const trace = await traced(args, {SVC_API_KEY: 'svc_sk_test_0123456789abcdef'})
      expect([...trace.packages].filter((p) => p === '@modelcontextprotocol/sdk' || p === 'zod'), args.join(' ')).toEqual([])
    }
  })

  it('the slow path still works: `svc help pay` goes through the plugins, an unknown command through our not-found hook', async () => {
    const help = await traced(['help', 'pay'])
    expect(help.exitCode).toBe(0)
    expect(help.stdout).toContain('pay list')
    expect(help.packages.has('@oclif/plugin-help')).toBe(true)
    const unknown = await traced(['pay', 'lst'])
    expect(unknown.exitCode).toBe(127)
    expect(unknown.stderr).toMatch(/Did you mean `svc pay list`\?/)
    expect(unknown.packages.has('@oclif/plugin-not-found')).toBe(false)
  })
})
