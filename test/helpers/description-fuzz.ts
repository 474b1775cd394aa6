/**
 * Requests built from `/v1/openapi.json` alone, as a schema-based fuzzer (Schemathesis, RESTler)
 * builds them: for each operation, values its schemas allow (fast-check, with `stringMatching` for
 * patterns) and values that break exactly one rule of them (a bound, a length, a pattern, an enum, a
 * type, a required or unknown property, an item count). Whether the document allows a request is
 * not this file's guess: Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1, with ajv-formats)
 * judges every body, query and path parameter against the document's own schemas, so a mutation that
 * happens to stay valid counts as allowed. The rules a schema cannot hold are the operation's
 * description's: the caller adds them (test/contract/description-fuzz.test.ts).
 */
import {Ajv2020, type ValidateFunction} from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
import fc from 'fast-check'

type Json = Record<string, any>

export interface Parameter {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  schema: Json
}

export interface Operation {
  operationId: string
  method: string
  path: string
  parameters: Parameter[]
  /** The request body's schema ($ref resolved), when the operation takes JSON. */
  body?: Json
  bodyRequired: boolean
  description: string
}

/** One request, as the document says it: values by place, and whether the document's schemas allow it. */
export interface DocRequest {
  operation: Operation
  path: Record<string, string>
  query: Record<string, unknown>
  headers: Record<string, string>
  /** undefined: no body sent. */
  body?: unknown
  /** What Ajv says of each part against the document; empty: every schema allows it. */
  violations: string[]
}

/** The document's operations that take an API key, with their parameters and bodies resolved. */
export function operations(doc: Json): Operation[] {
  const out: Operation[] = []
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const parameters = (op.parameters ?? []).map((p: Json) => resolve(doc, p) as Parameter)
      const media = op.requestBody?.content?.['application/json']
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        parameters,
        body: media ? resolve(doc, media.schema) : undefined,
        bodyRequired: op.requestBody?.required === true,
        description: op.description ?? '',
      })
    }
  }
  return out
}

function resolve(doc: Json, value: Json): Json {
  let current = value
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((node: Json, key: string) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
  }
  return current
}

/** Ajv over the document: `check(schema, value)` lists what is wrong (empty: allowed). */
export function judge(doc: Json): (schema: Json, value: unknown) => string[] {
  const ajv = new Ajv2020({strict: false, allErrors: false, validateFormats: true})
  addFormats(ajv)
  ajv.addSchema({$id: 'doc', components: doc.components}, 'doc')
  const compiled = new Map<string, ValidateFunction>()
  const rewrite = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema, (key, v) => (key === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `doc${v}` : v)))
  return (schema, value) => {
    const key = JSON.stringify(schema)
    let validate = compiled.get(key)
    if (!validate) compiled.set(key, (validate = ajv.compile(rewrite(schema) as Json)))
    return validate(value) ? [] : (validate.errors ?? []).map((e: {instancePath: string; message?: string}) => `${e.instancePath || '/'} ${e.message}`)
  }
}

// Values ---------------------------------------------------------------------------------------

function types(schema: Json): string[] {
  return schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]
}

const bounded = (min: number, max: number) =>
  fc.oneof(
    {weight: 1, arbitrary: fc.bigInt({min: BigInt(Math.ceil(min)), max: BigInt(Math.floor(max))}).map(Number)},
    {weight: 1, arbitrary: fc.constantFrom(min, max)},
    {weight: 4, arbitrary: fc.integer({min: Math.max(min, -1000), max: Math.min(max, 10_000)})},
  )

/**
 * Values for properties the document says in words must name an object (a file_url once uploaded):
 * what the caller has, by property name. A fuzzer fed the document's words does the same.
 */
export type Known = Record<string, fc.Arbitrary<unknown>>

/** A value `schema` allows (most of the time: `allOf` conditions and formats are left to the judge). */
export function allowed(doc: Json, given: Json, depth = 0, known: Known = {}): fc.Arbitrary<unknown> {
  const schema = resolve(doc, given)
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const kinds = types(schema)
  const kind = kinds.find((k) => k !== 'null') ?? 'string'
  if (kind === 'object') {
    const properties = Object.entries<Json>(schema.properties ?? {})
    return fc.record(Object.fromEntries(properties.map(([name, child]) => [name, known[name] ?? allowed(doc, child, depth + 1, known)])), {requiredKeys: schema.required ?? []})
  }
  if (kind === 'array') {
    const min = schema.minItems ?? 0
    const max = Math.min(schema.maxItems ?? 4, depth > 2 ? min + 1 : 4)
    return fc.oneof(
      {weight: 9, arbitrary: fc.array(allowed(doc, schema.items ?? {}, depth + 1, known), {minLength: min, maxLength: Math.max(min, max)})},
      {weight: schema.maxItems ? 1 : 0, arbitrary: fc.array(allowed(doc, schema.items ?? {}, depth + 1, known), {minLength: schema.maxItems ?? 0, maxLength: schema.maxItems ?? 0})},
    )
  }
  if (kind === 'integer') return bounded(schema.minimum ?? -1e15, schema.maximum ?? 1e15)
  if (kind === 'number')
    return fc.oneof(
      bounded(schema.minimum ?? -1e15, schema.maximum ?? 1e15),
      fc.double({min: schema.minimum ?? -1e15, max: schema.maximum ?? 1e15, noNaN: true, noDefaultInfinity: true}),
    )
  if (kind === 'boolean') return fc.boolean()
  return text(schema)
}

