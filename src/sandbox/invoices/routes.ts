/**
 * The HTTP surface of invoices: `/v1/invoices…` and the keyless signed PDF under `/storage/invoices/…`.
 * Kept apart from the domain (invoices.ts), which knows nothing of routes, schemas of requests or
 * response headers.
 */
import {t} from '../i18n/index.js'
import type {SandboxContext} from '../context.js'
import {ApiError, invalidState, notFound} from '../errors.js'
import {EXAMPLE_IDS} from '../examples.js'
import {idSchema} from '../ids.js'
import type {Environment} from '../types.js'
import {PDF_URL_TTL_MS, type Invoices} from './invoices.js'
import {
  CreateInvoiceSchema,
  InvoiceListSchema,
  InvoiceSchema,
  ListInvoicesQuery,
  MAX_TOTAL_TEXT,
  PdfLinkSchema,
  PublishedInvoiceSchema,
  PublishInvoiceSchema,
  SendInvoiceSchema,
  SendResultSchema,
  type InvoiceStatus,
} from './schemas.js'
import type {UrlSigner} from './signing.js'

/** The invoice id parameter; its example is the example invoice (examples.ts) the operation works on in a fresh sandbox. */
const idParam = (example: string) => ({
  invoiceId: {schema: idSchema('inv'), description: 'inv_test_… (sandbox) or inv_… (live).', idPrefix: 'inv', example},
})

