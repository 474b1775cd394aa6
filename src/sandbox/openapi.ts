/**
 * `/v1/openapi.json`: OpenAPI 3.1, built from the registered routes and the very schema objects the
 * HTTP layer validates requests with. Nothing is written twice: a route added by any domain appears
 * here with its parameters, body, responses and scope (`x-required-scope`). Schemas marked with
 * `named()` become components; admin routes and other prefixes (`/_admin`, `/pay`, `/storage`) are
 * never published. The events are its `webhooks` (openapi-webhooks.ts), the examples come from
 * openapi-examples.ts.
 *
 * Written for generators and linters as they are: a request property's `default` (which the
 * validator fills in) is said in its description instead, since openapi-typescript's defaults turn
 * a property with a `default` into a required one; headers are components, referenced by every
 * operation; test/contract/lint.test.ts runs Redocly and Spectral on the result.
 */
import type {ResolvedOptions} from './context.js'
import {errorExamples, operationExamples, type Examples, type OperationExamples} from './openapi-examples.js'
import {eventSchemas, WEBHOOK_PARAMETERS, webhooks} from './openapi-webhooks.js'
import type {ResponseDoc, RouteDefinition, Router} from './router.js'
import {named, type Schema} from './schema.js'

export const ErrorSchema = named('Error', {
  type: 'object',
  required: ['message', 'code'],
  additionalProperties: false,
  properties: {
    message: {type: 'string', description: 'Human-readable reason.'},
    code: {
      type: 'string',
      description:
        'Stable code: validation_error, unauthorized, insufficient_scope, ip_not_allowed, not_found, method_not_allowed, invalid_state, idempotency_in_progress, idempotency_key_reused, payload_too_large, rate_limited, internal_error.',
    },
    errors: {
      type: 'array',
      description: 'One entry per offending field (validation errors).',
      items: {
        type: 'object',
        required: ['field', 'message'],
        additionalProperties: false,
        properties: {field: {type: 'string'}, message: {type: 'string'}},
      },
    },
  },
} satisfies Schema)

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Validation error (`validation_error`), with one entry per field in `errors`.',
  401: 'API key missing, unknown or revoked, or an id of the other environment (`unauthorized`).',
  403: 'Missing scope (`insufficient_scope`) or source IP not on the allowlist (`ip_not_allowed`).',
  404: 'No such object in this environment (`not_found`).',
  409: 'The object state forbids this (`invalid_state`), or the same idempotency key is in progress.',
  413: 'Body too large (`payload_too_large`).',
  422: 'Idempotency key reused with a different body (`idempotency_key_reused`).',
  429: 'Rate limited (`rate_limited`): retry after `Retry-After` seconds.',
  500: 'Internal error (`internal_error`); the request may have been applied.',
}

type Json = Record<string, unknown>

/** Response headers every answer of a rate-limited sandbox carries. */
const RATE_HEADERS: Record<string, Json> = {
  'RateLimit-Limit': {description: 'Requests allowed per key per rolling minute.', schema: {type: 'integer', minimum: 1}},
  'RateLimit-Remaining': {description: 'Requests left in the current window.', schema: {type: 'integer', minimum: 0}},
  'RateLimit-Reset': {description: 'Seconds until a request slot frees up.', schema: {type: 'integer', minimum: 0}},
}

const RETRY_AFTER: NonNullable<ResponseDoc['headers']> = {'Retry-After': {description: 'Seconds to wait before retrying.', schema: {type: 'integer', minimum: 0}}}

const TAGS: Record<string, string> = {
  Payments: 'Collections (pull payments) from MTN and ORANGE mobile money wallets, in whole XAF.',
  Invoices: 'Itemised invoices: DRAFT, then UNPAID (payable), PAST_DUE, PAID or CANCELLED.',
  Files: 'Signed upload URLs for invoice cover images.',
  Meta: 'This description.',
  Events: 'Signed webhooks sent when a payment settles (see the webhooks section).',
}

