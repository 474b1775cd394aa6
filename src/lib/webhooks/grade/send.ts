/**
 * One POST of a test delivery to the developer's handler, timed, over node:http/https (built in,
 * cheap to load; a keep-alive agent per run so that the burst opens its connections once). Never
 * throws: an answer is a status, or why none came within the deadline.
 */
import * as http from 'node:http'
import * as https from 'node:https'
import type {LookupAddress} from 'node:dns'
import type {LookupFunction} from 'node:net'

import {systemClock, type Clock} from '../../../contract/clock.js'
import type {Delivery} from './cases.js'

export interface Answer {
  /** The HTTP status; absent when no answer came. */
  status?: number
  /** Why no answer came: `timeout`, or the network error's code (`ECONNREFUSED`, …). */
  error?: 'timeout' | string
  ms: number
}

export interface Sender {
  send(delivery: Delivery): Promise<Answer>
  close(): void
}

/**
 * `addresses`: where the host was found to be (this-machine.ts); given, every connection goes to
 * them, whatever the resolver would answer later. `clock` (the run's) times the answers and holds
 * the deadline.
 */
export function createSender(url: string, timeoutMs: number, addresses: LookupAddress[] = [], clock: Clock = systemClock): Sender {
  const target = new URL(url)
  const lib = target.protocol === 'https:' ? https : http
  const agent: http.Agent = new lib.Agent({keepAlive: true})

  function send(delivery: Delivery): Promise<Answer> {
    const sentAt = clock.now()
    let started = sentAt
    const since = (from: number) => clock.now() - from
    return new Promise<Answer>((resolve) => {
      let settled = false
      const finish = (answer: Omit<Answer, 'ms'>, from = started, atLeast = 0) => {
        if (settled) return
        settled = true
        clock.clearTimer(timer)
        resolve({...answer, ms: Math.max(since(from), atLeast)})
      }
      const options: http.RequestOptions = {
        method: 'POST',
        agent,
        headers: {...delivery.headers, 'content-length': String(Buffer.byteLength(delivery.body))},
        ...(addresses.length > 0 ? {lookup: pinnedLookup(addresses)} : {}),
      }
      const request = lib.request(target, options, (response: http.IncomingMessage) => {
        // Read the answer whole: the delivery ends when the handler has finished answering.
        response.resume()
        response.on('end', () => finish({status: response.statusCode}))
        response.on('error', () => finish({status: response.statusCode}))
      })
      // The latency is the handler's: a new connection's set-up (DNS, localhost's ::1 then
      // 127.0.0.1, TLS) is not counted; the timeout still is, from the start.
      request.on('socket', (socket) => {
        if (!socket.connecting) return
        socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
          started = clock.now()
        })
      })
      const timer = clock.setTimer(
        () => {
          // A timeout is the whole wait, as the service counts it (a timer may fire a millisecond
          // before the clock's reading has moved its full length: never told as 299 of 300 ms).
          finish({error: 'timeout'}, sentAt, timeoutMs)
          request.destroy()
        },
        timeoutMs,
        'deadline',
      )
      request.on('error', (error: NodeJS.ErrnoException) => finish({error: error.code ?? error.message}))
      request.end(delivery.body)
    })
  }

  return {send, close: () => agent.destroy()}
}

/** A lookup that answers with the addresses already checked (net.connect asks for one or all). */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return ((_hostname: string, options: {all?: boolean}, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses)
    else callback(null, addresses[0]!.address, addresses[0]!.family)
  }) as LookupFunction
}