export function registerInvoiceRoutes(ctx: SandboxContext, invoices: Invoices, signer: UrlSigner): void {
  const {router} = ctx
  router.add({
    method: 'POST',
    path: '/v1/invoices',
    auth: 'key',
    scope: 'invoices:write',
    operationId: 'createInvoice',
    summary: 'Create an invoice (DRAFT)',
    description:
      `Totals are computed by the service (subtotal, discount as a percentage, total at least 100 XAF) and cannot be supplied; the subtotal (the sum of price × quantity) is at most ${MAX_TOTAL_TEXT} XAF, or 400 naming items. cover_image_url must be a file_url returned by POST /v1/files/upload-url whose bytes were uploaded, or 400. Send an Idempotency-Key (a UUID): a completed key replays the original response with Idempotent-Replayed: true; the same key with another body is 422; while the first request is in progress, 409. Keys live 24 hours. A create without a key is accepted but cannot be retried safely.`,
    tags: ['Invoices'],
    headers: {
      'Idempotency-Key': {
        // What a header carries: visible ASCII, inner spaces (HTTP drops the outer ones; a key of spaces arrives empty).
        schema: {type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~](?:[ -~]*[!-~])?$'},
        description: 'A unique key per operation (a UUID is recommended). Remembered for 24 hours.',
      },
    },
    body: CreateInvoiceSchema,
    responses: {
      201: {
        description: 'The invoice in DRAFT, with checkout_url (or the replayed original response).',
        schema: InvoiceSchema,
        headers: {'Idempotent-Replayed': {description: '"true" when this is the replay of a completed request with the same key.', schema: {type: 'string', enum: ['true']}}},
      },
    },
    errors: [400, 401, 403, 409, 422, 429],
    handler: (req) => invoices.create(req),
  })
  router.add({
    method: 'GET',
    path: '/v1/invoices',
    auth: 'key',
    scope: 'invoices:read',
    operationId: 'listInvoices',
    summary: 'List invoices, newest first',
    description: 'Filter by status (UNPAID and PAST_DUE are the receivables); page with page (1-based, default 1) and page_size (1 to 100, default 20) up to total_pages.',
    tags: ['Invoices'],
    query: ListInvoicesQuery,
    responses: {200: {description: 'A page of invoices.', schema: InvoiceListSchema}},
    errors: [400, 401, 403, 429],
    handler: (req) => {
      const {status, page, page_size} = req.query as {status?: InvoiceStatus; page: number; page_size: number}
      const stored = invoices.collection(req.environment)
      // Only an UNPAID invoice can have become PAST_DUE.
      for (const invoice of stored.find({status: 'UNPAID'})) invoices.refresh(invoice)
      const result = stored.newestFirst((page - 1) * page_size, page_size, {status})
      return {status: 200, body: {data: result.items, page, page_size, total: result.total, total_pages: Math.ceil(result.total / page_size)}}
    },
  })
  router.add({
    method: 'GET',
    path: '/v1/invoices/{invoiceId}',
    auth: 'key',
    scope: 'invoices:read',
    operationId: 'getInvoice',
    summary: 'Read an invoice',
    description: 'Its current status, totals and amounts paid and due. A PDF is never a field: ask GET /v1/invoices/{invoiceId}/pdf.',
    tags: ['Invoices'],
    params: idParam(EXAMPLE_IDS.invoice),
    responses: {200: {description: 'The invoice.', schema: InvoiceSchema}},
    errors: [401, 403, 404, 429],
    handler: (req) => ({status: 200, body: invoices.get(req.environment, req.params.invoiceId)}),
  })
  router.add({
    method: 'POST',
    path: '/v1/invoices/{invoiceId}/publish',
    auth: 'key',
    scope: 'invoices:write',
    operationId: 'publishInvoice',
    summary: 'Publish a draft: it becomes payable (UNPAID)',
    description:
      'Amounts are fixed and stock is reserved for 7 days. Without channel the invoice is published quietly (nothing is delivered); with channel (EMAIL or WHATSAPP) it is also delivered in the same call, which needs the invoices:send scope. Publishing an UNPAID or PAST_DUE invoice again returns it unchanged and delivers nothing (use send); PAID or CANCELLED is 409. override_email needs channel EMAIL and override_phone needs channel WHATSAPP (400 otherwise, whatever the status).',
    tags: ['Invoices'],
    params: idParam(EXAMPLE_IDS.draftInvoice),
    body: PublishInvoiceSchema,
    bodyOptional: true,
    responses: {200: {description: 'The invoice plus published and pdf_url.', schema: PublishedInvoiceSchema}},
    errors: [400, 401, 403, 404, 409, 429],
    handler: (req) => invoices.publish(req),
  })
  router.add({
    method: 'POST',
    path: '/v1/invoices/{invoiceId}/send',
    auth: 'key',
    scope: 'invoices:send',
    operationId: 'sendInvoice',
    summary: 'Deliver a published invoice with its pay link',
    description:
      'Repeatable; the status does not change. Default recipients are customer_email (EMAIL) and customer_phone (WHATSAPP); overrides redirect this one delivery: override_email with channel EMAIL (the default), override_phone with channel WHATSAPP (400 otherwise). A DRAFT, PAID or CANCELLED invoice is 409; without an override, an invoice with no recipient for the channel is 400.',
    tags: ['Invoices'],
    params: idParam(EXAMPLE_IDS.invoice),
    body: SendInvoiceSchema,
    bodyOptional: true,
    responses: {200: {description: 'Where the invoice went.', schema: SendResultSchema}},
    errors: [400, 401, 403, 404, 409, 429],
    handler: (req) => invoices.send(req),
  })
  router.add({
    method: 'POST',
    path: '/v1/invoices/{invoiceId}/cancel',
    auth: 'key',
    scope: 'invoices:write',
    operationId: 'cancelInvoice',
    summary: 'Cancel an invoice',
    description: 'DRAFT, UNPAID and PAST_DUE (partly paid included) become CANCELLED; cancelling a CANCELLED invoice returns it unchanged; a PAID invoice is 409.',
    tags: ['Invoices'],
    params: idParam(EXAMPLE_IDS.cancelInvoice),
    responses: {200: {description: 'The invoice in CANCELLED.', schema: InvoiceSchema}},
    errors: [401, 403, 404, 409, 429],
    handler: (req) => invoices.cancel(req),
  })
  router.add({
    method: 'GET',
    path: '/v1/invoices/{invoiceId}/pdf',
    auth: 'key',
    scope: 'invoices:read',
    operationId: 'getInvoicePdf',
    summary: 'A link to the invoice as a PDF',
    description:
      'A signed, short-lived pdf_url that works without the API key: the same document the customer receives, rendered from the current state when fetched. A DRAFT has no PDF (409).',
    tags: ['Invoices'],
    params: idParam(EXAMPLE_IDS.invoice),
    responses: {200: {description: 'The PDF link.', schema: PdfLinkSchema}},
    errors: [401, 403, 404, 409, 429],
    handler: (req) => {
      const invoice = invoices.get(req.environment, req.params.invoiceId)
      if (invoice.status === 'DRAFT') throw invalidState(t('sandboxInvoices.state.pdfDraft', {id: invoice.id}))
      const link = invoices.pdfLink(invoice, PDF_URL_TTL_MS)
      return {status: 200, body: {pdf_url: link.url, expires_at: ctx.clock.iso(link.expiresAt)}}
    },
  })
  router.add({
    method: 'GET',
    path: '/storage/invoices/{invoiceId}/invoice.pdf',
    auth: 'none',
    limitByAddress: true,
    query: {type: 'object', properties: {expires: {type: 'string'}, signature: {type: 'string'}}},
    responses: {200: {description: 'The PDF.', contentType: 'application/pdf'}, 304: {description: 'Not modified (If-None-Match).'}},
    handler: async (req) => {
      const id = req.params.invoiceId
      const check = signer.check(`/storage/invoices/${id}/invoice.pdf`, req.query)
      if (check === 'invalid') throw new ApiError(403, 'invalid_signature', t('sandboxInvoices.files.badSignature'))
      if (check === 'expired') throw new ApiError(403, 'url_expired', t('sandboxInvoices.pdf.expired'))
      const environment: Environment = id.startsWith('inv_test_') ? 'SANDBOX' : 'LIVE'
      const invoice = invoices.find(environment, id)
      if (!invoice || invoice.status === 'DRAFT') throw notFound('invoice', id)
      const pdf = invoices.pdf(invoice)
      // The link is signed and short-lived: a cache may keep the document only privately, and must ask again.
      const headers = {etag: pdf.etag, 'cache-control': 'private, no-cache'}
      const given = req.headers['if-none-match']
      if (given !== undefined && given.split(',').some((tag) => tag.trim().replace(/^W\//, '') === pdf.etag)) return {status: 304, headers}
      return {
        status: 200,
        raw: await pdf.bytes(),
        contentType: 'application/pdf',
        headers: {...headers, 'content-disposition': `inline; filename="${invoice.id}.pdf"`},
      }
    },
  })
}
