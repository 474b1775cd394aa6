/**
 * What the request journal costs the garbage collector, counted rather than timed (so that the
 * load of a shared machine hardly moves it): a fixed number of requests to an in-memory sandbox
 * started with `--trace-gc-nvp`, the journal on and then off, and per request the bytes allocated,
 * the bytes promoted to the old generation (what outlives two young collections: what the journal
 * would keep alive), and the collectors' pauses. Runs the built library through
 * bench/sandbox/server.mjs (`npm run build` first).
 *
 *   node --import tsx bench/sandbox/journal-gc.ts [--requests 60000] [--connections 10]
 */
import {spawn} from 'node:child_process'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback)
const requests = arg('requests', 60_000)
const connections = arg('connections', 10)
const server = fileURLToPath(new URL('./server.mjs', import.meta.url))

interface Counted {
  allocated: number
  promoted: number
  scavengeUs: number
  markUs: number
  fullCollections: number
}

const field = (line: string, name: string) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0)

async function count(journal: boolean, kind: 'reads' | 'creates'): Promise<Counted> {
  const child = spawn(process.execPath, ['--trace-gc-nvp', server, ...(journal ? [] : ['--no-journal'])], {stdio: ['ignore', 'pipe', 'ignore']})
  const lines: string[] = []
  const first = await new Promise<string>((resolve) =>
    createInterface({input: child.stdout!}).on('line', (line) => (line.startsWith('{') ? resolve(line) : lines.push(line))),
  )
  try {
    const {url, key} = JSON.parse(first) as {url: string; key: string}
    const headers = {'x-api-key': key, 'content-type': 'application/json'}
    const body = JSON.stringify({amount: 1500, phone_number: '237670000001', operator: 'MTN'})
    const one = (await fetch(`${url}/v1/payments`, {method: 'POST', headers, body}).then((r) => r.json())) as {id: string}
    const target = kind === 'reads' ? {url: `${url}/v1/payments/${one.id}/status`, headers} : {url: `${url}/v1/payments`, method: 'POST', headers, body}
    // Warm: past the journal's 10,000 entries, so that what is counted is its steady state.
    await autocannon({...target, connections, amount: 12_000})
    lines.length = 0
    const result = await autocannon({...target, connections, amount: requests})
    const n = result.requests.total as number
    const counted: Counted = {allocated: 0, promoted: 0, scavengeUs: 0, markUs: 0, fullCollections: 0}
    for (const line of lines) {
      if (/\bgc=s\b/.test(line)) {
        counted.allocated += field(line, 'allocated')
        counted.promoted += field(line, 'promoted')
        counted.scavengeUs += field(line, 'pause') * 1000
      } else if (/\bgc=(mc|ms|mmc)\b/.test(line)) {
        counted.fullCollections++
        counted.markUs += field(line, 'pause') * 1000
      }
    }
    return {allocated: counted.allocated / n, promoted: counted.promoted / n, scavengeUs: counted.scavengeUs / n, markUs: counted.markUs / n, fullCollections: counted.fullCollections}
  } finally {
    await new Promise((resolve) => {
      child.once('exit', resolve)
      child.kill('SIGTERM')
    })
  }
}

console.log(`Node ${process.version}, in memory, ${requests.toLocaleString('en')} requests after 12,000 to warm, ${connections} connections\n`)
console.log('| per request | journal | bytes allocated | bytes promoted | young collections | full collections (count) |\n| --- | --- | --- | --- | --- | --- |')
for (const kind of ['reads', 'creates'] as const) {
  for (const journal of [true, false]) {
    const c = await count(journal, kind)
    const name = kind === 'reads' ? 'status read' : 'create'
    console.log(`| ${name} | ${journal ? 'on' : 'off'} | ${Math.round(c.allocated).toLocaleString('en')} | ${Math.round(c.promoted).toLocaleString('en')} | ${c.scavengeUs.toFixed(2)} µs | ${c.markUs.toFixed(2)} µs (${c.fullCollections}) |`)
  }
}
