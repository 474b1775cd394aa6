/**
 * V8's code cache for dist/ (bin/compile-cache.cjs): what a user would see is only the same output,
 * faster. These tests hold it to that: the cache is written once, in the user's own directory,
 * read back unchanged, survives being corrupted, unwritable or foreign, and import() (packages
 * that are ES modules only) still works from code restored from it. Runs the built CLI.
 */
import {chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {init, parse} from 'es-module-lexer'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {runCli, type CliResult} from '../helpers/cli.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dist = join(root, 'dist')

let tmp: string
let cacheRoot: string
let configDir: string

function buildDir(): string {
  const {svcBuild} = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8')) as {svcBuild: string}
  return join(cacheRoot, 'compile-cache', `${svcBuild}-${process.version}-${process.arch}`)
}

function svc(args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<CliResult> {
  return runCli(args, {configDir, env: {SVC_CACHE_DIR: cacheRoot, ...env}, input})
}

/** The cache files, each with its bytes. */
function cacheFiles(): Map<string, Buffer> {
  const dir = buildDir()
  if (!existsSync(dir)) return new Map()
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]))
}

beforeAll(() => {
  if (!existsSync(join(dist, 'package.json'))) throw new Error('The CLI is not built: run `npm run build` (npm test does).')
})

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-compile-cache-'))
  cacheRoot = join(tmp, 'cache')
  configDir = join(tmp, 'config')
})

afterEach(() => {
  chmodSync(tmp, 0o700)
  rmSync(tmp, {recursive: true, force: true})
})

