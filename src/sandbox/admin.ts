/**
 * The admin surface under `/_admin`: the dashboard's stand-in (keys, webhook endpoints, allowlist,
 * fees, balance and ledger, live approvals, the clock, event deliveries). Bearer admin token; JSON;
 * never under /v1 and never in the OpenAPI document. docs/sandbox.md documents every route.
 */
import {t} from './i18n/index.js'
import {maskSecret} from '../contract/keys.js'
import {keyView, type Allowlist, type KeyRing} from './auth.js'
import {
  businessLanguage,
  businessLogo,
  businessName,
  LANGUAGES,
  MAX_LOGO_BYTES,
  setBusinessLanguage,
  setBusinessLogo,
  setBusinessName,
  sniffLogo,
  type Logo,
} from './business.js'
import {MAX_ADVANCE_MS, MAX_SANDBOX_TIME, type Scheduler} from './clock.js'
import type {ResolvedOptions} from './context.js'
import {ApiError, notFound, validationError} from './errors.js'
import type {EventBus, WebhookEndpoint} from './events.js'
import type {Ledger} from './fees.js'
import type {Payments} from './payments.js'
import type {Router} from './router.js'
import type {Schema} from './schema.js'
import {SNAPSHOT_NAME, type Store} from './store.js'
import {SCOPES, type Environment} from './types.js'

const ENV_VALUES = ['SANDBOX', 'LIVE', 'sandbox', 'live'] as const
const envSchema: Schema = {type: 'string', enum: ENV_VALUES}
const pageQuery = {
  limit: {type: 'integer', minimum: 1, maximum: 100, default: 20},
  offset: {type: 'integer', minimum: 0, default: 0},
} satisfies Record<string, Schema>

function env(value: unknown, fallback?: Environment): Environment | undefined {
  return typeof value === 'string' ? (value.toUpperCase() as Environment) : fallback
}

function page<T>(items: T[], total: number, limit: number, offset: number) {
  return {data: items, limit, offset, total, has_more: offset + items.length < total}
}

export function endpointView(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    environment: endpoint.environment,
    secret: maskSecret(endpoint.secret),
    rotating: Boolean(endpoint.previous_secret),
    ...(endpoint.previous_secret_expires_at ? {previous_secret_expires_at: endpoint.previous_secret_expires_at} : {}),
    created_at: endpoint.created_at,
  }
}

export interface AdminDependencies {
  router: Router
  /** A new SANDBOX and LIVE key with every scope (after `reset --all` removed the others). */
  mintKeys: () => {sandbox: string; live: string}
  keys: KeyRing
  allowlist: Allowlist
  events: EventBus
  ledger: Ledger
  payments: Payments
  scheduler: Scheduler
  options: ResolvedOptions
  /** The business's settings (its customers' language) live with its data. */
  store: Store
  urls: () => {url: string; payUrl: string; adminUrl: string}
}