/** The document's shared parts while it is built: schemas, headers and parameters referenced by name. */
interface Components {
  schemas: Record<string, Json>
  headers: Record<string, Json>
  parameters: Record<string, Json>
}

/** Register `value` under `name` in a component map (the same definition every time) and return a reference to it. */
function reference(map: Record<string, Json>, kind: 'headers' | 'parameters', name: string, value: Json): Json {
  const existing = map[name]
  if (existing && JSON.stringify(existing) !== JSON.stringify(value)) throw new Error(`OpenAPI ${kind} ${name} defined twice, differently`)
  map[name] = value
  return {$ref: `#/components/${kind}/${name}`}
}

/** A request property's `default`, said in words: the service fills it in, the client need not send it. */
function withoutDefault(schema: Schema): Schema {
  if (schema.default === undefined) return schema
  const {default: value, ...rest} = schema
  const said = `Default when omitted: ${JSON.stringify(value)}.`
  return {...rest, description: rest.description ? `${rest.description} ${said}` : said}
}

/**
 * Turn a validation schema into its published form: named schemas as $refs, private keys dropped,
 * a property's `default` moved into its description.
 */
function publish(schema: Schema, components: Record<string, Json>, asComponent = false): Json {
  const name = schema['x-name']
  if (name && !asComponent) {
    if (!components[name]) {
      components[name] = {} // placeholder against recursion
      components[name] = publish(schema, components, true)
    }
    return {$ref: `#/components/schemas/${name}`}
  }
  const out: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'x-name' || key === 'x-pattern-message' || key === 'x-refused' || value === undefined) continue
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, publish(withoutDefault(v), components)]))
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = publish(value as Schema, components)
    } else if (Array.isArray(value)) {
      out[key] = [...value]
    } else {
      out[key] = value
    }
  }
  return out
}

function responseObject(doc: ResponseDoc, components: Components, withRateHeaders: boolean, examples: Examples | undefined): Json {
  const headers: Json = {}
  const declared = {...(withRateHeaders ? RATE_HEADERS : {}), ...doc.headers}
  for (const [name, header] of Object.entries(declared))
    headers[name] = reference(components.headers, 'headers', name, {description: header.description, schema: publish(header.schema as Schema, components.schemas)})
  const out: Json = {description: doc.description}
  if (Object.keys(headers).length > 0) out.headers = headers
  if (doc.schema)
    out.content = {[doc.contentType ?? 'application/json']: {schema: publish(doc.schema, components.schemas), ...(examples ? {examples} : {})}}
  return out
}

function operation(route: RouteDefinition, components: Components, rateLimited: boolean, examples: OperationExamples | undefined): Json {
  const op: Json = {}
  if (route.operationId) op.operationId = route.operationId
  if (route.summary) op.summary = route.summary
  if (route.description) op.description = route.description
  if (route.tags) op.tags = [...route.tags]
  op.security = route.auth === 'key' ? [{ApiKey: []}] : []
  if (route.scope) op['x-required-scope'] = route.scope
  const parameters: Json[] = []
  for (const [name, param] of Object.entries(route.params ?? {}))
    parameters.push({
      name,
      in: 'path',
      required: true,
      ...(param.description ? {description: param.description} : {}),
      schema: publish(param.schema, components.schemas),
      ...(param.example ? {example: param.example} : {}),
    })
  const query = route.query
  for (const [name, schema] of Object.entries(query?.properties ?? {})) {
    const {description, ...rest} = schema
    parameters.push({
      name,
      in: 'query',
      required: (query?.required ?? []).includes(name),
      ...(description ? {description} : {}),
      schema: publish(rest, components.schemas),
    })
  }
  for (const [name, header] of Object.entries(route.headers ?? {})) {
    const parameter = {name, in: 'header', required: header.required ?? false, ...(header.description ? {description: header.description} : {}), schema: publish(header.schema, components.schemas)}
    parameters.push(reference(components.parameters, 'parameters', name, parameter))
  }
  if (parameters.length > 0) op.parameters = parameters
  if (route.body === 'raw') op.requestBody = {required: true, content: {'application/octet-stream': {schema: {type: 'string', contentEncoding: 'binary'}}}}
  else if (route.body) {
    const media: Json = {schema: publish(route.body, components.schemas), ...(examples?.request ? {examples: examples.request} : {})}
    op.requestBody = {required: !route.bodyOptional, content: {'application/json': media}}
  }
  const responses: Json = {}
  for (const [status, doc] of Object.entries(route.responses)) responses[status] = responseObject(doc, components, rateLimited, examples?.responses[Number(status)])
  const errors = new Set([...(route.errors ?? []), 500])
  if (rateLimited) errors.add(429)
  for (const status of [...errors].sort()) {
    const doc: ResponseDoc = {description: ERROR_DESCRIPTIONS[status] ?? 'Error.', schema: ErrorSchema}
    if (status === 429) doc.headers = RETRY_AFTER
    responses[String(status)] = responseObject(doc, components, rateLimited, examples?.responses[status] ?? errorExamples(status))
  }
  op.responses = responses
  return op
}

