/**
 * Invoice and file schemas: the HTTP layer validates requests with these objects and
 * `/v1/openapi.json` publishes the very same ones (docs/service.md, "Invoices").
 */
import {MAX_LENGTH, MAX_PRICE, MAX_QUANTITY, MAX_TOTAL, MIN_PRICE, MIN_QUANTITY} from '../../contract/limits.js'

/** 10^15 as a reader counts it: 1 000 000 000 000 000. */
export const MAX_TOTAL_TEXT = MAX_TOTAL.toLocaleString('en-US').replaceAll(',', ' ')
import {NAME_PATTERN, named, TEXT_PATTERN, type Schema} from '../schema.js'

export const INVOICE_STATUSES = ['DRAFT', 'UNPAID', 'PAST_DUE', 'PAID', 'CANCELLED'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

export const CHANNELS = ['EMAIL', 'WHATSAPP'] as const
export type Channel = (typeof CHANNELS)[number]

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const
export type ImageType = (typeof IMAGE_TYPES)[number]

/** 5 MB, the largest cover image. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024

/** The smallest invoice total after discount, XAF. */
export const MIN_INVOICE_TOTAL = 100

/**
 * ISO 8601: a real calendar date (30 days hath September; 29 February in leap years only), or a
 * date-time on it with a zone: hours 00 to 23 (24:00 is the end of the day), minutes and seconds
 * 00 to 59, an offset up to ±23:59. The handler reads it with Date.parse, which takes exactly these.
 */
const MONTH_DAY = '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))'
const LEAP_YEAR = '(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)'
const CALENDAR_DATE = `(?:\\d{4}-${MONTH_DAY}|${LEAP_YEAR}-02-29)`
const TIME = '(?:(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d+)?)?|24:00(?::00(?:\\.0+)?)?)'
const ZONE = '(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)'
export const DUE_DATE_PATTERN = `^${CALENDAR_DATE}(?:T${TIME}${ZONE})?$`

/** International format: a Cameroon number in any accepted form, or `+` and 8 to 15 digits; spaces allowed. */
export const INTERNATIONAL_PHONE_PATTERN = '^ *(\\+ *[1-9]( *[0-9]){7,14}|(2 *3 *7 *)?[26]( *[0-9]){8}) *$'

export interface LineItem {
  name: string
  description?: string
  price: number
  quantity: number
}

export interface Invoice {
  id: string
  status: InvoiceStatus
  customer_name: string
  customer_email: string | null
  customer_phone: string | null
  due_date: string
  items: LineItem[]
  subtotal_amount: number
  discount_percent: number
  discount_amount: number
  total_amount: number
  amount_paid: number
  amount_due: number
  currency: 'XAF'
  notes: string | null
  cover_image_url: string | null
  external_reference: string | null
  checkout_url: string
  environment: 'SANDBOX' | 'LIVE'
  created_at: string
  updated_at: string
  published_at?: string
  paid_at?: string
  cancelled_at?: string
}

export const LineItemSchema = named('LineItem', {
  type: 'object',
  required: ['name', 'price', 'quantity'],
  additionalProperties: false,
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_LENGTH.itemName,
      pattern: NAME_PATTERN,
      'x-pattern-message': 'sandbox.validation.empty',
      description: 'Shown on the invoice; also the catalogue item it syncs to. Not only spaces; no control character.',
    },
    description: {type: 'string', maxLength: MAX_LENGTH.itemDescription, pattern: TEXT_PATTERN},
    price: {type: 'integer', minimum: MIN_PRICE, maximum: MAX_PRICE, description: 'Unit price, whole XAF (never multiplied by 100).'},
    quantity: {type: 'integer', minimum: MIN_QUANTITY, maximum: MAX_QUANTITY},
  },
} satisfies Schema)

const nullableString = (description?: string): Schema => ({type: ['string', 'null'], ...(description ? {description} : {})})

