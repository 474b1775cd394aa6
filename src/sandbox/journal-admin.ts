/**
 * The journal's admin routes (paths from src/contract/sandbox-inspector.ts): the list with its
 * filters, one request whole, the live stream (server-sent events) and replay.
 *
 * Replay sends the recorded request again to this sandbox over HTTP, with the same key: the key's
 * secret is not kept, so the request carries a one-time stand-in secret that the HTTP layer maps
 * to the key's record (`replayKey`), used once and forgotten.
 */
import {randomBytes} from 'node:crypto'
import type {ServerResponse} from 'node:http'
import {INSPECTOR_ROUTES, JOURNAL_SIZE, STATUS_FILTER, type JournalEntry, type JournalQuery, type ReplayAnswer} from '../contract/sandbox-inspector.js'
import type {Clock} from '../contract/clock.js'
import type {ApiKeyRecord, KeyRing} from './auth.js'
import {ApiError, notFound} from './errors.js'
import {t} from './i18n/index.js'
import {journalFilter, type Journal} from './journal.js'
import type {Router} from './router.js'
import type {Schema} from './schema.js'
import {addAdminRoute} from './admin/route.js'

export const journalQuery: Schema = {
  type: 'object',
  properties: {
    method: {type: 'string', pattern: '^[A-Za-z]{1,10}$'},
    path: {type: 'string', minLength: 1, maxLength: 500},
    status: {type: 'string', pattern: STATUS_FILTER.source, 'x-pattern-message': 'sandbox.journal.status'},
    since_ms: {type: 'integer', minimum: 0},
    limit: {type: 'integer', minimum: 1, maximum: JOURNAL_SIZE, default: 100},
    summary: {type: 'boolean'},
    all: {type: 'boolean'},
  },
}

/** One-time stand-in secrets for replayed requests. */
export class ReplayKeys {
  private readonly pending = new Map<string, ApiKeyRecord>()

  issue(key: ApiKeyRecord): string {
    const secret = `svc_replay_${randomBytes(18).toString('base64url')}`
    this.pending.set(secret, key)
    return secret
  }

  take(secret: string | undefined): ApiKeyRecord | undefined {
    if (!secret || !secret.startsWith('svc_replay_')) return undefined
    const key = this.pending.get(secret)
    this.pending.delete(secret)
    return key
  }
}

/** A server-sent events stream of `event` named entries; ends when the client goes. */
export function eventStream(res: ServerResponse, subscribe: (send: (event: string, data: unknown) => void) => () => void): void {
  const send = (event: string, data: unknown) => void res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  res.write(': connected\n\n')
  const unsubscribe = subscribe(send)
  // A comment now and then: a proxy or a client does not take a quiet stream for a dead one.
  const beat = setInterval(() => res.write(': beat\n\n'), 15_000)
  beat.unref()
  res.once('close', () => {
    clearInterval(beat)
    unsubscribe()
  })
}

export const SSE_HEADERS = {'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no'}

export function registerJournalRoutes(deps: {router: Router; journal: Journal; keys: KeyRing; replays: ReplayKeys; baseUrl: () => string; machine: Clock}): void {
  const {router, journal, keys, replays} = deps

  addAdminRoute(router, 'GET /_admin/requests', {
    query: journalQuery,
    handler: (req) => {
      const list = journal.list(req.query as JournalQuery)
      if (!req.query.summary) return {status: 200, body: {data: list}}
      const data = list.map(({request_headers: _a, response_headers: _b, request_body: _c, response_body: _d, ...line}) => ({...line, request_headers: {}, response_headers: {}, request_body: null, response_body: null}))
      return {status: 200, body: {data}}
    },
  })
  addAdminRoute(router, 'GET /_admin/requests/stream', {
    eventStream: true,
    query: journalQuery,
    handler: (req) => {
      const test = journalFilter(req.query as JournalQuery, deps.machine.now())
      return {
        status: 200,
        headers: SSE_HEADERS,
        stream: (res) =>
          eventStream(res, (send) =>
            journal.subscribe((entry) => {
              if (test({method: entry.method, path: entry.path, status: entry.status, atMs: Date.parse(entry.at), origin: entry.origin})) send('request', entry)
            }),
          ),
      }
    },
  })
  addAdminRoute(router, 'GET /_admin/requests/{requestId}', {
    handler: (req) => {
      const entry = journal.get(req.params.requestId)
      if (!entry) throw notFound('request', req.params.requestId)
      return {status: 200, body: entry}
    },
  })
  addAdminRoute(router, 'POST /_admin/requests/{requestId}/replay', {
    handler: async (req) => {
      const id = req.params.requestId
      const entry = journal.get(id)
      if (!entry) throw notFound('request', id)
      if (entry.truncated) throw new ApiError(409, 'invalid_state', t('sandbox.journal.truncated', {id}))
      const keyId = journal.keyIdOf(id)
      const key = keyId === undefined ? undefined : keys.get(keyId)
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(entry.request_headers)) {
        if (!/^(host|content-length|connection|transfer-encoding|keep-alive)$/.test(name)) headers[name] = value
      }
      if (key) headers['x-api-key'] = replays.issue(key)
      headers['x-svc-replay-of'] = id
      const url = `${deps.baseUrl()}${entry.path}${entry.query ? `?${entry.query}` : ''}`
      await fetch(url, {method: entry.method, headers, body: entry.request_body ?? undefined}).then((r) => r.arrayBuffer())
      const replayed = journal.list({all: true}, 50).find((e: JournalEntry) => e.request_headers['x-svc-replay-of'] === id)
      return {status: 201, body: {request: replayed} satisfies Partial<ReplayAnswer>}
    },
  })
}
