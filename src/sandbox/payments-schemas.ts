/**
 * The payments' schemas: validated against by the HTTP layer and published as is in
 * /v1/openapi.json (the payments' counterpart of invoices/schemas.ts). Imports the contract and
 * the sandbox's schema helpers only.
 */
import {FAILURE_CODES, PAYMENT_STATUSES} from '../contract/payments.js'
import {MAX_AMOUNT, MIN_AMOUNT} from '../contract/limits.js'
import {PHONE_PATTERN} from '../contract/phone.js'
import {OPERATORS} from '../contract/test-numbers.js'
import {named, type Schema} from './schema.js'

export const PaymentSchema = named('Payment', {
  type: 'object',
  description: 'A collection (pull payment) from a customer mobile money wallet.',
  required: ['id', 'status', 'amount', 'currency', 'payment_method', 'environment', 'created_at', 'internal_transaction_id', 'phone_number'],
  additionalProperties: false,
  properties: {
    id: {type: 'string', pattern: '^svcpay_', description: 'svcpay_test_… in sandbox, svcpay_… in live.'},
    status: {type: 'string', enum: PAYMENT_STATUSES, description: 'UNSPECIFIED: the provider answer is not known yet; not final.'},
    amount: {type: 'integer', minimum: 1, description: 'Whole XAF.'},
    currency: {type: 'string', enum: ['XAF']},
    payment_method: {type: 'string', enum: ['mobile_money']},
    environment: {type: 'string', enum: ['SANDBOX', 'LIVE']},
    created_at: {type: 'string', format: 'date-time'},
    internal_transaction_id: {type: 'string'},
    phone_number: {type: 'string', pattern: '^237[0-9]{9}$', description: 'Customer wallet number, 237XXXXXXXXX.'},
    failure_code: {type: 'string', enum: FAILURE_CODES, description: 'Present when status is FAILED. Stable and provider-independent.'},
  },
} satisfies Schema)

export const CreatePaymentSchema = named('CreatePaymentRequest', {
  type: 'object',
  required: ['amount', 'phone_number', 'operator'] as const,
  additionalProperties: false,
  properties: {
    amount: {type: 'integer', minimum: MIN_AMOUNT, maximum: MAX_AMOUNT, description: 'Whole XAF (never multiplied by 100), 1 to 1 000 000 000 000; an exact integer, never rounded.'},
    phone_number: {
      type: 'string',
      pattern: PHONE_PATTERN,
      maxLength: 32,
      'x-pattern-message': 'sandbox.payment.phone',
      description: 'Cameroon number: 9 national digits, 237XXXXXXXXX or +237…; spaces allowed. Returned as 237XXXXXXXXX.',
      examples: ['237670000001', '670000001', '+237 6 70 00 00 01'],
    },
    operator: {type: 'string', enum: OPERATORS, description: 'The wallet operator. Numbers are portable: the prefix is not checked.'},
    payment_method: {type: 'string', enum: ['mobile_money'], default: 'mobile_money'},
  },
} satisfies Schema)

export const PaymentListSchema = named('PaymentList', {
  type: 'object',
  required: ['data', 'limit', 'offset', 'total', 'has_more'],
  additionalProperties: false,
  properties: {
    data: {type: 'array', items: PaymentSchema, description: 'Newest first.'},
    limit: {type: 'integer', minimum: 1, maximum: 100},
    offset: {type: 'integer', minimum: 0},
    total: {type: 'integer', minimum: 0, description: 'Payments matching the filter.'},
    has_more: {type: 'boolean'},
  },
} satisfies Schema)

export const ListPaymentsQuery = {
  type: 'object',
  properties: {
    status: {type: 'string', enum: PAYMENT_STATUSES, description: 'Only payments in this status.'},
    limit: {type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100.'},
    offset: {type: 'integer', minimum: 0, default: 0, description: 'Payments to skip.'},
  },
} satisfies Schema
