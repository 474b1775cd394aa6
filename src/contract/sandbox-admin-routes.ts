/**
 * Every route of the local sandbox's admin surface (`/_admin`, Bearer admin token): its method and
 * path, what it takes (path parameters, query, body) and what it answers. The sandbox registers its
 * admin routes through these names (`src/sandbox/admin/route.ts`) and the CLI's stand-ins call them
 * through them (`src/lib/sandbox-admin/admin.ts`), so a changed route, request or answer fails the type
 * check on both sides (`test/structure/admin-contract.test.ts`). docs/sandbox.md documents them.
 * Imports only the contract.
 */
import type {
  InspectorSession,
  JournalEntry,
  JournalList,
  JournalQuery,
  LoginLink,
  OutboxMessage,
  PhoneCall,
  PinAnswer,
  ReplayAnswer,
} from './sandbox-inspector.js'

/** The environment an admin route is asked about; any case on the wire. */
export type AdminEnvironment = 'SANDBOX' | 'LIVE' | 'sandbox' | 'live'
export type AdminLanguage = 'en' | 'fr'

/** A record of the sandbox's own domain (payment, fault, outage, ledger entry…), read field by field. */
export type AdminRecord = object

export interface AdminList<T> {
  data: readonly T[]
}
export interface AdminPage<T> extends AdminList<T> {
  limit: number
  offset: number
  total: number
  has_more: boolean
}
export interface PageQuery {
  limit?: number
  offset?: number
}

export interface AdminClockState {
  now: string
  now_ms: number
  offset_ms: number
  pending_tasks: number
}

export interface AdminInfo {
  business_name: string
  language: AdminLanguage
  url: string
  payUrl: string
  adminUrl: string
  settle_after_ms: number
  rate_limit: number
  seed: number
  persistent: boolean
  storage: 'memory' | 'sqlite'
  clock: AdminClockState
}

/** What a snapshot restore brought back (both environments together). */
export interface RestoreCounts {
  payments: number
  invoices: number
  events: number
  webhook_endpoints: number
}

export interface BusinessView {
  name: string
  language: AdminLanguage
  logo: {content_type: string; size: number; url: string} | null
}
export interface BusinessUpdate {
  language?: AdminLanguage
  name?: string
  /** A PNG or JPEG, at most 1 MB, base64; null removes the logo. */
  logo_base64?: string | null
}

export interface KeyView {
  id: string
  environment: 'SANDBOX' | 'LIVE'
  /** Masked: prefix and last four. */
  key: string
  scopes: string[]
  created_at: string
  revoked: boolean
  revoked_at?: string
}

export interface EndpointView {
  id: string
  url: string
  environment: 'SANDBOX' | 'LIVE'
  /** Masked, except right after creation or rotation (EndpointWithSecret). */
  secret: string
  rotating: boolean
  previous_secret_expires_at?: string
  created_at: string
}

export interface AllowlistEntryView {
  id: string
  cidr: string
  created_at: string
}

export interface FeeSettingsView {
  mode: 'percent' | 'fixed'
  value: number
  absorb_fees: boolean
}

export interface BalanceView {
  environment: 'SANDBOX' | 'LIVE'
  balance: number
  currency: 'XAF'
  fees_total: number
  collections: number
}

export interface SnapshotView {
  name: string
  created_at: string
  bytes?: number
}

export interface ResetAnswer {
  reset: true
  all: boolean
  /** After `all`: the new keys, since every key was removed. */
  keys?: {sandbox: string; live: string}
}

export interface NumberUpdate {
  operator: 'MTN' | 'ORANGE'
  outcome: 'SUCCESS' | 'FAILED' | 'PENDING' | 'UNSPECIFIED'
  then?: 'SUCCESS' | 'FAILED'
  after_ms?: number
  failure_code?: string
}

/** A number's outcome: a spec test number (scripted false) or one scripted with `numbers set`. */
export interface NumberView {
  phone_number: string
  operator: string
  outcome: string
  scripted: boolean
  then?: string
  after_ms?: number
  failure_code?: string
}

export interface FaultRequest {
  route?: string
  latency_ms?: number
  error?: '429' | 'reset' | '500' | '502' | '503' | 'html'
  deliveries?: 'delay' | 'duplicate' | 'reorder' | 'drop'
  delay_ms?: number
  rate?: number
  for_ms?: number
}

