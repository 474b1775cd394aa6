/**
 * The events in `/v1/openapi.json`: OpenAPI 3.1 `webhooks`, one per event type of
 * `src/contract/events.ts` (the one list), each with its payload schema, the Standard Webhooks
 * headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) and an example. A new event
 * type in the contract appears here with no other change; a generator then gives it a type, and
 * a handler that switches on `type` no longer compiles until it handles it.
 */
import {EVENT_TYPES, EVENTS, type EventType} from '../contract/events.js'
import {eventExample} from './openapi-examples.js'

type Json = Record<string, unknown>

/** `payment.success` → `PaymentSuccessEvent`. */
export function eventSchemaName(type: EventType): string {
  return (
    type
      .split(/[._-]/)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('') + 'Event'
  )
}

const RETRIES = 'A non-2xx answer or none within 15 s is retried: after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then the delivery is marked failed.'

export const WEBHOOK_PARAMETERS: Record<string, Json> = {
  'webhook-id': {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (evt_…), the same on every attempt: delivery is at least once, so dedupe on it.',
    schema: {type: 'string', pattern: '^evt_'},
    example: 'evt_3f9a1c0d2b4e6f8a1c3e5a7b',
  },
  'webhook-timestamp': {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when this attempt was signed. Refuse a timestamp more than five minutes from your clock.',
    schema: {type: 'string', pattern: '^[0-9]+$'},
    example: '1795599006',
  },
  'webhook-signature': {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks: space-separated `v1,<base64>` signatures (several during a secret rotation). Each is the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint secret `whsec_…`. Accept the event when one matches (compare in constant time).',
    schema: {type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$'},
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
}

/** One payload schema per event type: `{id, type, created_at, environment, data}`. */
export function eventSchemas(): Record<string, Json> {
  const schemas: Record<string, Json> = {}
  for (const type of EVENT_TYPES) {
    const {status} = EVENTS[type]
    schemas[eventSchemaName(type)] = {
      type: 'object',
      description: `${type}: sent when a collection settles to ${status}. data is the Payment as GET /v1/payments/{paymentId}/status returns it.`,
      required: ['id', 'type', 'created_at', 'environment', 'data'],
      additionalProperties: false,
      properties: {
        id: {type: 'string', pattern: '^evt_', description: 'The same as the webhook-id header.'},
        type: {type: 'string', enum: [type]},
        created_at: {type: 'string', format: 'date-time'},
        environment: {type: 'string', enum: ['SANDBOX', 'LIVE'], description: 'The environment of the payment; a sandbox endpoint never receives live events.'},
        data: {
          allOf: [
            {$ref: '#/components/schemas/Payment'},
            {
              type: 'object',
              // A FAILED payment always carries its failure_code.
              required: status === 'FAILED' ? ['status', 'failure_code'] : ['status'],
              properties: {status: {type: 'string', enum: [status]}, ...(status === 'FAILED' ? {failure_code: {type: 'string'}} : {})},
            },
          ],
        },
      },
    }
  }
  return schemas
}

/** The `webhooks` section: one `post` per event type. */
export function webhooks(): Record<string, Json> {
  const out: Record<string, Json> = {}
  for (const type of EVENT_TYPES) {
    const name = eventSchemaName(type)
    const example = eventExample(type)
    out[type] = {
      post: {
        operationId: name.charAt(0).toLowerCase() + name.slice(1),
        summary: `${type}: a collection settled to ${EVENTS[type].status}`,
        description: `Sent to each webhook endpoint of the payment's environment, signed per Standard Webhooks. ${RETRIES}`,
        tags: ['Events'],
        security: [],
        parameters: Object.keys(WEBHOOK_PARAMETERS).map((header) => ({$ref: `#/components/parameters/${header}`})),
        requestBody: {required: true, content: {'application/json': {schema: {$ref: `#/components/schemas/${name}`}, examples: {[type]: example}}}},
        responses: {
          '2XX': {description: 'Received (answer quickly, then process). Any 2xx ends the delivery.'},
          '4XX': {description: `Refused, e.g. a signature that does not verify. ${RETRIES}`},
        },
      },
    }
  }
  return out
}
