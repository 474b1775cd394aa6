/** Shared by the invoice command tests: a sandbox, the CLI env for it, and reads of its state. */
import {createServer, connect, type Server, type Socket} from 'node:net'

import {startSandbox, type Sandbox} from '../../src/sandbox/index.js'
import {runCli, type CliOptions} from '../helpers/cli.js'
import {realPng} from '../helpers/images.js'

export type {Sandbox}

export async function sandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  return startSandbox({port: 0, settleAfterMs: 0, rateLimit: 0, seed: 7, ...options})
}

export function cli(sb: Sandbox, configDir: string, key: 'sandbox' | 'live' = 'sandbox') {
  return (args: string[], extra: Partial<CliOptions> = {}) =>
    runCli(args, {configDir, ...extra, env: {SVC_BASE_URL: sb.url, SVC_API_KEY: sb.keys[key], SVC_RATE_LIMIT: '0', ...extra.env}})
}

/** Every invoice of the key's environment, through the public API (all pages). */
export async function allInvoices(sb: Sandbox, key: 'sandbox' | 'live' = 'sandbox'): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = []
  for (let page = 1; ; page++) {
    const response = await fetch(`${sb.url}/v1/invoices?page=${page}&page_size=100`, {headers: {'X-API-Key': sb.keys[key]}})
    if (response.status !== 200) throw new Error(`list invoices: ${response.status} ${await response.text()}`)
    const body = (await response.json()) as {data: Array<Record<string, unknown>>; total_pages: number}
    out.push(...body.data)
    if (page >= body.total_pages || body.data.length === 0) return out
  }
}

/**
 * A TCP proxy in front of the sandbox that, the first time it sees `POST /v1/invoices `, lets the
 * request through, waits for the sandbox's answer, and resets the client's connection instead of
 * passing it on: the invoice exists, the client saw a network failure.
 */
export async function resettingProxy(target: string): Promise<{url: string; resets: () => number; close: () => Promise<void>}> {
  const upstream = new URL(target)
  let resets = 0
  let tripped = false
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    sockets.add(client)
    const origin = connect(Number(upstream.port), upstream.hostname)
    sockets.add(origin)
    let armed = false
    client.on('data', (chunk) => {
      if (!tripped && chunk.toString('latin1').includes('POST /v1/invoices ')) {
        tripped = true
        armed = true
      }
      origin.write(chunk)
    })
    origin.on('data', (chunk) => {
      if (armed) {
        resets += 1
        armed = false
        client.resetAndDestroy()
        origin.destroy()
        return
      }
      client.write(chunk)
    })
    const end = () => {
      client.destroy()
      origin.destroy()
    }
    client.on('error', end).on('close', end)
    origin.on('error', end).on('close', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as {port: number}).port
  return {
    url: `http://127.0.0.1:${port}`,
    resets: () => resets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A tiny real PNG (the sandbox decodes what it stores). */
export const PNG = realPng()

/** An import CSV of `n` distinct rows. */
export function importCsv(n: number, prefix = 'Customer'): string {
  let text = 'customer_name,due_date,items,external_reference\r\n'
  for (let i = 1; i <= n; i++) text += `"${prefix} ${i}",2026-12-31,"Bread:${100 + i}:2; Cake:1 000:1",REF-${i}\r\n`
  return text
}

/**
 * An HTTP proxy in front of the sandbox that answers every `nth` POST /v1/invoices itself with a
 * 429 (Retry-After: 1, RateLimit-Remaining: 0) without forwarding it: the client must wait and
 * retry with the same key.
 */
export async function limitingProxy(target: string, nth: number): Promise<{url: string; injected: () => number; close: () => Promise<void>}> {
  const {createServer: createHttpServer} = await import('node:http')
  let creates = 0
  let injected = 0
  const server = createHttpServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (req.method === 'POST' && req.url === '/v1/invoices' && ++creates % nth === 0) {
      injected += 1
      res.writeHead(429, {'content-type': 'application/json', 'retry-after': '1', 'ratelimit-limit': '300', 'ratelimit-remaining': '0', 'ratelimit-reset': '1'})
      res.end(JSON.stringify({message: 'Too many requests.', code: 'rate_limited'}))
      return
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value
    const upstream = await fetch(new URL(req.url ?? '/', target), {method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined})
    const body = Buffer.from(await upstream.arrayBuffer())
    const out: Record<string, string> = {}
    upstream.headers.forEach((value, name) => {
      if (!['content-encoding', 'transfer-encoding', 'connection', 'content-length'].includes(name)) out[name] = value
    })
    res.writeHead(upstream.status, out)
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as {port: number}).port}`,
    injected: () => injected,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
