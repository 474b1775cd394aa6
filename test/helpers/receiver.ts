/**
 * The one webhook receiver of the tests: a stand-in for the developer's app, a real node:http
 * server on 127.0.0.1 that records each delivery (path, headers, raw body) and answers with the
 * status the test sets. Given the endpoint's secret, it verifies each delivery with the reference
 * `standardwebhooks` library, as a real app would: only the deliveries that verify are recorded
 * (the others are counted and answered 400). It can go down and come back on the same port.
 */
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {Webhook} from 'standardwebhooks'

export interface Received {
  path: string
  headers: IncomingMessage['headers']
  body: string
  /** The parsed event (verified when the receiver has a secret). */
  event: {id: string; type: string; [k: string]: unknown}
}

export interface ReceiverOptions {
  /** Verify every delivery with this secret; without one every delivery is recorded as sent. */
  secret?: string
  port?: number
  /** The path `url` points at (default `/`); deliveries to any path are recorded. */
  path?: string
}

export interface Receiver {
  port: number
  /** The base URL plus `path`. */
  url: string
  /** Deliveries recorded, in arrival order (answered or not). */
  received: Received[]
  /** Deliveries that did not verify with the secret. */
  unverified: number
  /** Status for a delivery, given it and its 0-based index among those recorded; default 200. */
  statusFor: (delivery: Received, index: number) => number
  /** Stop listening and drop every connection (the app is down). */
  stop(): Promise<void>
  /** Listen again on the same port. */
  restart(): Promise<void>
  close(): Promise<void>
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const webhook = options.secret ? new Webhook(options.secret) : undefined
  let server: Server | undefined
  const receiver: Receiver = {
    port: 0,
    url: '',
    received: [],
    unverified: 0,
    statusFor: () => 200,
    stop,
    restart,
    close: stop,
  }

  function handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let event: Received['event']
      try {
        event = (webhook ? webhook.verify(body, request.headers as Record<string, string>) : JSON.parse(body)) as Received['event']
      } catch {
        if (webhook) {
          receiver.unverified++
          response.writeHead(400).end('bad signature')
          return
        }
        event = {id: '', type: ''}
      }
      const delivery: Received = {path: request.url ?? '/', headers: request.headers, body, event}
      receiver.received.push(delivery)
      const status = receiver.statusFor(delivery, receiver.received.length - 1)
      response.writeHead(status, {'content-type': 'text/plain'}).end(status < 300 ? 'ok' : 'no')
    })
  }

  async function listen(onPort: number): Promise<void> {
    server = createServer(handle)
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject)
      server!.listen(onPort, '127.0.0.1', () => resolve())
    })
    receiver.port = (server.address() as AddressInfo).port
    receiver.url = `http://127.0.0.1:${receiver.port}${options.path ?? ''}`
  }

  async function stop(): Promise<void> {
    const current = server
    server = undefined
    if (!current) return
    const closed = new Promise<void>((resolve) => current.close(() => resolve()))
    current.closeAllConnections()
    await closed
  }

  async function restart(): Promise<void> {
    await listen(receiver.port)
  }

  await listen(options.port ?? 0)
  return receiver
}

/** Resolve once `check()` is true, polling every 10 ms; reject after `timeoutMs` (generous: a busy machine delays deliveries by seconds). */
export async function waitFor(check: () => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** A payment event as the contract shapes it. */
export function makeEvent(n: number, type: 'payment.success' | 'payment.failed' = 'payment.success') {
  return {
    id: `evt_test_${String(n).padStart(6, '0')}`,
    type,
    created_at: new Date().toISOString(),
    environment: 'SANDBOX',
    data: {
      id: `svcpay_test_${n}`,
      status: type === 'payment.success' ? 'SUCCESS' : 'FAILED',
      amount: 1000 + n,
      currency: 'XAF',
      payment_method: 'mobile_money',
      environment: 'SANDBOX',
      phone_number: '237670000001',
      created_at: new Date().toISOString(),
    },
  }
}
