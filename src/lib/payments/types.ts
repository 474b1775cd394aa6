import type {Operator} from '../../contract/test-numbers.js'

export type PaymentStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'UNSPECIFIED'
export const PAYMENT_STATUSES: readonly PaymentStatus[] = ['PENDING', 'SUCCESS', 'FAILED', 'UNSPECIFIED']

/** The Payment object of the spec; fields the service may add are kept as they come. */
export interface Payment {
  id: string
  status: PaymentStatus
  amount: number
  currency: string
  payment_method?: string
  environment?: 'SANDBOX' | 'LIVE'
  created_at: string
  internal_transaction_id?: string
  phone_number: string
  failure_code?: string
  [field: string]: unknown
}

export interface PaymentInput {
  amount: number
  phone: string
  operator: Operator
}

export function isFinal(status: string): boolean {
  return status === 'SUCCESS' || status === 'FAILED'
}