export const InvoiceSchema = named('Invoice', {
  type: 'object',
  additionalProperties: false,
  required: [
    'id', 'status', 'customer_name', 'customer_email', 'customer_phone', 'due_date', 'items', 'subtotal_amount',
    'discount_percent', 'discount_amount', 'total_amount', 'amount_paid', 'amount_due', 'currency', 'notes',
    'cover_image_url', 'external_reference', 'checkout_url', 'environment', 'created_at', 'updated_at',
  ],
  properties: {
    id: {type: 'string', pattern: '^inv_', description: 'inv_test_… in sandbox, inv_… in live.'},
    status: {type: 'string', enum: INVOICE_STATUSES, description: 'UNPAID and PAST_DUE are the receivables; PAST_DUE: published and the due date has passed.'},
    customer_name: {type: 'string'},
    customer_email: nullableString(),
    customer_phone: nullableString('International format, +237XXXXXXXXX for Cameroon.'),
    due_date: {type: 'string', description: 'As given at creation (ISO 8601 date or date-time).'},
    items: {type: 'array', items: LineItemSchema, minItems: 1},
    subtotal_amount: {type: 'integer', minimum: 0, description: 'Sum of price × quantity.'},
    discount_percent: {type: 'number', minimum: 0, maximum: 100},
    discount_amount: {type: 'integer', minimum: 0, description: 'round(subtotal × discount_percent / 100), halves away from zero.'},
    total_amount: {type: 'integer', minimum: MIN_INVOICE_TOTAL, description: 'subtotal_amount − discount_amount, whole XAF.'},
    amount_paid: {type: 'integer', minimum: 0},
    amount_due: {type: 'integer', minimum: 0, description: 'total_amount − amount_paid; the invoice is PAID when it reaches 0.'},
    currency: {type: 'string', enum: ['XAF']},
    notes: nullableString(),
    cover_image_url: nullableString('A file_url from POST /v1/files/upload-url.'),
    external_reference: nullableString(),
    checkout_url: {type: 'string', format: 'uri', description: 'Store it, do not build it; sandbox URLs carry type=sandbox, keep it intact.'},
    environment: {type: 'string', enum: ['SANDBOX', 'LIVE']},
    created_at: {type: 'string', format: 'date-time'},
    updated_at: {type: 'string', format: 'date-time'},
    published_at: {type: 'string', format: 'date-time'},
    paid_at: {type: 'string', format: 'date-time'},
    cancelled_at: {type: 'string', format: 'date-time'},
  },
} satisfies Schema)

/** Fields a client may be tempted to send but which the service computes or derives. */
const COMPUTED_FIELDS = {
  total_amount: 'sandboxInvoices.validation.computed',
  subtotal_amount: 'sandboxInvoices.validation.computed',
  subtotal: 'sandboxInvoices.validation.computed',
  total: 'sandboxInvoices.validation.computed',
  discount_amount: 'sandboxInvoices.validation.computed',
  amount_paid: 'sandboxInvoices.validation.computed',
  amount_due: 'sandboxInvoices.validation.computed',
  business_id: 'sandboxInvoices.validation.businessId',
  status: 'sandboxInvoices.validation.status',
} as const

