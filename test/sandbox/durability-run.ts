/**
 * The durability check shared by test/sandbox/durability.test.ts (bounded, in CI) and
 * bench/sandbox/durability.ts (long): create payments in a loop over HTTP, kill the sandbox with
 * SIGKILL at a random moment, restart it on the same data file, and repeat; at the end, look up
 * every id that was acknowledged with a 201 (docs/sandbox.md, "Durability": a write answered 2xx is
 * committed before the answer, and survives the process being killed at any instant).
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'

const serverScript = fileURLToPath(new URL('./data-server.mjs', import.meta.url))

interface Running {
  child: ChildProcess
  url: string
  key: string
}

async function start(dataFile: string): Promise<Running> {
  const child = spawn(process.execPath, [serverScript, dataFile], {stdio: ['ignore', 'pipe', 'pipe']})
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({input: child.stdout!}).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}) before listening: ${stderr}`)))
  })
  const {url, key} = JSON.parse(line) as {url: string; key: string}
  return {child, url, key}
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
    let stop = false
    const before = acknowledged.length
    const loop = async () => {
      while (!stop) {
        try {
          const response = await fetch(`${sandbox.url}/v1/payments`, {
            method: 'POST',
            headers,
            body: JSON.stringify({amount: 100 + (acknowledged.length % 900), phone_number: '237670000001', operator: 'MTN'}),
          })
          const body = (await response.json()) as {id?: string}
          if (response.status === 201 && body.id) acknowledged.push(body.id)
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
    options.log?.(`round ${round}: ${acknowledged.length - before} acknowledged before SIGKILL (${acknowledged.length} in all)`)
    await options.afterKill?.(round, acknowledged)
  }

  const sandbox = await start(options.dataFile)
  const lost: string[] = []
  try {
    const headers = {'x-api-key': sandbox.key}
    let next = 0
    const check = async () => {
      while (next < acknowledged.length) {
        const id = acknowledged[next++]
        const response = await fetch(`${sandbox.url}/v1/payments/${id}/status`, {headers})
        await response.arrayBuffer()
        if (response.status !== 200) lost.push(id)
      }
    }
    await Promise.all(Array.from({length: 8}, check))
  } finally {
    await killed(sandbox.child)
  }
  return {rounds: round, acknowledged: acknowledged.length, lost}
}
