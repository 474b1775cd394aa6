/**
 * Payments (collections): create, list, status; settlement on the sandbox clock; live approval by
 * the simulated handset; fees credited on SUCCESS; `payment.success` / `payment.failed` events.
 *
 * SANDBOX: the spec's test numbers, matched to their operator, have a fixed outcome (always-FAILED
 * numbers fail with CUSTOMER_DECLINED); any other number is drawn from the environment's seeded
 * generator at creation (so a seed reproduces a run), failures drawing their code from the
 * contract's list. The payment settles `settleAfterMs` of sandbox time after creation.
 * LIVE: test numbers mean nothing; the payment stays PENDING until the admin surface approves or
 * declines it (the customer's handset) or five minutes of sandbox time pass (FAILED, EXPIRED).
 * With the `faults.unspecified` option the provider's answer is first UNSPECIFIED (a provider
 * timeout) and resolves to the real outcome `settleAfterMs` later; no event for UNSPECIFIED.
 */
import {EXAMPLE_IDS, examplePayment, isExample} from './examples.js'
import {t} from './i18n/index.js'
import {eventTypeForStatus} from '../contract/events.js'
import {testOutcome, type Operator} from '../contract/test-numbers.js'
import type {SandboxContext} from './context.js'
import {ApiError, invalidState, notFound} from './errors.js'
import type {Ledger} from './fees.js'
import {idEnvironment, newId, randomToken} from './ids.js'
import {normalisePhone} from '../contract/phone.js'
import type {Collection} from './store.js'
import {SLOW_SETTLE_MS, type ScriptedNumber} from './scenarios.js'
import type {Environment} from './types.js'
import {FAILURE_CODES, PAYMENT_STATUSES, type FailureCode, type PaymentStatus} from '../contract/payments.js'

/** The example payment: settled, SUCCESS, never changed. */
const EXAMPLE_PAYMENT: PaymentRecord = {id: EXAMPLE_IDS.payment, payment: examplePayment('SUCCESS') as Payment, operator: 'MTN'}

export {FAILURE_CODES, PAYMENT_STATUSES, type FailureCode, type PaymentStatus}
// The schemas and routes live beside: payments-schemas.ts, payments-routes.ts.
export {CreatePaymentSchema, ListPaymentsQuery, PaymentListSchema, PaymentSchema} from './payments-schemas.js'

/** Share of non-test sandbox numbers that succeed. */
export const RANDOM_SUCCESS_RATE = 0.75
/** A live payment not approved within this much sandbox time fails with EXPIRED. */
export const LIVE_APPROVAL_WINDOW_MS = 5 * 60 * 1000

/** The public object: exactly the spec's Payment fields (the provider never appears). */
export interface Payment {
  id: string
  status: PaymentStatus
  amount: number
  currency: 'XAF'
  payment_method: 'mobile_money'
  environment: Environment
  created_at: string
  internal_transaction_id: string
  phone_number: string
  failure_code?: FailureCode
}

/** What the sandbox keeps: the public object plus what the provider would know. */
export interface PaymentRecord {
  id: string
  payment: Payment
  operator: Operator
  /** The provider's eventual answer, decided at creation in SANDBOX, at approve/decline in LIVE. */
  outcome?: {status: 'SUCCESS' | 'FAILED'; failure_code?: FailureCode}
  /** Answer UNSPECIFIED first (faults option, a scripted number, an operator outage). */
  unspecified?: boolean
  /** How long an UNSPECIFIED answer lasts before it resolves (a scripted number's `after`). */
  resolve_after_ms?: number
  /** UNSPECIFIED because its operator is down: resolves when the operator comes back. */
  awaiting_operator?: boolean
  /** Already held back once by a slow operator. */
  slowed?: boolean
}

// Outcomes are shared constants: 100,000 payments do not need 100,000 copies of {status: 'SUCCESS'}.
const SUCCESS: NonNullable<PaymentRecord['outcome']> = Object.freeze({status: 'SUCCESS'})
const FAILED = Object.fromEntries(FAILURE_CODES.map((code) => [code, Object.freeze({status: 'FAILED', failure_code: code})])) as Record<
  FailureCode,
  NonNullable<PaymentRecord['outcome']>
>

export class Payments {
  constructor(private readonly ctx: SandboxContext, private readonly ledger: Ledger) {
    const {scheduler, store} = ctx
    store.defineCollection<PaymentRecord>('environment', 'payments', {status: (r) => r.payment.status})
    store.onReload(() => (this.statusCounts = {}))
    scheduler.define('payment.settle', (p: {environment: Environment; id: string}) => this.providerAnswers(p.environment, p.id))
    scheduler.define('payment.resolve', (p: {environment: Environment; id: string}) => this.resolveUnspecified(p.environment, p.id))
    scheduler.define('payment.expire', (p: {environment: Environment; id: string}) => this.expire(p.environment, p.id))
  }

