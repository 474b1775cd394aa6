/**
 * The durability check shared by test/sandbox/durability.test.ts (bounded, in CI),
 * test/sandbox/commit-record-crash.test.ts and bench/sandbox/durability.ts (long): create payments
 * in a loop over HTTP, kill the sandbox with SIGKILL at a random moment, restart it on the same
 * data file, and repeat; at the end, find every id that was acknowledged with a 201 among the
 * payments the restarted sandbox lists (docs/sandbox.md, "Durability": a write answered 2xx is
 * committed before the answer, and survives the process being killed at any instant).
 *
 * The clients are node:http on a keep-alive agent rather than fetch: the same requests in flight
 * (`workers` at once) for about half the client's CPU, which on two cores is CPU the sandbox under
 * load gets instead.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {Agent, request} from 'node:http'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'

const serverScript = fileURLToPath(new URL('../helpers/sandbox-child.mjs', import.meta.url))

interface Running {
  child: ChildProcess
  url: string
  key: string
}

async function start(dataFile: string): Promise<Running> {
  const child = spawn(process.execPath, [serverScript, JSON.stringify({seed: 1, settleAfterMs: 60_000, dataFile})], {stdio: ['ignore', 'pipe', 'pipe']})
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({input: child.stdout!}).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}) before listening: ${stderr}`)))
  })
  const {url, key} = JSON.parse(line) as {url: string; key: string}
  return {child, url, key}
}

/** One request on `agent`; rejects when the connection fails (the kill). */
function send(agent: Agent, url: string, options: {method?: string; headers: Record<string, string>; body?: string}): Promise<{status: number; text: string}> {
  return new Promise((resolve, reject) => {
    const req = request(url, {agent, method: options.method ?? 'GET', headers: options.headers}, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({status: response.statusCode ?? 0, text}))
      response.on('error', reject)
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

export interface DurabilityResult {
  rounds: number
  acknowledged: number
  lost: string[]
}

/**
 * `rounds` kills, each after a random 150 to `maxRunMs` ms of creating with `workers` concurrent
 * clients; or, with `targetAcknowledged`, as many rounds as it takes to reach that count.
 */
export async function durabilityRun(options: {
  dataFile: string
  rounds: number
  workers?: number
  maxRunMs?: number
  targetAcknowledged?: number
  log?: (line: string) => void
  /** Called after each kill, before the next start (the files as the kill left them), with the ids acknowledged so far. */
  afterKill?: (round: number, acknowledged: readonly string[]) => void | Promise<void>
}): Promise<DurabilityResult> {
  const workers = options.workers ?? 8
  const maxRunMs = options.maxRunMs ?? 800
  const acknowledged: string[] = []
  let round = 0
  while (round < options.rounds || (options.targetAcknowledged !== undefined && acknowledged.length < options.targetAcknowledged)) {
    round++
    const sandbox = await start(options.dataFile)
    const headers = {'x-api-key': sandbox.key, 'content-type': 'application/json'}
    const agent = new Agent({keepAlive: true, maxSockets: workers})
    let stop = false
    const before = acknowledged.length
    const loop = async () => {
      while (!stop) {
        try {
          const body = JSON.stringify({amount: 100 + (acknowledged.length % 900), phone_number: '237670000001', operator: 'MTN'})
          const response = await send(agent, `${sandbox.url}/v1/payments`, {method: 'POST', headers, body})
          const id = response.status === 201 ? (JSON.parse(response.text) as {id?: string}).id : undefined
          if (id) acknowledged.push(id)
        } catch {
          // The kill: the answer is lost, so the write is not acknowledged.
          return
        }
      }
    }
    const running = Array.from({length: workers}, loop)
    await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * (maxRunMs - 150)))
    await killed(sandbox.child)
    stop = true
    await Promise.all(running)
    agent.destroy()
    options.log?.(`round ${round}: ${acknowledged.length - before} acknowledged before SIGKILL (${acknowledged.length} in all)`)
    await options.afterKill?.(round, acknowledged)
  }

  const sandbox = await start(options.dataFile)
  const found = new Set<string>()
  try {
    // Every payment the sandbox holds, a page of 100 at a time (a lookup per id is 100 times the requests).
    const agent = new Agent({keepAlive: true})
    try {
      for (let offset = 0; ; offset += 100) {
        const response = await send(agent, `${sandbox.url}/v1/payments?limit=100&offset=${offset}`, {headers: {'x-api-key': sandbox.key}})
        if (response.status !== 200) throw new Error(`listing the payments: ${response.status} ${response.text}`)
        const page = JSON.parse(response.text) as {data: Array<{id: string}>; has_more: boolean}
        for (const payment of page.data) found.add(payment.id)
        if (!page.has_more) break
      }
    } finally {
      agent.destroy()
    }
  } finally {
    await killed(sandbox.child)
  }
  const lost = acknowledged.filter((id) => !found.has(id))
  return {rounds: round, acknowledged: acknowledged.length, lost}
}
