/**
 * `svc invoice import` reads its file as a stream, with a cap on a cell and on a row: memory does
 * not grow with the file. Each case runs the built CLI as a child process (the process's own peak
 * resident set size is what is measured: `test/helpers/peak-rss.cjs` writes it at exit), on a file
 * generated in a temporary directory (written once as it is generated, read by every run that
 * needs it), with a bounded time.
 *
 * - A 100 MB cell is refused, naming the column and the line, at under 200 MB.
 * - A dry run, human or --json, of 25,000 rows and of 200,000 rows (every row listed): the larger
 *   peaks at most 50 MB above the smaller, and under 300 MB. The streaming import grows by ~25 to
 *   30 MB between the two (V8's heap settling to the pace of the run, and the occurrences table's
 *   12 bytes a distinct row, docs/import.md); holding the 175,000 rows between them costs far more.
 *   Seen failing, each time on the growth: the rows collected before they are checked, as a
 *   reader that is not a stream does, ~1.1 KB a row (119 → 314 MB); the --json document built
 *   whole before it is written (114 → 364 MB); the human listing keeping its entries (106 →
 *   224 MB, under 300 MB: only the growth catches that one at this size). The reader that held
 *   the file as one text took ~2 KB a row (2.02 GB for 10⁶ rows).
 *
 * The 10⁶-row runs (~13 s of CPU each) are the bench `bench/import/memory.ts`, whose last figures
 * are in docs/import.md. The runs go side by side (each process's own peak is measured, whatever
 * runs next to it).
 */
import {spawn} from 'node:child_process'
import {closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, it} from 'vitest'

import {BIN, baseEnv} from '../helpers/cli.js'
import {refusedUrl} from '../helpers/fault-proxy.js'
import {bigCellCsv, manyRowsCsv, writeStreamed} from '../helpers/import-files.js'

const PEAK_HOOK = fileURLToPath(new URL('../helpers/peak-rss.cjs', import.meta.url))
/** The two sizes: the larger is 8 times the smaller. */
const SMALL = 25_000
const LARGE = 8 * SMALL
/** How much higher the larger run may peak: twice what the streaming import grows by; each way of holding the rows seen above grew by 117 MB or more. */
const GROWTH_MB = 50

let work: string
let env: Record<string, string>
const files: Record<number, string> = {}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'svc-import-memory-'))
  // A dry run sends nothing: a key and a base URL where nothing listens are enough.
  env = {...baseEnv(join(work, 'config')), SVC_API_KEY: 'svc_sk_test_memorytest1234', SVC_BASE_URL: await refusedUrl(), SVC_RATE_LIMIT: '0'}
  // Written once each (in a fraction of a second), read by both dry runs of its size.
  for (const rows of [SMALL, LARGE]) {
    files[rows] = join(work, `rows-${rows}.csv`)
    await writeStreamed(files[rows], manyRowsCsv(rows))
  }
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
    it(`a dry run${json ? ' with --json' : ''} does not grow with the file: ${LARGE.toLocaleString('en-US')} rows peak within ${GROWTH_MB} MB of ${SMALL.toLocaleString('en-US')}, under 300 MB`, async ({expect}) => {
      const [small, large] = await Promise.all(
        [SMALL, LARGE].map(async (rows) => {
          const out = join(work, `rows-${rows}.${json ? 'json' : 'txt'}`)
          const r = await measured(['invoice', 'import', files[rows]!, '--dry-run', ...(json ? ['--json'] : [])], out)
          expect(r.exitCode, r.stderr).toBe(0)
          // Every row listed: the last one is there.
          const tail = lastBytes(out, 4096)
          if (json) expect(tail).toMatch(new RegExp(`"row": ${rows},[\\s\\S]*"plan": \\{\\s*"invoices": ${rows}\\b`))
          else expect(tail).toMatch(new RegExp(`line ${rows + 1}: REF-${rows}, Client ${rows}\\b`))
          return r.peakMb
        }),
      )
      const figures = `peak ${small!.toFixed(1)} MB for ${SMALL} rows, ${large!.toFixed(1)} MB for ${LARGE}`
      expect(large! - small!, figures).toBeLessThan(GROWTH_MB)
      expect(large, figures).toBeLessThan(300)
    }, 600_000)
  }
})

/** The last `n` bytes of a file, as text. */
function lastBytes(path: string, n: number): string {
  const size = statSync(path).size
  const tail = Buffer.alloc(Math.min(size, n))
  const fd = openSync(path, 'r')
  try {
    readSync(fd, tail, 0, tail.length, size - tail.length)
  } finally {
    closeSync(fd)
  }
  return tail.toString('utf8')
}
