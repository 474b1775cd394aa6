/**
 * `svc invoice import` reads its file as a stream, with a cap on a cell and on a row: memory does
 * not grow with the file. Each case runs the built CLI as a child process (the process's own peak
 * resident set size is what is measured: `test/helpers/peak-rss.cjs` writes it at exit), on a file
 * generated in a temporary directory, with a bounded time.
 *
 * - A 100 MB cell is refused, naming the column and the line, at under 200 MB.
 * - A dry run of 10⁶ rows, human or --json, stays under 300 MB (and lists every row).
 *
 * The three runs go side by side (each process's own peak is measured, whatever runs next to it):
 * on two cores the file takes the time of its longest run, not of the three.
 */
import {spawn} from 'node:child_process'
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, it} from 'vitest'

import {BIN, baseEnv} from '../helpers/cli.js'
import {refusedUrl} from '../helpers/fault-proxy.js'
import {bigCellCsv, manyRowsCsv, writeStreamed} from '../helpers/import-files.js'

const PEAK_HOOK = fileURLToPath(new URL('../helpers/peak-rss.cjs', import.meta.url))
const ROWS = 1_000_000

let work: string
let env: Record<string, string>
let million: string

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'svc-import-memory-'))
  // A dry run sends nothing: a key and a base URL where nothing listens are enough.
  env = {...baseEnv(join(work, 'config')), SVC_API_KEY: 'svc_sk_test_memorytest1234', SVC_BASE_URL: await refusedUrl(), SVC_RATE_LIMIT: '0'}
  // Written once (in under a second), read by both dry runs.
  million = join(work, 'million.csv')
  await writeStreamed(million, manyRowsCsv(ROWS))
})
afterAll(() => rmSync(work, {recursive: true, force: true}))

/** The CLI as a child: exit code, stderr, the peak RSS in MB; stdout goes to `stdoutFile`. */
function measured(args: string[], stdoutFile: string): Promise<{exitCode: number | null; stderr: string; peakMb: number}> {
  const peakFile = join(work, `peak-${Date.now()}-${Math.random()}`)
  const stdout = openSync(stdoutFile, 'w')
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', PEAK_HOOK, BIN, ...args], {env: {...env, SVC_TEST_PEAK_RSS_FILE: peakFile}, stdio: ['ignore', stdout, 'pipe']})
    let stderr = ''
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d.slice(0, 20_000)))
    // Bounded: a run that takes longer has failed the test (on a busy machine, minutes are ample).
    const timer = setTimeout(() => child.kill('SIGKILL'), 560_000)
    child.on('error', reject)
    child.on('close', (exitCode) => {
      clearTimeout(timer)
      closeSync(stdout)
      let peakKb = Number.NaN
      try {
        peakKb = Number(readFileSync(peakFile, 'utf8'))
      } catch {
        // killed before its exit: no figure
      }
      resolve({exitCode, stderr, peakMb: peakKb / 1024})
    })
  })
}

describe.concurrent('invoice import streams its file', () => {
  it('refuses a 100 MB cell at under 200 MB, naming the column and the line', async ({expect}) => {
    const file = join(work, 'big-cell.csv')
    await writeStreamed(file, bigCellCsv(100))
    expect(statSync(file).size).toBeGreaterThan(100 * 1024 * 1024)
    const r = await measured(['invoice', 'import', file, '--dry-run'], join(work, 'big-cell.out'))
    expect(r.exitCode, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/line 3: .*notes.*104,857,600.*65,536/)
    expect(r.peakMb, r.stderr).toBeLessThan(200)
  }, 600_000)

  for (const json of [false, true]) {
    it(`a dry run of 10⁶ rows${json ? ' with --json' : ''} stays under 300 MB`, async ({expect}) => {
      const out = join(work, json ? 'million.json' : 'million.txt')
      const r = await measured(['invoice', 'import', million, '--dry-run', ...(json ? ['--json'] : [])], out)
      expect(r.exitCode, r.stderr).toBe(0)
      expect(r.peakMb, r.stderr).toBeLessThan(300)
      // Every row listed: the last one is there.
      const size = statSync(out).size
      const tail = Buffer.alloc(Math.min(size, 4096))
      const fd = openSync(out, 'r')
      ;(await import('node:fs')).readSync(fd, tail, 0, tail.length, size - tail.length)
      closeSync(fd)
      if (json) expect(tail.toString('utf8')).toMatch(/"row": 1000000,[\s\S]*"plan": \{\s*"invoices": 1000000/)
      else expect(tail.toString('utf8')).toMatch(/line 1000001: REF-1000000, Client 1000000\b/)
    }, 600_000)
  }
})
