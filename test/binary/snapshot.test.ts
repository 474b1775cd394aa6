/**
 * The single executable built with a start-up snapshot (`node scripts/binary/build.mjs --snapshot`,
 * scripts/binary/snapshot.cjs) checks its unpacked files as the default build does: its start
 * installs the same check (scripts/binary/main.cjs, guard), in the main thread and in every worker
 * thread. The check's every path (svc's own files, an ES module's import()) is tried on the
 * default build in smoke.test.ts; here, that the snapshot's start installs it. One unpack (~5,000
 * files, the first call), then the changed copy is repaired in place (main.cjs, repair) each time.
 * Built once (dist-bin/svc-snapshot) when missing or stale, then reused (test/helpers/binary.ts).
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
// An unpacked copy of ~5,000 files to remove.
afterAll(() => {
  if (work) rmSync(work, {recursive: true, force: true})
}, 60_000)

const env = () => ({PATH: '/usr/bin:/bin', HOME: join(work, 'home'), SVC_CONFIG_DIR: join(work, 'config'), SVC_CACHE_DIR: join(work, 'cache'), LANG: 'C.UTF-8'})
const svc = (args: string[]) => runBinary(BINARY, args, env())

describe('the svc binary built with a start-up snapshot', () => {
  it('a changed dependency is not run: the copy is repaired', async () => {
    const first = await svc(['--version'])
    expect(first.exitCode, first.stderr).toBe(0)
    const [id] = readdirSync(join(work, 'cache', 'binary')).filter((name) => !name.endsWith('.tmp'))
    const jq = join(work, 'cache', 'binary', id!, 'node_modules/jq-web/jq.js')
    // A dependency, checked as require loads it (jq-web, for --jq).
    appendFileSync(jq, `\n;process.stdout.write('TAMPERED\\n');\n`)
    const dependency = await svc(['sandbox', 'numbers', '--jq', 'length'])
    expect(dependency.exitCode, dependency.stderr).toBe(0)
    expect(dependency.stdout).not.toContain('TAMPERED')
    expect(Number(dependency.stdout)).toBeGreaterThan(0)
    expect(readFileSync(jq, 'utf8')).not.toContain('TAMPERED')
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
