/**
 * The sandbox's example objects: a payment and three invoices that every SANDBOX environment has
 * from the start, with the fixed ids the OpenAPI description's examples use (openapi-examples.ts),
 * so that a "try it" console, a Postman collection generated from the description or a reader
 * copying an example gets an answer, not a 404.
 *
 * They are not the merchant's: they live beside the store, never in it, so no list, count, report,
 * snapshot, journal export or inspector page sees them; they are reached by their id only, and each
 * restart or reset brings them back as they were. Operations act on them as on any object (the draft
 * becomes UNPAID when published, the one to cancel becomes CANCELLED), each once: trying again
 * answers what the operation answers for that state (unchanged), never an error. An id newId makes
 * cannot be one of them: its last 16 characters are random.
 */
import type {Environment} from './types.js'

export const EXAMPLE_IDS = {
  /** A settled payment (SUCCESS): GET /v1/payments/{paymentId}/status. */
  payment: 'svcpay_test_0VbzlxRXLUZgn8G1PDQ5YT1G',
  /** An UNPAID invoice with an email and a phone: read, send, PDF. */
  invoice: 'inv_test_0VbzlxbyTBhvZkOF4qTUFfQi',
  /** A DRAFT: publish. */
  draftInvoice: 'inv_test_0VbzlxbyTBhvZkOF4qTUDraf',
  /** A DRAFT to cancel: cancel. */
  cancelInvoice: 'inv_test_0VbzlxbyTBhvZkOF4qTUCanc',
  /** An uploaded cover image (`logo.png`, a 1 × 1 PNG): its file_url works as a cover_image_url. */
  file: 'file_test_0Vbzlxbl5DG5yIY63iNUuW7M',
} as const

const IDS: ReadonlySet<string> = new Set([EXAMPLE_IDS.payment, EXAMPLE_IDS.invoice, EXAMPLE_IDS.draftInvoice, EXAMPLE_IDS.cancelInvoice, EXAMPLE_IDS.file])

/** Whether `id` is one of the example objects of `environment` (SANDBOX only). */
export function isExample(environment: Environment, id: string): boolean {
  return environment === 'SANDBOX' && IDS.has(id)
}

export const EXAMPLE_CREATED = '2026-11-25T09:30:04.303Z'

/** The example payment in `status` (fields as the sandbox answers them). */
export const examplePayment = (status: string, extra: Record<string, unknown> = {}) => ({
  id: EXAMPLE_IDS.payment,
  status,
  amount: 5000,
  currency: 'XAF' as const,
  payment_method: 'mobile_money' as const,
  environment: 'SANDBOX' as const,
  created_at: EXAMPLE_CREATED,
  internal_transaction_id: 'txn_JOZLGtx0y6srye2Ahkyo',
  phone_number: '237670000001',
  ...extra,
})

/** The example invoice's items (and the example create request's). */
export const EXAMPLE_ITEMS = [
  {name: 'Bread', price: 500, quantity: 3},
  {name: 'Cake', price: 2500, quantity: 1},
]

/** The example invoice in `status`; `server` is the sandbox's base URL (its checkout link lives there). */
export const exampleInvoice = (server: string, status: string, extra: Record<string, unknown> = {}, id: string = EXAMPLE_IDS.invoice) => ({
  id,
  status,
  customer_name: 'Awa Bakery',
  customer_email: 'awa@example.com',
  customer_phone: '+237670000001',
  due_date: '2026-12-31',
  items: EXAMPLE_ITEMS.map((item) => ({...item})),
  subtotal_amount: 4000,
  discount_percent: 10,
  discount_amount: 400,
  total_amount: 3600,
  amount_paid: 0,
  amount_due: 3600,
  currency: 'XAF' as const,
  notes: null,
  cover_image_url: null,
  external_reference: 'ORDER-1042',
  environment: 'SANDBOX' as const,
  checkout_url: `${server}/pay/i/${id}?type=sandbox`,
  created_at: '2026-11-25T09:31:10.950Z',
  updated_at: '2026-11-25T09:31:10.950Z',
  ...extra,
})

export const EXAMPLE_PUBLISHED_AT = '2026-11-25T09:32:00.000Z'

/** The example invoices as a fresh sandbox has them. */
export function seedInvoices(server: string) {
  return [
    exampleInvoice(server, 'UNPAID', {updated_at: EXAMPLE_PUBLISHED_AT, published_at: EXAMPLE_PUBLISHED_AT}),
    exampleInvoice(server, 'DRAFT', {}, EXAMPLE_IDS.draftInvoice),
    exampleInvoice(server, 'DRAFT', {}, EXAMPLE_IDS.cancelInvoice),
  ]
}

/** A 1 × 1 PNG, the example file's bytes. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

/** The example file as the files domain stores an uploaded one (never changed: nothing writes to it). */
export const EXAMPLE_FILE = {
  id: EXAMPLE_IDS.file,
  environment: 'SANDBOX' as const,
  filename: 'logo.png',
  content_type: 'image/png' as const,
  size: Buffer.from(PNG_1X1, 'base64').length,
  status: 'uploaded' as const,
  created_at: EXAMPLE_CREATED,
  upload_expires_at: '2026-11-25T09:45:04.000Z',
  uploaded_at: EXAMPLE_CREATED,
  data: PNG_1X1,
}
