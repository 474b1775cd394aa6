/**
 * A stand-in for the developer's app: a real node:http server on 127.0.0.1 that verifies each
 * delivery with the reference `standardwebhooks` library, as a real app would.
 */
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {Webhook} from 'standardwebhooks'

export interface Received {
  path: string
  headers: IncomingMessage['headers']
  body: string
  event: {id: string; type: string; [k: string]: unknown}
}

export interface LocalApp {
  port: number
  url: string
  /** Deliveries that verified, in arrival order (answered or not). */
  received: Received[]
  /** Deliveries that did not verify with the local secret. */
  unverified: number
  /** Status for the next delivery; default 200. */
  statusFor: (delivery: Received, index: number) => number
  /** Stop listening and drop every connection (the app is down). */
  stop(): Promise<void>
  /** Listen again on the same port. */
  restart(): Promise<void>
  close(): Promise<void>
}

export async function startLocalApp(secret: string, port = 0): Promise<LocalApp> {
  const webhook = new Webhook(secret)
  let server: Server | undefined
  const app: LocalApp = {
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
        event = webhook.verify(body, request.headers as Record<string, string>) as Received['event']
      } catch {
        app.unverified++
        response.writeHead(400).end('bad signature')
        return
      }
      const delivery: Received = {path: request.url ?? '/', headers: request.headers, body, event}
      app.received.push(delivery)
      const status = app.statusFor(delivery, app.received.length - 1)
      response.writeHead(status, {'content-type': 'text/plain'}).end(status < 300 ? 'ok' : 'no')
    })
  }

  async function listen(onPort: number): Promise<void> {
    server = createServer(handle)
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject)
      server!.listen(onPort, '127.0.0.1', () => resolve())
    })
    app.port = (server.address() as AddressInfo).port
    app.url = `http://127.0.0.1:${app.port}`
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
    await listen(app.port)
  }

  await listen(port)
  return app
}

/** Resolve once `check()` is true, polling every 10 ms; reject after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
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
