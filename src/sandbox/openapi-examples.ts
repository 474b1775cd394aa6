/**
 * Examples in `/v1/openapi.json`, so that mock servers (Prism), docs generators and a reader see
 * real data: one request example per operation with a body, one per documented response and one
 * per event type. Each is what the sandbox answers (ids and times fixed, URLs on the document's own
 * server), error messages come from the sandbox's catalogue, and events are made by the contract's
 * own `settlementEvent`. test/sandbox/openapi-examples.test.ts validates every one against its
 * schema, and fails for an operation or an event type that has none.
 */
import {EVENTS, settlementEvent, type EventType} from '../contract/events.js'
import {EXAMPLE_IDS, EXAMPLE_ITEMS, EXAMPLE_PUBLISHED_AT, exampleInvoice, examplePayment} from './examples.js'
import {t} from './i18n/index.js'

export interface Example {
  summary: string
  value: unknown
}

/** Named examples of one request body or response. */
export type Examples = Record<string, Example>

export interface OperationExamples {
  request?: Examples
  /** By status; a documented error status absent here takes the generic example of its status. */
  responses: Record<number, Examples>
}

const INVOICE_ID = EXAMPLE_IDS.invoice
const FILE_ID = EXAMPLE_IDS.file
const SIGNED = 'expires=1795617904&signature=svc_sig_7tDNKc8AyALj3lDS_w_Timiq-R_PIQ58fv7R9vNu_9E'

const payment = examplePayment
const invoice = exampleInvoice

const error = (summary: string, code: string, message: string, errors?: Array<{field: string; message: string}>): Examples => ({
  [code]: {summary, value: {message, code, ...(errors ? {errors} : {})}},
})

const validation = (field: string, message: string): Examples =>
  error(`${field} refused`, 'validation_error', t('sandbox.error.validation', {details: message}), [{field, message}])

const notFound = (what: string, id: string): Examples => error(`No such ${what}`, 'not_found', t('sandbox.error.notFound', {what, id}))

/** The example of a documented error status when the operation gives none of its own. */
export function errorExamples(status: number): Examples {
  switch (status) {
    case 400:
      return validation('amount', t('sandbox.validation.minimum', {field: 'amount', minimum: 1, got: '0'}))
    case 401:
      return error('Unknown API key', 'unauthorized', t('sandbox.auth.invalid'))
    case 403:
      return error('Address not allowed', 'ip_not_allowed', t('sandbox.auth.ipNotAllowed', {ip: '203.0.113.7'}))
    case 404:
      return notFound('payment', 'svcpay_test_doesnotexist')
    case 409:
      return error('Wrong status', 'invalid_state', t('sandboxInvoices.state.publish', {id: INVOICE_ID, status: 'PAID'}))
    case 422:
      return error('Key reused', 'idempotency_key_reused', t('sandboxInvoices.idempotency.reused', {key: '6f1c2a4e-8a43-4f55-9d0c-2b6a1d3e9f10'}))
    case 429:
      return error('Rate limited', 'rate_limited', t('sandbox.error.rateLimited', {limit: 100, seconds: 12}))
    default:
      return error('Internal error', 'internal_error', t('sandbox.error.internal'))
  }
}

