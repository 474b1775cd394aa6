/**
 * Fees, the ledger and the balance of each environment. Never an API field: only the admin surface
 * (the dashboard stand-in) shows them.
 *
 * On SUCCESS of a collection of `amount` XAF the fee is
 *   percent tier: fee = round(amount × percent / 100), halves away from zero
 *   fixed tier:   fee = the fixed amount
 * and then, by who pays it:
 *   customer pays (default): the customer's debit covers the fee on top of the amount,
 *       customer_debit = amount + fee, merchant credit (net) = amount
 *   merchant absorbs:         the fee is taken out of the amount,
 *       customer_debit = amount,       merchant credit (net) = amount − fee
 *       (the fee is capped at the amount, so a credit is never negative)
 * Either way the fee is taken before the balance is credited: net = customer_debit − fee.
 */
import type {SandboxTime} from './clock.js'
import {newPlainId} from './ids.js'
import type {Store} from './store.js'
import type {Environment} from './types.js'

export interface FeeSettings {
  mode: 'percent' | 'fixed'
  /** Percent (0–100, decimals allowed) or whole XAF. */
  value: number
  absorb_fees: boolean
}

export const DEFAULT_FEES: FeeSettings = {mode: 'percent', value: 2, absorb_fees: false}

export interface LedgerEntry {
  id: string
  type: 'collection'
  payment_id: string
  amount: number
  fee: number
  fee_paid_by: 'customer' | 'merchant'
  customer_debit: number
  net_amount: number
  balance_after: number
  currency: 'XAF'
  created_at: string
}

export interface Balance {
  environment: Environment
  balance: number
  currency: 'XAF'
  fees_total: number
  collections: number
}

export function computeFee(amount: number, settings: FeeSettings): {fee: number; customer_debit: number; net_amount: number} {
  let fee = settings.mode === 'percent' ? Math.round((amount * settings.value) / 100) : settings.value
  if (settings.absorb_fees) {
    fee = Math.min(fee, amount)
    return {fee, customer_debit: amount, net_amount: amount - fee}
  }
  return {fee, customer_debit: amount + fee, net_amount: amount}
}

export class Ledger {
  constructor(private readonly store: Store, private readonly clock: SandboxTime) {}

  fees(): FeeSettings {
    const stored = this.store.business.setting('fees') as unknown as FeeSettings | undefined
    return stored ?? DEFAULT_FEES
  }

  setFees(settings: FeeSettings): FeeSettings {
    this.store.business.setSetting('fees', {mode: settings.mode, value: settings.value, absorb_fees: settings.absorb_fees})
    return this.fees()
  }

  balance(environment: Environment): Balance {
    const db = this.store.env(environment)
    return {
      environment,
      balance: db.setting<number>('balance', 0),
      currency: 'XAF',
      fees_total: db.setting<number>('fees_total', 0),
      collections: db.collection<LedgerEntry>('ledger').size,
    }
  }

  entries(environment: Environment, offset: number, limit: number) {
    return this.store.env(environment).collection<LedgerEntry>('ledger').newestFirst(offset, limit)
  }

  /** Credit a successful collection, net of the fee of the current tier. */
  credit(environment: Environment, paymentId: string, amount: number): LedgerEntry {
    const settings = this.fees()
    const {fee, customer_debit, net_amount} = computeFee(amount, settings)
    const db = this.store.env(environment)
    const balance = db.setting<number>('balance', 0) + net_amount
    db.setSetting('balance', balance)
    db.setSetting('fees_total', db.setting<number>('fees_total', 0) + fee)
    return db.collection<LedgerEntry>('ledger').insert({
      id: newPlainId('led'),
      type: 'collection',
      payment_id: paymentId,
      amount,
      fee,
      fee_paid_by: settings.absorb_fees ? 'merchant' : 'customer',
      customer_debit,
      net_amount,
      balance_after: balance,
      currency: 'XAF',
      created_at: this.clock.iso(),
    })
  }
}