/** A route takes a body that may be left out. */
interface Optional<B> {
  optionalBody: B
}

/**
 * The admin surface, route by route: `'METHOD /path'` → what it takes (`query`, `body`, or
 * `optionalBody`) and its `answer`. `{…}` segments are path parameters.
 */
export interface AdminRoutes {
  'GET /_admin': {answer: AdminInfo}

  // The business
  'GET /_admin/business': {answer: BusinessView}
  'PUT /_admin/business': {body: BusinessUpdate; answer: BusinessView}

  // Keys
  'GET /_admin/keys': {query: {environment?: AdminEnvironment}; answer: AdminList<KeyView>}
  'GET /_admin/keys/known': {query: {sha256: string}; answer: {known: boolean; key?: KeyView}}
  'POST /_admin/keys': {body: {environment: AdminEnvironment; scopes?: string[]}; answer: KeyView & {secret: string}}
  'POST /_admin/keys/{keyId}/revoke': {answer: KeyView}

  // Webhook endpoints
  'GET /_admin/webhook-endpoints': {query: {environment?: AdminEnvironment}; answer: AdminList<EndpointView>}
  'POST /_admin/webhook-endpoints': {body: {url: string; environment?: AdminEnvironment}; answer: EndpointView}
  'DELETE /_admin/webhook-endpoints/{endpointId}': {answer: {id: string; deleted: true}}
  'POST /_admin/webhook-endpoints/{endpointId}/rotate': Optional<{overlap_ms?: number}> & {answer: EndpointView}
  'GET /_admin/webhook-endpoints/{endpointId}/watch': {answer: 'text/event-stream'}

  // IP allowlist
  'GET /_admin/allowlist': {answer: AdminList<AllowlistEntryView>}
  'POST /_admin/allowlist': {body: {cidr: string}; answer: AllowlistEntryView}
  'DELETE /_admin/allowlist': {query: {cidr: string}; answer: {cidr: string; deleted: true}}

  // Fees, balance, ledger
  'GET /_admin/fees': {answer: FeeSettingsView}
  'PUT /_admin/fees': {body: {mode: 'percent' | 'fixed'; value: number; absorb_fees?: boolean}; answer: FeeSettingsView}
  'GET /_admin/balance': {query: {environment?: AdminEnvironment}; answer: AdminList<BalanceView>}
  'GET /_admin/ledger': {query: {environment?: AdminEnvironment} & PageQuery; answer: AdminPage<AdminRecord>}

  // Live payments: the simulated customer's handset
  'POST /_admin/payments/{paymentId}/approve': {answer: AdminRecord}
  'POST /_admin/payments/{paymentId}/decline': {answer: AdminRecord}

  // Clock
  'GET /_admin/clock': {answer: AdminClockState}
  'POST /_admin/clock/advance': {body: {ms: number}; answer: AdminClockState}

  // Reset and snapshots
  'POST /_admin/reset': Optional<{all?: boolean}> & {answer: ResetAnswer}
  'GET /_admin/snapshots': {answer: AdminList<SnapshotView>}
  'POST /_admin/snapshots': {body: {name: string}; answer: SnapshotView}
  'POST /_admin/snapshots/{name}/restore': {answer: {name: string; restored: true; clock: AdminClockState; counts: RestoreCounts; kept: string[]}}
  'DELETE /_admin/snapshots/{name}': {answer: {name: string; deleted: true}}

  // Events and deliveries
  'GET /_admin/events': {query: {environment?: AdminEnvironment; type?: string} & PageQuery; answer: AdminPage<AdminRecord>}
  'GET /_admin/events/{eventId}': {answer: AdminRecord}
  'GET /_admin/deliveries': {
    query: {environment?: AdminEnvironment; status?: 'pending' | 'succeeded' | 'failed'} & PageQuery
    answer: AdminPage<AdminRecord>
  }

