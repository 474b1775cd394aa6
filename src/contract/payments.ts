/**
 * A payment's statuses (docs/service.md, "Statuses") and the `failure_code` values of a FAILED payment
 * (docs/service.md, "Failure codes"): one list, used by the sandbox, its dashboard stand-ins and the CLI.
 */
export const PAYMENT_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'UNSPECIFIED'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

export const FAILURE_CODES = [
  'INSUFFICIENT_FUNDS',
  'CUSTOMER_DECLINED',
  'EXPIRED',
  'PAYER_NOT_FOUND',
  'LIMIT_EXCEEDED',
  'ACCOUNT_INACTIVE',
  'PROVIDER_UNAVAILABLE',
  'PROVIDER_ERROR',
] as const
export type FailureCode = (typeof FAILURE_CODES)[number]
