/**
 * The listener's receiver: a node:http server on 127.0.0.1 that takes POSTed deliveries, verifies
 * them with the inbound secret(s) when there are any (401 and `onRejected` otherwise), parses the
 * event and hands it over; GET and HEAD answer that it is listening. The duplicate filter (the
 * webhook-ids already seen) lives here too; the listener consults it for inbound and ingested
 * events alike.
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {systemClock, type Clock} from '../../contract/clock.js'
import {asWebhookEvent, type WebhookEvent} from '../../contract/events.js'
import {verifyPayload} from '../../contract/signature.js'
import {t} from '../i18n/index.js'
import type {ReceivedReport, RejectedReport} from './reports.js'
import {describeVerifyFailure} from './verify-input.js'

const DEFAULT_MAX_BODY = 1024 * 1024

export type InboundSecret = string | readonly string[] | undefined

export interface ReceiverOptions {
  /** Verify deliveries with this secret (several during a rotation); none: accept unsigned. */
  inboundSecret?: InboundSecret
  /** Timestamp tolerance, seconds (default 300). */
  toleranceSeconds?: number
  port?: number
  host?: string
  /** Largest body, bytes (default 1 MiB). */
  maxBodyBytes?: number
  /** What a delivery's timestamp is checked against, and rejections stamped with (default the machine's). */
  clock?: Clock
  /** A verified, parsed delivery: what became of it. */
  handOver(event: WebhookEvent, body: string, webhookId: string): {outcome: ReceivedReport['outcome']}
  onRejected(report: RejectedReport): void
}

export interface Receiver {
  url: string
  port: number
  setInboundSecret(secret: InboundSecret): void
  /** Stop accepting connections and drop the idle ones; resolves when the server has closed. */
  close(): Promise<void>
  /** Drop the connections still open (after the grace). */
  closeAllConnections(): void
}

/** The webhook-ids seen, the oldest forgotten past `window`. */
export interface DuplicateFilter {
  has(id: string): boolean
  remember(id: string): void
}

export function createDuplicateFilter(window: number): DuplicateFilter {
  // Two generations: a full young set becomes the old one. O(1) per id, and the newest `window`
  // ids are always remembered (up to twice that). Evicting one by one from the front of a Set is
  // not O(1) in V8: each `values().next()` skips every slot deleted since the last rehash, which
  // at thousands of events a second stalled the listener once the window was full.
  const size = Math.max(1, window)
  let young = new Set<string>()
  let old = new Set<string>()
  return {
    has: (id) => young.has(id) || old.has(id),
    remember(id) {
      if (young.has(id)) return
      young.add(id)
      if (young.size >= size) {
        old = young
        young = new Set()
      }
    },
  }
}

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const secretList = (secret: InboundSecret): string[] =>
    secret === undefined ? [] : typeof secret === 'string' ? [secret] : [...secret]
  let inboundSecrets = secretList(options.inboundSecret)
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY
  const clock = options.clock ?? systemClock

  function reject(response: ServerResponse, status: number, report: Omit<RejectedReport, 'at'>): void {
    options.onRejected({at: new Date(clock.now()), ...report})
    const code = status === 401 ? 'invalid_signature' : status === 413 ? 'too_large' : 'invalid_event'
    respond(response, status, {message: report.message, code, reason: report.reason})
  }

  function handle(request: IncomingMessage, response: ServerResponse): void {
    if (request.method !== 'POST') {
      if (request.method === 'GET' || request.method === 'HEAD') {
        respond(response, 200, {listening: true})
      } else {
        response.setHeader('allow', 'POST, GET')
        respond(response, 405, {message: t('webhooks.listen.methodNotAllowed'), code: 'method_not_allowed'})
      }
      request.resume()
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBody) tooLarge = true
      else chunks.push(chunk)
    })
    request.on('end', () => {
      const remoteAddress = request.socket.remoteAddress
      if (tooLarge) {
        reject(response, 413, {reason: 'too_large', message: t('webhooks.listen.tooLarge', {limit: maxBody}), remoteAddress})
        return
      }
      const body = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')
      const headers = request.headers as Record<string, string | string[] | undefined>
      const headerId = typeof headers['webhook-id'] === 'string' ? headers['webhook-id'] : undefined
      if (inboundSecrets.length > 0) {
        const failure = verifyInbound(headers, body)
        if (failure) {
          reject(response, 401, {
            reason: failure.reason,
            message: describeVerifyFailure(failure, {
              timestampValue: typeof headers['webhook-timestamp'] === 'string' ? headers['webhook-timestamp'] : undefined,
            }),
            header: failure.header,
            skewSeconds: failure.skewSeconds,
            webhookId: headerId,
            remoteAddress,
          })
          return
        }
      }
      let event: WebhookEvent | undefined
      try {
        event = asWebhookEvent(JSON.parse(body))
      } catch {
        event = undefined
      }
      if (!event) {
        reject(response, 400, {reason: 'bad_body', message: t('webhooks.listen.badBody'), webhookId: headerId, remoteAddress})
        return
      }
      const result = options.handOver(event, body, headerId ?? event.id)
      respond(response, 200, result.outcome === 'duplicate' ? {received: true, duplicate: true} : {received: true})
    })
  }

  function verifyInbound(headers: Record<string, string | string[] | undefined>, body: string) {
    let first: Exclude<ReturnType<typeof verifyPayload>, {ok: true}> | undefined
    for (const secret of inboundSecrets) {
      const result = verifyPayload(secret, headers, body, {toleranceSeconds: options.toleranceSeconds, nowSeconds: Math.floor(clock.now() / 1000)})
      if (result.ok) return undefined
      first ??= result
    }
    return first
  }

  const server = createServer({keepAliveTimeout: 5_000}, handle)
  server.on('clientError', (_error, socket) => socket.destroy())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    setInboundSecret(secret) {
      inboundSecrets = secretList(secret)
    },
    close() {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      return stopped
    },
    closeAllConnections: () => server.closeAllConnections(),
  }
}

function respond(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  response.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text)})
  response.end(text)
}
