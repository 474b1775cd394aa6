/**
 * Scenarios: what the spec's test numbers cannot show, set through the admin surface
 * (`svc sandbox numbers set|list|remove`, `operator down|up`, `faults set|list|clear`).
 *
 * - Scripted numbers: a customer whose payments always end a given way (a failure code of one's
 *   choosing, PENDING for ever, UNSPECIFIED then SUCCESS or FAILED after a while). The spec's own
 *   test numbers keep their outcome: they are what every integration relies on.
 * - Operator outages: while an operator is down (sandbox clock), its payments fail with
 *   PROVIDER_UNAVAILABLE, stay UNSPECIFIED until it comes back, or settle slowly.
 * - Faults on the API (latency, an error status, a connection reset, an HTML 502 page from a
 *   "gateway") and on webhook deliveries (duplicate, reorder, delay, drop), each at a rate drawn
 *   from its own seeded stream (reproducible with `--seed`, and never shifting payment outcomes).
 *   Every injected fault is written to the sandbox's log as such, so no one takes it for a bug.
 *
 * Scripts, outages and faults are settings of the sandbox (saved with --data); they last until
 * removed, or until their `for` runs out on the sandbox clock.
 */
import {findTestNumber, type Operator} from '../contract/test-numbers.js'
import type {SandboxTime} from './clock.js'
import {seededRandom, type Random} from './random.js'
import type {Store} from './store.js'
import type {JsonValue} from './types.js'

export type ScriptedOutcome = 'SUCCESS' | 'FAILED' | 'PENDING' | 'UNSPECIFIED'

export interface ScriptedNumber {
  phone_number: string
  operator: Operator
  outcome: ScriptedOutcome
  /** UNSPECIFIED resolves to this after `after_ms` (absent: it stays UNSPECIFIED). */
  then?: 'SUCCESS' | 'FAILED'
  after_ms?: number
  /** The failure code of a scripted FAILED (or `then: FAILED`). */
  failure_code?: string
  created_at: string
}

export type OutageMode = 'fail' | 'unspecified' | 'slow'

export interface Outage {
  operator: Operator
  mode: OutageMode
  since: string
  /** Sandbox time it ends by itself; absent: until `operator up`. */
  until?: string
}

export const API_ERRORS = ['500', '502', '503', '429', 'reset', 'html'] as const
export type ApiErrorKind = (typeof API_ERRORS)[number]
export const DELIVERY_FAULTS = ['duplicate', 'reorder', 'delay', 'drop'] as const
export type DeliveryFaultKind = (typeof DELIVERY_FAULTS)[number]

export interface Fault {
  id: string
  target: 'api' | 'deliveries'
  /** API: "POST /v1/payments" (a route template or a literal path); absent: every /v1 route. */
  route?: string
  latency_ms?: number
  error?: ApiErrorKind
  deliveries?: DeliveryFaultKind
  delay_ms?: number
  rate: number
  created_at: string
  until?: string
  /** How many times it was injected so far. */
  injected: number
}

/** How long a payment takes to settle while its operator is down in `slow` mode. */
export const SLOW_SETTLE_MS = 60_000
/** Default hold of a delayed delivery, and of a reordered one (long enough for the next to overtake it). */
export const DEFAULT_DELIVERY_DELAY_MS = 30_000
export const DEFAULT_REORDER_DELAY_MS = 5_000

interface State {
  numbers: ScriptedNumber[]
  outages: Outage[]
  faults: Fault[]
  next_fault: number
}

export class Scenarios {
  private state: State = {numbers: [], outages: [], faults: [], next_fault: 1}
  private random: Random

  constructor(private readonly store: Store, private readonly clock: SandboxTime, seed: number) {
    // Its own stream: drawing faults must not shift the outcomes of random numbers.
    this.random = seededRandom(seed ^ 0x2545f491)
    store.persist(
      'scenarios',
      () => ({...this.state, random: this.random.state()}) as unknown as JsonValue,
      (value) => {
        const saved = value as unknown as Partial<State> & {random?: number}
        if (!saved || typeof saved !== 'object') return
        this.state = {
          numbers: Array.isArray(saved.numbers) ? saved.numbers : [],
          outages: Array.isArray(saved.outages) ? saved.outages : [],
          faults: Array.isArray(saved.faults) ? saved.faults : [],
          next_fault: typeof saved.next_fault === 'number' ? saved.next_fault : 1,
        }
        if (typeof saved.random === 'number') this.random = seededRandom(saved.random)
      },
    )
  }