export const CreateInvoiceSchema = named('CreateInvoiceRequest', {
  type: 'object',
  required: ['customer_name', 'due_date', 'items'],
  additionalProperties: false,
  'x-refused': COMPUTED_FIELDS,
  properties: {
    customer_name: {type: 'string', minLength: 1, maxLength: MAX_LENGTH.customerName, pattern: NAME_PATTERN, 'x-pattern-message': 'sandbox.validation.empty', description: 'Not only spaces (it is trimmed); no control character.'},
    due_date: {
      type: 'string',
      pattern: DUE_DATE_PATTERN,
      maxLength: 35,
      'x-pattern-message': 'sandboxInvoices.validation.dueDate',
      description: 'ISO 8601: a real calendar date, 2026-12-31 (due until the end of that day, UTC), or a date-time on it with a zone (2026-12-31T18:00:00Z).',
      examples: ['2026-12-31', '2026-12-31T18:00:00Z'],
    },
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: LineItemSchema,
      description: `At least one line item, at most 100. The subtotal (the sum of price × quantity) is at most ${MAX_TOTAL_TEXT} XAF.`,
    },
    customer_email: {type: 'string', format: 'email', maxLength: MAX_LENGTH.email, description: 'Needed to send by EMAIL.'},
    customer_phone: {
      type: 'string',
      pattern: INTERNATIONAL_PHONE_PATTERN,
      maxLength: 32,
      'x-pattern-message': 'sandboxInvoices.validation.phone',
      description: 'International format (+237 6 70 00 00 01); Cameroon numbers also as 9 national digits. Needed to send by WHATSAPP.',
    },
    discount_percent: {type: 'number', minimum: 0, maximum: 100, default: 0, description: 'Percentage of the subtotal: 10 means 10 % off, not 10 XAF.'},
    notes: {type: 'string', maxLength: MAX_LENGTH.notes, pattern: TEXT_PATTERN},
    currency: {type: 'string', enum: ['XAF'], default: 'XAF'},
    cover_image_url: {type: 'string', maxLength: 2000, pattern: TEXT_PATTERN, description: 'The file_url returned by POST /v1/files/upload-url, once uploaded. Any other URL is refused.'},
    external_reference: {type: 'string', maxLength: MAX_LENGTH.externalReference, pattern: TEXT_PATTERN, description: 'Your own identifier, echoed back on reads.'},
  },
} satisfies Schema)

export const InvoiceListSchema = named('InvoiceList', {
  type: 'object',
  required: ['data', 'page', 'page_size', 'total', 'total_pages'],
  additionalProperties: false,
  properties: {
    data: {type: 'array', items: InvoiceSchema, description: 'Newest first.'},
    page: {type: 'integer', minimum: 1},
    page_size: {type: 'integer', minimum: 1, maximum: 100},
    total: {type: 'integer', minimum: 0, description: 'Invoices matching the filter.'},
    total_pages: {type: 'integer', minimum: 0},
  },
} satisfies Schema)

