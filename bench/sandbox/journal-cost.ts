/**
 * What the request journal costs: status reads/s and creates/s of the sandbox in memory with the
 * journal on and off, measured in the same run: in each round both sandboxes run at once, each
 * under its own autocannon, so that the load of a shared machine falls on both alike at the same
 * moments (with --alternate, one after the other instead); the rounds' medians and best rounds. Besides
 * requests/s (which a loaded machine makes noisy), the sandbox process's CPU time per request
 * (user + system, from process.cpuUsage), which other processes' load hardly moves. Runs the built
 * library through bench/sandbox/server.mjs (`npm run build` first).
 *
 *   node --import tsx bench/sandbox/journal-cost.ts [--rounds 5] [--duration 3] [--connections 10] [--alternate] [--control] [--varied] [--data]
 *
 * `--data`: each sandbox on a SQLite file of its own (a new one per round), where the journal is
 * also written.
 *
 * Besides the medians of each side, the median of the rounds' own losses (each round's journal-on
 * rate against the journal-off rate measured next to it: the machine's slow drift cancels out).
 * `--varied`: also status reads spread over 100 payments (each answer differs from the one before:
 * nothing repeats for the journal to share), after the creates.
 * `--control` (with --alternate) adds a third sandbox, the journal off as well, measured in the
 * same rounds: what "off against off" gives is the noise of the machine, the floor under which a
 * cost cannot be told from it.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback)
const rounds = arg('rounds', 5)
const duration = arg('duration', 3)
const connections = arg('connections', 10)
const server = fileURLToPath(new URL('./server.mjs', import.meta.url))

const onDisk = args.includes('--data')
const dir = onDisk ? mkdtempSync(join(tmpdir(), 'svc-journal-cost-')) : undefined
let files = 0

async function start(journal: boolean): Promise<{child: ChildProcess; url: string; key: string}> {
  const data = dir ? ['--data', join(dir, `sandbox-${files++}.db`)] : []
  const child = spawn(process.execPath, [server, ...data, ...(journal ? [] : ['--no-journal'])], {stdio: ['ignore', 'pipe', 'pipe']})
  const first = await new Promise<string>((resolve) => createInterface({input: child.stdout!}).once('line', resolve))
  return {child, ...(JSON.parse(first) as {url: string; key: string})}
}

/** The sandbox process's CPU time so far, µs (server.mjs answers SIGUSR2 on stderr). */
function cpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const read = (chunk: Buffer) => {
      const line = chunk.toString().split('\n').find((l) => l.includes('"cpu_us"'))
      if (!line) return
      child.stderr!.off('data', read)
      resolve((JSON.parse(line) as {cpu_us: number}).cpu_us)
    }
    child.stderr!.on('data', read)
    child.kill('SIGUSR2')
  })
}

interface Round {
  reads: number
  creates: number
  readCpu: number
  createCpu: number
  varied: number
  variedCpu: number
}

const varied = args.includes('--varied')

async function round(journal: boolean): Promise<Round> {
  return (await measure([journal]))[0]
}

/** One round of each sandbox given, all at the same time. */
async function measure(journals: boolean[]): Promise<Round[]> {
  const sbs = await Promise.all(journals.map((journal) => start(journal)))
  try {
    return await Promise.all(sbs.map((sb) => load(sb)))
  } finally {
    await Promise.all(
      sbs.map(
        (sb) =>
          new Promise((resolve) => {
            sb.child.once('exit', resolve)
            sb.child.kill('SIGTERM')
          }),
      ),
    )
  }
}

async function load(sb: {child: ChildProcess; url: string; key: string}): Promise<Round> {
  {
    const headers = {'x-api-key': sb.key, 'content-type': 'application/json'}
    const body = JSON.stringify({amount: 1500, phone_number: '237670000001', operator: 'MTN'})
    const one = (await fetch(`${sb.url}/v1/payments`, {method: 'POST', headers, body}).then((r) => r.json())) as {id: string}
    await autocannon({url: `${sb.url}/v1/payments/${one.id}/status`, headers, connections, duration: 1})
    const c0 = await cpu(sb.child)
    const reads = await autocannon({url: `${sb.url}/v1/payments/${one.id}/status`, headers, connections, duration})
    const c1 = await cpu(sb.child)
    const creates = await autocannon({url: `${sb.url}/v1/payments`, method: 'POST', headers, body, connections, duration})
    const c2 = await cpu(sb.child)
    const round = {
      reads: reads.requests.average,
      creates: creates.requests.average,
      readCpu: (c1 - c0) / reads.requests.total,
      createCpu: (c2 - c1) / creates.requests.total,
      varied: 0,
      variedCpu: 0,
    }
    if (!varied) return round
    const page = (await fetch(`${sb.url}/v1/payments?limit=100`, {headers}).then((r) => r.json())) as {data: Array<{id: string}>}
    const ids = page.data.map((p) => p.id)
    const c3 = await cpu(sb.child)
    const spread = await autocannon({
      url: sb.url,
      headers,
      connections,
      duration,
      requests: [{setupRequest: (request: Record<string, unknown>) => ({...request, path: `/v1/payments/${ids[Math.floor(Math.random() * ids.length)]}/status`})}],
    })
    const c4 = await cpu(sb.child)
    return {...round, varied: spread.requests.average, variedCpu: (c4 - c3) / spread.requests.total}
  }
}

