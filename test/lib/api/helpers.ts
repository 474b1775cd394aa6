import {afterEach} from 'vitest'
import type {TimerKind} from '../../../src/contract/clock.js'
// Real sockets for the API client tests: a local HTTP server that records what it received, a
// tiny forward proxy that counts what went through it, and a fake clock.
import http from 'node:http'
import net from 'node:net'
import type {AddressInfo} from 'node:net'

export interface Received {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, received: Received, index: number) => void

export interface TestServer {
  url: string
  port: number
  received: Received[]
  close(): Promise<void>
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const received: Received[] = []
  const sockets = new Set<net.Socket>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const one: Received = {method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8')}
      received.push(one)
      handler(req, res, one, received.length - 1)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers})
  res.end(text)
}

export interface TestProxy {
  url: string
  /** CONNECT tunnels and absolute-form requests seen. */
  count: () => number
  targets: string[]
  close(): Promise<void>
}

/** A forward proxy: CONNECT tunnels (undici's default) and plain absolute-form requests. */
export async function startProxy(): Promise<TestProxy> {
  const targets: string[] = []
  const sockets = new Set<net.Socket>()
  const server = http.createServer((req, res) => {
    targets.push(req.url ?? '')
    const target = new URL(req.url ?? '')
    const upstream = http.request(
      {host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers},
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      },
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    targets.push(req.url ?? '')
    const [host, port] = (req.url ?? '').split(':')
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    sockets.add(client)
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => targets.length,
    targets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A port that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/**
 * A clock (src/contract/clock.ts) whose waits advance time at once and record each delay. Its
 * deadlines (a request's) are held: they fire only when `expire` moves time past them, so a test
 * of a timeout takes no real time, and `advance` (time passing while a request is answered) never
 * times one out by itself.
 */
export function fakeClock(start = Date.parse('2026-03-01T10:00:00Z')) {
  let current = start
  const sleeps: number[] = []
  const deadlines = new Map<number, {at: number; callback: () => void}>()
  let nextDeadline = 1
  return {
    now: () => current,
    monotonic: () => current,
    setTimer: (callback: () => void, ms: number, kind?: TimerKind) => {
      if (kind === 'deadline') {
        deadlines.set(nextDeadline, {at: current + ms, callback})
        return nextDeadline++
      }
      sleeps.push(ms)
      current += ms
      queueMicrotask(callback)
      return undefined
    },
    clearTimer: (timer: unknown) => void deadlines.delete(timer as number),
    /** Move time on by `ms` and fire the deadlines now past, in order. */
    expire: (ms: number) => {
      current += ms
      for (const [id, deadline] of [...deadlines].sort((a, b) => a[1].at - b[1].at)) {
        if (deadline.at > current) continue
        deadlines.delete(id)
        deadline.callback()
      }
    },
    /** The deadlines waiting, ms from now. */
    deadlines: () => [...deadlines.values()].map((deadline) => deadline.at - current),
    sleep: async (ms: number) => {
      sleeps.push(ms)
      current += ms
    },
    advance: (ms: number) => {
      current += ms
    },
    sleeps,
  }
}

export const TEST_KEY = 'svc_sk_test_abcdefghijklmnopqrstuv1234'
export const USER_AGENT = 'svc/0.0.0-test node/20'

/**
 * The servers (and proxies) and clients a test starts, all closed after each test: call once at
 * the top of a file (or describe) and start things through `serve` / push onto the lists.
 */
export function useServers(): {
  servers: {close(): Promise<void>}[]
  clients: {close(): Promise<void>}[]
  serve(handler: Handler): Promise<TestServer>
} {
  const servers: {close(): Promise<void>}[] = []
  const clients: {close(): Promise<void>}[] = []
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()))
    await Promise.all(servers.splice(0).map((s) => s.close()))
  })
  return {
    servers,
    clients,
    async serve(handler) {
      const server = await startServer(handler)
      servers.push(server)
      return server
    },
  }
}
