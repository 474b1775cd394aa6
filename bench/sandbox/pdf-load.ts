/**
 * Does PDF rendering keep the event loop free? Status reads (10 connections) measured alone, then
 * while 20 more connections fetch the PDFs of 100-item invoices through their signed links, in
 * two mixes: all on one invoice (served from the PDF cache after the first rendering) and
 * round-robin over more invoices than the cache holds (every fetch renders, in the document worker).
 * Target (issue 17): status-read p99 < 50 ms under the PDF load.
 *
 *   node --import tsx bench/sandbox/pdf-load.ts [--duration 10] [--invoices 100]
 */
import {spawn} from 'node:child_process'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(args[i + 1])
}
const duration = arg('duration', 10)
const invoiceCount = arg('invoices', 100)

interface Result {
  requests: {average: number; total: number}
  latency: {p50: number; p99: number; max: number}
  non2xx: number
  errors: number
}

// The built sandbox (`npm run build` first), as bench/sandbox/run.ts runs it.
const child = spawn(process.execPath, [fileURLToPath(new URL('./server.mjs', import.meta.url))], {stdio: ['ignore', 'pipe', 'inherit']})
const first = await new Promise<string>((resolve) => createInterface({input: child.stdout!}).once('line', resolve))
const {url, key} = JSON.parse(first) as {url: string; key: string}
const headers = {'x-api-key': key, 'content-type': 'application/json'}
const api = async (method: string, path: string, body?: unknown) =>
  (await fetch(`${url}${path}`, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)})).json() as Promise<any>

try {
  const payment = await api('POST', '/v1/payments', {amount: 1500, phone_number: '237670000001', operator: 'MTN'})
  const items = Array.from({length: 100}, (_, i) => ({name: `Item ${i + 1} with a longer name`, description: 'A line of description', price: 1000 + i, quantity: 1 + (i % 7)}))
  const pdfPaths: string[] = []
  for (let i = 0; i < invoiceCount; i++) {
    const invoice = await api('POST', '/v1/invoices', {customer_name: `Customer ${i}`, due_date: '2099-12-31', items, notes: 'Thank you'})
    const published = await api('POST', `/v1/invoices/${invoice.id}/publish`)
    pdfPaths.push(published.pdf_url.slice(url.length))
  }
  const status = {url: `${url}/v1/payments/${payment.id}/status`, headers, connections: 10}
  const cannon = (options: Record<string, unknown>) => autocannon({pipelining: 1, duration, ...options}) as Promise<Result>
  // Warm-up: the worker, the code paths.
  await cannon({...status, duration: 2})
  await cannon({url, connections: 2, duration: 2, requests: pdfPaths.slice(0, 4).map((path) => ({method: 'GET', path}))})

  const alone = await cannon(status)
  const oneInvoice = await Promise.all([cannon(status), cannon({url, connections: 20, requests: [{method: 'GET', path: pdfPaths[0]}]})])
  const manyInvoices = await Promise.all([cannon(status), cannon({url, connections: 20, requests: pdfPaths.map((path) => ({method: 'GET', path}))})])

  const row = (name: string, reads: Result, pdfs?: Result) =>
    `| ${name} | ${Math.round(reads.requests.average).toLocaleString('en')} | ${reads.latency.p50} | ${reads.latency.p99} | ${reads.latency.max} | ${pdfs ? Math.round(pdfs.requests.average).toLocaleString('en') : '–'} | ${reads.non2xx + reads.errors + (pdfs ? pdfs.non2xx + pdfs.errors : 0)} |`
  console.log(`\nNode ${process.version}, ${duration} s per run, rate limit off; status reads on 10 connections, PDFs on 20\n`)
  console.log('| run | status reads/s | p50 ms | p99 ms | max ms | PDFs/s | non-2xx |')
  console.log('| --- | --- | --- | --- | --- | --- | --- |')
  console.log(row('status reads alone', alone))
  console.log(row('with 20 clients fetching one 100-item invoice PDF', oneInvoice[0], oneInvoice[1]))
  console.log(row(`with 20 clients fetching ${invoiceCount} different 100-item PDFs (cache misses)`, manyInvoices[0], manyInvoices[1]))
} finally {
  child.kill('SIGTERM')
}
