/**
 * `Idempotency-Key` on invoice creation (docs/service.md, "Invoices" and "Errors"). A key is remembered per environment of the one business for 24 hours of sandbox time:
 * - completed: the original status and body are replayed (`Idempotent-Replayed: true`), nothing is
 *   created;
 * - the same key with another body (compared after validation, so key order and defaults do not
 *   matter): 422 `idempotency_key_reused`;
 * - the same key while the first request is still being processed: 409 `idempotency_in_progress`.
 * Only a request that got as far as creating is remembered: a request refused by validation (400)
 * leaves the key free, as does one that failed unexpectedly, so the client can fix it and retry.
 */
import {createHash} from 'node:crypto'
import {t} from '../i18n/index.js'
import type {SandboxContext} from '../context.js'
import {ApiError} from '../errors.js'
import type {Collection} from '../store.js'
import type {Environment} from '../types.js'

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

interface IdempotencyRecord {
  id: string
  fingerprint: string
  state: 'in_progress' | 'completed'
  created_at: number
  expires_at: number
  response?: {status: number; body: unknown}
}

/** JSON with object keys sorted, so that two equal bodies give the same fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(value)
}

export function fingerprint(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex')
}

export type Begin = {replay: {status: number; body: unknown}} | {commit(status: number, body: unknown): void; abandon(): void}

export class IdempotencyKeys {
  constructor(private readonly ctx: SandboxContext) {
    ctx.scheduler.define('idempotency.forget', (p: {environment: Environment; key: string; created_at: number}) => {
      const record = this.collection(p.environment).get(p.key)
      if (record && record.created_at === p.created_at) this.collection(p.environment).delete(p.key)
    })
  }

  private collection(environment: Environment): Collection<IdempotencyRecord> {
    return this.ctx.store.env(environment).collection<IdempotencyRecord>('idempotency_keys')
  }

  /** Claim `key` for this body, or learn that it must be replayed (throws for a conflict). */
  begin(environment: Environment, key: string, body: unknown): Begin {
    const keys = this.collection(environment)
    const now = this.ctx.clock.now()
    const print = fingerprint(body)
    let record = keys.get(key)
    if (record && record.expires_at <= now) {
      keys.delete(key)
      record = undefined
    }
    if (record) {
      if (record.fingerprint !== print) throw new ApiError(422, 'idempotency_key_reused', t('sandboxInvoices.idempotency.reused', {key}))
      if (record.state === 'in_progress') throw new ApiError(409, 'idempotency_in_progress', t('sandboxInvoices.idempotency.inProgress', {key}))
      return {replay: record.response!}
    }
    const created: IdempotencyRecord = {id: key, fingerprint: print, state: 'in_progress', created_at: now, expires_at: now + IDEMPOTENCY_TTL_MS}
    keys.insert(created)
    return {
      commit: (status, responseBody) => {
        keys.update(key, (r) => {
          r.state = 'completed'
          r.response = {status, body: structuredClone(responseBody)}
        })
        this.ctx.scheduler.schedule(created.expires_at, 'idempotency.forget', {environment, key, created_at: now})
      },
      abandon: () => {
        keys.delete(key)
      },
    }
  }
}