  // Scenarios: scripted numbers, operator outages, faults
  'GET /_admin/numbers': {answer: AdminList<NumberView>}
  'PUT /_admin/numbers/{number}': {body: NumberUpdate; answer: NumberView}
  'DELETE /_admin/numbers/{number}': {answer: {phone_number: string; deleted: true}}
  'GET /_admin/operators': {answer: AdminList<AdminRecord>}
  /** The SANDBOX's example objects (the ids /v1/openapi.json shows), which no list has. */
  'GET /_admin/examples': {answer: AdminList<AdminRecord>}
  'POST /_admin/operators/{operator}/down': Optional<{mode?: 'fail' | 'unspecified' | 'slow'; for_ms?: number}> & {
    answer: {operator: string; up: false; outage: AdminRecord}
  }
  'POST /_admin/operators/{operator}/up': {answer: {operator: string; up: true; ended: AdminRecord | null; payments_resolving: unknown}}
  'GET /_admin/faults': {answer: AdminList<AdminRecord>}
  'POST /_admin/faults': {body: FaultRequest; answer: AdminRecord}
  'DELETE /_admin/faults': {answer: AdminList<AdminRecord> & {cleared: true}}
  'DELETE /_admin/faults/{faultId}': {answer: AdminList<AdminRecord> & {cleared: true}}

  // Invoices: inventory and the outbox
  'GET /_admin/inventory': {query: {environment?: AdminEnvironment}; answer: AdminList<AdminRecord>}
  'GET /_admin/inventory/reservations': {
    query: {environment?: AdminEnvironment; invoice_id?: string; status?: 'active' | 'confirmed' | 'released'} & PageQuery
    answer: AdminPage<AdminRecord>
  }
  'GET /_admin/inventory/{item}': {query: {environment?: AdminEnvironment}; answer: AdminRecord}
  'PUT /_admin/inventory/{item}': {query: {environment?: AdminEnvironment}; body: {quantity: number}; answer: AdminRecord}
  'GET /_admin/outbox': {
    query: {environment?: AdminEnvironment; invoice_id?: string; channel?: 'EMAIL' | 'WHATSAPP'} & PageQuery
    answer: AdminPage<AdminRecord>
  }

  // The request journal and the inspector (paths in sandbox-inspector.ts's INSPECTOR_ROUTES)
  'GET /_admin/requests': {query: JournalQuery; answer: JournalList}
  'GET /_admin/requests/stream': {query: JournalQuery; answer: 'text/event-stream'}
  'GET /_admin/requests/{requestId}': {answer: JournalEntry}
  /** `request` is missing when the journal no longer holds the new request. */
  'POST /_admin/requests/{requestId}/replay': {answer: Partial<ReplayAnswer>}
  'POST /_admin/inspector/login-links': {answer: LoginLink}
  'GET /_admin/inspector/session': {answer: InspectorSession}
  'GET /_admin/inspector/changes': {answer: 'text/event-stream'}
  'GET /_admin/payments': {query: Record<string, string | number | undefined>; answer: AdminPage<AdminRecord>}
  'GET /_admin/payments/{paymentId}': {answer: AdminRecord}
  'GET /_admin/invoices': {query: Record<string, string | number | undefined>; answer: AdminPage<AdminRecord>}
  'GET /_admin/phone': {answer: AdminList<PhoneCall>}
  'POST /_admin/phone/{paymentId}/pin': {body: {pin?: string; decline?: boolean}; answer: PinAnswer}
  'POST /_admin/events/{eventId}/redeliver': {answer: AdminRecord}
  'GET /_admin/outbox/{messageId}/message': {answer: OutboxMessage}
}

/** A route of the admin surface: `'METHOD /_admin/…'`. */
export type AdminRoute = keyof AdminRoutes

/**
 * Every route, at run time: a record over AdminRoute, so that a route added to or taken from
 * AdminRoutes without this list (or the other way round) fails the type check.
 */
