/**
 * The delivery outbox: what the real service would have emailed or sent by WhatsApp. Nothing
 * leaves the machine; each delivery is recorded with its recipient (and whether it was an
 * override), the pay link (checkout_url), a signed PDF link and the message text, and is shown by
 * `GET /_admin/outbox` (`svc sandbox outbox`). Overrides never touch the invoice's stored contact.
 */
import {t} from '../i18n/index.js'
import {businessLanguage, businessName} from '../business.js'
import type {SandboxContext} from '../context.js'
import {validationError} from '../errors.js'
import {newPlainId} from '../ids.js'
import type {Collection} from '../store.js'
import type {Environment} from '../types.js'
import {formatDay, formatXaf} from './format.js'
import type {Channel, Invoice} from './schemas.js'

export interface OutboxMessage {
  id: string
  invoice_id: string
  environment: Environment
  channel: Channel
  recipient: string
  /** True when override_email / override_phone redirected this one delivery. */
  overridden: boolean
  /** The invoice's own contact for this channel at the time (unchanged by an override). */
  invoice_contact: string | null
  trigger: 'publish' | 'send'
  subject: string | null
  text: string
  pay_url: string
  pdf_url: string
  pdf_expires_at: string
  created_at: string
}

export interface DeliveryRequest {
  channel?: Channel
  override_email?: string
  override_phone?: string
}

/** The recipient of a delivery, or a 400 naming what is missing (checked before anything changes). */
export function resolveRecipient(invoice: Invoice, request: DeliveryRequest): {channel: Channel; recipient: string; overridden: boolean; contact: string | null} {
  const channel = request.channel ?? 'EMAIL'
  if (channel === 'EMAIL') {
    const recipient = request.override_email ?? invoice.customer_email
    if (!recipient) throw validationError([{field: 'override_email', message: t('sandboxInvoices.delivery.noEmail', {id: invoice.id})}])
    return {channel, recipient, overridden: request.override_email !== undefined, contact: invoice.customer_email}
  }
  const recipient = request.override_phone ?? invoice.customer_phone
  if (!recipient) throw validationError([{field: 'override_phone', message: t('sandboxInvoices.delivery.noPhone', {id: invoice.id})}])
  return {channel, recipient, overridden: request.override_phone !== undefined, contact: invoice.customer_phone}
}

export class Outbox {
  constructor(private readonly ctx: SandboxContext) {
    ctx.store.defineCollection<OutboxMessage>('environment', 'outbox', {invoice_id: (m) => m.invoice_id, channel: (m) => m.channel})
  }

  collection(environment: Environment): Collection<OutboxMessage> {
    return this.ctx.store.env(environment).collection<OutboxMessage>('outbox')
  }

  record(
    invoice: Invoice,
    target: ReturnType<typeof resolveRecipient>,
    trigger: OutboxMessage['trigger'],
    pdf: {url: string; expiresAt: number},
  ): OutboxMessage {
    const business = businessName(this.ctx.store, this.ctx.options.businessName)
    // The customer reads the business's language (its dashboard setting), not the server's.
    const locale = businessLanguage(this.ctx.store)
    const params = {
      business,
      customer: invoice.customer_name,
      id: invoice.id,
      amount: formatXaf(invoice.amount_due, locale),
      total: formatXaf(invoice.total_amount, locale),
      due: formatDay(invoice.due_date, locale),
      pay: invoice.checkout_url,
      pdf: pdf.url,
    }
    const message: OutboxMessage = {
      id: newPlainId('msg'),
      invoice_id: invoice.id,
      environment: invoice.environment,
      channel: target.channel,
      recipient: target.recipient,
      overridden: target.overridden,
      invoice_contact: target.contact,
      trigger,
      subject: target.channel === 'EMAIL' ? t('sandboxInvoices.delivery.subject', params, locale) : null,
      text: t(target.channel === 'EMAIL' ? 'sandboxInvoices.delivery.emailText' : 'sandboxInvoices.delivery.whatsappText', params, locale),
      pay_url: invoice.checkout_url,
      pdf_url: pdf.url,
      pdf_expires_at: this.ctx.clock.iso(pdf.expiresAt),
      created_at: this.ctx.clock.iso(),
    }
    return this.collection(invoice.environment).insert(message)
  }
}
