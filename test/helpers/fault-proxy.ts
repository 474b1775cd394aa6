/**
 * The one fault proxy of the tests: an HTTP proxy in front of a real server (the local sandbox).
 * Each request is matched against a list of rules, in order; a rule's fault is used `times` times
 * (default once), on every matching request or only on every `every`-th one. The request may be
 * forwarded (so the server acts on it) and then the answer lost, damaged or delayed, or answered
 * by the proxy instead. A refused connection needs no proxy: `refusedUrl()`.
 */
import {createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import {createServer as createTcpServer, type AddressInfo, type Socket} from 'node:net'

export type Fault =
  /** Forward, then close the client socket before any answer: the server acted, the client can't know. */
  | {kind: 'reset-after-forward'}
  /** Forward, wait for the server's answer, then reset the client's connection (TCP RST) instead of passing it on. */
  | {kind: 'rst-after-answer'}
  /** Close the socket without forwarding. */
  | {kind: 'reset-before-forward'}
  /** Answer this status (and body, headers) without forwarding. */
  | {kind: 'status'; status: number; body?: string; contentType?: string; headers?: Record<string, string>}
  /** Forward, but answer this status instead of the server's answer. */
  | {kind: 'status-after-forward'; status: number; body?: string; contentType?: string}
  /**
   * Forward, then hold the answer this long (a client deadline fires first); without `ms`, until
   * the client gives up (closes the connection); with `until`, until the promise it returns then
   * settles (an event of the test: the other runs have started), and then pass it on. `onHeld` is
   * called once the answer is held: a test moves the client's clock to its deadline there instead
   * of waiting it out.
   */
  | {kind: 'delay-after-forward'; ms?: number; until?: () => Promise<unknown>; onHeld?: () => void}
  /** Forward and send only the first `bytes` of the answer's body, then reset. */
  | {kind: 'truncate'; bytes: number}
  /** Forward, then answer the server's status and headers with only the first `bytes` of its body, framed as complete. */
  | {kind: 'truncate-body-framed'; bytes: number}
  /**
   * Forward, send the status, the headers and the first half of the body at once, then hold the
   * rest this long (slow body); without `ms`, until the client gives up. `onHeld` as above, once
   * the half has been sent.
   */
  | {kind: 'slow-body'; ms?: number; onHeld?: () => void}
  /** Forward, then answer the server's answer with this Content-Type instead of its own. */
  | {kind: 'content-type-after-forward'; contentType: string}

export type FaultKind = Fault['kind'] | 'refused'

/** A 429 as a rate-limited service sends it, answered by the proxy. */
export function rateLimited(retryAfterSeconds = 1): Fault {
  return {
    kind: 'status',
    status: 429,
    body: JSON.stringify({message: 'Too many requests.', code: 'rate_limited'}),
    headers: {'retry-after': String(retryAfterSeconds), 'ratelimit-limit': '300', 'ratelimit-remaining': '0', 'ratelimit-reset': String(retryAfterSeconds)},
  }
}

export interface FaultRule {
  method?: string
  /** Matched against the path (without the query). */
  path?: RegExp
  fault: Fault
  /** How many times this rule's fault is used (default 1; Infinity: for the whole test). */
  times?: number
  /** Use the fault on every n-th matching request only, forwarding the others untouched (default 1: each). */
  every?: number
  /**
   * Called once a request this rule's fault is used on has come, before anything is forwarded or
   * answered: a test moves its clock there (the request left at one time, the service acts later).
   */
  onArrived?: () => void | Promise<void>
}

export interface FaultProxy {
  url: string
  /** Requests seen, in order: "METHOD /path". */
  seen: string[]
  /** The statuses the server answered to forwarded requests, in order (e.g. to count its 429s). */
  answered: number[]
  /** How many times a fault was used. */
  injected(): number
  /** Rules whose faults are still waiting for a matching request. */
  pending(): FaultRule[]
  close(): Promise<void>
}

interface LiveRule extends FaultRule {
  matched: number
}

export async function startFaultProxy(target: string, rules: FaultRule[]): Promise<FaultProxy> {
  const upstream = new URL(target)
  const waiting: LiveRule[] = rules.map((rule) => ({...rule, matched: 0}))
  const seen: string[] = []
  const answered: number[] = []
  const sockets = new Set<Socket>()
  let injected = 0

  const forward = (req: IncomingMessage, body: Buffer): Promise<{status: number; headers: IncomingMessage['headers']; body: Buffer}> =>
    new Promise((resolve, reject) => {
      const out = httpRequest(
        {hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: {...req.headers, host: upstream.host}},
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve({status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks)}))
          res.on('error', reject)
        },
      )
      out.on('error', reject)
      out.end(body)
    })

  /** The fault for this request, if a rule matches and it is its turn. */
  const faultFor = (method: string | undefined, path: string): LiveRule | undefined => {
    const index = waiting.findIndex((r) => (!r.method || r.method === method) && (!r.path || r.path.test(path)))
    if (index === -1) return undefined
    const rule = waiting[index]!
    rule.matched++
    if (rule.matched % (rule.every ?? 1) !== 0) return undefined
    rule.times = (rule.times ?? 1) - 1
    if (rule.times <= 0) waiting.splice(index, 1)
    injected++
    return rule
  }

  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    const path = (req.url ?? '/').split('?')[0]
    seen.push(`${req.method} ${path}`)
    const rule = faultFor(req.method, path)
    const fault = rule?.fault
    try {
      await rule?.onArrived?.()
      if (fault?.kind === 'reset-before-forward') return req.socket.destroy()
      if (fault?.kind === 'status') {
        res.writeHead(fault.status, {'content-type': fault.contentType ?? 'application/json', ...fault.headers})
        return res.end(fault.body ?? '')
      }
      const answer = await forward(req, body)
      answered.push(answer.status)
      if (fault?.kind === 'reset-after-forward') return req.socket.destroy()
      if (fault?.kind === 'rst-after-answer') return req.socket.resetAndDestroy()
      if (fault?.kind === 'status-after-forward') {
        res.writeHead(fault.status, {'content-type': fault.contentType ?? 'application/json'})
        return res.end(fault.body ?? '')
      }
      if (fault?.kind === 'delay-after-forward') {
        fault.onHeld?.()
        if (fault.until) await fault.until().catch(() => undefined)
        else if (fault.ms === undefined) return await closed(res)
        else await new Promise((r) => setTimeout(r, fault.ms))
      }
      const headers = {...answer.headers}
      delete headers['transfer-encoding']
      if (fault?.kind === 'truncate-body-framed') {
        const cut = answer.body.subarray(0, fault.bytes)
        res.writeHead(answer.status, {...headers, 'content-length': String(cut.length)})
        return res.end(cut)
      }
      if (fault?.kind === 'slow-body') {
        res.writeHead(answer.status, {...headers, 'content-length': String(answer.body.length)})
        const half = Math.floor(answer.body.length / 2)
        await new Promise<void>((r) => res.write(answer.body.subarray(0, half), () => r()))
        // The half is on the client's socket; a moment for the client to read it (as for
        // `truncate` below), so the deadline it then meets is the body's, not the headers'.
        if (fault.onHeld) setTimeout(fault.onHeld, 20)
        if (fault.ms === undefined) return await closed(res)
        await new Promise((r) => setTimeout(r, fault.ms))
        if (!res.destroyed) res.end(answer.body.subarray(half))
        return
      }
      if (fault?.kind === 'content-type-after-forward') headers['content-type'] = fault.contentType
      if (fault?.kind === 'truncate') {
        res.writeHead(answer.status, {...headers, 'content-length': String(answer.body.length)})
        res.write(answer.body.subarray(0, fault.bytes))
        return setTimeout(() => req.socket.destroy(), 20)
      }
      res.writeHead(answer.status, headers)
      res.end(answer.body)
    } catch {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    }
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    answered,
    injected: () => injected,
    pending: () => waiting.map(({matched: _matched, ...rule}) => rule),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** Until the client closes the connection (or the proxy closes). */
function closed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.socket?.destroyed ?? true) return resolve()
    res.socket!.once('close', () => resolve())
  })
}

/** The `refused` fault: a URL on 127.0.0.1 where nothing listens (bound, then closed). */
export async function refusedUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`
}

/** A free TCP port on 127.0.0.1 (bound to port 0, then released). */
export async function freePort(): Promise<number> {
  const server = createTcpServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as {port: number}
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
