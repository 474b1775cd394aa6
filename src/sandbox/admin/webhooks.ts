/** Webhook endpoints: registered, listed, removed, their secret rotated. Secrets are masked except right after creation or rotation. */
import type {EndpointView} from '../../contract/sandbox-admin-routes.js'
import {maskSecret} from '../../contract/keys.js'
import {notFound} from '../errors.js'
import type {WebhookEndpoint} from '../events.js'
import {env, envSchema} from './common.js'
import type {AdminDependencies} from './common.js'
import {addAdminRoute} from './route.js'
import {eventStream, SSE_HEADERS} from '../journal-admin.js'

export function endpointView(endpoint: WebhookEndpoint): EndpointView {
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

export function registerWebhookRoutes({router, events}: AdminDependencies): void {
  addAdminRoute(router, 'GET /_admin/webhook-endpoints', {
    query: {type: 'object', properties: {environment: envSchema}},
    handler: (req) => ({status: 200, body: {data: events.listEndpoints(env(req.query.environment)).map(endpointView)}}),
  })
  addAdminRoute(router, 'POST /_admin/webhook-endpoints', {
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
  addAdminRoute(router, 'DELETE /_admin/webhook-endpoints/{endpointId}', {
    handler: (req) => {
      if (!events.removeEndpoint(req.params.endpointId)) throw notFound('webhook endpoint', req.params.endpointId)
      return {status: 200, body: {id: req.params.endpointId, deleted: true}}
    },
  })
  // A listener's line to its sandbox (`svc webhooks listen`): open while the endpoint exists; it
  // ends with a `removed` event when the endpoint goes (a reset, a restore, a delete), and with
  // the connection when the sandbox stops. The listener learns of both at once, without asking.
  addAdminRoute(router, 'GET /_admin/webhook-endpoints/{endpointId}/watch', {
    eventStream: true,
    handler: (req) => {
      const id = req.params.endpointId
      const endpoint = events.getEndpoint(id)
      if (!endpoint) throw notFound('webhook endpoint', id)
      return {
        status: 200,
        headers: SSE_HEADERS,
        stream: (res) =>
          eventStream(res, (send) => {
            send('ready', endpointView(endpoint))
            // In the process, not over HTTP: nothing is journalled while the line is open.
            const check = setInterval(() => {
              const now = events.getEndpoint(id)
              if (now && now.url === endpoint.url) return
              clearInterval(check)
              send('removed', {id})
              res.end()
            }, 250)
            check.unref()
            return () => clearInterval(check)
          }),
      }
    },
  })
  addAdminRoute(router, 'POST /_admin/webhook-endpoints/{endpointId}/rotate', {
    body: {type: 'object', additionalProperties: false, properties: {overlap_ms: {type: 'integer', minimum: 0}}},
    bodyOptional: true,
    handler: (req) => {
      const endpoint = events.rotate(req.params.endpointId, req.body.overlap_ms)
      if (!endpoint) throw notFound('webhook endpoint', req.params.endpointId)
      return {status: 200, body: {...endpointView(endpoint), secret: endpoint.secret}}
    },
  })
}
