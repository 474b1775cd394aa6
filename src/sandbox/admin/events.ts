/** Events and their deliveries, as the dashboard's event log shows them. */
import {notFound} from '../errors.js'
import {env, envSchema, page, pageOf, pageQuery} from './common.js'
import type {AdminDependencies} from './common.js'
import {addAdminRoute} from './route.js'

export function registerEventRoutes({router, events}: AdminDependencies): void {
  addAdminRoute(router, 'GET /_admin/events', {
    query: {type: 'object', properties: {environment: envSchema, type: {type: 'string'}, ...pageQuery}},
    handler: (req) => {
      const environment = env(req.query.environment, 'SANDBOX')!
      const {limit, offset} = pageOf(req.query)
      const result = events.listEvents(environment, offset, limit, req.query.type)
      const items = result.items.map((event) => ({...event, deliveries: events.deliveriesOf(environment, event.id)}))
      return {status: 200, body: page(items, result.total, limit, offset)}
    },
  })
  addAdminRoute(router, 'GET /_admin/events/{eventId}', {
    handler: (req) => {
      for (const environment of ['SANDBOX', 'LIVE'] as const) {
        const event = events.getEvent(environment, req.params.eventId)
        if (event) return {status: 200, body: {...event, deliveries: events.deliveriesOf(environment, event.id)}}
      }
      throw notFound('event', req.params.eventId)
    },
  })
  addAdminRoute(router, 'GET /_admin/deliveries', {
    query: {
      type: 'object',
      properties: {environment: envSchema, status: {type: 'string', enum: ['pending', 'succeeded', 'failed']}, ...pageQuery},
    },
    handler: (req) => {
      const {limit, offset} = pageOf(req.query)
      const result = events.listDeliveries(env(req.query.environment, 'SANDBOX')!, offset, limit, req.query.status)
      return {status: 200, body: page(result.items, result.total, limit, offset)}
    },
  })
}
