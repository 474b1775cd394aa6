/**
 * Webhook handlers as developers write them, for grading with `svc webhooks test`: two right ones
 * (one with the reference `standardwebhooks` library, one verifying by hand and deduplicating on
 * webhook-id) and several each wrong in one way. Real node:http servers on 127.0.0.1, port 0.
 */
import {createHmac, timingSafeEqual} from 'node:crypto'
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {Webhook} from 'standardwebhooks'

import type {TestClock} from '../../helpers/clock.js'

export type HandlerKind =
  | 'library'
  | 'handwritten'
  | 'no-signature-check'
  | 'reserialised'
  | 'unknown-type-500'
  | 'crash-on-missing-headers'
  | 'first-signature-only'
  | 'slow'

export interface Handler {
  url: string
  /** Event ids the app acted on, once per acting (a dedupe bug would list an id twice). */
  acted: string[]
  close(): Promise<void>
}

export interface HandlerOptions {
  /** For 'slow': how long the work takes before the app answers (after verifying). */
  delayMs?: number
  /**
   * For 'slow': the work's time is this test clock's, the one the command runs on: the app moves it
   * on by `delayMs` (firing the sender's deadline if it falls within), then answers. For a run of
   * one delivery (`--only`): each delivery of a burst would move it on again.
   */
  clock?: TestClock
}

type Headers = IncomingMessage['headers']

const KNOWN_TYPES = new Set(['payment.success', 'payment.failed'])

/** Standard Webhooks by hand, as the spec describes it; `signatures` picks which to check. */
function verifyByHand(secret: string, headers: Headers, body: string, signatures: 'all' | 'first' = 'all'): boolean {
  const id = headers['webhook-id']
  const timestamp = headers['webhook-timestamp']
  const signature = headers['webhook-signature']
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return false
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest()
  const given = signature.split(' ').map((part) => Buffer.from(part.split(',')[1] ?? '', 'base64'))
  return (signatures === 'first' ? given.slice(0, 1) : given).some((sig) => sig.length === expected.length && timingSafeEqual(sig, expected))
}

export async function startHandler(kind: HandlerKind, secret: string, options: HandlerOptions = {}): Promise<Handler> {
  const webhook = new Webhook(secret)
  const acted: string[] = []
  const seen = new Set<string>()
  const sleeping = new Set<NodeJS.Timeout>()

  /** What each kind does with a delivery; a throw is a crash (the framework's 500). */
  async function handle(headers: Headers, body: string): Promise<number> {
    switch (kind) {
      case 'library': {
        try {
          const event = webhook.verify(body, headers as Record<string, string>) as {id: string; type: string}
          if (KNOWN_TYPES.has(event.type)) acted.push(event.id)
          return 200
        } catch {
          return 401
        }
      }
      case 'handwritten': {
        if (!headers['webhook-id'] || !headers['webhook-timestamp'] || !headers['webhook-signature']) return 400
        if (!verifyByHand(secret, headers, body)) return 401
        const event = JSON.parse(body) as {id: string; type: string}
        if (seen.has(String(headers['webhook-id']))) return 200
        seen.add(String(headers['webhook-id']))
        if (KNOWN_TYPES.has(event.type)) acted.push(event.id)
        return 204
      }
      case 'no-signature-check': {
        const event = JSON.parse(body) as {id: string}
        acted.push(event.id)
        return 200
      }
      case 'reserialised': {
        // What a framework's parsed body invites: sign-check JSON.stringify(req.body).
        const event = JSON.parse(body) as {id: string}
        if (!verifyByHand(secret, headers, JSON.stringify(event))) return 401
        acted.push(event.id)
        return 200
      }
      case 'unknown-type-500': {
        if (!verifyByHand(secret, headers, body)) return 401
        const event = JSON.parse(body) as {id: string; type: string}
        if (event.type === 'payment.success' || event.type === 'payment.failed') {
          acted.push(event.id)
          return 200
        }
        throw new Error(`unhandled event type ${event.type}`)
      }
      case 'crash-on-missing-headers': {
        // Reads the headers without checking they are there: a TypeError when one is missing.
        const id = (headers['webhook-id'] as string).trim()
        const timestamp = (headers['webhook-timestamp'] as string).trim()
        const signature = (headers['webhook-signature'] as string).trim()
        if (!verifyByHand(secret, {'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature}, body)) return 401
        acted.push(id)
        return 200
      }
      case 'first-signature-only': {
        if (!verifyByHand(secret, headers, body, 'first')) return 401
        acted.push((JSON.parse(body) as {id: string}).id)
        return 200
      }
      case 'slow': {
        // Verifies, then does the work before answering: on the test's clock when given (it moves
        // the clock on by the work's time: one delivery at a time only, as a burst's would each
        // move it again), else in real time.
        if (!verifyByHand(secret, headers, body)) return 401
        if (options.clock) options.clock.advance(options.delayMs ?? 6_000)
        else {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              sleeping.delete(timer)
              resolve()
            }, options.delayMs ?? 6_000)
            sleeping.add(timer)
          })
        }
        acted.push((JSON.parse(body) as {id: string}).id)
        return 200
      }
    }
  }

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      handle(request.headers, Buffer.concat(chunks).toString('utf8')).then(
        (status) => response.writeHead(status).end(),
        () => response.writeHead(500).end('Internal Server Error'),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    acted,
    async close() {
      for (const timer of sleeping) clearTimeout(timer)
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }
}
