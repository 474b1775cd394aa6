/**
 * What every domain module receives when it registers with the sandbox: the store, the clock and
 * scheduler, the router (to add routes), the event bus and the options. Part-2 domains (invoices,
 * files, checkout, inventory, outbox) take the same object.
 */
import type {SandboxTime, Scheduler} from './clock.js'
import type {EventBus} from './events.js'
import type {Random} from './random.js'
import type {Router} from './router.js'
import type {Scenarios} from './scenarios.js'
import type {Store} from './store.js'
import type {Environment} from './types.js'

export type {SandboxTime} from './clock.js'

export interface SandboxOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number
  /** Address to bind; default 127.0.0.1. */
  host?: string
  /** Sandbox payments settle this long (sandbox time) after creation; default 2000. */
  settleAfterMs?: number
  /** Seed of the random outcomes of non-test numbers; same seed, same outcomes. */
  seed?: number
  /** Requests per key per rolling minute; default 100; 0 turns the limit off. */
  rateLimit?: number
  /** Keep the data in this SQLite database across restarts (an old JSON data file is imported); in memory when absent. */
  dataFile?: string
  /** Simulated provider trouble. `unspecified`: true for every payment, or a rate in [0, 1]. */
  faults?: {unspecified?: boolean | number}
  /** The one business's name (shown on checkout pages and documents in part 2). */
  businessName?: string
  /** Fixed admin token (default: random). */
  adminToken?: string
  /** The sandbox's log: the detail of an internal error (the client gets a generic 500). Default: stderr. */
  log?: (line: string) => void
  /**
   * Start the document worker (PDFs, image checks) with the sandbox, so that the first PDF does
   * not wait for it to boot. `svc sandbox serve` does; otherwise it starts with the first job
   * (a sandbox that renders nothing, as most in tests, never pays its ~0.2–0.5 s of CPU).
   */
  warmDocuments?: boolean
}

export interface ResolvedOptions {
  port: number
  host: string
  settleAfterMs: number
  seed: number
  rateLimit: number
  dataFile?: string
  unspecifiedRate: number
  businessName: string
  warmDocuments: boolean
}

export interface SandboxContext {
  readonly options: ResolvedOptions
  readonly store: Store
  readonly clock: SandboxTime
  readonly scheduler: Scheduler
  readonly router: Router
  readonly events: EventBus
  /** Scripted numbers, operator outages and faults (`svc sandbox numbers|operator|faults`). */
  readonly scenarios: Scenarios
  /** The seeded generator of an environment (separate streams, so live traffic never shifts sandbox outcomes). */
  random(environment: Environment): Random
  /** Base URL once listening, e.g. http://127.0.0.1:8787 (routes registered before listen read it lazily). */
  baseUrl(): string
  /** Run `release` when the sandbox closes (a domain's worker thread, say). */
  onClose(release: () => void | Promise<void>): void
  /** A line in the sandbox's log (StartOptions.log; stderr by default). */
  log(line: string): void
}