/** The document for every public (`/v1`) route. */
export function buildOpenApi(router: Router, options: Pick<ResolvedOptions, 'rateLimit' | 'businessName'>, serverUrl: string): Json {
  const components: Components = {schemas: {}, headers: {}, parameters: {}}
  publish(ErrorSchema, components.schemas)
  const examples = operationExamples(serverUrl)
  const paths: Record<string, Json> = {}
  const tags = new Set<string>(['Events'])
  for (const route of router.routes()) {
    if (route.auth === 'admin' || !(route.path === '/v1' || route.path.startsWith('/v1/'))) continue
    const item = (paths[route.path] ??= {})
    item[route.method.toLowerCase()] = operation(route, components, options.rateLimit > 0, route.operationId ? examples[route.operationId] : undefined)
    for (const tag of route.tags ?? []) tags.add(tag)
  }
  Object.assign(components.schemas, eventSchemas())
  Object.assign(components.parameters, WEBHOOK_PARAMETERS)
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc: invoicing and mobile money collection (local sandbox)',
      version: '1.0.0',
      description:
        `Collections (MTN, ORANGE) and invoices in whole XAF for ${options.businessName}. The API key prefix selects the environment: svc_sk_test_ is SANDBOX, svc_sk_live_ is LIVE. Events are described under webhooks.`,
      contact: {name: 'svc', url: `${serverUrl}/v1/openapi.json`},
      license: {name: 'MIT', identifier: 'MIT'},
    },
    servers: [{url: serverUrl, description: 'Paths are written in full (/v1/...).'}],
    security: [{ApiKey: []}],
    tags: [...tags].sort().map((name) => ({name, description: TAGS[name] ?? name})),
    paths,
    webhooks: webhooks(),
    components: {
      schemas: components.schemas,
      securitySchemes: {ApiKey: {type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'svc_sk_test_… (sandbox) or svc_sk_live_… (live).'}},
      headers: components.headers,
      parameters: components.parameters,
    },
  }
}

export function registerOpenApiRoute(router: Router, options: ResolvedOptions, baseUrl: () => string): void {
  let cached: {count: number; text: string} | undefined
  router.add({
    method: 'GET',
    path: '/v1/openapi.json',
    auth: 'none',
    operationId: 'getOpenApi',
    summary: 'This OpenAPI description',
    description: 'OpenAPI 3.1, with the events under webhooks. Needs no API key.',
    tags: ['Meta'],
    responses: {200: {description: 'OpenAPI 3.1 document.', schema: {type: 'object'}}},
    handler: () => {
      const count = router.routes().length
      if (!cached || cached.count !== count) cached = {count, text: JSON.stringify(buildOpenApi(router, options, baseUrl()))}
      return {status: 200, raw: cached.text, contentType: 'application/json; charset=utf-8'}
    },
  })
}