describe('compile cache', () => {
  it('the first call writes it (0700 directory, 0600 files); the next reads it back as is, with the same output', async () => {
    const reference = await svc(['sandbox', 'numbers'], {SVC_DISABLE_COMPILE_CACHE: '1'})
    expect(reference.exitCode).toBe(0)
    expect(existsSync(cacheRoot)).toBe(false)

    const first = await svc(['sandbox', 'numbers'])
    expect(first.exitCode).toBe(0)
    expect(first.stdout).toBe(reference.stdout)
    expect(first.stderr).toBe(reference.stderr)
    const written = cacheFiles()
    // The launcher's entry, the core chunk (oclif and the base command) and the command itself.
    expect([...written.keys()]).toContain('main.js@run.v8')
    expect([...written.keys()]).toContain('commands__sandbox__numbers.js@run.v8')
    expect([...written.keys()].some((name) => /^chunks__chunk-.+\.js@run\.v8$/.test(name))).toBe(true)
    expect(statSync(buildDir()).mode & 0o777).toBe(0o700)
    for (const name of written.keys()) expect(statSync(join(buildDir(), name)).mode & 0o777, name).toBe(0o600)

    const second = await svc(['sandbox', 'numbers'])
    expect(second.exitCode).toBe(0)
    expect(second.stdout).toBe(reference.stdout)
    expect(second.stderr).toBe(reference.stderr)
    // Accepted by V8: a file is written again only when it was missing or rejected.
    expect(cacheFiles()).toEqual(written)
  })

  it('help keeps caches of its own: a help call and a command call do not replace each other’s', async () => {
    const command = await svc(['sandbox', 'numbers'])
    expect(command.exitCode).toBe(0)
    const afterCommand = cacheFiles()
    const help = await svc(['sandbox', 'numbers', '--help'])
    expect(help.exitCode).toBe(0)
    expect(help.stdout).toContain('USAGE')
    const afterHelp = cacheFiles()
    const helpFiles = [...afterHelp.keys()].filter((name) => name.endsWith('@help.v8'))
    expect(helpFiles).toContain('main.js@help.v8')
    for (const [name, bytes] of afterCommand) expect(afterHelp.get(name)?.equals(bytes), name).toBe(true)
    await svc(['help', 'sandbox'])
    await svc(['sandbox', 'numbers'])
    for (const name of helpFiles) expect(cacheFiles().get(name)?.equals(afterHelp.get(name)!), name).toBe(true)
  })

  it('a corrupted cache file is rejected by V8 and written again; the call is unaffected', async () => {
    await svc(['sandbox', 'numbers'])
    const written = cacheFiles()
    const core = [...written.keys()].find((name) => name.startsWith('chunks__chunk-'))!
    const garbage = Buffer.alloc(written.get(core)!.length, 0x5a)
    writeFileSync(join(buildDir(), core), garbage)

    const call = await svc(['sandbox', 'numbers'])
    expect(call.exitCode).toBe(0)
    expect(call.stdout).toMatch(/^OPERATOR {4,}NUMBER/)
    expect(call.stderr).not.toMatch(/error|warning/i)
    expect(readFileSync(join(buildDir(), core)).equals(garbage)).toBe(false)
  })

  it('SVC_DISABLE_COMPILE_CACHE=1 writes nothing', async () => {
    const call = await svc(['profiles', 'list'], {SVC_DISABLE_COMPILE_CACHE: '1'})
    expect(call.exitCode).toBe(0)
    expect(existsSync(cacheRoot)).toBe(false)
  })

  it('a cache directory others can write to is neither read nor written', async () => {
    mkdirSync(buildDir(), {recursive: true})
    chmodSync(buildDir(), 0o777)
    const call = await svc(['profiles', 'list'])
    expect(call.exitCode).toBe(0)
    expect(call.stderr).toContain('No profiles yet')
    expect(readdirSync(buildDir())).toEqual([])
  })

  it('a cache location that cannot be written (a file, a read-only directory) changes nothing for the call', async () => {
    writeFileSync(join(tmp, 'not-a-dir'), '')
    const onFile = await runCli(['profiles', 'list', '--json'], {configDir, env: {SVC_CACHE_DIR: join(tmp, 'not-a-dir')}})
    expect(onFile.exitCode).toBe(0)
    expect(JSON.parse(onFile.stdout)).toEqual([])
    expect(onFile.stderr).toBe('')

    mkdirSync(cacheRoot, {mode: 0o500})
    const readOnly = await svc(['profiles', 'list', '--json'])
    expect(readOnly.exitCode).toBe(0)
    expect(readOnly.stderr).toBe('')
  })

  it('root creates no cache inside a directory that is not root’s (sudo keeping the user’s HOME)', async () => {
    const home = join(tmp, 'home')
    mkdirSync(home)
    const {rootMayWrite} = createRequire(import.meta.url)('../../bin/compile-cache.cjs') as {rootMayWrite: (dir: string, uid?: number) => boolean}
    if (process.getuid?.() === 0) {
      // As CI runs: a real call, as root, with a cache location in another user's home.
      chownSync(home, 12345, 12345)
      const call = await runCli(['profiles', 'list'], {configDir, env: {SVC_CACHE_DIR: join(home, '.cache', 'svc')}})
      expect(call.exitCode).toBe(0)
      expect(call.stderr).toContain('No profiles yet')
      expect(readdirSync(home)).toEqual([])
    }
    // The rule itself, for any test user: root may write below a directory of root's only.
    expect(rootMayWrite(join(home, '.cache', 'svc', 'compile-cache', 'x'), 0)).toBe(false)
    expect(rootMayWrite(join(tmp, 'cache', 'compile-cache', 'x'), 0)).toBe(statSync(tmp).uid === 0)
    expect(rootMayWrite(join(home, '.cache'), 1000)).toBe(true)
  })

  it('keeps the three most recent build directories: the current one and the two newest others', async () => {
    const parent = join(cacheRoot, 'compile-cache')
    const old = ['aaaa0000aaaa0000', 'bbbb0000bbbb0000', 'cccc0000cccc0000', 'dddd0000dddd0000'].map((id, i) => {
      const dir = join(parent, `${id}-${process.version}-${process.arch}`)
      mkdirSync(dir, {recursive: true, mode: 0o700})
      writeFileSync(join(dir, 'main.js@run.v8'), 'old')
      const time = new Date(Date.UTC(2026, 0, 1 + i))
      utimesSync(dir, time, time)
      return dir
    })
    const call = await svc(['profiles', 'list'])
    expect(call.exitCode).toBe(0)
    expect(readdirSync(parent).map((name) => join(parent, name)).sort()).toEqual([old[2], old[3], buildDir()].sort())
  })
})

describe('import() from code restored from the cache', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(async () => {
    await sandbox?.close()
  })

  it('svc login saves the profile through conf (an ES module only, loaded by import()) on a cached call too', async () => {
    const env = {SVC_BASE_URL: sandbox.sb.url}
    for (const profile of ['first', 'second']) {
      const login = await svc(['login', '--api-key-stdin', '--profile', profile], env, sandbox.sb.keys.sandbox)
      expect(login.exitCode, login.stderr).toBe(0)
    }
    const list = await svc(['profiles', 'list', '--json'])
    expect((JSON.parse(list.stdout) as Array<{name: string}>).map((p) => p.name).sort()).toEqual(['first', 'second'])
    expect(cacheFiles().has('commands__login.js@run.v8')).toBe(true)
  })

  it('the build leaves no import() in dist/ but the one in dist/dynamic-import.js', async () => {
    await init
    const walk = (dir: string): string[] =>
      readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []))
    const withImport = walk(dist).filter((file) => parse(readFileSync(file, 'utf8'))[0].some((i) => i.d > -1))
    expect(withImport.map((file) => file.slice(dist.length + 1))).toEqual(['dynamic-import.js'])
  })
})
