/**
 * `svc mcp`'s stdio transport: newline-delimited JSON-RPC, as the SDK's StdioServerTransport
 * (`@modelcontextprotocol/sdk/server/stdio.js`), with what that one does not do under bad input:
 * - a line that is not JSON is answered -32700 (id null); JSON that is not a JSON-RPC message,
 *   -32600 (with its id when it has a usable one): the SDK's transport reports both to onerror
 *   and answers nothing, so a client waits forever for the id it sent;
 * - a message over MAX_MESSAGE_BYTES is answered -32600 (id null: it was not read) and skipped to
 *   its end of line, and the session goes on: the SDK's ReadBuffer throws past 10 MB and its
 *   transport closes the session, which a client sees as its own connection closing;
 * - at stdin EOF, requests still being handled are given up to DRAIN_MS to answer, and their
 *   answers are written before the session closes (the SDK's leaves that to the process); a
 *   request the client cancelled (`notifications/cancelled`) is not waited for: it gets no answer.
 * - wrong params of a known method are answered -32602 with the request's id (checkParams; the
 *   SDK's Server answers -32603, an internal error); unknown methods get the SDK's -32601. Messages are checked with the SDK's JSONRPCMessageSchema, handed in (the SDK loads
 * lazily, server.ts).
 */
import {AsyncLocalStorage} from 'node:async_hooks'
import type {Readable, Writable} from 'node:stream'

import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'

/** Largest message read, bytes: a tool call's arguments are kilobytes (an invoice of 100 items, ~10 KB). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024
/** How long requests in flight at stdin EOF may take to answer. */
export const DRAIN_MS = 120_000

type Id = string | number
type Check = (value: unknown) => {success: true; data: JSONRPCMessage} | {success: false}
/** For a request of a known method: why its params are wrong (answered -32602), or undefined. */
type CheckParams = (message: JSONRPCMessage & {method: string}) => string | undefined

export interface LineTransportEvents {
  /** A message over the limit was refused (its size so far). */
  tooLarge(bytes: number): void
  /** stdin ended with `count` requests in flight. */
  draining(count: number): void
  /** They did not all answer within DRAIN_MS. */
  drainTimedOut(ids: Id[]): void
}

export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void
  onerror?: (error: Error) => void
  onclose?: () => void

  private parts: Buffer[] = []
  private size = 0
  /** Skipping the rest of a line that was over the limit. */
  private skipping = false
  private readonly inFlight = new Set<Id>()
  private ended = false
  private closed = false
  private drainTimer?: NodeJS.Timeout

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly check: Check,
    private readonly checkParams: CheckParams,
    private readonly events: LineTransportEvents,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData)
    this.stdin.on('end', this.onEnd)
    this.stdin.on('close', this.onEnd)
    this.stdin.on('error', this.onStdinError)
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const written = this.stdout.write(`${JSON.stringify(message)}\n`)
      const done = () => {
        // An answer to a request that was in flight: one fewer to wait for at EOF.
        if ('id' in message && !('method' in message) && message.id !== undefined && this.inFlight.delete(message.id)) this.settle()
        resolve()
      }
      if (written) done()
      else this.stdout.once('drain', done)
    })
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.drainTimer)
    this.stdin.off('data', this.onData)
    this.stdin.off('end', this.onEnd)
    this.stdin.off('close', this.onEnd)
    this.stdin.off('error', this.onStdinError)
    this.stdin.pause()
    this.onclose?.()
  }

  // stdin's listeners run in the context the transport was made in (the command's run, with its
  // language), not in that of whoever writes to the stream: a stream other than the process's
  // stdin (the command run in-process, or by an embedding program) calls them from the writer's.
  private readonly onStdinError = AsyncLocalStorage.bind((error: Error) => this.onerror?.(error))

  private readonly onData = AsyncLocalStorage.bind((chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    while (data.length > 0) {
      const newline = data.indexOf(0x0a)
      const piece = newline === -1 ? data : data.subarray(0, newline)
      data = newline === -1 ? Buffer.alloc(0) : data.subarray(newline + 1)
      if (!this.skipping) {
        this.size += piece.length
        if (this.size > MAX_MESSAGE_BYTES) {
          // Refused as soon as it passes the limit: nothing more of it is kept.
          this.events.tooLarge(this.size)
          void this.sendError(null, -32600, `Invalid Request: message too large (over ${MAX_MESSAGE_BYTES} bytes); it was not read.`)
          this.parts = []
          this.skipping = true
        } else this.parts.push(piece)
      }
      if (newline === -1) return
      const line = this.skipping ? undefined : Buffer.concat(this.parts).toString('utf8')
      this.parts = []
      this.size = 0
      this.skipping = false
      if (line !== undefined) this.handleLine(line.replace(/\r$/, ''))
    }
  })

  private handleLine(line: string): void {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      void this.sendError(null, -32700, `Parse error: ${(error as Error).message}`)
      return
    }
    const checked = this.check(value)
    if (!checked.success) {
      void this.sendError(usableId(value), -32600, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response.')
      return
    }
    const message = checked.data
    if ('method' in message && 'id' in message && message.id !== undefined) {
      // The SDK's Server answers params its schema refuses with -32603 (internal error): -32602 here.
      const wrong = this.checkParams(message)
      if (wrong !== undefined) {
        void this.sendError(message.id, -32602, `Invalid params: ${wrong}`)
        return
      }
      this.inFlight.add(message.id)
    }
    this.onmessage?.(message)
    // A call the client cancelled gets no answer (the protocol says so): not one to wait for.
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message && message.id !== undefined)) {
      const requestId = (message.params as {requestId?: Id} | undefined)?.requestId
      if (requestId !== undefined && this.inFlight.delete(requestId)) this.settle()
    }
  }

  private readonly onEnd = AsyncLocalStorage.bind(() => {
    if (this.ended) return
    this.ended = true
    if (this.inFlight.size > 0) {
      this.events.draining(this.inFlight.size)
      this.drainTimer = setTimeout(() => {
        this.events.drainTimedOut([...this.inFlight])
        void this.close()
      }, DRAIN_MS)
    }
    this.settle()
  })

  /** At EOF, once every request in flight has its answer written: the session is over. */
  private settle(): void {
    if (this.ended && this.inFlight.size === 0) void this.close()
  }

  private sendError(id: Id | null, code: number, message: string): Promise<void> {
    // The SDK's JSONRPCMessage type has no id null; the JSON-RPC answer to an unreadable request does.
    return this.send({jsonrpc: '2.0', id, error: {code, message}} as unknown as JSONRPCMessage)
  }
}

/** The id of something that is not a valid message, when it has one a client could match. */
function usableId(value: unknown): Id | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null
  const id = (value as {id?: unknown}).id
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null
}
