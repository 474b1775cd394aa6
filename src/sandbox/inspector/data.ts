/**
 * The admin routes the inspector's pages read besides the dashboard stand-in's: payments and
 * invoices with filters, the customer's handset (the LIVE payments it rings for, the PIN typed on
 * it), an event delivered again, and an outbox message as the customer reads it (with the QR code
 * of its pay link). Paths and answers: src/contract/sandbox-inspector.ts.
 */
import {
  HANDSET_MAX_TRIES,
  HANDSET_PIN,
  INSPECTOR_ROUTES,
  type OutboxMessage as OutboxView,
  type PhoneCall,
  type PinAnswer,
} from '../../contract/sandbox-inspector.js'
import {businessLanguage, businessName} from '../business.js'
import {notFound, invalidState} from '../errors.js'
import {t} from '../i18n/index.js'
import {invoiceDomainOf} from '../invoices/index.js'
import {PDF_URL_TTL_MS} from '../invoices/invoices.js'
import {PAYMENT_STATUSES, LIVE_APPROVAL_WINDOW_MS, type PaymentStatus} from '../payments.js'
import type {Schema} from '../schema.js'
import type {Environment} from '../types.js'
import type {ResolvedOptions, SandboxContext} from '../context.js'
import type {SandboxServices} from '../domain.js'
import type {Journal} from '../journal.js'
import type {Router} from '../router.js'
import type {Store} from '../store.js'
import {addAdminRoute} from '../admin/route.js'

const envSchema: Schema = {type: 'string', enum: ['SANDBOX', 'LIVE', 'sandbox', 'live']}
const pageQuery = {
  limit: {type: 'integer', minimum: 1, maximum: 100, default: 20},
  offset: {type: 'integer', minimum: 0, default: 0},
} satisfies Record<string, Schema>
const env = (value: unknown): Environment => (typeof value === 'string' ? (value.toUpperCase() as Environment) : 'SANDBOX')

export interface InspectorDependencies {
  router: Router
  context: SandboxContext
  services: SandboxServices
  journal: Journal
  store: Store
  options: ResolvedOptions
  baseUrl: () => string
}

