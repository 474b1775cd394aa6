/**
 * The journal's bound under a flood, as the sandbox's memory shows it: an in-memory sandbox in its
 * own process (bench/sandbox/server.mjs, `npm run build` first), then 11,000 requests with a 7 KB
 * query string, then 600 requests with a 900 KB body, 10 at a time; after each flood (and a
 * garbage collection) the process's RSS, and its peak (VmHWM). `--root DIR`: the server and build
 * of another checkout, to compare.
 *
 *   node --import tsx bench/sandbox/journal-flood.ts [--root DIR] [--queries 11000] [--bodies 600]
 */
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'

const args = process.argv.slice(2)
const arg = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback)
const root = resolve(arg('root', fileURLToPath(new URL('../..', import.meta.url))))
const queries = Number(arg('queries', '11000'))
const bodies = Number(arg('bodies', '600'))

const child = spawn(process.execPath, ['--expose-gc', join(root, 'bench/sandbox/server.mjs')], {stdio: ['ignore', 'pipe', 'pipe']})
const lines = createInterface({input: child.stderr!})
const reports: Array<(line: string) => void> = []
lines.on('line', (line) => reports.shift()?.(line))
const first = await new Promise<string>((done) => createInterface({input: child.stdout!}).once('line', done))
const {url, key, pid} = JSON.parse(first) as {url: string; key: string; pid: number}
// A server.mjs of before printed its line before it handled SIGUSR2 (whose default ends the process).
await new Promise((done) => setTimeout(done, 500))

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`
const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024
async function memory(): Promise<number> {
  const report = new Promise<string>((done) => reports.push(done))
  process.kill(pid, 'SIGUSR2')
  return (JSON.parse(await report) as {memory: {rss: number}}).memory.rss
}

async function flood(count: number, send: (n: number) => Promise<Response>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < count) await (await send(next++)).arrayBuffer()
  }
  await Promise.all(Array.from({length: 10}, worker))
}

try {
  console.log(`${root}: at start, RSS ${mb(await memory())}`)
  const query = 'q'.repeat(7 * 1024)
  await flood(queries, (n) => fetch(`${url}/v1/payments?limit=1&n=${n}&note=${query}`, {headers: {'x-api-key': key}}))
  console.log(`after ${queries} requests with a 7 KB query: RSS ${mb(await memory())} (peak ${mb(peak())})`)
  const body = JSON.stringify({amount: 1000, phone_number: '237670000001', operator: 'MTN', note: 'b'.repeat(900 * 1024)})
  await flood(bodies, () => fetch(`${url}/v1/payments`, {method: 'POST', headers: {'x-api-key': key, 'content-type': 'application/json'}, body}))
  console.log(`after ${bodies} requests with a 900 KB body: RSS ${mb(await memory())} (peak ${mb(peak())})`)
} finally {
  child.kill('SIGTERM')
}