/** Examples by operationId; `server` is the document's server URL (checkout and signed links live there). */
export function operationExamples(server: string): Record<string, OperationExamples> {
  const unpaid = invoice(server, 'UNPAID', {updated_at: EXAMPLE_PUBLISHED_AT, published_at: EXAMPLE_PUBLISHED_AT})
  const published = {
    ...unpaid,
    published: true,
    pdf_url: `${server}/storage/invoices/${INVOICE_ID}/invoice.pdf?${SIGNED}`,
  }
  const createInvoice = {
    customer_name: 'Awa Bakery',
    customer_email: 'awa@example.com',
    customer_phone: '+237 6 70 00 00 01',
    due_date: '2026-12-31',
    items: EXAMPLE_ITEMS,
    discount_percent: 10,
    external_reference: 'ORDER-1042',
  }
  return {
    createPayment: {
      request: {mtn: {summary: 'A sandbox test number that always succeeds', value: {amount: 5000, phone_number: '670000001', operator: 'MTN'}}},
      responses: {201: {pending: {summary: 'Created: PENDING until the customer approves', value: payment('PENDING')}}},
    },
    listPayments: {
      responses: {
        200: {page: {summary: 'status=SUCCESS&limit=1', value: {data: [payment('SUCCESS')], limit: 1, offset: 0, total: 3, has_more: true}}},
        400: validation('limit', t('sandbox.validation.maximum', {field: 'limit', maximum: 100, got: '500'})),
      },
    },
    getPaymentStatus: {
      responses: {
        200: {
          success: {summary: 'Settled: SUCCESS', value: payment('SUCCESS')},
          failed: {summary: 'Settled: FAILED, with its failure_code', value: payment('FAILED', {phone_number: '237670000099', failure_code: 'CUSTOMER_DECLINED'})},
        },
      },
    },
    createUploadUrl: {
      request: {png: {summary: 'A 2 KB PNG cover image', value: {filename: 'logo.png', content_type: 'image/png', size: 2048}}},
      responses: {
        201: {
          signed: {
            summary: 'PUT the bytes to upload_url, then use file_url',
            value: {
              upload_url: `${server}/storage/uploads/${FILE_ID}?${SIGNED}`,
              method: 'PUT',
              headers: {'content-type': 'image/png'},
              file_url: `${server}/storage/files/${FILE_ID}/logo.png`,
              expires_at: '2026-11-25T09:45:04.000Z',
            },
          },
        },
        400: validation('content_type', t('sandbox.validation.enum', {field: 'content_type', values: 'image/png, image/jpeg, image/webp', got: '"image/gif"'})),
      },
    },
    createInvoice: {
      request: {bakery: {summary: 'Two items, 10 % off', value: createInvoice}},
      responses: {
        201: {draft: {summary: 'The DRAFT, totals computed', value: invoice(server, 'DRAFT')}},
        400: validation('items', t('sandbox.validation.minItems', {field: 'items', minItems: 1})),
        409: error('Same key in progress', 'idempotency_in_progress', t('sandboxInvoices.idempotency.inProgress', {key: '6f1c2a4e-8a43-4f55-9d0c-2b6a1d3e9f10'})),
      },
    },
    listInvoices: {
      responses: {
        200: {page: {summary: 'status=UNPAID&page=1&page_size=1', value: {data: [unpaid], page: 1, page_size: 1, total: 4, total_pages: 4}}},
        400: validation('page_size', t('sandbox.validation.maximum', {field: 'page_size', maximum: 100, got: '500'})),
      },
    },
    getInvoice: {
      responses: {200: {draft: {summary: 'A DRAFT invoice', value: invoice(server, 'DRAFT')}}, 404: notFound('invoice', 'inv_test_doesnotexist')},
    },
    publishInvoice: {
      request: {quiet: {summary: 'Publish quietly (deliver later with send)', value: {}}, email: {summary: 'Publish and email it', value: {channel: 'EMAIL'}}},
      responses: {
        200: {published: {summary: 'UNPAID, with a signed PDF link', value: published}},
        400: validation('channel', t('sandbox.validation.enum', {field: 'channel', values: 'EMAIL, WHATSAPP', got: '"SMS"'})),
        404: notFound('invoice', 'inv_test_doesnotexist'),
        409: error('Cannot publish', 'invalid_state', t('sandboxInvoices.state.publish', {id: INVOICE_ID, status: 'CANCELLED'})),
      },
    },
    sendInvoice: {
      request: {whatsapp: {summary: 'By WhatsApp to another number', value: {channel: 'WHATSAPP', override_phone: '+237 6 99 00 00 01'}}},
      responses: {
        200: {sent: {summary: 'Delivered by email', value: {invoice_id: INVOICE_ID, channel: 'EMAIL', recipient: 'awa@example.com', sent_at: '2026-11-25T09:33:00.000Z'}}},
        400: validation('override_email', t('sandbox.validation.format', {field: 'override_email', format: 'email', got: '"awa"'})),
        403: error('Missing scope', 'insufficient_scope', t('sandbox.auth.scope', {scope: 'invoices:send'})),
        404: notFound('invoice', 'inv_test_doesnotexist'),
        409: error('A draft is not sent', 'invalid_state', t('sandboxInvoices.state.sendDraft', {id: INVOICE_ID})),
      },
    },
    cancelInvoice: {
      responses: {
        200: {cancelled: {summary: 'CANCELLED; history kept', value: invoice(server, 'CANCELLED', {updated_at: '2026-11-25T09:40:00.000Z', cancelled_at: '2026-11-25T09:40:00.000Z'})}},
        404: notFound('invoice', 'inv_test_doesnotexist'),
        409: error('Fully paid', 'invalid_state', t('sandboxInvoices.state.cancelPaid', {id: INVOICE_ID})),
      },
    },
    getInvoicePdf: {
      responses: {
        200: {link: {summary: 'A signed link, no key needed', value: {pdf_url: published.pdf_url, expires_at: '2026-11-25T09:47:00.000Z'}}},
        404: notFound('invoice', 'inv_test_doesnotexist'),
        409: error('A draft has no PDF', 'invalid_state', t('sandboxInvoices.state.pdfDraft', {id: INVOICE_ID})),
      },
    },
    getOpenApi: {
      responses: {200: {document: {summary: 'This document (abridged)', value: {openapi: '3.1.0', info: {title: 'svc', version: '1.0.0'}, paths: {}}}}},
    },
  }
}

/** The example of one event type: the contract's own settlement event of an example payment. */
export function eventExample(type: EventType): Example {
  const {status} = EVENTS[type]
  const settled = status === 'FAILED' ? payment(status, {phone_number: '237670000099', failure_code: 'CUSTOMER_DECLINED'}) : payment(status)
  const event = settlementEvent(settled, new Date('2026-11-25T09:30:06.500Z'))
  return {summary: `A payment settled to ${status}`, value: event}
}