export function registerInspectorData(deps: InspectorDependencies): void {
  const {router, context, services, store, options} = deps
  const {payments} = services
  /**
   * Wrong PINs typed so far, per payment, kept with the LIVE payments (with --data, on disk): a
   * restart does not give the customer's wallet its tries back. Gone with the payment's database
   * (reset, a snapshot restored).
   */
  const tries = () => store.env('LIVE').collection<{id: string; wrong: number}>('handset_tries')
  const wrongPins = {
    get: (id: string) => tries().get(id)?.wrong,
    set(id: string, wrong: number) {
      if (!tries().update(id, (row) => void (row.wrong = wrong))) tries().insert({id, wrong})
    },
    delete: (id: string) => void tries().delete(id),
  }

  addAdminRoute(router, 'GET /_admin/payments', {
    query: {type: 'object', properties: {environment: envSchema, status: {type: 'string', enum: PAYMENT_STATUSES}, ...pageQuery}},
    handler: (req) => {
      const {limit, offset, status} = req.query as {limit: number; offset: number; status?: string}
      const environment = env(req.query.environment)
      // The total of a status is counted as payments change: a filtered page scans no further than it shows.
      const known = status ? payments.countOf(environment, status as PaymentStatus) : undefined
      const page = payments.collection(environment).newestFirst(offset, limit, {status}, known)
      const data = page.items.map((record) => ({...record.payment, operator: record.operator}))
      return {status: 200, body: {data, limit, offset, total: page.total, has_more: offset + data.length < page.total}}
    },
  })
  // One payment, of either environment: what a link to it in the inspector opens.
  addAdminRoute(router, 'GET /_admin/payments/{paymentId}', {
    handler: (req) => {
      const id = req.params.paymentId
      const record = payments.get('SANDBOX', id) ?? payments.get('LIVE', id)
      if (!record) throw notFound('payment', id)
      return {status: 200, body: {...record.payment, operator: record.operator}}
    },
  })
  addAdminRoute(router, 'GET /_admin/invoices', {
    query: {type: 'object', properties: {environment: envSchema, status: {type: 'string', pattern: '^[A-Z_]{1,20}$'}, ...pageQuery}},
    handler: (req) => {
      const {limit, offset, status} = req.query as {limit: number; offset: number; status?: string}
      const {invoices} = invoiceDomainOf(context)
      const page = invoices.collection(env(req.query.environment)).newestFirst(offset, limit, {status})
      // Each with a signed link to its PDF (a draft has none), as the dashboard's would open it.
      const data = page.items.map((invoice) => ({...invoice, pdf_url: invoice.status === 'DRAFT' ? null : invoices.pdfLink(invoice, PDF_URL_TTL_MS).url}))
      return {status: 200, body: {data, limit, offset, total: page.total, has_more: offset + data.length < page.total}}
    },
  })

  // The customer's handset ----------------------------------------------------------------------
  const call = (record: ReturnType<typeof payments.get> & {}): PhoneCall => ({
    payment_id: record.id,
    operator: record.operator,
    phone: record.payment.phone_number,
    amount: record.payment.amount,
    currency: 'XAF',
    merchant: businessName(store, options.businessName),
    created_at: record.payment.created_at,
    expires_at: new Date(Date.parse(record.payment.created_at) + LIVE_APPROVAL_WINDOW_MS).toISOString(),
    tries_left: HANDSET_MAX_TRIES - (wrongPins.get(record.id) ?? 0),
  })
  addAdminRoute(router, 'GET /_admin/phone', {
    handler: () => {
      const ringing = payments.collection('LIVE').newestFirst(0, 20, {status: 'PENDING'}).items
      // Those the provider has already answered (approved, waiting to settle) no longer ring.
      return {status: 200, body: {data: ringing.filter((record) => !record.outcome).map(call)}}
    },
  })
  addAdminRoute(router, 'POST /_admin/phone/{paymentId}/pin', {
    body: {type: 'object', additionalProperties: false, properties: {pin: {type: 'string', maxLength: 12}, decline: {type: 'boolean'}}},
    handler: (req) => {
      const id = req.params.paymentId
      const record = payments.get('LIVE', id)
      if (!record) throw notFound('payment', id)
      if (record.payment.status !== 'PENDING' || record.outcome)
        throw invalidState(t('sandbox.payment.notPending', {id, status: record.payment.status}))
      if (req.body.decline === true) {
        const payment = payments.decide(id, 'decline')
        return {status: 200, body: {payment_id: id, status: payment.status, tries_left: call(record).tries_left} satisfies PinAnswer}
      }
      if (req.body.pin === HANDSET_PIN) {
        const payment = payments.decide(id, 'approve')
        wrongPins.delete(id)
        return {status: 200, body: {payment_id: id, status: payment.status, tries_left: HANDSET_MAX_TRIES} satisfies PinAnswer}
      }
      const wrong = (wrongPins.get(id) ?? 0) + 1
      wrongPins.set(id, wrong)
      if (wrong < HANDSET_MAX_TRIES) return {status: 200, body: {payment_id: id, status: 'PENDING', tries_left: HANDSET_MAX_TRIES - wrong} satisfies PinAnswer}
      // A wallet locks after three wrong PINs: the payment fails with a code of the contract.
      wrongPins.delete(id)
      const payment = payments.decide(id, 'decline', 'ACCOUNT_INACTIVE')
      return {status: 200, body: {payment_id: id, status: payment.status, tries_left: 0, failure_code: 'ACCOUNT_INACTIVE'} satisfies PinAnswer}
    },
  })

  // Events: deliver again --------------------------------------------------------------------------
  addAdminRoute(router, 'POST /_admin/events/{eventId}/redeliver', {
    handler: (req) => {
      for (const environment of ['SANDBOX', 'LIVE'] as const) {
        const queued = context.events.redeliver(environment, req.params.eventId)
        if (queued) return {status: 201, body: {data: queued}}
      }
      throw notFound('event', req.params.eventId)
    },
  })

  // The outbox as the customer reads it ------------------------------------------------------------
  addAdminRoute(router, 'GET /_admin/outbox/{messageId}/message', {
    handler: async (req) => {
      const {outbox} = invoiceDomainOf(context)
      for (const environment of ['SANDBOX', 'LIVE'] as const) {
        const message = outbox.collection(environment).get(req.params.messageId)
        if (!message) continue
        const {default: QRCode} = await import('qrcode')
        const view: OutboxView = {
          id: message.id,
          channel: message.channel,
          recipient: message.recipient,
          language: businessLanguage(store),
          subject: message.subject,
          text: message.text,
          pay_url: message.pay_url,
          pdf_url: message.pdf_url,
          qr: message.pay_url ? await QRCode.toDataURL(message.pay_url, {margin: 1, width: 160}) : null,
        }
        return {status: 200, body: view}
      }
      throw notFound('outbox message', req.params.messageId)
    },
  })
}
