/**
 * The single executable (`npm run build:binary`, scripts/binary/build.mjs), run as a user without
 * Node would run it: PATH holds no node (an empty directory), a fresh HOME and cache (so the first
 * call unpacks). Version, help, sandbox numbers, --jq, and a round trip: `svc sandbox serve`, then
 * `pay create`, `invoice create --publish`, `invoice pdf` and the checkout page, all through the
 * binary. Builds the binary when it is missing or stale (test/helpers/binary.ts).
 * An unpack writes ~5,000 files (the file system's work: ~0.2 s of CPU in memory, where the suite
 * puts its temporary files when it can (vitest.config.ts), up to ~5 s on the shared machine's
 * disk): three here, each the case under test (the first call, the call after one killed
 * mid-unpack, a copy with another build's seal); the tests that change files in the copy share
 * one, which each leaves whole again.
 */
import {spawn, spawnSync} from 'node:child_process'
import {appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import {rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {basename, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {type BinaryResult, builtBinary, invoicePdfThroughServe, runBinary, served, stop} from '../helpers/binary.js'
import {pdfFileText} from '../helpers/documents.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const BINARY = join(root, 'dist-bin/svc')

let work: string
let env: Record<string, string>

beforeAll(() => {
  builtBinary(BINARY)
  work = mkdtempSync(join(tmpdir(), 'svc-binary-'))
  const noNode = join(work, 'bin')
  mkdirSync(noNode)
  env = {PATH: noNode, HOME: join(work, 'home'), SVC_CONFIG_DIR: join(work, 'config'), SVC_CACHE_DIR: join(work, 'cache'), LANG: 'C.UTF-8'}
}, 180_000)
// Two unpacked copies of ~5,000 files each to remove (that of the first call, and the one the
// tests that change files share).
afterAll(async () => {
  await Promise.all(removals)
  if (work) rmSync(work, {recursive: true, force: true})
}, 60_000)
/** Removals started before the end (a copy no later test uses). */
const removals: Promise<void>[] = []

function svc(args: string[], extra: Record<string, string> = {}): Promise<BinaryResult> {
  return runBinary(BINARY, args, {...env, ...extra})
}

describe('the svc binary, with no node on PATH', () => {
  it('has no node to find', () => {
    const r = spawnSync('node', ['-e', '0'], {env})
    expect((r.error as NodeJS.ErrnoException | undefined)?.code).toBe('ENOENT')
  })

  it('--version, the first call (unpacks) and the next', async () => {
    const first = await svc(['--version'])
    expect(first.exitCode, first.stderr).toBe(0)
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(first.stdout).toBe(`${pkg.name}/${pkg.version} linux-${process.arch} node-${process.version}\n`)
    // Unpacked for this user alone.
    const unpacked = join(env.SVC_CACHE_DIR, 'binary')
    expect(statSync(unpacked).mode & 0o077).toBe(0)
    const again = await svc(['--version'])
    expect(again.stdout).toBe(first.stdout)
  })

  it('a first call killed (kill -9) mid-unpack: the next call removes its partial unpack and runs', async () => {
    // Staging directories under <cache>/binary: `<archive id>.t<thread>.<pid>.tmp`.
    const staged = (cache: string) => {
      try {
        return readdirSync(join(cache, 'binary')).filter((name) => name.endsWith('.tmp'))
      } catch {
        return []
      }
    }
    let cache = ''
    // Killed as soon as its staging directory appears (a few tries: a fast unpack may finish first).
    for (let attempt = 0; attempt < 5 && staged(cache).length === 0; attempt++) {
      cache = join(work, `cache-killed-${attempt}`)
      const child = spawn(BINARY, ['--version'], {env: {...env, SVC_CACHE_DIR: cache}, stdio: 'ignore'})
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
      let done = false
      void exited.then(() => (done = true))
      while (!done && staged(cache).length === 0) await new Promise((resolve) => setTimeout(resolve, 1))
      child.kill('SIGKILL')
      await exited
    }
    expect(staged(cache).length, 'a kill landed mid-unpack').toBeGreaterThan(0)
    const next = await svc(['--version'], {SVC_CACHE_DIR: cache})
    expect(next.exitCode, next.stderr).toBe(0)
    expect(staged(cache)).toEqual([])
    // A whole copy, as a first call leaves it: the tests below that change files use it.
    changing ??= cache
  })

  describe('its unpacked copy changed', () => {
    // The copy these tests share is removed while the tests after them run (the top afterAll
    // waits for it): ~5,000 files, seconds of the disk's time.
    afterAll(() => {
      if (changing) removals.push(rm(changing, {recursive: true, force: true}))
    })

    it('a file changed in its unpacked copy is not run: svc\'s own, a dependency, a file added, a file removed; each time the copy is repaired in place', async () => {
      const cache = changingCache()
      const first = await svc(['--version'], {SVC_CACHE_DIR: cache})
      expect(first.exitCode, first.stderr).toBe(0)
      const [id] = readdirSync(join(cache, 'binary')).filter((name) => !name.endsWith('.tmp'))
      const app = join(cache, 'binary', id!)
      const tamper = (path: string) => appendFileSync(join(app, path), `\n;process.stdout.write('TAMPERED\\n');\n`)
      // Files no call changes: a repair leaves them as they are (the same inode, not written again).
      const untouched = ['dist/main.js', 'node_modules/jq-web/package.json', 'package.json'].map((path) => join(app, path))
      const identity = () => untouched.map((path) => `${statSync(path).ino} ${statSync(path).mtimeMs}`)
      const before = identity()

      // svc's own code, checked at each start.
      tamper('bin/run.cjs')
      const own = await svc(['--version'], {SVC_CACHE_DIR: cache})
      expect(own.exitCode, own.stderr).toBe(0)
      expect(own.stdout).toBe(first.stdout)
      expect(readFileSync(join(app, 'bin/run.cjs'), 'utf8')).not.toContain('TAMPERED')
      expect(identity(), 'a repair rewrites only the changed file').toEqual(before)

      // A dependency, checked as it loads (jq-web, for --jq).
      tamper('node_modules/jq-web/jq.js')
      const dependency = await svc(['sandbox', 'numbers', '--jq', 'length'], {SVC_CACHE_DIR: cache})
      expect(dependency.exitCode, dependency.stderr).toBe(0)
      expect(dependency.stdout).not.toContain('TAMPERED')
      expect(Number(dependency.stdout)).toBeGreaterThan(0)
      expect(readFileSync(join(app, 'node_modules/jq-web/jq.js'), 'utf8')).not.toContain('TAMPERED')
      expect(identity()).toEqual(before)

      // A file added beside svc's own.
      writeFileSync(join(app, 'dist', 'extra.js'), 'process.stdout.write("TAMPERED")')
      const added = await svc(['--version'], {SVC_CACHE_DIR: cache})
      expect(added.stdout).toBe(first.stdout)
      expect(existsSync(join(app, 'dist', 'extra.js'))).toBe(false)
      expect(identity()).toEqual(before)

      // A file removed: written again.
      const run = readFileSync(join(app, 'bin/run.cjs'))
      rmSync(join(app, 'bin/run.cjs'))
      const removed = await svc(['--version'], {SVC_CACHE_DIR: cache})
      expect(removed.stdout).toBe(first.stdout)
      expect(readFileSync(join(app, 'bin/run.cjs'))).toEqual(run)
      expect(identity()).toEqual(before)
      // Nothing left beside it.
      expect(readdirSync(join(cache, 'binary'))).toEqual([id])

      // A seal this build did not write (an older svc's, which names no build): not repaired, the whole copy unpacked again.
      // (Its time set a minute back: a change in the very clock tick of the seal is not told apart.)
      writeFileSync(join(app, '.svc-sealed'), '')
      const minuteAgo = new Date(Date.now() - 60_000)
      utimesSync(join(app, '.svc-sealed'), minuteAgo, minuteAgo)
      tamper('bin/run.cjs')
      const unsealed = await svc(['--version'], {SVC_CACHE_DIR: cache})
      expect(unsealed.stdout).toBe(first.stdout)
      expect(readFileSync(join(app, 'bin/run.cjs'), 'utf8')).not.toContain('TAMPERED')
      expect(statSync(untouched[0]!).ino, 'unpacked again: every file new').not.toBe(Number(before[0]!.split(' ')[0]))
      expect(readdirSync(join(cache, 'binary'))).toEqual([id])
    }, 300_000)

    it('two calls at once on a changed copy: neither runs the change, the copy is repaired in place once whole, nothing left beside it', async () => {
      const cache = changingCache()
      const app = await unpacked(cache)
      const main = statSync(join(app, 'dist/main.js')).ino
      for (const path of ['bin/run.cjs', 'node_modules/jq-web/jq.js']) appendFileSync(join(app, path), `\n;process.stdout.write('TAMPERED\\n');\n`)
      const [a, b] = await Promise.all([0, 1].map(() => svc(['sandbox', 'numbers', '--jq', 'length'], {SVC_CACHE_DIR: cache})))
      for (const r of [a!, b!]) {
        expect(r.exitCode, r.stderr).toBe(0)
        expect(r.stdout).not.toContain('TAMPERED')
        expect(Number(r.stdout)).toBeGreaterThan(0)
      }
      for (const path of ['bin/run.cjs', 'node_modules/jq-web/jq.js']) expect(readFileSync(join(app, path), 'utf8')).not.toContain('TAMPERED')
      expect(statSync(join(app, 'dist/main.js')).ino).toBe(main)
      expect(readdirSync(join(cache, 'binary'))).toEqual([basename(app)])
      // The seal vouches for the repaired copy: the next call finds nothing to repair.
      const seal = statSync(join(app, '.svc-sealed')).mtimeMs
      expect((await svc(['--version'], {SVC_CACHE_DIR: cache})).exitCode).toBe(0)
      expect(statSync(join(app, '.svc-sealed')).mtimeMs).toBe(seal)
    }, 120_000)

    it('a changed file that only a worker thread loads is not run: pdfkit, in the PDF renderer\'s worker', async () => {
      const cache = changingCache()
      const app = await unpacked(cache)
      // pdfkit loads in the sandbox's document worker only (src/sandbox/invoices/document-worker.ts).
      const mark = join(work, 'pdfkit-ran')
      appendFileSync(join(app, 'node_modules/pdfkit/js/pdfkit.js'), `\n;require('node:fs').appendFileSync(${JSON.stringify(mark)}, 'TAMPERED');\n`)
      const text = await invoicePdfThroughServe(BINARY, {...env, SVC_CACHE_DIR: cache}, join(work, 'worker.pdf'))
      expect(text).toContain('Quincaillerie Mbarga')
      expect(existsSync(mark), 'the changed pdfkit ran in the worker').toBe(false)
      expect(readFileSync(join(app, 'node_modules/pdfkit/js/pdfkit.js'), 'utf8')).not.toContain('TAMPERED')
    }, 120_000)

    it('a changed ES module that a package imports after start-up is not run: the autocomplete plugin, which oclif import()s', async () => {
      const cache = changingCache()
      const app = await unpacked(cache)
      const command = 'node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/index.js'
      appendFileSync(join(app, command), `\n;process.stdout.write('TAMPERED\\n');\n`)
      const r = await svc(['autocomplete', 'bash'], {SVC_CACHE_DIR: cache})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(r.stdout).not.toContain('TAMPERED')
      expect(r.stdout).toMatch(/svc autocomplete script bash/)
      expect(readFileSync(join(app, command), 'utf8')).not.toContain('TAMPERED')
    }, 60_000)
  })

  it('--help and a command\'s help (oclif reads its manifest from the unpacked install)', async () => {
    const root = await svc(['--help'])
    expect(root.exitCode, root.stderr).toBe(0)
    expect(root.stdout).toMatch(/^\s+pay\s+Collect mobile money/m)
    const pay = await svc(['pay', 'create', '--help'])
    expect(pay.exitCode, pay.stderr).toBe(0)
    expect(pay.stdout).toContain('$ svc pay create')
    expect(pay.stdout).toContain('--jq=<value>')
  })

  it('every command answers --help', async () => {
    const ids = Object.keys(JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')).commands)
    expect(ids.length).toBeGreaterThan(40)
    const failed: string[] = []
    const queue = [...ids]
    await Promise.all(
      [1, 2, 3].map(async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const r = await svc([...id.split(':'), '--help'])
          if (r.exitCode !== 0 || !r.stdout.includes(`$ svc ${id.split(':').join(' ')}`)) failed.push(`${id}: ${r.exitCode} ${r.stderr}`)
        }
      }),
    )
    expect(failed).toEqual([])
  }, 120_000)

  it('sandbox numbers, as a table and through --jq', async () => {
    const table = await svc(['sandbox', 'numbers'])
    expect(table.exitCode, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/^MTN\s+237670000001\s+670000001\s+SUCCESS$/m)
    const jq = await svc(['sandbox', 'numbers', '--jq', '[.[] | select(.outcome == "FAILED") | .phone] | length'])
    expect(jq.exitCode, jq.stderr).toBe(0)
    expect(Number(jq.stdout)).toBeGreaterThan(0)
    // The filter's worker thread starts from the unpacked dist/jq-worker.js: a filter that never ends
    // meets its time limit there (straight to the worker, no slice on the main thread, so the limit
    // can only be the worker's; short, since the filter burns CPU until then, and the worker's boot
    // does not count against it).
    const bounded = await svc(['sandbox', 'numbers', '--jq', 'def f: f; f'], {SVC_JQ_TIMEOUT: '0.2', SVC_JQ_MAIN_THREAD_MS: '0'})
    expect(bounded.exitCode, bounded.stderr).toBe(1)
    expect(bounded.stderr).toContain('time limit (0.2 s; SVC_JQ_TIMEOUT)')
  })

  it('serves the sandbox on SQLite (--data); pay create, invoice create, invoice pdf and the checkout page against it; the state outlives a restart', async () => {
    const data = join(work, 'sandbox.db')
    let paymentId = ''
    const serve = spawn(BINARY, ['sandbox', 'serve', '--port', '0', '--json', '--data', data], {env, stdio: ['ignore', 'pipe', 'pipe']})
    try {
      const info = await served(serve)
      const api = {SVC_BASE_URL: info.base_url, SVC_API_KEY: info.sandbox_key}

      const pay = await svc(['pay', 'create', '--amount', '1500', '--phone', '670000001', '--json'], api)
      expect(pay.exitCode, pay.stderr).toBe(0)
      expect(JSON.parse(pay.stdout)).toMatchObject({status: 'PENDING', amount: 1500, phone_number: '237670000001'})
      paymentId = JSON.parse(pay.stdout).id

      const invoice = await svc(
        ['invoice', 'create', '--customer-name', 'Boulangerie Étoile', '--item', 'Pain:500:4', '--due-date', '2099-12-31', '--publish', '--jq', '{id, checkout_url}'],
        api,
      )
      expect(invoice.exitCode, invoice.stderr).toBe(0)
      const {id, checkout_url: checkoutUrl} = JSON.parse(invoice.stdout)

      const file = join(work, 'invoice.pdf')
      const pdf = await svc(['invoice', 'pdf', id, '--output', file], api)
      expect(pdf.exitCode, pdf.stderr).toBe(0)
      expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-')
      const text = pdfFileText(file)
      expect(text).toContain('Boulangerie Étoile')
      expect(text).toMatch(/2\s?000/)

      const page = await fetch(checkoutUrl)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('Boulangerie Étoile')
    } finally {
      await stop(serve)
    }
    // better-sqlite3's native module, loaded from the unpacked files: the payment is still there.
    const again = spawn(BINARY, ['sandbox', 'serve', '--port', '0', '--json', '--data', data], {env, stdio: ['ignore', 'pipe', 'pipe']})
    try {
      const info = await served(again)
      const status = await svc(['pay', 'status', paymentId, '--jq', '.amount'], {SVC_BASE_URL: info.base_url, SVC_API_KEY: info.sandbox_key})
      expect(status.exitCode, status.stderr).toBe(0)
      expect(status.stdout).toBe('1500\n')
    } finally {
      await stop(again)
    }
  }, 120_000)

  it('svc mcp answers an MCP client over stdio (@modelcontextprotocol/sdk from the unpacked files)', async () => {
    const mcp = spawn(BINARY, ['mcp'], {env: {...env, SVC_API_KEY: 'svc_sk_test_abcdefghij', SVC_BASE_URL: 'http://127.0.0.1:9'}, stdio: ['pipe', 'pipe', 'pipe']})
    try {
      const answer = new Promise<any>((resolve, reject) => {
        let out = ''
        mcp.stdout.on('data', (d: Buffer) => {
          out += d.toString()
          const line = out.split('\n').find((l) => l.includes('"id":1'))
          if (line) resolve(JSON.parse(line))
        })
        mcp.on('close', (code) => reject(new Error(`svc mcp exited ${code}`)))
      })
      mcp.stdin.write(
        `${JSON.stringify({jsonrpc: '2.0', id: 1, method: 'initialize', params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'smoke', version: '1'}}})}\n`,
      )
      expect((await answer).result.serverInfo.name).toBe('svc')
    } finally {
      mcp.stdin.end()
      await stop(mcp)
    }
  }, 60_000)
})

/**
 * The cache directory the tests that change files in the unpacked copy share (each leaves the copy
 * whole again: repaired, or unpacked again): the copy the killed first call's next call unpacked,
 * or, when that test did not run, one a first call unpacks (unpacked). An unpack writes ~5,000
 * files: one copy for these tests rather than one each.
 */
let changing: string | undefined
function changingCache(): string {
  changing ??= join(work, 'cache-changed')
  return changing
}

/** The binary unpacked into the cache directory `cache` (a first call, unless one was made): its app directory. */
async function unpacked(cache: string): Promise<string> {
  const first = await svc(['--version'], {SVC_CACHE_DIR: cache})
  expect(first.exitCode, first.stderr).toBe(0)
  const [id] = readdirSync(join(cache, 'binary')).filter((name) => !name.endsWith('.tmp'))
  return join(cache, 'binary', id!)
}
