/**
 * The local sandbox's request journal and web inspector: the admin routes both sides use (paths,
 * query, answers), and the rules of a journal filter. The sandbox registers its routes from these
 * paths and the CLI calls them through them, so that a changed route or answer fails the type
 * check on both sides. Imports nothing.
 */

/** Every admin route of the journal and the inspector, by name. `{…}` segments are parameters. */
export const INSPECTOR_ROUTES = {
  /** GET: the journal, newest first (JournalQuery → JournalList). */
  requests: '/_admin/requests',
  /** GET: the journal live, as server-sent events (`event: request`, data: a JournalEntry), with JournalQuery's filters. */
  requestStream: '/_admin/requests/stream',
  /** GET: one request whole (JournalEntry). */
  request: '/_admin/requests/{requestId}',
  /** POST: send the request again, with the same key (ReplayAnswer). */
  replay: '/_admin/requests/{requestId}/replay',
  /** POST: a new one-time login link for the inspector (LoginLink). */
  loginLink: '/_admin/inspector/login-links',
  /** GET: the inspector's session: its CSRF token and its sentences (InspectorSession). */
  session: '/_admin/inspector/session',
  /** GET: payments of both environments, with filters (PaymentQuery → a page). */
  payments: '/_admin/payments',
  /** GET: one payment of either environment, by id (the inspector's link to it). */
  payment: '/_admin/payments/{paymentId}',
  /** GET: invoices, with filters. */
  invoices: '/_admin/invoices',
  /** GET: LIVE payments a customer's handset is ringing for ({data: PhoneCall[]}). */
  phone: '/_admin/phone',
  /** POST: the customer types a PIN on the handset ({pin} → PinAnswer). */
  phonePin: '/_admin/phone/{paymentId}/pin',
  /** POST: deliver an event again to its endpoints. */
  redeliver: '/_admin/events/{eventId}/redeliver',
  /** GET: the message a customer reads for one outbox record (OutboxMessage). */
  outboxMessage: '/_admin/outbox/{messageId}/message',
  /** GET: the live updates the inspector's pages listen to (server-sent events: `change`). */
  changes: '/_admin/inspector/changes',
} as const

/** Where the inspector's pages are. */
export const INSPECTOR_BASE = '/_inspector'
/** The API reference page (Swagger UI on /v1/openapi.json): keyless, static. */
export const REFERENCE_BASE = '/_reference'
/** The cookie the login link sets (HttpOnly, SameSite=Strict). */
export const INSPECTOR_COOKIE = 'svc_inspector'
/** The header every state-changing request of the inspector carries (its session's CSRF token). */
export const CSRF_HEADER = 'x-svc-csrf'

/** The sandbox wallet's PIN, written on the virtual handset. */
export const HANDSET_PIN = '1234'
/** Wrong PINs before the payment fails. */
export const HANDSET_MAX_TRIES = 3

/**
 * The header svc's own requests to the local sandbox carry, naming which part of svc sent them:
 * `webhooks listen`, a stand-in command (the admin client), the inspector (its page and its login
 * link), a probe (svc reading the service's description, `svc status`'s read, `svc login`'s key
 * check: svc learning about the service before it acts, never the app's work). The journal records
 * it as the entry's origin; a request without it is the app's. A new origin goes at the end (the
 * ring keeps each as its index).
 */
export const ORIGIN_HEADER = 'svc-origin'
export const SVC_ORIGINS = ['listen', 'stand-in', 'inspector', 'probe'] as const
export type SvcOrigin = (typeof SVC_ORIGINS)[number]
/** Who made a request: the app (anything without a known ORIGIN_HEADER), or a part of svc. */
export type JournalOrigin = 'app' | SvcOrigin

/** Bodies kept per request and per answer, bytes. */
export const JOURNAL_BODY_LIMIT = 64 * 1024
/** Requests the journal keeps (in memory; the same bound on disk with --data). */
export const JOURNAL_SIZE = 10_000

/** A route path with its parameters filled in (each one URL-encoded). */
export function routePath(route: string, params: Record<string, string>): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
}

export interface JournalEntry {
  id: string
  /** When the request arrived (the machine's time, ISO 8601). */
  at: string
  method: string
  path: string
  /** The query string without its `?`, or ''. */
  query: string
  status: number
  duration_ms: number
  /** The key's environment, or null for a request without a key. */
  environment: 'SANDBOX' | 'LIVE' | null
  /** The key, masked (`svc_sk_test_…a1b2`), or null. */
  key: string | null
  idempotency_key: string | null
  ip: string
  /** Headers as sent, without any secret (no key, no Authorization, no cookie, no token). */
  request_headers: Record<string, string>
  /** The body as text (at most JOURNAL_BODY_LIMIT bytes), or null (none, or not text). */
  request_body: string | null
  request_bytes: number
  response_headers: Record<string, string>
  response_body: string | null
  response_bytes: number
  /** True when a body was longer than JOURNAL_BODY_LIMIT and cut. */
  truncated: boolean
  /** Who made it: the app, or svc itself (ORIGIN_HEADER). */
  origin: JournalOrigin
}

/** Filters of the journal, its stream and `svc sandbox requests|logs tail`. */
export interface JournalQuery {
  /** GET, POST, … (any case). */
  method?: string
  /** Paths starting with this; `*` matches any run of characters. */
  path?: string
  /** Comma-separated: a class (`2xx`, `4xx`) or a status (`429`). */
  status?: string
  /** Only requests of the last this many milliseconds. */
  since_ms?: number
  /** At most this many (1–10000, default 100). */
  limit?: number
  /** Only each entry's line: no headers, no bodies (the inspector's list). */
  summary?: boolean
  /** svc's own requests too (listen, stand-ins, the inspector); default: the app's only. */
  all?: boolean
}

export interface JournalList {
  data: JournalEntry[]
}

export interface ReplayAnswer {
  /** The journal entry of the new request. */
  request: JournalEntry
}

export interface LoginLink {
  url: string
}

export interface InspectorSession {
  csrf: string
  language: 'en' | 'fr'
  business_name: string
  messages: Record<string, string>
}

export interface PhoneCall {
  payment_id: string
  operator: 'MTN' | 'ORANGE'
  phone: string
  amount: number
  currency: 'XAF'
  merchant: string
  created_at: string
  expires_at: string | null
  tries_left: number
}

export interface PinAnswer {
  payment_id: string
  status: string
  /** Wrong PINs left before the payment fails (0 once it has). */
  tries_left: number
  failure_code?: string
}

export interface OutboxMessage {
  id: string
  channel: 'EMAIL' | 'WHATSAPP'
  recipient: string
  language: 'en' | 'fr'
  subject: string | null
  text: string
  pay_url: string | null
  pdf_url: string | null
  /** The QR code of the pay link, as a data: URL of a PNG (or null). */
  qr: string | null
}

/** A status filter: `2xx`, `429`, `4xx,5xx`. */
export const STATUS_FILTER = /^([1-5](xx|\d\d))(,[1-5](xx|\d\d))*$/i

/** A test of a status against a status filter (STATUS_FILTER's form). */
export function statusMatcher(filter: string): (status: number) => boolean {
  const parts = filter.toLowerCase().split(',')
  return (status) => {
    const text = String(status)
    return parts.some((part) => (part.endsWith('xx') ? text[0] === part[0] : text === part))
  }
}

/** A test of a path against a path filter: a prefix, `*` for any run of characters. */
export function pathMatcher(filter: string): (path: string) => boolean {
  if (!filter.includes('*')) return (path) => path.startsWith(filter)
  const pattern = new RegExp(`^${filter.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}`)
  return (path) => pattern.test(path)
}