  private statusCounts: Partial<Record<Environment, Record<PaymentStatus, number>>> = {}

  /** Payments per status, kept up to date so that a filtered list knows its total without a full scan. */
  /** How many payments of each status (the list's total for a status filter). */
  counts(environment: Environment): Record<PaymentStatus, number> {
    let counts = this.statusCounts[environment]
    if (!counts) {
      counts = {PENDING: 0, SUCCESS: 0, FAILED: 0, UNSPECIFIED: 0, ...this.collection(environment).countBy('status')}
      this.statusCounts[environment] = counts
    }
    return counts
  }

  /** How many payments of the environment have this status (kept up to date: no scan). */
  countOf(environment: Environment, status: PaymentStatus): number {
    return this.counts(environment)[status]
  }

  collection(environment: Environment): Collection<PaymentRecord> {
    return this.ctx.store.env(environment).collection<PaymentRecord>('payments')
  }

  /** A payment by id: the merchant's, or the example payment (examples.ts), which no list holds. */
  get(environment: Environment, id: string): PaymentRecord | undefined {
    if (isExample(environment, id) && id === EXAMPLE_PAYMENT.id) return EXAMPLE_PAYMENT
    return this.collection(environment).get(id)
  }

  create(environment: Environment, input: {amount: number; phone_number: string; operator: Operator}): Payment {
    const {clock, scheduler, options} = this.ctx
    const phone = normalisePhone(input.phone_number)
    if (!phone) throw new ApiError(400, 'validation_error', t('sandbox.payment.phone', {field: 'phone_number'}), [
      {field: 'phone_number', message: t('sandbox.payment.phone', {field: 'phone_number'})},
    ])
    const now = clock.now()
    const payment: Payment = {
      id: newId('svcpay', environment),
      status: 'PENDING',
      amount: input.amount,
      currency: 'XAF',
      payment_method: 'mobile_money',
      environment,
      created_at: clock.iso(now),
      internal_transaction_id: `txn_${randomToken(20)}`,
      phone_number: phone,
    }
    const record: PaymentRecord = {id: payment.id, payment, operator: input.operator}
    this.counts(environment).PENDING++
    if (environment === 'SANDBOX') {
      const script = this.ctx.scenarios.scripted(phone, input.operator)
      if (script) this.applyScript(record, script)
      else {
        record.outcome = this.sandboxOutcome(phone, input.operator)
        if (this.drawUnspecified(environment)) record.unspecified = true
      }
      this.collection(environment).insert(record)
      // A scripted PENDING customer never answers: no provider answer is ever scheduled.
      if (script?.outcome !== 'PENDING') scheduler.schedule(now + options.settleAfterMs, 'payment.settle', {environment, id: payment.id})
    } else {
      this.collection(environment).insert(record)
      scheduler.schedule(now + LIVE_APPROVAL_WINDOW_MS, 'payment.expire', {environment, id: payment.id})
    }
    return payment
  }

  /** The simulated handset of a live payment: the customer approves or declines. */
  decide(id: string, decision: 'approve' | 'decline', failureCode: FailureCode = 'CUSTOMER_DECLINED'): Payment {
    const environment = idEnvironment('svcpay', id)
    const record = environment && this.get(environment, id)
    if (!environment || !record) throw notFound('payment', id)
    if (environment !== 'LIVE') throw invalidState(t('sandbox.payment.approveSandbox', {id}))
    if (record.payment.status !== 'PENDING') throw invalidState(t('sandbox.payment.notPending', {id, status: record.payment.status}))
    this.collection(environment).update(id, (r) => {
      r.outcome = decision === 'approve' ? SUCCESS : FAILED[failureCode]
      if (this.drawUnspecified(environment)) r.unspecified = true
    })
    this.providerAnswers(environment, id)
    return record.payment
  }

  /** A scripted customer's answer (scenarios.ts): fixed outcome and code, or UNSPECIFIED first. */
  private applyScript(record: PaymentRecord, script: ScriptedNumber): void {
    const outcome = (status: 'SUCCESS' | 'FAILED') =>
      status === 'SUCCESS' ? SUCCESS : FAILED[(script.failure_code as FailureCode | undefined) ?? 'CUSTOMER_DECLINED']
    if (script.outcome === 'SUCCESS' || script.outcome === 'FAILED') record.outcome = outcome(script.outcome)
    else if (script.outcome === 'UNSPECIFIED') {
      record.unspecified = true
      if (script.then) record.outcome = outcome(script.then)
      if (script.after_ms !== undefined) record.resolve_after_ms = script.after_ms
    }
  }

