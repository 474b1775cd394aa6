/**
 * Benchmark of two `svc invoice import` situations, against the local sandbox limited to 100
 * requests a minute per key (the service's limit), the CLI at its default pace:
 *
 * - `--case rerun`: a finished import of N rows (`--publish`) run again. The re-run reads the
 *   results file and skips every row without a request: reports the re-run's wall time (median of
 *   `--runs`, each a new process, as a person runs it) and the requests the sandbox received
 *   during the re-runs (through a counting proxy), writes (POST) among them.
 * - `--case two`: two imports of N rows each started together on one key and one config dir
 *   (two terminals of one user). They share the key's pace through the budget in the cache
 *   directory: reports the wall time, the 429s the sandbox sent (from the --verbose traces) and
 *   the rows that failed, were duplicated or are missing.
 *
 *   node --import tsx bench/import/resume.ts --case rerun [--rows 150] [--runs 5]
 *   node --import tsx bench/import/resume.ts --case two [--rows 60]
 *
 * Build first (`npm run build`): the CLI runs as a child process, as a user runs it.
 */
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {createServer, request} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {startSandbox} from '../../src/sandbox/index.js'

const args = process.argv.slice(2)
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? fallback : args[i + 1]!
}
const which = arg('case', 'rerun')
const rows = Number(arg('rows', which === 'two' ? '60' : '150'))
const runs = Number(arg('runs', '5'))
const BIN = fileURLToPath(new URL('../../bin/run.cjs', import.meta.url))

function csv(n: number, prefix: string): string {
  let text = 'customer_name,customer_email,due_date,items,external_reference\n'
  for (let i = 1; i <= n; i++) text += `${prefix} ${i},c${i}@example.cm,2026-12-31,Bread:${100 + i}:2; Cake:1000:1,${prefix}-${i}\n`
  return text
}

function svc(dir: string, argv: string[], env: Record<string, string>): Promise<{code: number | null; stdout: string; stderr: string; ms: number}> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], {env: {PATH: process.env.PATH ?? '', HOME: dir, SVC_CONFIG_DIR: join(dir, 'config'), ...env}, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stdout, stderr, ms: Date.now() - started}))
  })
}

/** A pass-through proxy that counts the requests it forwards. */
async function countingProxy(target: string) {
  const upstream = new URL(target)
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    const out = request({hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers}, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    out.on('error', () => res.destroy())
    req.pipe(out)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise<void>((r) => server.close(() => r()))}
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const sb = await startSandbox({port: 0, settleAfterMs: 0, rateLimit: 100, seed: 1})
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-resume-'))
try {
  const env = {SVC_BASE_URL: sb.url, SVC_API_KEY: sb.keys.sandbox}
  if (which === 'rerun') {
    const file = join(dir, 'batch.csv')
    writeFileSync(file, csv(rows, 'Rerun'))
    // The first run, at the pace the limit allows (its own figure is bench/import/run.ts's).
    const first = await svc(dir, ['invoice', 'import', file, '--publish'], env)
    if (first.code !== 0) throw new Error(`first run: exit ${first.code}\n${first.stderr}`)
    const proxy = await countingProxy(sb.url)
    const times: number[] = []
    for (let i = 0; i < runs; i++) {
      const again = await svc(dir, ['invoice', 'import', file, '--publish'], {...env, SVC_BASE_URL: proxy.url})
      if (again.code !== 0) throw new Error(`re-run: exit ${again.code}\n${again.stderr}`)
      times.push(again.ms)
    }
    await proxy.close()
    console.log(
      JSON.stringify(
        {
          case: 'rerun',
          rows,
          publish: true,
          limit_per_minute: 100,
          first_run_seconds: +(first.ms / 1000).toFixed(2),
          rerun_seconds_median: +(median(times) / 1000).toFixed(2),
          rerun_seconds_min: +(Math.min(...times) / 1000).toFixed(2),
          rerun_seconds_max: +(Math.max(...times) / 1000).toFixed(2),
          runs,
          requests_during_reruns: proxy.seen.length,
          writes_during_reruns: proxy.seen.filter((r) => r.startsWith('POST')).length,
        },
        null,
        2,
      ),
    )
  } else {
    const a = join(dir, 'a.csv')
    const b = join(dir, 'b.csv')
    writeFileSync(a, csv(rows, 'Left'))
    writeFileSync(b, csv(rows, 'Right'))
    const started = Date.now()
    const [left, right] = await Promise.all([svc(dir, ['invoice', 'import', a, '--json', '--verbose'], env), svc(dir, ['invoice', 'import', b, '--json', '--verbose'], env)])
    const wallMs = Date.now() - started
    const served429 = (left.stderr + right.stderr).match(/^< 429 /gm)?.length ?? 0
    const summaries = [left, right].map((r) => JSON.parse(r.stdout).summary)
    await new Promise((r) => setTimeout(r, 61_000))
    const refs = new Set<string>()
    let invoices = 0
    for (let page = 1; ; page++) {
      const response = await fetch(`${sb.url}/v1/invoices?page=${page}&page_size=100`, {headers: {'X-API-Key': sb.keys.sandbox}})
      const body = (await response.json()) as {data: Array<{external_reference: string}>; total_pages: number}
      invoices += body.data.length
      for (const i of body.data) refs.add(i.external_reference)
      if (page >= body.total_pages) break
    }
    console.log(
      JSON.stringify(
        {
          case: 'two',
          processes: 2,
          rows_each: rows,
          limit_per_minute: 100,
          exit_codes: [left.code, right.code],
          wall_seconds: +(wallMs / 1000).toFixed(2),
          sandbox_429s: served429,
          failed_rows: summaries.reduce((n, s) => n + (s?.failed ?? 0), 0),
          invoices,
          duplicates: invoices - refs.size,
          missing: 2 * rows - refs.size,
        },
        null,
        2,
      ),
    )
  }
} finally {
  await sb.close()
  rmSync(dir, {recursive: true, force: true})
}