export function registerAdminRoutes(deps: AdminDependencies): void {
  const {router, keys, allowlist, events, ledger, payments, scheduler, options, store} = deps
  const admin = {auth: 'admin' as const, responses: {200: {description: 'OK'}}}

  router.add({
    ...admin,
    method: 'GET',
    path: '/_admin',
    handler: () => ({
      status: 200,
      body: {
        business_name: businessName(store, options.businessName),
        language: businessLanguage(store),
        ...deps.urls(),
        settle_after_ms: options.settleAfterMs,
        rate_limit: options.rateLimit,
        seed: options.seed,
        persistent: Boolean(options.dataFile),
        storage: store.kind,
        clock: scheduler.state(),
      },
    }),
  })

  // The business: the language its customers read (invoice PDFs, email and WhatsApp texts; the
  // fallback of checkout pages when the browser asks for neither language) ---------------------
  const businessView = () => {
    const logo = businessLogo(store)
    return {
      name: businessName(store, options.businessName),
      language: businessLanguage(store),
      logo: logo ? {content_type: logo.content_type, size: logo.bytes.length, url: `${deps.urls().url}/storage/business/logo`} : null,
    }
  }
  router.add({...admin, method: 'GET', path: '/_admin/business', handler: () => ({status: 200, body: businessView()})})
  router.add({
    ...admin,
    method: 'PUT',
    path: '/_admin/business',
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        language: {type: 'string', enum: [...LANGUAGES]},
        name: {type: 'string', minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]+$'},
        logo_base64: {type: ['string', 'null'], description: 'A PNG or JPEG, at most 1 MB, base64; null removes the logo.'},
      },
    },
    handler: (req) => {
      if (Object.keys(req.body).length === 0) throw validationError([{field: 'body', message: t('sandbox.business.nothing')}])
      // Every field is checked before any is applied: a bad logo never leaves a new name behind.
      let logo: Logo | null | undefined
      if (req.body.logo_base64 === null) logo = null
      else if (typeof req.body.logo_base64 === 'string') logo = checkLogo(req.body.logo_base64)
      if (req.body.language !== undefined) setBusinessLanguage(store, req.body.language)
      if (req.body.name !== undefined) setBusinessName(store, req.body.name.trim())
      if (logo !== undefined) setBusinessLogo(store, logo)
      return {status: 200, body: businessView()}
    },
  })
  router.add({
    method: 'GET',
    path: '/storage/business/logo',
    auth: 'none',
    responses: {200: {description: 'The business logo (PNG or JPEG).'}},
    handler: () => {
      const logo = businessLogo(store)
      if (!logo) throw new ApiError(404, 'not_found', t('sandbox.business.noLogo'))
      return {status: 200, raw: logo.bytes, contentType: logo.content_type, headers: {'cache-control': 'no-cache'}}
    },
  })

  // Keys --------------------------------------------------------------------------------------
  router.add({
    ...admin,
    method: 'GET',
    path: '/_admin/keys',
    query: {type: 'object', properties: {environment: envSchema}},
    handler: (req) => ({status: 200, body: {data: keys.list(env(req.query.environment)).map(keyView)}}),
  })
  router.add({
    ...admin,
    method: 'POST',
    path: '/_admin/keys',
    body: {
      type: 'object',
      required: ['environment'],
      additionalProperties: false,
      properties: {environment: envSchema, scopes: {type: 'array', items: {type: 'string', enum: SCOPES}}},
    },
    handler: (req) => {
      const {record, secret} = keys.mint(env(req.body.environment)!, req.body.scopes)
      return {status: 201, body: {...keyView(record), secret}}
    },
  })
  router.add({
    ...admin,
    method: 'POST',
    path: '/_admin/keys/{keyId}/revoke',
    handler: (req) => {
      const record = keys.revoke(req.params.keyId)
      if (!record) throw notFound('key', req.params.keyId)
      return {status: 200, body: keyView(record)}
    },
  })

  // Webhook endpoints -------------------------------------------------------------------------
  router.add({
    ...admin,
    method: 'GET',
    path: '/_admin/webhook-endpoints',
    query: {type: 'object', properties: {environment: envSchema}},
    handler: (req) => ({status: 200, body: {data: events.listEndpoints(env(req.query.environment)).map(endpointView)}}),
  })
  router.add({
    ...admin,
    method: 'POST',
    path: '/_admin/webhook-endpoints',
    body: {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {url: {type: 'string', pattern: '^https?://[^\\s/]+', 'x-pattern-message': 'sandbox.admin.url'}, environment: envSchema},
    },
    handler: (req) => {
      const endpoint = events.addEndpoint(req.body.url, env(req.body.environment, 'SANDBOX')!)
      return {status: 201, body: {...endpointView(endpoint), secret: endpoint.secret}}
    },
  })
  router.add({
    ...admin,
    method: 'DELETE',
    path: '/_admin/webhook-endpoints/{endpointId}',
    handler: (req) => {
      if (!events.removeEndpoint(req.params.endpointId)) throw notFound('webhook endpoint', req.params.endpointId)
      return {status: 200, body: {id: req.params.endpointId, deleted: true}}
    },
  })
  router.add({
    ...admin,
    method: 'POST',
    path: '/_admin/webhook-endpoints/{endpointId}/rotate',
    body: {type: 'object', additionalProperties: false, properties: {overlap_ms: {type: 'integer', minimum: 0}}},
    bodyOptional: true,
    handler: (req) => {
      const endpoint = events.rotate(req.params.endpointId, req.body.overlap_ms)
      if (!endpoint) throw notFound('webhook endpoint', req.params.endpointId)
      return {status: 200, body: {...endpointView(endpoint), secret: endpoint.secret}}
    },
  })

  // IP allowlist ------------------------------------------------------------------------------
  router.add({...admin, method: 'GET', path: '/_admin/allowlist', handler: () => ({status: 200, body: {data: allowlist.list()}})})
  router.add({
    ...admin,
    method: 'POST',
    path: '/_admin/allowlist',
    body: {type: 'object', required: ['cidr'], additionalProperties: false, properties: {cidr: {type: 'string', minLength: 1}}},
    handler: (req) => {
      const entry = allowlist.add(req.body.cidr)
      if (!entry) throw validationError([{field: 'cidr', message: t('sandbox.admin.cidr', {cidr: req.body.cidr})}])
      return {status: 201, body: entry}
    },
  })
  router.add({
    ...admin,
    method: 'DELETE',
    path: '/_admin/allowlist',
    query: {type: 'object', required: ['cidr'], properties: {cidr: {type: 'string', minLength: 1}}},
    handler: (req) => {
      const cidr: string = req.query.cidr
      if (!allowlist.remove(cidr)) throw new ApiError(404, 'not_found', t('sandbox.admin.cidrNotFound', {cidr}))
      return {status: 200, body: {cidr, deleted: true}}
    },
  })

  // Fees, balance, ledger ---------------------------------------------------------------------
  router.add({...admin, method: 'GET', path: '/_admin/fees', handler: () => ({status: 200, body: ledger.fees()})})
  router.add({
    ...admin,
    method: 'PUT',
    path: '/_admin/fees',
    body: {
      type: 'object',
      required: ['mode', 'value'],
      additionalProperties: false,
      properties: {
        mode: {type: 'string', enum: ['percent', 'fixed']},
        value: {type: 'number', minimum: 0},
        absorb_fees: {type: 'boolean'},
      },
    },
    handler: (req) => {
      const {mode, value} = req.body as {mode: 'percent' | 'fixed'; value: number}
      if (mode === 'percent' && value > 100) throw validationError([{field: 'value', message: t('sandbox.admin.percent')}])
      if (mode === 'fixed' && !Number.isInteger(value)) throw validationError([{field: 'value', message: t('sandbox.admin.fixed')}])
      const absorb = req.body.absorb_fees ?? ledger.fees().absorb_fees
      return {status: 200, body: ledger.setFees({mode, value, absorb_fees: absorb})}
    },
  })
  router.add({
    ...admin,
    method: 'GET',
    path: '/_admin/balance',
    query: {type: 'object', properties: {environment: envSchema}},
    handler: (req) => {
      const only = env(req.query.environment)
      const list = (['SANDBOX', 'LIVE'] as const).filter((e) => !only || e === only).map((e) => ledger.balance(e))
      return {status: 200, body: {data: list}}
    },
  })
  router.add({
    ...admin,
    method: 'GET',
    path: '/_admin/ledger',
    query: {type: 'object', properties: {environment: envSchema, ...pageQuery}},
    handler: (req) => {
      const {limit, offset} = req.query as {limit: number; offset: number}
      const result = ledger.entries(env(req.query.environment, 'SANDBOX')!, offset, limit)
      return {status: 200, body: page(result.items, result.total, limit, offset)}
    },
  })

  // Live payments: the simulated customer's handset ---------------------------------------------
  for (const decision of ['approve', 'decline'] as const) {
    router.add({
      ...admin,
      method: 'POST',
      path: `/_admin/payments/{paymentId}/${decision}`,
      handler: (req) => ({status: 200, body: payments.decide(req.params.paymentId, decision)}),
    })
  }

  // Clock -------------------------------------------------------------------------------------
  router.add({...admin, method: 'GET', path: '/_admin/clock', handler: () => ({status: 200, body: scheduler.state()})})
  router.add({
    ...admin,
    method: 'POST',
    path: '/_admin/clock/advance',
    body: {type: 'object', required: ['ms'], additionalProperties: false, properties: {ms: {type: 'integer', minimum: 1, maximum: MAX_ADVANCE_MS}}},
    handler: async (req) => {
      const now = scheduler.clock.now()
      if (now + req.body.ms > MAX_SANDBOX_TIME)
        throw validationError([{field: 'ms', message: t('sandbox.admin.clockPast', {now: new Date(now).toISOString(), max: MAX_SANDBOX_TIME - now})}])
      return {status: 200, body: await scheduler.advance(req.body.ms)}
    },
  })

  // Reset and snapshots (test isolation) --------------------------------------------------------
  router.add({
    ...admin,
    method: 'POST',
    path: '/_admin/reset',
    body: {type: 'object', additionalProperties: false, properties: {all: {type: 'boolean'}}},
    bodyOptional: true,
    handler: async (req) => {
      const all = req.body?.all === true
      // Deliveries in flight finish first: they would write into the emptied data.
      await scheduler.idle()
      store.reset(all)
      // --all removed every key: the sandbox is not usable without one.
      const keys = all ? deps.mintKeys() : undefined
      return {status: 200, body: {reset: true, all, ...(keys ? {keys} : {})}}
    },
  })
  const snapshotName = (name: unknown): string => {
    if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name))
      throw validationError([{field: 'name', message: t('sandbox.admin.snapshotName', {got: JSON.stringify(name)})}])
    return name
  }
  router.add({...admin, method: 'GET', path: '/_admin/snapshots', handler: () => ({status: 200, body: {data: store.listSnapshots()}})})
  router.add({
    ...admin,
    method: 'POST',
    path: '/_admin/snapshots',
    body: {type: 'object', required: ['name'], additionalProperties: false, properties: {name: {type: 'string'}}},
    handler: async (req) => ({status: 201, body: await store.saveSnapshot(snapshotName(req.body.name))}),
  })
  router.add({
    ...admin,
    method: 'POST',
    path: '/_admin/snapshots/{name}/restore',
    handler: async (req) => {
      const name = snapshotName(req.params.name)
      await scheduler.idle()
      if (!(await store.restoreSnapshot(name))) throw new ApiError(404, 'not_found', t('sandbox.admin.snapshotNotFound', {name}))
      return {status: 200, body: {name, restored: true, clock: scheduler.state()}}
    },
  })
  router.add({
    ...admin,
    method: 'DELETE',
    path: '/_admin/snapshots/{name}',
    handler: (req) => {
      const name = snapshotName(req.params.name)
      if (!store.deleteSnapshot(name)) throw new ApiError(404, 'not_found', t('sandbox.admin.snapshotNotFound', {name}))
      return {status: 200, body: {name, deleted: true}}
    },
  })

  // Events and deliveries ---------------------------------------------------------------------
  router.add({
    ...admin,
    method: 'GET',
    path: '/_admin/events',
    query: {type: 'object', properties: {environment: envSchema, type: {type: 'string'}, ...pageQuery}},
    handler: (req) => {
      const environment = env(req.query.environment, 'SANDBOX')!
      const {limit, offset} = req.query as {limit: number; offset: number}
      const result = events.listEvents(environment, offset, limit, req.query.type)
      const items = result.items.map((event) => ({...event, deliveries: events.deliveriesOf(environment, event.id)}))
      return {status: 200, body: page(items, result.total, limit, offset)}
    },
  })
  router.add({
    ...admin,
    method: 'GET',
    path: '/_admin/events/{eventId}',
    handler: (req) => {
      for (const environment of ['SANDBOX', 'LIVE'] as const) {
        const event = events.getEvent(environment, req.params.eventId)
        if (event) return {status: 200, body: {...event, deliveries: events.deliveriesOf(environment, event.id)}}
      }
      throw notFound('event', req.params.eventId)
    },
  })
  router.add({
    ...admin,
    method: 'GET',
    path: '/_admin/deliveries',
    query: {
      type: 'object',
      properties: {environment: envSchema, status: {type: 'string', enum: ['pending', 'succeeded', 'failed']}, ...pageQuery},
    },
    handler: (req) => {
      const {limit, offset, status} = req.query as {limit: number; offset: number; status?: string}
      const result = events.listDeliveries(env(req.query.environment, 'SANDBOX')!, offset, limit, status as 'pending' | 'succeeded' | 'failed' | undefined)
      return {status: 200, body: page(result.items, result.total, limit, offset)}
    },
  })
}

/** A logo as sent to PUT /_admin/business: base64 of a PNG or JPEG of at most 1 MB, else 400 naming logo_base64. */
function checkLogo(base64: string): Logo {
  const bytes = /^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(base64) ? Buffer.from(base64, 'base64') : Buffer.alloc(0)
  if (bytes.length === 0) throw validationError([{field: 'logo_base64', message: t('sandbox.business.logoNotBase64')}])
  if (bytes.length > MAX_LOGO_BYTES) throw validationError([{field: 'logo_base64', message: t('sandbox.business.logoTooBig', {size: bytes.length, max: MAX_LOGO_BYTES})}])
  const type = sniffLogo(bytes)
  if (!type) throw validationError([{field: 'logo_base64', message: t('sandbox.business.logoNotImage')}])
  return {content_type: type, bytes}
}
