/** The Invoice object as the service returns it (docs/service.md, "Invoices"). */
import type {LineItem} from './items.js'

export const INVOICE_STATUSES = ['DRAFT', 'UNPAID', 'PAST_DUE', 'PAID', 'CANCELLED'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

export const CHANNELS = ['EMAIL', 'WHATSAPP'] as const
export type Channel = (typeof CHANNELS)[number]

export interface Invoice {
  id: string
  status: string
  customer_name: string
  customer_email?: string | null
  customer_phone?: string | null
  due_date: string
  items: LineItem[]
  subtotal_amount?: number
  discount_percent?: number
  discount_amount?: number
  total_amount: number
  amount_paid?: number
  amount_due?: number
  currency?: string
  notes?: string | null
  cover_image_url?: string | null
  external_reference?: string | null
  checkout_url?: string
  environment?: string
  created_at?: string
  updated_at?: string
  published_at?: string | null
  paid_at?: string | null
  cancelled_at?: string | null
  /** Publish response only. */
  published?: boolean
  pdf_url?: string
}

/** Send response: `{invoice_id, channel, recipient, sent_at}`. */
export interface SendResult {
  invoice_id: string
  channel: string
  recipient: string
  sent_at: string
}

/** `GET …/pdf` → `{pdf_url, expires_at}`. */
export interface PdfLink {
  pdf_url: string
  expires_at?: string
}

/** Delivery options of publish and send. */
export interface Delivery {
  channel?: Channel
  toEmail?: string
  toPhone?: string
}
