// How a domain (invoices, files, checkout, inventory, outbox) plugs into the sandbox: the shared
// context and the services of the payments domain it may use.
import type {KeyRing} from './auth.js'
import type {SandboxContext} from './context.js'
import type {Ledger} from './fees.js'
import type {Payments} from './payments.js'

/** A domain plugs into the sandbox with the shared context (part 2: invoices, files, checkout, inventory, outbox). */
export type SandboxDomain = (ctx: SandboxContext, services: SandboxServices) => void

/** Services of part 1 that other domains may use. */
export interface SandboxServices {
  payments: Payments
  ledger: Ledger
  keys: KeyRing
}
