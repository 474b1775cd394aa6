/**
 * The single executable built with a start-up snapshot (`node scripts/binary/build.mjs --snapshot`,
 * scripts/binary/snapshot.cjs) checks its unpacked files as the default build does
 * (scripts/binary/main.cjs): a changed file is not run, whatever loads it, and the copy is unpacked
 * again. Built once (dist-bin/svc-snapshot) when missing or stale, then reused (test/helpers/binary.ts).
 */
import {appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {builtBinary, invoicePdfThroughServe, runBinary} from '../helpers/binary.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const BINARY = join(root, 'dist-bin/svc-snapshot')

let work: string

beforeAll(() => {
  builtBinary(BINARY, ['--snapshot'])
  work = mkdtempSync(join(tmpdir(), 'svc-binary-snapshot-'))
}, 180_000)
// Several unpacked copies of ~5,000 files each to remove.
afterAll(() => {
  if (work) rmSync(work, {recursive: true, force: true})
}, 60_000)

const env = () => ({PATH: '/usr/bin:/bin', HOME: join(work, 'home'), SVC_CONFIG_DIR: join(work, 'config'), SVC_CACHE_DIR: join(work, 'cache'), LANG: 'C.UTF-8'})
const svc = (args: string[]) => runBinary(BINARY, args, env())

describe('the svc binary built with a start-up snapshot', () => {
  it('a changed file is not run: svc\'s own, a dependency required, an ES module imported; each time it is unpacked again', async () => {
    const first = await svc(['--version'])
    expect(first.exitCode, first.stderr).toBe(0)
    const [id] = readdirSync(join(work, 'cache', 'binary')).filter((name) => !name.endsWith('.tmp'))
    const app = join(work, 'cache', 'binary', id!)
    const tamper = (path: string) => appendFileSync(join(app, path), `\n;process.stdout.write('TAMPERED\\n');\n`)
    const intact = (path: string) => expect(readFileSync(join(app, path), 'utf8')).not.toContain('TAMPERED')

    // svc's own code, checked at each start.
    tamper('bin/run.cjs')
    const own = await svc(['--version'])
    expect(own.exitCode, own.stderr).toBe(0)
    expect(own.stdout).toBe(first.stdout)
    intact('bin/run.cjs')

    // A dependency, checked as require loads it (jq-web, for --jq).
    tamper('node_modules/jq-web/jq.js')
    const dependency = await svc(['sandbox', 'numbers', '--jq', 'length'])
    expect(dependency.exitCode, dependency.stderr).toBe(0)
    expect(dependency.stdout).not.toContain('TAMPERED')
    expect(Number(dependency.stdout)).toBeGreaterThan(0)
    intact('node_modules/jq-web/jq.js')

    // An ES module a package imports after start-up (oclif, the autocomplete plugin's command).
    const command = 'node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/index.js'
    tamper(command)
    const esm = await svc(['autocomplete', 'bash'])
    expect(esm.exitCode, esm.stderr).toBe(0)
    expect(esm.stdout).not.toContain('TAMPERED')
    expect(esm.stdout).toMatch(/svc autocomplete script bash/)
    intact(command)
  }, 120_000)

  it('a changed file that only a worker thread loads is not run: pdfkit, in the PDF renderer\'s worker', async () => {
    const first = await svc(['--version'])
    expect(first.exitCode, first.stderr).toBe(0)
    const [id] = readdirSync(join(work, 'cache', 'binary')).filter((name) => !name.endsWith('.tmp'))
    const pdfkit = join(work, 'cache', 'binary', id!, 'node_modules/pdfkit/js/pdfkit.js')
    const mark = join(work, 'pdfkit-ran')
    appendFileSync(pdfkit, `\n;require('node:fs').appendFileSync(${JSON.stringify(mark)}, 'TAMPERED');\n`)
    expect(await invoicePdfThroughServe(BINARY, env(), join(work, 'worker.pdf'))).toContain('Quincaillerie Mbarga')
    expect(existsSync(mark), 'the changed pdfkit ran in the worker').toBe(false)
    expect(readFileSync(pdfkit, 'utf8')).not.toContain('TAMPERED')
  }, 120_000)
})
