/**
 * The in-memory sandbox against another build of it, case for case: the same requests to each
 * server, one server at a time, alternating (`--rounds`), so that a change in the machine's load
 * shows as a change between rounds rather than between the two. Each server is a script that
 * starts a sandbox (rate limit off, settlement after 2 s) and prints one JSON line with url, key,
 * adminToken and pid, as bench/sandbox/server.mjs does (a `.ts` one runs with tsx).
 *
 *   node --import tsx bench/sandbox/against.ts --base /work/base/bench/sandbox/server.ts [--duration 5] [--connections 10] [--rounds 2]
 *
 * Cases: status reads of one payment; creates; status reads of random payments among those
 * created (after every settlement ran); the first page of the list.
 */
import {spawn} from 'node:child_process'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon'

const args = process.argv.slice(2)
const option = (name: string, fallback?: string) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? fallback : args[i + 1]
}
const base = option('base')
if (!base) throw new Error('--base SERVER_SCRIPT: the other build’s server script')
const duration = Number(option('duration', '5'))
const connections = Number(option('connections', '10'))
const rounds = Number(option('rounds', '2'))
const current = fileURLToPath(new URL('./server.mjs', import.meta.url))

interface Result {
  requests: {average: number}
  latency: {p99: number}
  non2xx: number
  errors: number
}
const cannon = (options: Record<string, unknown>) => autocannon({connections, pipelining: 1, duration, ...options}) as Promise<Result>

async function measure(script: string): Promise<Record<string, Result>> {
  const child = spawn(process.execPath, [...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), script], {stdio: ['ignore', 'pipe', 'inherit']})
  try {
    const first = await new Promise<string>((resolve) => createInterface({input: child.stdout!}).once('line', resolve))
    const {url, key, adminToken} = JSON.parse(first) as {url: string; key: string; adminToken: string}
    const headers = {'x-api-key': key, 'content-type': 'application/json'}
    const body = JSON.stringify({amount: 1500, phone_number: '237670000001', operator: 'MTN'})
    const one = (await fetch(`${url}/v1/payments`, {method: 'POST', headers, body}).then((r) => r.json())) as {id: string}
    await cannon({url: `${url}/v1/payments/${one.id}/status`, headers, duration: 2})
    const readsOne = await cannon({url: `${url}/v1/payments/${one.id}/status`, headers})
    const ids: string[] = []
    const creates = await cannon({
      url: `${url}/v1/payments`,
      method: 'POST',
      headers,
      body,
      requests: [{onResponse: (status: number, text: string) => status === 201 && ids.push((JSON.parse(text) as {id: string}).id)}],
    })
    await fetch(`${url}/_admin/clock/advance`, {method: 'POST', headers: {authorization: `Bearer ${adminToken}`, 'content-type': 'application/json'}, body: '{"ms":10000}'})
    const readsRandom = await cannon({
      url,
      headers,
      requests: [{setupRequest: (request: Record<string, unknown>) => ({...request, path: `/v1/payments/${ids[Math.floor(Math.random() * ids.length)]}/status`})}],
    })
    const list = await cannon({url: `${url}/v1/payments?limit=20`, headers})
    return {'status reads, one payment': readsOne, creates, 'status reads, random payments': readsRandom, 'list, first page': list}
  } finally {
    child.kill('SIGTERM')
  }
}

const results: Array<{name: string; round: number; figures: Record<string, Result>}> = []
for (let round = 1; round <= rounds; round++) {
  for (const [name, script] of [['base', base], ['now', current]] as const) {
    const load = (await import('node:os')).loadavg()[0].toFixed(2)
    results.push({name: `${name} (load ${load})`, round, figures: await measure(script)})
  }
}
const n = (value: number) => Math.round(value).toLocaleString('en')
console.log(`\nNode ${process.version}, ${connections} connections, ${duration} s a case, rate limit off; base: ${base}\n`)
console.log(`| case | ${results.map((r) => `round ${r.round}: ${r.name}`).join(' | ')} |`)
console.log(`| --- |${results.map(() => ' --- |').join('')}`)
for (const name of Object.keys(results[0].figures)) {
  console.log(`| ${name} | ${results.map((r) => `${n(r.figures[name].requests.average)}/s, p99 ${r.figures[name].latency.p99} ms${r.figures[name].non2xx + r.figures[name].errors ? `, ${r.figures[name].non2xx + r.figures[name].errors} errors` : ''}`).join(' | ')} |`)
}
for (const name of Object.keys(results[0].figures)) {
  const mean = (which: string) => {
    const picked = results.filter((r) => r.name.startsWith(which)).map((r) => r.figures[name].requests.average)
    return picked.reduce((a, b) => a + b, 0) / picked.length
  }
  console.log(`${name}: now / base ${(mean('now') / mean('base')).toFixed(2)}×`)
}
