/**
 * Peak memory of `svc invoice import`, which reads its file as a stream: the built CLI as a child
 * process (its own peak resident set size, from getrusage at exit through
 * `test/helpers/peak-rss.cjs`), on files generated in a temporary directory:
 *
 * - a CSV with one 100 MB cell (refused: the cell cap, the column and the line named);
 * - a dry run of `--rows` rows (default 10⁶), human and `--json` (stdout to a file).
 *
 * Each case's wall time, CPU time (user + system, the child's own) and peak RSS, and whether it
 * meets its target (docs/import.md): the cell under 200 MB, the dry runs under 300 MB.
 * `test/commands/invoice-import-memory.test.ts` is the suite's bounded version (25,000 and 200,000
 * rows).
 *
 *   npm run build && node --import tsx bench/import/memory.ts [--rows 1000000]
 *
 * A dry run sends nothing: the key is a made-up test key and the base URL one where nothing listens.
 */
import {spawn} from 'node:child_process'
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {bigCellCsv, manyRowsCsv, writeStreamed} from '../../test/helpers/import-files.js'

const args = process.argv.slice(2)
const at = args.indexOf('--rows')
const ROWS = at >= 0 ? Number(args[at + 1]) : 1_000_000
const BIN = fileURLToPath(new URL('../../bin/run.cjs', import.meta.url))
const HOOK = fileURLToPath(new URL('../../test/helpers/peak-rss.cjs', import.meta.url))

const work = mkdtempSync(join(tmpdir(), 'svc-bench-import-memory-'))
const env = {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, LANG: 'C.UTF-8', SVC_CONFIG_DIR: join(work, 'config'), SVC_API_KEY: 'svc_sk_test_benchmemory1234', SVC_BASE_URL: 'http://127.0.0.1:9', SVC_RATE_LIMIT: '0'}

function run(argv: string[], stdoutFile: string): Promise<{code: number | null; seconds: number; cpuSeconds: number; peakMb: number; stderr: string}> {
  const peak = join(work, `peak-${Math.random()}`)
  const cpu = join(work, `cpu-${Math.random()}`)
  const stdout = openSync(stdoutFile, 'w')
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', HOOK, BIN, ...argv], {env: {...env, SVC_TEST_PEAK_RSS_FILE: peak, SVC_TEST_CPU_FILE: cpu}, stdio: ['ignore', stdout, 'pipe']})
    let stderr = ''
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d.slice(0, 2000)))
    child.on('close', (code) => {
      closeSync(stdout)
      resolve({code, seconds: (performance.now() - started) / 1000, cpuSeconds: Number(readFileSync(cpu, 'utf8')) / 1e6, peakMb: Number(readFileSync(peak, 'utf8')) / 1024, stderr: stderr.slice(0, 300)})
    })
  })
}

try {
  const cell = join(work, 'cell.csv')
  const rows = join(work, 'rows.csv')
  let started = performance.now()
  await writeStreamed(cell, bigCellCsv(100))
  const cellSeconds = (performance.now() - started) / 1000
  started = performance.now()
  await writeStreamed(rows, manyRowsCsv(ROWS))
  console.log(`files written: the cell's in ${cellSeconds.toFixed(2)} s, the rows' in ${((performance.now() - started) / 1000).toFixed(2)} s\n`)
  console.log(`| case | file | exit | wall | CPU | peak RSS | target |\n| --- | --- | --- | --- | --- | --- | --- |`)
  const cases: Array<[string, string, string[], number]> = [
    ['one 100 MB cell, --dry-run', cell, ['--dry-run'], 200],
    [`${ROWS.toLocaleString('en-US')} rows, --dry-run`, rows, ['--dry-run'], 300],
    [`${ROWS.toLocaleString('en-US')} rows, --dry-run --json`, rows, ['--dry-run', '--json'], 300],
  ]
  for (const [name, file, flags, targetMb] of cases) {
    const r = await run(['invoice', 'import', file, ...flags], join(work, 'out'))
    const met = r.peakMb < targetMb ? 'met' : '**not met**'
    console.log(`| ${name} | ${(statSync(file).size / 1048576).toFixed(0)} MB | ${r.code} | ${r.seconds.toFixed(1)} s | ${r.cpuSeconds.toFixed(1)} s | ${r.peakMb.toFixed(0)} MB | < ${targetMb} MB: ${met} |`)
  }
} finally {
  rmSync(work, {recursive: true, force: true})
}
