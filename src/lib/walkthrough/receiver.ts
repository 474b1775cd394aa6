/**
 * The walkthrough's own webhook endpoint: a tiny local server that checks each delivery's
 * Standard Webhooks signature and keeps the events, so the tour can show what fired.
 */
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import type {Clock} from '../../contract/clock.js'
import {verifyPayload} from '../../contract/signature.js'

export interface ReceivedEvent {
  id: string
  type: string
  paymentId?: string
  verified: boolean
  reason?: string
}

export interface EventReceiver {
  url: string
  events: ReceivedEvent[]
  /** Set once the endpoint's secret is known (it is minted when the endpoint is registered). */
  setSecret(secret: string): void
  /** Resolves when `predicate` holds for the events received, or after `timeoutMs`. */
  waitFor(predicate: (events: ReceivedEvent[]) => boolean, timeoutMs: number): Promise<boolean>
  close(): Promise<void>
}

export async function startEventReceiver(clock: Clock): Promise<EventReceiver> {
  let secret = ''
  const events: ReceivedEvent[] = []
  const listeners = new Set<() => void>()
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const check = verifyPayload(secret, req.headers as Record<string, string>, body, {nowSeconds: Math.floor(clock.now() / 1000)})
      let parsed: {id?: string; type?: string; data?: {id?: string}} = {}
      try {
        parsed = JSON.parse(body)
      } catch {
        // Recorded as unverified below.
      }
      const id = String(parsed.id ?? req.headers['webhook-id'] ?? '')
      if (!events.some((e) => e.id === id && e.verified)) {
        events.push({
          id,
          type: String(parsed.type ?? ''),
          paymentId: parsed.data?.id,
          verified: check.ok,
          reason: check.ok ? undefined : check.reason,
        })
      }
      res.writeHead(check.ok ? 204 : 401).end()
      for (const listener of listeners) listener()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    events,
    setSecret(value) {
      secret = value
    },
    waitFor(predicate, timeoutMs) {
      if (predicate(events)) return Promise.resolve(true)
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clock.clearTimer(timer)
          listeners.delete(check)
          resolve(ok)
        }
        const check = () => predicate(events) && done(true)
        const timer = clock.setTimer(() => done(false), timeoutMs, 'deadline')
        listeners.add(check)
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
