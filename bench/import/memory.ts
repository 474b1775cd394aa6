/**
 * Peak memory of `svc invoice import`, which reads its file as a stream: the built CLI as a child
 * process (its own peak resident set size, from getrusage at exit through
 * `test/helpers/peak-rss.cjs`), on files generated in a temporary directory:
 *
 * - a CSV with one 100 MB cell (refused: the cell cap, the column and the line named);
 * - a dry run of `--rows` rows (default 10⁶), human and `--json` (stdout to a file).
 *
 *   npm run build && node --import tsx bench/import/memory.ts [--rows 1000000]
 *
 * A dry run sends nothing: the key is a made-up test key and the base URL one where nothing listens.
 */
import {spawn} from 'node:child_process'
import {closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const args = process.argv.slice(2)
const at = args.indexOf('--rows')
const ROWS = at >= 0 ? Number(args[at + 1]) : 1_000_000
const BIN = fileURLToPath(new URL('../../bin/run.cjs', import.meta.url))
const HOOK = fileURLToPath(new URL('../../test/helpers/peak-rss.cjs', import.meta.url))

const work = mkdtempSync(join(tmpdir(), 'svc-bench-import-memory-'))
const env = {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, LANG: 'C.UTF-8', SVC_CONFIG_DIR: join(work, 'config'), SVC_API_KEY: 'svc_sk_test_benchmemory1234', SVC_BASE_URL: 'http://127.0.0.1:9', SVC_RATE_LIMIT: '0'}

async function write(path: string, parts: Iterable<string>): Promise<void> {
  const out = createWriteStream(path)
  for (const part of parts) if (!out.write(part)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  await new Promise<void>((resolve) => out.end(() => resolve()))
}

function run(argv: string[], stdoutFile: string): Promise<{code: number | null; seconds: number; peakMb: number; stderr: string}> {
  const peak = join(work, `peak-${Math.random()}`)
  const stdout = openSync(stdoutFile, 'w')
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', HOOK, BIN, ...argv], {env: {...env, SVC_TEST_PEAK_RSS_FILE: peak}, stdio: ['ignore', stdout, 'pipe']})
    let stderr = ''
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d.slice(0, 2000)))
    child.on('close', (code) => {
      closeSync(stdout)
      resolve({code, seconds: (performance.now() - started) / 1000, peakMb: Number(readFileSync(peak, 'utf8')) / 1024, stderr: stderr.slice(0, 300)})
    })
  })
}

try {
  const cell = join(work, 'cell.csv')
  const mb = 'x'.repeat(1024 * 1024)
  await write(cell, (function* () {
    yield 'customer_name,due_date,items,notes\r\nBig Shop,2027-01-21,Bread:500:3,"'
    for (let i = 0; i < 100; i++) yield mb
    yield '"\r\n'
  })())
  const rows = join(work, 'rows.csv')
  await write(rows, (function* () {
    yield 'customer_name,due_date,items,customer_phone,external_reference\r\n'
    let block = ''
    for (let i = 1; i <= ROWS; i++) {
      block += `Client ${i},21/01/2027,Pain:${100 + (i % 900)}:2; Gâteau:2500:1,6${String(90000000 + (i % 9999999)).padStart(8, '0')},REF-${i}\r\n`
      if (i % 10_000 === 0) {
        yield block
        block = ''
      }
    }
    yield block
  })())
  console.log(`| case | file | exit | wall | peak RSS |\n| --- | --- | --- | --- | --- |`)
  const cases: Array<[string, string, string[]]> = [
    ['one 100 MB cell, --dry-run', cell, ['--dry-run']],
    [`${ROWS.toLocaleString('en-US')} rows, --dry-run`, rows, ['--dry-run']],
    [`${ROWS.toLocaleString('en-US')} rows, --dry-run --json`, rows, ['--dry-run', '--json']],
  ]
  for (const [name, file, flags] of cases) {
    const r = await run(['invoice', 'import', file, ...flags], join(work, 'out'))
    console.log(`| ${name} | ${(statSync(file).size / 1048576).toFixed(0)} MB | ${r.code} | ${r.seconds.toFixed(1)} s | ${r.peakMb.toFixed(0)} MB |`)
  }
} finally {
  rmSync(work, {recursive: true, force: true})
}
