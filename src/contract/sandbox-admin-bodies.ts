/**
 * The bodies the admin surface takes, one schema per route: the one truth of each body. The
 * sandbox validates requests with these very objects (src/sandbox/admin/route.ts gives each route
 * its schema, and its handler reads the body typed from it), and the admin contract types what the
 * CLI's stand-ins and the inspector's page send from them (sandbox-admin-routes.ts, AdminBody and
 * AdminBodyInput). The contract's JSON-Schema subset (json-schema.ts), with two annotations the
 * sandbox reads: a description, and `x-pattern-message`, the key in the sandbox's catalogue of the
 * message for a pattern mismatch. Imports only the contract.
 */
import type {JsonSchema} from './json-schema.js'
import {SCOPES} from './keys.js'
import {FAILURE_CODES} from './payments.js'
import {API_ERRORS, DELIVERY_FAULTS, MAX_ADVANCE_MS} from './sandbox-admin.js'
import {OPERATORS} from './test-numbers.js'

/** A body schema of the admin surface. */
export interface AdminBodySchema extends JsonSchema {
  properties?: Readonly<Record<string, AdminBodySchema>>
  items?: AdminBodySchema
  description?: string
  /** The sandbox's catalogue key of the message for a `pattern` mismatch (params: field). */
  'x-pattern-message'?: string
}

/** The environment a body names; any case. */
const environment = {type: 'string', enum: ['SANDBOX', 'LIVE', 'sandbox', 'live']} as const
const duration = {type: 'integer', minimum: 0, maximum: MAX_ADVANCE_MS} as const
const positiveDuration = {type: 'integer', minimum: 1, maximum: MAX_ADVANCE_MS} as const

/** Every admin route that takes a body, by its name in AdminRoutes (sandbox-admin-routes.ts checks the names). */
export const ADMIN_BODIES = {
  'PUT /_admin/business': {
    type: 'object',
    additionalProperties: false,
    properties: {
      language: {type: 'string', enum: ['en', 'fr']},
      name: {type: 'string', minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]+$'},
      logo_base64: {type: ['string', 'null'], description: 'A PNG or JPEG, at most 1 MB, base64; null removes the logo.'},
    },
  },
  'POST /_admin/keys': {
    type: 'object',
    required: ['environment'],
    additionalProperties: false,
    properties: {environment, scopes: {type: 'array', items: {type: 'string', enum: SCOPES}}},
  },
  'POST /_admin/webhook-endpoints': {
    type: 'object',
    required: ['url'],
    additionalProperties: false,
    properties: {url: {type: 'string', pattern: '^https?://[^\\s/]+', 'x-pattern-message': 'sandbox.admin.url'}, environment},
  },
  'POST /_admin/webhook-endpoints/{endpointId}/rotate': {type: 'object', additionalProperties: false, properties: {overlap_ms: {type: 'integer', minimum: 0}}},
  'POST /_admin/allowlist': {type: 'object', required: ['cidr'], additionalProperties: false, properties: {cidr: {type: 'string', minLength: 1}}},
  'PUT /_admin/fees': {
    type: 'object',
    required: ['mode', 'value'],
    additionalProperties: false,
    properties: {mode: {type: 'string', enum: ['percent', 'fixed']}, value: {type: 'number', minimum: 0}, absorb_fees: {type: 'boolean'}},
  },
  'POST /_admin/clock/advance': {type: 'object', required: ['ms'], additionalProperties: false, properties: {ms: {type: 'integer', minimum: 1, maximum: MAX_ADVANCE_MS}}},
  'POST /_admin/reset': {type: 'object', additionalProperties: false, properties: {all: {type: 'boolean'}}},
  'POST /_admin/snapshots': {type: 'object', required: ['name'], additionalProperties: false, properties: {name: {type: 'string'}}},
  'PUT /_admin/numbers/{number}': {
    type: 'object',
    required: ['operator', 'outcome'],
    additionalProperties: false,
    properties: {
      operator: {type: 'string', enum: OPERATORS},
      outcome: {type: 'string', enum: ['SUCCESS', 'FAILED', 'PENDING', 'UNSPECIFIED']},
      then: {type: 'string', enum: ['SUCCESS', 'FAILED']},
      after_ms: duration,
      failure_code: {type: 'string', enum: FAILURE_CODES},
    },
  },
  'POST /_admin/operators/{operator}/down': {
    type: 'object',
    additionalProperties: false,
    properties: {mode: {type: 'string', enum: ['fail', 'unspecified', 'slow'], default: 'fail'}, for_ms: positiveDuration},
  },
  'POST /_admin/faults': {
    type: 'object',
    additionalProperties: false,
    properties: {
      route: {type: 'string', pattern: '^(GET|POST|PUT|PATCH|DELETE) /\\S*$', maxLength: 200, 'x-pattern-message': 'sandbox.scenario.route'},
      latency_ms: {type: 'integer', minimum: 0, maximum: 120_000},
      error: {type: 'string', enum: API_ERRORS},
      deliveries: {type: 'string', enum: DELIVERY_FAULTS},
      delay_ms: positiveDuration,
      rate: {type: 'number', minimum: 0, maximum: 1, default: 1},
      for_ms: positiveDuration,
    },
  },
  'PUT /_admin/inventory/{item}': {type: 'object', required: ['quantity'], additionalProperties: false, properties: {quantity: {type: 'integer', minimum: 0}}},
  'POST /_admin/phone/{paymentId}/pin': {type: 'object', additionalProperties: false, properties: {pin: {type: 'string', maxLength: 12}, decline: {type: 'boolean'}}},
} as const satisfies Record<string, AdminBodySchema>

/** The routes whose body may be left out (an empty request is `{}`). */
export const OPTIONAL_BODIES = ['POST /_admin/webhook-endpoints/{endpointId}/rotate', 'POST /_admin/reset', 'POST /_admin/operators/{operator}/down'] as const satisfies readonly (keyof typeof ADMIN_BODIES)[]