/** Whether most strings fast-check draws for `pattern` at its default size are refused by `fits` (a fixed probe, apart from the run's seed). */
function mostlyOverflow(pattern: RegExp, fits: (s: string) => boolean): boolean {
  const probe = fc.sample(fc.stringMatching(pattern), {numRuns: 20, seed: 0})
  return probe.filter(fits).length < probe.length / 2
}

/**
 * Each string schema's arbitrary, built once and shared by every place the schema is met: an
 * arbitrary only describes draws (sharing one changes none of them), and building fast-check's
 * strings and patterns is most of the cost of building the requests.
 */
const texts = new Map<string, fc.Arbitrary<string>>()

function text(schema: Json): fc.Arbitrary<string> {
  const key = JSON.stringify(schema)
  let arbitrary = texts.get(key)
  if (!arbitrary) texts.set(key, (arbitrary = newText(schema)))
  return arbitrary
}

/** Short text of any graphemes (built once, as above). */
let shortText: fc.Arbitrary<string> | undefined

function newText(schema: Json): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0
  const max = schema.maxLength ?? 60
  const fits = (s: string) => [...s].length >= min && [...s].length <= max
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u')
    const matching = (size: 'xsmall' | 'small') => fc.stringMatching(pattern, {size}).filter(fits)
    // A pattern whose strings at fast-check's default size mostly overflow maxLength (a phone with
    // ` *` between each digit: ~500 drawn for one kept, most of the fuzzer's CPU) is drawn mostly
    // at the smaller size, which fits; one in four still at the default size, for the long ones
    // up to the bound.
    return mostlyOverflow(pattern, fits) ? fc.oneof({weight: 3, arbitrary: matching('xsmall')}, {weight: 1, arbitrary: matching('small')}) : matching('small')
  }
  if (schema.format === 'email') return fc.emailAddress().filter(fits)
  if (schema.format === 'date-time') return fc.date({min: new Date(0), max: new Date(4102444800000), noInvalidDate: true}).map((d) => d.toISOString())
  if (schema.format === 'date') return fc.date({min: new Date(0), max: new Date(4102444800000), noInvalidDate: true}).map((d) => d.toISOString().slice(0, 10))
  // Any text: JSON Schema counts a string's length in code points.
  return fc.oneof(
    {weight: 4, arbitrary: fc.string({unit: 'grapheme', minLength: min, maxLength: Math.min(max, 20)})},
    {weight: 2, arbitrary: fc.string({unit: 'binary', minLength: min, maxLength: Math.min(max, 20)})},
    {weight: 1, arbitrary: fc.constantFrom('é', '😀', 'Ā').map((c) => c.repeat(Math.max(min, max)))},
  ).filter(fits)
}