const on: Round[] = []
const off: Round[] = []
const control: Round[] = []
const alternate = args.includes('--alternate')
const withControl = alternate && args.includes('--control')
for (let i = 0; i < rounds; i++) {
  if (alternate) {
    // Which goes first turns, so that neither always runs on a warmer (or busier) machine.
    const sides: Array<[boolean, Round[]]> = [[true, on], [false, off]]
    if (withControl) sides.push([false, control])
    for (let k = 0; k < sides.length; k++) {
      const [journal, into] = sides[(i + k) % sides.length]
      into.push(await round(journal))
    }
  } else {
    const [a, b] = await measure([true, false])
    on.push(a)
    off.push(b)
  }
  process.stderr.write(`round ${i + 1}/${rounds}: on ${JSON.stringify(on.at(-1))}, off ${JSON.stringify(off.at(-1))}${withControl ? `, control ${JSON.stringify(control.at(-1))}` : ''}\n`)
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const n = (value: number) => Math.round(value).toLocaleString('en')
const pct = (value: number) => `${(value * 100).toFixed(1)} %`
/** One line per kind of request: the medians of the rounds, and the best round of each side (most requests/s, least CPU). */
const report = (key: 'reads' | 'creates' | 'varied', cpuKey: 'readCpu' | 'createCpu' | 'variedCpu', name: string) => {
  for (const [which, pick, pickCpu] of [
    ['median', median, median],
    ['best', (v: number[]) => Math.max(...v), (v: number[]) => Math.min(...v)],
  ] as const) {
    const a = pick(on.map((r) => r[key]))
    const b = pick(off.map((r) => r[key]))
    const ca = pickCpu(on.map((r) => r[cpuKey]))
    const cb = pickCpu(off.map((r) => r[cpuKey]))
    console.log(`| ${name}, ${which} | ${n(a)}/s, ${ca.toFixed(1)} µs CPU | ${n(b)}/s, ${cb.toFixed(1)} µs CPU | ${pct(1 - a / b)} | ${pct(ca / cb - 1)} |`)
  }
}
/** The median of the rounds' own losses: each round's `side` against its journal-off rate. */
const paired = (side: Round[], key: 'reads' | 'creates' | 'varied', cpuKey: 'readCpu' | 'createCpu' | 'variedCpu') => ({
  lost: median(side.map((r, i) => 1 - r[key] / off[i][key])),
  cpu: median(side.map((r, i) => r[cpuKey] / off[i][cpuKey] - 1)),
})
if (dir) rmSync(dir, {recursive: true, force: true})
console.log(`\nNode ${process.version}, ${onDisk ? 'SQLite (--data), ' : 'in memory, '}${connections} connections per sandbox, ${rounds} rounds of ${duration} s, ${alternate ? 'one sandbox after the other' : 'both sandboxes at once'}; median of the rounds and best round\n`)
console.log('| per request | journal on | journal off | requests/s lost | CPU time added |\n| --- | --- | --- | --- | --- |')
report('reads', 'readCpu', 'status reads, one payment')
report('creates', 'createCpu', 'creates')
if (varied) report('varied', 'variedCpu', 'status reads, 100 payments')
console.log(`\nEach round against itself (median of the ${rounds} rounds' own figures):\n`)
console.log('| per request | requests/s lost | CPU time added |\n| --- | --- | --- |')
for (const [key, cpuKey, name] of [
  ['reads', 'readCpu', 'status reads'],
  ['creates', 'createCpu', 'creates'],
  ...(varied ? ([['varied', 'variedCpu', 'status reads, 100 payments']] as const) : []),
] as const) {
  const a = paired(on, key, cpuKey)
  console.log(`| ${name}, journal on against off | ${pct(a.lost)} | ${pct(a.cpu)} |`)
  if (withControl) {
    const c = paired(control, key, cpuKey)
    console.log(`| ${name}, off against off (the noise) | ${pct(c.lost)} | ${pct(c.cpu)} |`)
  }
}
