/**
 * The payments' public routes (`/v1/payments…`): create, list, status (the payments' counterpart of
 * invoices/routes.ts). Imports the sandbox's own files only.
 */
import {notFound} from './errors.js'
import type {Payments, PaymentStatus} from './payments.js'
import {CreatePaymentSchema, ListPaymentsQuery, PaymentListSchema, PaymentSchema} from './payments-schemas.js'
import type {Router} from './router.js'
import {EXAMPLE_IDS} from './examples.js'
import {idSchema} from './ids.js'

export function registerPaymentRoutes(router: Router, payments: Payments): void {
  router.add({
    method: 'POST',
    path: '/v1/payments',
    auth: 'key',
    scope: 'payments:write',
    operationId: 'createPayment',
    summary: 'Collect from a mobile money wallet',
    description:
      'Starts a collection. Returns PENDING at once; the payment settles to SUCCESS or FAILED asynchronously. Not idempotent: a retry prompts the customer again, so check the list or status first.',
    tags: ['Payments'],
    body: CreatePaymentSchema,
    responses: {201: {description: 'Created, status PENDING.', schema: PaymentSchema}},
    errors: [400, 401, 403, 429],
    handler: (req) => ({status: 201, body: payments.create(req.environment, req.body)}),
  })
  router.add({
    method: 'GET',
    path: '/v1/payments',
    auth: 'key',
    scope: 'payments:read',
    operationId: 'listPayments',
    summary: 'List payments, newest first',
    description:
      'A fallback to events: filter by status, page with limit (1 to 100, default 20) and offset (default 0) until has_more is false. After a create that timed out, look here before creating again.',
    tags: ['Payments'],
    query: ListPaymentsQuery,
    responses: {200: {description: 'A page of payments.', schema: PaymentListSchema}},
    errors: [400, 401, 403, 429],
    handler: (req) => {
      const {status, limit, offset} = req.query as {status?: PaymentStatus; limit: number; offset: number}
      const collection = payments.collection(req.environment)
      const page = status
        ? collection.newestFirst(offset, limit, {status}, payments.counts(req.environment)[status])
        : collection.newestFirst(offset, limit)
      return {
        status: 200,
        body: {data: page.items.map((r) => r.payment), limit, offset, total: page.total, has_more: offset + page.items.length < page.total},
      }
    },
  })
  router.add({
    method: 'GET',
    path: '/v1/payments/{paymentId}/status',
    auth: 'key',
    scope: 'payments:read',
    operationId: 'getPaymentStatus',
    summary: 'A payment and its status',
    description: 'Read-only and safe to repeat. Poll every few seconds and stop on SUCCESS or FAILED.',
    tags: ['Payments'],
    params: {paymentId: {schema: idSchema('svcpay'), description: 'The payment id returned at creation.', idPrefix: 'svcpay', example: EXAMPLE_IDS.payment}},
    responses: {200: {description: 'The Payment object.', schema: PaymentSchema}},
    errors: [401, 403, 404, 429],
    handler: (req) => {
      const record = payments.get(req.environment, req.params.paymentId)
      if (!record) throw notFound('payment', req.params.paymentId)
      return {status: 200, body: record.payment}
    },
  })
}
