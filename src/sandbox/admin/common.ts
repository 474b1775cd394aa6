/** What the admin routes share: the services they drive, the environment parameter and the page envelope. */
import type {AdminEnvironment} from '../../contract/sandbox-admin-routes.js'
import type {Allowlist, KeyRing} from '../auth.js'
import type {Scheduler} from '../clock.js'
import type {ResolvedOptions} from '../context.js'
import type {EventBus} from '../events.js'
import type {Ledger} from '../fees.js'
import type {Payments} from '../payments.js'
import type {Router} from '../router.js'
import type {Schema} from '../schema.js'
import type {Store} from '../store.js'
import type {Environment} from '../types.js'

const ENV_VALUES = ['SANDBOX', 'LIVE', 'sandbox', 'live'] as const satisfies readonly AdminEnvironment[]
export const envSchema: Schema = {type: 'string', enum: ENV_VALUES}
export const pageQuery = {
  limit: {type: 'integer', minimum: 1, maximum: 100, default: 20},
  offset: {type: 'integer', minimum: 0, default: 0},
} satisfies Record<string, Schema>

/** The environment asked for (any case), or `fallback`. */
export function env(value: unknown, fallback?: Environment): Environment | undefined {
  return typeof value === 'string' ? (value.toUpperCase() as Environment) : fallback
}

/** The limit and offset of a page query, defaults filled in by the schema. */
export function pageOf(query: {limit?: number; offset?: number}): {limit: number; offset: number} {
  return {limit: query.limit ?? 20, offset: query.offset ?? 0}
}

export function page<T>(items: T[], total: number, limit: number, offset: number) {
  return {data: items, limit, offset, total, has_more: offset + items.length < total}
}

export interface AdminDependencies {
  router: Router
  /** A new SANDBOX and LIVE key with every scope (after `reset --all` removed the others). */
  mintKeys: () => {sandbox: string; live: string}
  keys: KeyRing
  allowlist: Allowlist
  events: EventBus
  ledger: Ledger
  payments: Payments
  scheduler: Scheduler
  options: ResolvedOptions
  /** The business's settings (its customers' language) live with its data. */
  store: Store
  urls: () => {url: string; payUrl: string; adminUrl: string}
}
