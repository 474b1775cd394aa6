/**
 * The journal's bound as the sandbox's memory shows it: `svc sandbox serve` (the built CLI, a
 * process of its own, its code loaded by 500 short requests) flooded by ten keep-alive clients
 * with 11,000 requests carrying a 7 KB query string, then 600 requests with a 900 KB body. Its RSS
 * and its peak (VmHWM), read from /proc after each flood, stay under the bound docs/sandbox.md
 * documents; and once its garbage is collected, what the query flood left is within the journal's
 * bound of where it started (it kept ~100 MB when the journal did not count URLs).
 */
import {existsSync, readFileSync} from 'node:fs'
import {Agent, request} from 'node:http'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {tempConfigDir} from '../helpers/config-dir.js'
import {startServe, type ServedSandbox} from '../helpers/sandbox.js'

/** docs/sandbox.md, The request journal: a serve's RSS at its peak, however many and large the requests (MB). */
const SERVE_RSS_BOUND = 300
/** What the journal holds at most (its bodies, headers, URLs and rows: ~57 MB) and the heap's slack (MB). */
const JOURNAL_GROWTH_BOUND = 75
const MB = 1e6
const CHILD_GC = fileURLToPath(new URL('../helpers/child-gc.mjs', import.meta.url))

let temp: ReturnType<typeof tempConfigDir>
let served: ServedSandbox
let pid: number
let gcReport: string
// Ten connections kept open, as a load generator uses them.
const agent = new Agent({keepAlive: true, maxSockets: 10})

beforeAll(async () => {
  temp = tempConfigDir()
  gcReport = join(temp.dir, 'gc-report')
  // The CLI as a user runs it, with a way to collect its garbage on SIGUSR2 (test/helpers/child-gc.mjs).
  served = await startServe(temp.dir, ['--rate-limit', '0'], {NODE_OPTIONS: `--expose-gc --import ${CHILD_GC}`, SVC_TEST_GC_REPORT: gcReport})
  pid = served.info.pid
}, 120_000)
afterAll(async () => {
  agent.destroy()
  await served?.kill('SIGKILL')
  temp?.cleanup()
})

function memory() {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => (Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) * 1024) / MB
  return {rss: field('VmRSS'), peak: field('VmHWM')}
}

/** The memory once the child has collected its garbage. */
async function settled() {
  const collections = () => (existsSync(gcReport) ? readFileSync(gcReport, 'utf8').split('\n').length - 1 : 0)
  const before = collections()
  process.kill(pid, 'SIGUSR2')
  // (The CLI's process may run the handler twice for one signal: a line or two.)
  await expect.poll(collections, {timeout: 20_000}).toBeGreaterThan(before)
  return memory()
}

/** Sends `count` requests, ten at a time, each answer read whole; the statuses seen, counted. */
async function flood(count: number, send: (n: number) => {method: string; path: string; body?: Buffer}): Promise<Record<number, number>> {
  const {hostname, port} = new URL(served.info.base_url)
  const statuses: Record<number, number> = {}
  const one = (n: number) =>
    new Promise<void>((done, fail) => {
      const {method, path, body} = send(n)
      const headers: Record<string, string | number> = {'x-api-key': served.info.sandbox_key}
      if (body) Object.assign(headers, {'content-type': 'application/json', 'content-length': body.length})
      const req = request({agent, hostname, port, method, path, headers}, (res) => {
        res.resume()
        res.on('end', () => {
          statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1
          done()
        })
        res.on('error', fail)
      })
      req.on('error', fail)
      req.end(body)
    })
  let next = 0
  const client = async () => {
    while (next < count) await one(next++)
  }
  await Promise.all(Array.from({length: 10}, client))
  return statuses
}

describe('the sandbox under a flood of long queries and large bodies', {timeout: 120_000}, () => {
  it(`keeps its RSS under ${SERVE_RSS_BOUND} MB at its peak, what the journal keeps of the queries within its bound, and keeps serving`, async () => {
    // The code the flood runs, loaded and compiled first: what grows after is what the flood leaves.
    expect(await flood(500, (n) => ({method: 'GET', path: `/v1/payments?limit=1&n=${n}`}))).toEqual({200: 500})
    const atStart = await settled()

    const query = `note=${'q'.repeat(7 * 1024)}`
    expect(await flood(11_000, (n) => ({method: 'GET', path: `/v1/payments?limit=1&n=${n}&${query}`}))).toEqual({200: 11_000})
    const afterQueries = memory()
    const queriesSettled = await settled()

    const body = Buffer.from(JSON.stringify({amount: 1000, phone_number: '237670000001', operator: 'MTN', note: 'b'.repeat(900 * 1024)}))
    // Refused (`note` is no field of a payment), each read whole first, as an attacker's would be.
    expect(await flood(600, () => ({method: 'POST', path: '/v1/payments', body}))).toEqual({400: 600})
    const afterBodies = memory()
    const bodiesSettled = await settled()

    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    const cpu = (Number(stat[11]) + Number(stat[12])) / 100
    const mb = (n: number) => n.toFixed(0)
    process.stderr.write(
      `journal-flood: serve RSS at start ${mb(atStart.rss)} MB; after 11,000 × 7 KB queries ${mb(afterQueries.rss)} MB (peak ${mb(afterQueries.peak)}, ` +
        `collected ${mb(queriesSettled.rss)}); after 600 × 900 KB bodies ${mb(afterBodies.rss)} MB (peak ${mb(afterBodies.peak)}, collected ${mb(bodiesSettled.rss)}); serve CPU ${cpu.toFixed(1)} s\n`,
    )

    expect(afterQueries.peak).toBeLessThan(SERVE_RSS_BOUND)
    expect(queriesSettled.rss - atStart.rss).toBeLessThan(JOURNAL_GROWTH_BOUND)
    expect(afterBodies.peak).toBeLessThan(SERVE_RSS_BOUND)
    expect(bodiesSettled.rss).toBeLessThan(SERVE_RSS_BOUND)

    // Still serving, and the journal says what it kept: the newest request's body cut, its size as sent.
    const response = await fetch(`${served.info.admin_url}/requests?limit=1`, {headers: {authorization: `Bearer ${served.info.admin_token}`}})
    const [newest] = ((await response.json()) as {data: Array<Record<string, unknown>>}).data
    expect(newest).toMatchObject({method: 'POST', path: '/v1/payments', status: 400, request_bytes: body.length, truncated: true})
  })
})