  /**
   * The operator is back (`operator up`, or its outage ran out): payments left UNSPECIFIED by it
   * resolve now.
   */
  operatorUp(operator: Operator): number {
    let count = 0
    for (const environment of ['SANDBOX', 'LIVE'] as const) {
      for (const record of this.collection(environment).find({status: 'UNSPECIFIED'})) {
        if (record.operator !== operator || !record.awaiting_operator) continue
        this.ctx.scheduler.schedule(this.ctx.clock.now(), 'payment.resolve', {environment, id: record.id})
        count++
      }
    }
    return count
  }

  private sandboxOutcome(phone: string, operator: Operator): NonNullable<PaymentRecord['outcome']> {
    const fixed = testOutcome(phone, operator)
    if (fixed === 'SUCCESS') return SUCCESS
    if (fixed === 'FAILED') return FAILED.CUSTOMER_DECLINED
    const random = this.ctx.random('SANDBOX')
    if (random.next() < RANDOM_SUCCESS_RATE) return SUCCESS
    return FAILED[random.pick(FAILURE_CODES)]
  }

  private drawUnspecified(environment: Environment): boolean {
    const rate = this.ctx.options.unspecifiedRate
    if (rate <= 0) return false
    if (rate >= 1) return true
    return this.ctx.random(environment).next() < rate
  }

  /** The provider's answer arrives: the final status, or UNSPECIFIED first under the faults option. */
  private providerAnswers(environment: Environment, id: string): void {
    const record = this.get(environment, id)
    if (!record || record.payment.status !== 'PENDING') return
    const {clock, scheduler, options} = this.ctx
    // An operator outage is decided when the provider would answer (sandbox clock), whatever the customer.
    const outage = this.ctx.scenarios.outage(record.operator)
    if (outage?.mode === 'fail') return this.settle(environment, record, FAILED.PROVIDER_UNAVAILABLE)
    if (outage?.mode === 'slow' && !record.slowed) {
      this.collection(environment).update(id, (r) => {
        r.slowed = true
      })
      scheduler.schedule(clock.now() + SLOW_SETTLE_MS, 'payment.settle', {environment, id})
      return
    }
    const awaiting = outage?.mode === 'unspecified'
    if (!record.outcome && !record.unspecified && !awaiting) return
    if (record.unspecified || awaiting) {
      this.collection(environment).update(id, (r) => {
        r.payment.status = 'UNSPECIFIED'
        if (awaiting) r.awaiting_operator = true
      })
      this.counts(environment).PENDING--
      this.counts(environment).UNSPECIFIED++
      if (awaiting) {
        // Resolves when the outage ends by itself, or at `operator up` (operatorUp).
        if (outage.until) scheduler.schedule(Date.parse(outage.until), 'payment.resolve', {environment, id})
      } else if (record.outcome) {
        scheduler.schedule(clock.now() + (record.resolve_after_ms ?? options.settleAfterMs), 'payment.resolve', {environment, id})
      }
      return
    }
    this.settle(environment, record, record.outcome!)
  }

  private resolveUnspecified(environment: Environment, id: string): void {
    const record = this.get(environment, id)
    if (!record || record.payment.status !== 'UNSPECIFIED') return
    if (record.awaiting_operator) {
      const outage = this.ctx.scenarios.outage(record.operator)
      if (outage?.mode === 'unspecified') {
        if (outage.until) this.ctx.scheduler.schedule(Date.parse(outage.until), 'payment.resolve', {environment, id})
        return
      }
      // Back: the customer's own answer, now (a scripted UNSPECIFIED without `then` stays so).
    }
    if (!record.outcome) return
    this.settle(environment, record, record.outcome)
  }

  private expire(environment: Environment, id: string): void {
    const record = this.get(environment, id)
    if (!record || record.payment.status !== 'PENDING') return
    this.settle(environment, record, FAILED.EXPIRED)
  }

  private settle(environment: Environment, record: PaymentRecord, outcome: NonNullable<PaymentRecord['outcome']>): void {
    const previous = record.payment.status
    // Counted before the change: a first count (a scan) made inside it would see the new status already.
    const counts = this.counts(environment)
    this.collection(environment).update(record.id, (r) => {
      r.payment.status = outcome.status
      if (outcome.failure_code) r.payment.failure_code = outcome.failure_code
    })
    counts[outcome.status]++
    counts[previous]--
    if (outcome.status === 'SUCCESS') this.ledger.credit(environment, record.id, record.payment.amount)
    // SUCCESS and FAILED are final: the event can share the object.
    this.ctx.events.emit(environment, eventTypeForStatus(outcome.status), record.payment, {final: true})
  }
}
