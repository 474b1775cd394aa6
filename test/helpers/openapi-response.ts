/**
 * Check every response a test sees against the OpenAPI document the server publishes: the document
 * is first validated as OpenAPI 3.1 (@seriousme/openapi-schema-validator), then each response body
 * is validated against the schema documented for its path, method and status (Ajv, JSON Schema
 * 2020-12: an implementation independent of the sandbox's own validator).
 */
import {Validator} from '@seriousme/openapi-schema-validator'
import {Ajv2020, type ValidateFunction} from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void

type Json = Record<string, any>

const resolvedCache = new Map<string, Json>()
/**
 * The OpenAPI 3.1 validator compiles its meta-schema the first time it validates (about 0.2 s of
 * CPU): one per worker, and its calls one at a time (`resolveRefs` reads the document the last
 * `validate` took).
 */
let documents: Validator | undefined
let documentQueue: Promise<unknown> = Promise.resolve()

/** `use` with the worker's one OpenAPI validator, after every call queued before it. */
function withDocumentValidator<T>(use: (validator: Validator) => Promise<T>): Promise<T> {
  const turn = documentQueue.then(() => use((documents ??= new Validator())))
  documentQueue = turn.catch(() => undefined)
  return turn
}

/**
 * The response validators, compiled once per worker by one Ajv: by the schema object (every checker
 * of a resolved document meets the same objects), and by the schema's JSON text, whichever
 * document it came from: each sandbox's document differs from the others by its URL (its examples
 * hold it), so it is resolved anew, but its response schemas are the same, and compiling them is
 * most of a sandbox test file's CPU.
 */
const ajv = new Ajv2020({strict: false, allErrors: true})
addFormats(ajv)
const compiledBySchema = new WeakMap<object, ValidateFunction>()
const compiledByText = new Map<string, ValidateFunction>()

/**
 * `raw` validated as an OpenAPI document by the worker's one validator (its meta-schema compiled
 * once, not per caller): the validator's result and the version it read the document as.
 */
export function validateOpenApiDocument(raw: Json): Promise<{valid: boolean; errors?: unknown; version: string}> {
  return withDocumentValidator(async (validator) => ({...(await validator.validate(raw)), version: validator.version}))
}

export class OpenApiResponses {
  /** How many responses were checked (a test can assert it is not zero). */
  checked = 0
  private readonly operations: Array<{method: string; regex: RegExp; template: string; op: Json}> = []

  private constructor(readonly document: Json) {
    for (const [template, item] of Object.entries<Json>(document.paths ?? {})) {
      const regex = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`)
      for (const [method, op] of Object.entries<Json>(item)) this.operations.push({method: method.toUpperCase(), regex, template, op})
    }
  }

  /** Fetch `${baseUrl}/v1/openapi.json`, require it to be a valid OpenAPI document, and resolve its refs. */
  static async load(baseUrl: string): Promise<OpenApiResponses> {
    const response = await fetch(`${baseUrl}/v1/openapi.json`)
    if (response.status !== 200) throw new Error(`openapi.json: HTTP ${response.status}`)
    const raw = (await response.json()) as Json
    // Documents differ only by their server URL between sandboxes of one configuration: validate each shape once.
    const cacheKey = JSON.stringify({...raw, servers: undefined})
    let resolved = resolvedCache.get(cacheKey)
    if (!resolved) {
      resolved = await withDocumentValidator(async (validator) => {
        const result = await validator.validate(raw)
        if (!result.valid) throw new Error(`openapi.json is not a valid OpenAPI document: ${JSON.stringify(result.errors).slice(0, 2000)}`)
        return validator.resolveRefs() as Json
      })
      resolvedCache.set(cacheKey, resolved)
    }
    return new OpenApiResponses(resolved)
  }

  /** Throws when `body` does not match what the document says `method path` answers with `status`. */
  check(method: string, path: string, status: number, body: unknown, headers?: Headers): void {
    const pathOnly = path.split('?')[0]
    const operation = this.operations.find((o) => o.method === method.toUpperCase() && o.regex.test(pathOnly))
    if (!operation) throw new Error(`${method} ${pathOnly} is not in the OpenAPI document`)
    const response = operation.op.responses?.[String(status)] as Json | undefined
    if (!response) throw new Error(`${method} ${operation.template}: status ${status} is not documented`)
    for (const name of Object.keys(response.headers ?? {})) {
      if (headers && /^RateLimit-|^Retry-After$/i.test(name) && !headers.has(name) && (name === 'Retry-After' || this.rateLimited(headers)))
        throw new Error(`${method} ${operation.template} ${status}: header ${name} missing`)
    }
    const schema = response.content?.['application/json']?.schema
    if (!schema) {
      if (body !== undefined && body !== '') throw new Error(`${method} ${operation.template} ${status}: a body where none is documented`)
      this.checked++
      return
    }
    const validate = this.validator(schema)
    if (!validate(body))
      throw new Error(
        `${method} ${operation.template} ${status}: body does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
      )
    this.checked++
  }

  /**
   * Throws when a delivered event (its parsed body and its headers) does not match what the
   * document's `webhooks` entry for `type` says: the payload schema and the webhook-* headers.
   */
  checkEvent(type: string, body: unknown, headers: Record<string, string | string[] | undefined>): void {
    const operation = (this.document.webhooks as Json | undefined)?.[type]?.post as Json | undefined
    if (!operation) throw new Error(`event ${type} is not in the document's webhooks`)
    for (const parameter of operation.parameters ?? []) {
      const value = headers[parameter.name]
      if (typeof value !== 'string') throw new Error(`event ${type}: header ${parameter.name} missing`)
      if (!this.validator(parameter.schema)(value)) throw new Error(`event ${type}: header ${parameter.name} "${value}" does not match the document`)
    }
    const validate = this.validator(operation.requestBody.content['application/json'].schema)
    if (!validate(body)) throw new Error(`event ${type}: body does not match the document: ${ajv.errorsText(validate.errors)}`)
    this.checked++
  }

  private validator(schema: object): ValidateFunction {
    let validate = compiledBySchema.get(schema)
    if (!validate) {
      // A schema whose resolved refs loop (a recursive type) has no JSON text: compiled for itself.
      let text: string | undefined
      try {
        text = JSON.stringify(schema)
      } catch {
        text = undefined
      }
      validate = text === undefined ? undefined : compiledByText.get(text)
      if (!validate) {
        validate = ajv.compile(schema)
        if (text !== undefined) compiledByText.set(text, validate)
      }
      compiledBySchema.set(schema, validate)
    }
    return validate
  }

  private rateLimited(headers: Headers): boolean {
    return headers.has('ratelimit-limit')
  }
}