export const ListInvoicesQuery = {
  type: 'object',
  properties: {
    status: {type: 'string', enum: INVOICE_STATUSES, description: 'Only invoices in this status.'},
    page: {type: 'integer', minimum: 1, default: 1, description: '1-based page number.'},
    page_size: {type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Invoices per page, 1 to 100.'},
  },
} satisfies Schema

const overrideEmail = {
  type: 'string',
  format: 'email',
  maxLength: MAX_LENGTH.email,
  description: 'This one delivery goes to this address; customer_email is unchanged. Only with channel EMAIL.',
} satisfies Schema

const overridePhone = {
  type: 'string',
  pattern: INTERNATIONAL_PHONE_PATTERN,
  maxLength: 32,
  'x-pattern-message': 'sandboxInvoices.validation.phone',
  description: 'This one delivery goes to this number; customer_phone is unchanged. Only with channel WHATSAPP.',
} satisfies Schema

/**
 * An override goes with its channel: override_email with EMAIL, override_phone with WHATSAPP
 * (`dependentSchemas`: present, the override makes channel this one; `required` where the channel
 * has no default).
 */
const overridesGoWith = (channelRequired: {email: boolean; phone: boolean}): Schema['dependentSchemas'] => {
  // Each subschema names the body's other properties too: a validator that reads a subschema's
  // unlisted properties as unevaluated (Redocly's examples check) then takes a good body.
  const others = {override_email: {type: 'string'}, override_phone: {type: 'string'}} as const
  return {
    override_email: {...(channelRequired.email ? {required: ['channel']} : {}), properties: {...others, channel: {const: 'EMAIL'}}},
    override_phone: {...(channelRequired.phone ? {required: ['channel']} : {}), properties: {...others, channel: {const: 'WHATSAPP'}}},
  }
}

export const PublishInvoiceSchema = named('PublishInvoiceRequest', {
  type: 'object',
  additionalProperties: false,
  description:
    'Without channel the invoice is published quietly: nothing is delivered. With channel it is also delivered in the same call; an override needs the channel it belongs to (override_email: EMAIL, override_phone: WHATSAPP).',
  properties: {
    channel: {
      type: 'string',
      enum: CHANNELS,
      description:
        'Deliver the invoice in this same call: EMAIL (to customer_email) or WHATSAPP (to customer_phone). Omitted: the invoice is published and nothing is sent (send it later with POST /v1/invoices/{invoiceId}/send).',
    },
    override_email: overrideEmail,
    override_phone: overridePhone,
  },
  dependentSchemas: overridesGoWith({email: true, phone: true}),
} satisfies Schema)

export const SendInvoiceSchema = named('SendInvoiceRequest', {
  type: 'object',
  additionalProperties: false,
  description: 'An override needs the channel it belongs to: override_email goes with EMAIL (the default), override_phone with WHATSAPP.',
  properties: {
    channel: {type: 'string', enum: CHANNELS, default: 'EMAIL', description: 'EMAIL (to customer_email) or WHATSAPP (to customer_phone).'},
    override_email: {...overrideEmail, description: 'This one delivery goes to this address; customer_email is unchanged. Only with channel EMAIL (or no channel).'},
    override_phone: overridePhone,
  },
  dependentSchemas: overridesGoWith({email: false, phone: true}),
} satisfies Schema)

export const PublishedInvoiceSchema = named('PublishedInvoice', {
  ...InvoiceSchema,
  'x-name': 'PublishedInvoice',
  required: [...InvoiceSchema.required, 'published'],
  properties: {
    ...InvoiceSchema.properties,
    published: {type: 'boolean', enum: [true]},
    pdf_url: {type: 'string', format: 'uri', description: 'Signed, short-lived link to the rendered PDF; works without the API key.'},
  },
} satisfies Schema)

export const SendResultSchema = named('InvoiceDelivery', {
  type: 'object',
  required: ['invoice_id', 'channel', 'recipient', 'sent_at'],
  additionalProperties: false,
  properties: {
    invoice_id: {type: 'string'},
    channel: {type: 'string', enum: CHANNELS},
    recipient: {type: 'string', description: 'The address or number the invoice went to.'},
    sent_at: {type: 'string', format: 'date-time'},
  },
} satisfies Schema)

export const PdfLinkSchema = named('InvoicePdf', {
  type: 'object',
  required: ['pdf_url', 'expires_at'],
  additionalProperties: false,
  properties: {
    pdf_url: {type: 'string', format: 'uri', description: 'Signed link, works without the API key until expires_at. Rendered from the current state on each request.'},
    expires_at: {type: 'string', format: 'date-time'},
  },
} satisfies Schema)

export const UploadUrlRequestSchema = named('UploadUrlRequest', {
  type: 'object',
  required: ['filename', 'content_type', 'size'],
  additionalProperties: false,
  properties: {
    filename: {type: 'string', minLength: 1, maxLength: 255, pattern: TEXT_PATTERN, description: 'No control character.'},
    content_type: {type: 'string', enum: IMAGE_TYPES},
    size: {type: 'integer', minimum: 1, maximum: MAX_FILE_BYTES, description: 'Bytes; at most 5 MB (5242880). The upload must be exactly this size.'},
  },
} satisfies Schema)

export const UploadUrlSchema = named('UploadUrl', {
  type: 'object',
  required: ['upload_url', 'method', 'headers', 'file_url', 'expires_at'],
  additionalProperties: false,
  properties: {
    upload_url: {type: 'string', format: 'uri', description: 'Signed storage URL: PUT the bytes here before expires_at.'},
    method: {type: 'string', enum: ['PUT']},
    headers: {type: 'object', additionalProperties: {type: 'string'}, description: 'Headers to send with the PUT.'},
    file_url: {type: 'string', format: 'uri', description: 'Where the file is served once uploaded; use it as cover_image_url.'},
    expires_at: {type: 'string', format: 'date-time', description: 'When upload_url stops working.'},
  },
} satisfies Schema)