/** A value that breaks one rule of `schema` (the judge has the last word). */
export function forbidden(doc: Json, given: Json, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, given)
  const choices: fc.Arbitrary<unknown>[] = []
  const kinds = types(schema)
  const kind = kinds.find((k) => k !== 'null') ?? (schema.enum ? typeof schema.enum[0] : 'string')
  // The wrong type.
  choices.push(fc.constantFrom<unknown>(kind === 'string' ? 12 : 'text', kind === 'object' ? [] : {}, kind === 'boolean' ? 'true' : true, kinds.includes('null') ? 'null' : null))
  if (schema.enum) choices.push(fc.constantFrom('NOT_A_MEMBER', 'email', String(schema.enum[0]).toLowerCase()))
  if (kind === 'integer' || kind === 'number') {
    if (schema.minimum !== undefined) choices.push(fc.constantFrom(schema.minimum - 1, schema.minimum - 0.5))
    if (schema.maximum !== undefined) choices.push(fc.constantFrom(schema.maximum + 1, schema.maximum * 10))
    if (kind === 'integer') choices.push(fc.constantFrom(1.5, (schema.minimum ?? 0) + 0.25))
  }
  if (kind === 'string' && !schema.enum) {
    if (schema.maxLength !== undefined) choices.push(fc.constantFrom('a'.repeat(schema.maxLength + 1), 'é'.repeat(schema.maxLength + 1)))
    if (schema.minLength) choices.push(fc.constant(''))
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern, 'u')
      // No filter that may never pass: a string the pattern takes gets a control character (the judge decides).
      choices.push((shortText ??= fc.string({unit: 'grapheme', maxLength: 20})).map((s) => (pattern.test(s) ? `${s}\u0001` : s)))
      choices.push(fc.constantFrom(' ', '\t', '2026-02-30', '2025-02-29', '2026-13-01', '2026-12-31T25:00Z', '2026-04-31', '12', '+', 'inv_test_x', 'a\u0000'))
    }
    if (schema.format === 'email') choices.push(fc.constantFrom('not-an-email', 'a@', '@b.cm', 'a b@c.cm'))
    choices.push(fc.constantFrom('\u0000', 'a\u0007b', '\u001b[31m', 'x\u0085'))
  }
  if (kind === 'array') {
    if (schema.minItems) choices.push(fc.constant([]))
    if (schema.maxItems !== undefined) choices.push(fc.array(allowed(doc, schema.items ?? {}, depth + 1), {minLength: schema.maxItems + 1, maxLength: schema.maxItems + 1}))
    if (schema.items && depth < 4)
      choices.push(
        fc
          .tuple(fc.array(allowed(doc, schema.items, depth + 1), {minLength: Math.max(0, (schema.minItems ?? 1) - 1), maxLength: 2}), forbidden(doc, schema.items, depth + 1))
          .map(([items, bad]) => [...items, bad]),
      )
  }
  if (kind === 'object') {
    const properties = Object.keys(schema.properties ?? {})
    const base = allowed(doc, schema, depth) as fc.Arbitrary<Json>
    if (schema.additionalProperties === false) choices.push(base.map((o) => ({...o, zz_unknown: 1})))
    for (const name of schema.required ?? [])
      choices.push(
        base.map((o) => {
          const {[name]: _, ...rest} = o
          return rest
        }),
      )
    if (depth < 4)
      for (const name of properties) choices.push(fc.tuple(base, forbidden(doc, schema.properties[name], depth + 1)).map(([o, bad]) => ({...o, [name]: bad})))
  }
  return fc.oneof(...choices)
}

// Requests -------------------------------------------------------------------------------------

/**
 * Requests for `operation`: three in four allowed by its schemas, the rest breaking one rule of
 * one part. `ids` gives a path parameter's value (an object the request is aimed at).
 */
export function requests(doc: Json, operation: Operation, ids: (name: string) => string, known: Known = {}): fc.Arbitrary<Omit<DocRequest, 'violations'>> {
  const parts = (wantBad: boolean) => {
    const path = fc.record(
      Object.fromEntries(
        operation.parameters
          .filter((p) => p.in === 'path')
          .map((p) => [p.name, wantBad ? fc.oneof(fc.constant(ids(p.name)), forbidden(doc, p.schema).map((v) => String(v))) : fc.constant(ids(p.name))]),
      ),
    )
    const query = fc.record(
      Object.fromEntries(operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, wantBad ? fc.oneof(allowed(doc, p.schema), forbidden(doc, p.schema)) : allowed(doc, p.schema)])),
      {requiredKeys: operation.parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name)},
    )
    const headerParams = operation.parameters.filter((p) => p.in === 'header')
    const headers = fc.record(
      Object.fromEntries(
        headerParams.map((p) => [
          p.name,
          // What HTTP can carry in a header: visible ASCII and inner spaces.
          (wantBad ? fc.oneof(allowed(doc, p.schema), forbidden(doc, p.schema)) : allowed(doc, p.schema)).map((v) => String(v)).filter((v) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$|^$/.test(v) || /^ +$/.test(v)),
        ]),
      ),
      {requiredKeys: headerParams.filter((p) => p.required).map((p) => p.name)},
    )
    const body = operation.body
      ? operation.bodyRequired
        ? wantBad
          ? forbidden(doc, operation.body)
          : allowed(doc, operation.body, 0, known)
        : fc.option(wantBad ? forbidden(doc, operation.body) : allowed(doc, operation.body, 0, known), {nil: undefined, freq: 5})
      : fc.constant(undefined)
    return fc.record({path, query, headers, body})
  }
  return fc.oneof({weight: 3, arbitrary: parts(false)}, {weight: 1, arbitrary: parts(true)}).map((r) => ({operation, ...r}) as Omit<DocRequest, 'violations'>)
}

/** What the document's schemas say of `request` (Ajv): one line per broken rule. */
export function violations(check: ReturnType<typeof judge>, request: Omit<DocRequest, 'violations'>): string[] {
  const out: string[] = []
  for (const p of request.operation.parameters) {
    const place = p.in === 'path' ? request.path : p.in === 'query' ? request.query : request.headers
    const value = place[p.name]
    if (value === undefined) {
      if (p.required) out.push(`${p.in} ${p.name} missing`)
      continue
    }
    // Path and header values are strings on the wire; a query value is read as its schema's type.
    out.push(...check(p.schema, value).map((m) => `${p.in} ${p.name}: ${m}`))
  }
  if (request.body === undefined) {
    if (request.operation.bodyRequired) out.push('body missing')
  } else if (request.operation.body) out.push(...check(request.operation.body, request.body).map((m) => `body${m}`))
  return out
}