const EVERY_ROUTE: Record<AdminRoute, true> = {
  'GET /_admin': true,
  'GET /_admin/business': true,
  'PUT /_admin/business': true,
  'GET /_admin/keys': true,
  'GET /_admin/keys/known': true,
  'POST /_admin/keys': true,
  'POST /_admin/keys/{keyId}/revoke': true,
  'GET /_admin/webhook-endpoints': true,
  'POST /_admin/webhook-endpoints': true,
  'DELETE /_admin/webhook-endpoints/{endpointId}': true,
  'POST /_admin/webhook-endpoints/{endpointId}/rotate': true,
  'GET /_admin/webhook-endpoints/{endpointId}/watch': true,
  'GET /_admin/allowlist': true,
  'POST /_admin/allowlist': true,
  'DELETE /_admin/allowlist': true,
  'GET /_admin/examples': true,
  'GET /_admin/fees': true,
  'PUT /_admin/fees': true,
  'GET /_admin/balance': true,
  'GET /_admin/ledger': true,
  'POST /_admin/payments/{paymentId}/approve': true,
  'POST /_admin/payments/{paymentId}/decline': true,
  'GET /_admin/clock': true,
  'POST /_admin/clock/advance': true,
  'POST /_admin/reset': true,
  'GET /_admin/snapshots': true,
  'POST /_admin/snapshots': true,
  'POST /_admin/snapshots/{name}/restore': true,
  'DELETE /_admin/snapshots/{name}': true,
  'GET /_admin/events': true,
  'GET /_admin/events/{eventId}': true,
  'GET /_admin/deliveries': true,
  'GET /_admin/numbers': true,
  'PUT /_admin/numbers/{number}': true,
  'DELETE /_admin/numbers/{number}': true,
  'GET /_admin/operators': true,
  'POST /_admin/operators/{operator}/down': true,
  'POST /_admin/operators/{operator}/up': true,
  'GET /_admin/faults': true,
  'POST /_admin/faults': true,
  'DELETE /_admin/faults': true,
  'DELETE /_admin/faults/{faultId}': true,
  'GET /_admin/inventory': true,
  'GET /_admin/inventory/reservations': true,
  'GET /_admin/inventory/{item}': true,
  'PUT /_admin/inventory/{item}': true,
  'GET /_admin/outbox': true,
  'GET /_admin/requests': true,
  'GET /_admin/requests/stream': true,
  'GET /_admin/requests/{requestId}': true,
  'POST /_admin/requests/{requestId}/replay': true,
  'POST /_admin/inspector/login-links': true,
  'GET /_admin/inspector/session': true,
  'GET /_admin/inspector/changes': true,
  'GET /_admin/payments': true,
  'GET /_admin/payments/{paymentId}': true,
  'GET /_admin/invoices': true,
  'GET /_admin/phone': true,
  'POST /_admin/phone/{paymentId}/pin': true,
  'POST /_admin/events/{eventId}/redeliver': true,
  'GET /_admin/outbox/{messageId}/message': true,
}
export const ADMIN_ROUTES: readonly AdminRoute[] = Object.keys(EVERY_ROUTE) as AdminRoute[]

export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** The names of a path's `{…}` parameters. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never

export type AdminParams<R extends AdminRoute> = {[K in ParamNames<R>]: string}
export type AdminQuery<R extends AdminRoute> = AdminRoutes[R] extends {query: infer Q} ? Q : Record<string, never>
export type AdminBody<R extends AdminRoute> = AdminRoutes[R] extends {body: infer B}
  ? B
  : AdminRoutes[R] extends {optionalBody: infer B}
    ? B
    : undefined
export type AdminAnswer<R extends AdminRoute> = AdminRoutes[R]['answer']

/** What a call of the route sends: its path parameters (when it has any), query and body. */
export type AdminInput<R extends AdminRoute> = ([ParamNames<R>] extends [never] ? {params?: undefined} : {params: AdminParams<R>}) &
  (AdminRoutes[R] extends {query: infer Q} ? {query?: Q} : {query?: undefined}) &
  (AdminRoutes[R] extends {body: infer B} ? {body: B} : AdminRoutes[R] extends {optionalBody: infer B} ? {body?: B} : {body?: undefined})

/** The arguments after the route: the input, which may be left out when nothing in it is required. */
export type AdminArgs<R extends AdminRoute> = {} extends AdminInput<R> ? [input?: AdminInput<R>] : [input: AdminInput<R>]

/** The method and the path of a route. */
export function splitRoute(route: AdminRoute): {method: AdminMethod; path: string} {
  const space = route.indexOf(' ')
  return {method: route.slice(0, space) as AdminMethod, path: route.slice(space + 1)}
}

/** A route's path with its parameters filled in (each URL-encoded). */
export function adminPath<R extends AdminRoute>(route: R, params?: AdminParams<R>): string {
  const {path} = splitRoute(route)
  const values = (params ?? {}) as Record<string, string>
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''))
}
