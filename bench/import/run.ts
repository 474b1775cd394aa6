/**
 * Benchmark of `svc invoice import`: N rows against the local sandbox with its rate limit set to
 * L requests per minute and the CLI paced to the same L (SVC_RATE_LIMIT). Reports:
 *
 * - pace efficiency = ideal / actual duration, where ideal is the earliest the N-th create may be
 *   sent under an L-per-rolling-minute limit starting from an empty window (floor((N-1)/L) min);
 * - window use = the most creates the sandbox accepted in any rolling 60 s / L;
 * - 429s the sandbox sent (from the --verbose trace; the client waits and retries them) and 429s
 *   that reached the user (failed rows);
 * - duplicates (invoices minus distinct external references) and missing rows.
 *
 *   node --import tsx bench/import/run.ts [--rows 1000] [--limit 600] [--concurrency 4]
 *
 * Build first (`npm run build`): the CLI runs as a child process, as a user runs it.
 */
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {startSandbox} from '../../src/sandbox/index.js'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(args[i + 1])
}
const rows = arg('rows', 1000)
const limit = arg('limit', 600)
const concurrency = arg('concurrency', 4)
const BIN = fileURLToPath(new URL('../../bin/run.cjs', import.meta.url))

const sb = await startSandbox({port: 0, settleAfterMs: 0, rateLimit: limit, seed: 1})
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-import-'))
try {
  const file = join(dir, 'bench.csv')
  let text = 'customer_name,due_date,items,external_reference\n'
  for (let i = 1; i <= rows; i++) text += `Customer ${i},2026-12-31,Bread:${100 + i}:2; Cake:1000:1,BENCH-${i}\n`
  writeFileSync(file, text)

  const started = Date.now()
  const run = await new Promise<{code: number | null; stdout: string; stderr: string}>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'invoice', 'import', file, '--json', '--verbose', '--concurrency', String(concurrency)], {
      env: {PATH: process.env.PATH ?? '', HOME: dir, SVC_CONFIG_DIR: join(dir, 'config'), SVC_BASE_URL: sb.url, SVC_API_KEY: sb.keys.sandbox, SVC_RATE_LIMIT: String(limit)},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stdout, stderr}))
  })
  const wallMs = Date.now() - started
  const report = JSON.parse(run.stdout)

  // What the sandbox holds, read without the limited key's window mattering (admin-free: the
  // window has rolled by the time the run ends, and the list is a handful of requests).
  await new Promise((r) => setTimeout(r, 1000))
  const invoices: Array<{external_reference: string; created_at: string}> = []
  for (let page = 1; ; page++) {
    const response = await fetch(`${sb.url}/v1/invoices?page=${page}&page_size=100`, {headers: {'X-API-Key': sb.keys.sandbox}})
    if (response.status === 429) {
      await new Promise((r) => setTimeout(r, 1000 * Number(response.headers.get('retry-after') ?? 1)))
      page -= 1
      continue
    }
    const body = (await response.json()) as {data: typeof invoices; total_pages: number}
    invoices.push(...body.data)
    if (page >= body.total_pages) break
  }
  const times = invoices.map((i) => Date.parse(i.created_at)).sort((a, b) => a - b)
  const actualMs = times.at(-1)! - times[0]!
  const idealMs = Math.floor((rows - 1) / limit) * 60_000
  let busiest = 0
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= 60_000) i++
    busiest = Math.max(busiest, j - i + 1)
  }
  const served429 = (run.stderr.match(/^< 429 /gm) ?? []).length
  const distinct = new Set(invoices.map((i) => i.external_reference)).size
  const result = {
    rows,
    limit_per_minute: limit,
    concurrency,
    exit_code: run.code,
    wall_seconds: +(wallMs / 1000).toFixed(2),
    first_to_last_create_seconds: +(actualMs / 1000).toFixed(2),
    ideal_seconds: idealMs / 1000,
    pace_efficiency: idealMs > 0 ? +(idealMs / actualMs).toFixed(3) : null,
    busiest_window_use: +(busiest / limit).toFixed(3),
    sandbox_429s_retried: served429,
    failed_rows: report.summary?.failed,
    invoices: invoices.length,
    duplicates: invoices.length - distinct,
    missing: rows - distinct,
  }
  console.log(JSON.stringify(result, null, 2))
} finally {
  await sb.close()
  rmSync(dir, {recursive: true, force: true})
}
