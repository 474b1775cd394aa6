/**
 * How one HTTP exchange is carried. Direct connections use node:http/https, which Node ships
 * precompiled: one request costs ~30 ms of start-up, against ~250 ms for loading undici and
 * compiling its WASM parser (measured on the 2-core dev machine), and `svc pay status` is
 * called in shell loops. When a proxy applies (HTTP(S)_PROXY set; NO_PROXY honoured by it) or a
 * dispatcher is given (tests), undici 7's agents carry the request: CONNECT tunnelling and
 * NO_PROXY matching are what a well-kept library does better than hand-written code.
 * Everything above the wire (retries, pacing, errors, trace) is the same for both.
 */
import type {Agent as HttpAgent, IncomingHttpHeaders} from 'node:http'
import type {Dispatcher} from 'undici'

import type {HeaderBag} from './pacer.js'

export interface Exchange {
  status: number
  headers: HeaderBag
  body: Buffer
}

export interface Transport {
  send(url: URL, init: {method: string; headers: Record<string, string>; body?: string | Uint8Array; signal: AbortSignal}): Promise<Exchange>
  close(): Promise<void>
}

export function hasProxyEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy)
}

/** node:http/https with keep-alive agents (long runs reuse sockets). */
export function nodeTransport(): Transport {
  const agents: Partial<Record<'http:' | 'https:', HttpAgent>> = {}
  return {
    async send(url, init) {
      const protocol = url.protocol === 'https:' ? 'https:' : 'http:'
      const lib = protocol === 'https:' ? await import('node:https') : await import('node:http')
      agents[protocol] ??= new lib.Agent({keepAlive: true})
      return new Promise<Exchange>((resolve, reject) => {
        const req = lib.request(url, {method: init.method, headers: init.headers, agent: agents[protocol], signal: init.signal}, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('error', reject)
          // A body cut short (reset mid-body) ends as 'aborted' without an error on some paths.
          res.on('aborted', () => reject(Object.assign(new Error('aborted'), {code: 'ECONNRESET'})))
          res.on('end', () => {
            if (!res.complete) reject(Object.assign(new Error('aborted'), {code: 'ECONNRESET'}))
            else resolve({status: res.statusCode ?? 0, headers: headersOf(res.headers), body: Buffer.concat(chunks)})
          })
        })
        req.on('error', reject)
        req.end(init.body)
      })
    },
    async close() {
      for (const agent of Object.values(agents)) agent?.destroy()
    },
  }
}

function headersOf(headers: IncomingHttpHeaders): HeaderBag {
  const out: HeaderBag = {}
  for (const [name, value] of Object.entries(headers)) out[name] = value
  return out
}

/** undici 7: an EnvHttpProxyAgent of our own when a proxy is set, else the dispatcher given. */
export function undiciTransport(given?: Dispatcher): Transport {
  let loaded: Promise<{undici: typeof import('undici'); dispatcher: Dispatcher; own: boolean}> | undefined
  const load = () =>
    (loaded ??= import('undici').then((undici) =>
      given ? {undici, dispatcher: given, own: false} : {undici, dispatcher: new undici.EnvHttpProxyAgent(), own: true},
    ))
  return {
    async send(url, init) {
      const {undici, dispatcher} = await load()
      const response = await undici.request(url, {
        method: init.method as Dispatcher.HttpMethod,
        headers: init.headers,
        body: init.body,
        signal: init.signal,
        dispatcher,
      })
      return {status: response.statusCode, headers: response.headers, body: Buffer.from(await response.body.arrayBuffer())}
    },
    async close() {
      if (!loaded) return
      const {dispatcher, own} = await loaded
      if (own) await dispatcher.close()
    },
  }
}

export function chooseTransport(given?: Dispatcher): Transport {
  return given || hasProxyEnv() ? undiciTransport(given) : nodeTransport()
}