  private changed(): void {
    this.store.markDirty()
  }

  // Scripted numbers ----------------------------------------------------------------------------

  /** A spec test number: not scriptable. */
  isTestNumber(phone: string): boolean {
    return findTestNumber(phone) !== undefined
  }

  numbers(): ScriptedNumber[] {
    return [...this.state.numbers]
  }

  scripted(phone: string, operator: Operator): ScriptedNumber | undefined {
    return this.state.numbers.find((n) => n.phone_number === phone && n.operator === operator)
  }

  setNumber(script: Omit<ScriptedNumber, 'created_at'>): ScriptedNumber {
    const entry: ScriptedNumber = {...script, created_at: this.clock.iso()}
    this.state.numbers = [...this.state.numbers.filter((n) => n.phone_number !== script.phone_number), entry]
    this.changed()
    return entry
  }

  removeNumber(phone: string): ScriptedNumber | undefined {
    const found = this.state.numbers.find((n) => n.phone_number === phone)
    if (found) {
      this.state.numbers = this.state.numbers.filter((n) => n !== found)
      this.changed()
    }
    return found
  }

  // Operator outages ----------------------------------------------------------------------------

  outages(): Outage[] {
    return this.state.outages.filter((o) => this.current(o.until))
  }

  /** The outage of this operator now (sandbox clock), if any. */
  outage(operator: Operator): Outage | undefined {
    return this.outages().find((o) => o.operator === operator)
  }

  down(operator: Operator, mode: OutageMode, forMs?: number): Outage {
    const now = this.clock.now()
    const outage: Outage = {operator, mode, since: this.clock.iso(now), ...(forMs ? {until: this.clock.iso(now + forMs)} : {})}
    this.state.outages = [...this.state.outages.filter((o) => o.operator !== operator), outage]
    this.changed()
    return outage
  }

  /** Ends the outage; returns it (as it was) or undefined when the operator was up. */
  up(operator: Operator): Outage | undefined {
    const found = this.outage(operator)
    this.state.outages = this.state.outages.filter((o) => o.operator !== operator)
    this.changed()
    return found
  }

  // Faults ----------------------------------------------------------------------------------------

  faults(): Fault[] {
    return this.state.faults.filter((f) => this.current(f.until))
  }

  addFault(fault: Omit<Fault, 'id' | 'created_at' | 'injected' | 'until'>, forMs?: number): Fault {
    const now = this.clock.now()
    const entry: Fault = {
      id: `flt_${this.state.next_fault++}`,
      ...fault,
      created_at: this.clock.iso(now),
      ...(forMs ? {until: this.clock.iso(now + forMs)} : {}),
      injected: 0,
    }
    this.state.faults = [...this.state.faults, entry]
    this.changed()
    return entry
  }

  /** Removes one fault, or every one without an id; returns those removed. */
  clearFaults(id?: string): Fault[] {
    const removed = this.state.faults.filter((f) => !id || f.id === id)
    this.state.faults = this.state.faults.filter((f) => id !== undefined && f.id !== id)
    this.changed()
    return removed
  }

  /** The API fault to inject into this request now, if one matches and its rate draws it. */
  apiFault(method: string, path: string, routePath: string): Fault | undefined {
    // Asked on every request: nothing to filter (and no array made) when no fault is set.
    if (this.state.faults.length === 0) return undefined
    for (const fault of this.faults()) {
      if (fault.target !== 'api') continue
      if (fault.route) {
        const [fm, fp] = fault.route.split(' ')
        if (fm.toUpperCase() !== method || (fp !== path && fp !== routePath)) continue
      } else if (!(path === '/v1' || path.startsWith('/v1/'))) continue
      if (this.draw(fault)) return fault
    }
    return undefined
  }

  /** The delivery fault to apply to this attempt now, if any. */
  deliveryFault(): Fault | undefined {
    for (const fault of this.faults()) {
      if (fault.target === 'deliveries' && this.draw(fault)) return fault
    }
    return undefined
  }

  private draw(fault: Fault): boolean {
    if (fault.rate < 1 && this.random.next() >= fault.rate) return false
    fault.injected++
    this.changed()
    return true
  }

  private current(until: string | undefined): boolean {
    return !until || Date.parse(until) > this.clock.now()
  }
}
