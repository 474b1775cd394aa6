/**
 * Part 2 of the local sandbox as one domain: invoices (with idempotency), files and the storage
 * host, PDF documents, the hosted checkout, the inventory link and the delivery outbox, plus their
 * admin routes (`/_admin/inventory`, `/_admin/outbox`, documented in docs/sandbox.md).
 */
import {t} from '../i18n/index.js'

import {ApiError, notFound} from '../errors.js'
import {EXAMPLE_IDS} from '../examples.js'
import type {SandboxContext} from '../context.js'
import type {SandboxDomain, SandboxServices} from '../domain.js'
import type {Schema} from '../schema.js'
import type {Environment} from '../types.js'
import {Checkout} from './checkout.js'
import {acquireDocumentWorker} from './document-worker.js'
import {Files} from './files.js'
import {Inventory, itemView} from './inventory.js'
import {Invoices} from './invoices.js'
import {Outbox} from './outbox.js'
import {addAdminRoute} from '../admin/route.js'
import {registerInvoiceRoutes} from './routes.js'
import {UrlSigner} from './signing.js'

export interface InvoiceDomain {
  invoices: Invoices
  files: Files
  inventory: Inventory
  outbox: Outbox
  checkout: Checkout
  signer: UrlSigner
}

const domains = new WeakMap<SandboxContext, InvoiceDomain>()

/** The invoice domain of a running sandbox (`sandbox.context`), for embedders and tests. */
export function invoiceDomainOf(ctx: SandboxContext): InvoiceDomain {
  const domain = domains.get(ctx)
  if (!domain) throw new Error('the invoices domain is not registered with this sandbox')
  return domain
}

const envSchema: Schema = {type: 'string', enum: ['SANDBOX', 'LIVE', 'sandbox', 'live']}
const pageQuery = {
  limit: {type: 'integer', minimum: 1, maximum: 100, default: 20},
  offset: {type: 'integer', minimum: 0, default: 0},
} satisfies Record<string, Schema>

function env(value: unknown): Environment {
  return typeof value === 'string' ? (value.toUpperCase() as Environment) : 'SANDBOX'
}

export const invoicesDomain: SandboxDomain = (ctx: SandboxContext, services: SandboxServices) => {
  const signer = new UrlSigner(ctx.store, ctx.clock)
  const {documents, release} = acquireDocumentWorker({warm: ctx.options.warmDocuments})
  ctx.onClose(release)
  const files = new Files(ctx, signer, documents)
  const inventory = new Inventory(ctx)
  const outbox = new Outbox(ctx)
  const invoices = new Invoices(ctx, {payments: services.payments, files, inventory, outbox, signer, documents})
  registerInvoiceRoutes(ctx, invoices, signer)
  const checkout = new Checkout(ctx, invoices, services.payments)
  domains.set(ctx, {invoices, files, inventory, outbox, checkout, signer})
  registerAdmin(ctx, inventory, outbox)
  // The example objects (examples.ts), which no list has: asked for by name.
  addAdminRoute(ctx.router, 'GET /_admin/examples', {
    handler: () => {
      const payment = services.payments.get('SANDBOX', EXAMPLE_IDS.payment)?.payment
      const file = files.find('SANDBOX', EXAMPLE_IDS.file)
      return {status: 200, body: {data: [...(payment ? [payment] : []), ...invoices.examplesNow(), ...(file ? [{...file, data: undefined}] : [])]}}
    },
  })
}

function registerAdmin(ctx: SandboxContext, inventory: Inventory, outbox: Outbox): void {
  const {router} = ctx
  addAdminRoute(router, 'GET /_admin/inventory', {
    query: {type: 'object', properties: {environment: envSchema}},
    handler: (req) => ({status: 200, body: {data: inventory.items(env(req.query.environment)).values().map(itemView)}}),
  })
  addAdminRoute(router, 'GET /_admin/inventory/reservations', {
    query: {type: 'object', properties: {environment: envSchema, invoice_id: {type: 'string'}, status: {type: 'string', enum: ['active', 'confirmed', 'released']}, ...pageQuery}},
    handler: (req) => {
      const {limit, offset, invoice_id, status} = req.query as {limit: number; offset: number; invoice_id?: string; status?: string}
      const result = inventory
        .reservations(env(req.query.environment))
        .newestFirst(offset, limit, {invoice_id, status})
      const data = result.items.map(({task_id: _task, ...rest}) => rest)
      return {status: 200, body: {data, limit, offset, total: result.total, has_more: offset + data.length < result.total}}
    },
  })
  addAdminRoute(router, 'GET /_admin/inventory/{item}', {
    query: {type: 'object', properties: {environment: envSchema}},
    handler: (req) => {
      const item = inventory.find(env(req.query.environment), req.params.item)
      if (!item) throw new ApiError(404, 'not_found', t('sandboxInvoices.inventory.notFound', {item: req.params.item}))
      return {status: 200, body: itemView(item)}
    },
  })
  addAdminRoute(router, 'PUT /_admin/inventory/{item}', {
    query: {type: 'object', properties: {environment: envSchema}},
    body: {type: 'object', required: ['quantity'], additionalProperties: false, properties: {quantity: {type: 'integer', minimum: 0}}},
    handler: (req) => {
      if (req.params.item.trim() === '') throw notFound('inventory item', req.params.item)
      return {status: 200, body: itemView(inventory.setQuantity(env(req.query.environment), req.params.item, req.body.quantity))}
    },
  })
  addAdminRoute(router, 'GET /_admin/outbox', {
    query: {
      type: 'object',
      properties: {environment: envSchema, invoice_id: {type: 'string'}, channel: {type: 'string', enum: ['EMAIL', 'WHATSAPP']}, ...pageQuery},
    },
    handler: (req) => {
      const {limit, offset, invoice_id, channel} = req.query as {limit: number; offset: number; invoice_id?: string; channel?: string}
      const result = outbox
        .collection(env(req.query.environment))
        .newestFirst(offset, limit, {invoice_id, channel})
      return {status: 200, body: {data: result.items, limit, offset, total: result.total, has_more: offset + result.items.length < result.total}}
    },
  })
}
