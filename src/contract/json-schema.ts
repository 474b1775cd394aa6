/**
 * The one validator of the JSON-Schema subset svc writes its schemas in: the sandbox's request
 * schemas (src/sandbox/schema.ts, published in its OpenAPI document), the fixtures file's schema
 * (src/lib/fixtures/schema-check.ts, schemas/fixtures.schema.json), MCP tools' arguments
 * (src/lib/mcp/args.ts). Pure: it says what is wrong and where (a keyword, a path, the value), never
 * a sentence; each room words its problems from its own catalogue. Imports only the contract.
 *
 * Keywords: type (one or a list), enum, minimum, maximum, minLength, maxLength, pattern, format
 * (date-time, date, uri, email: checked loosely), properties, required, additionalProperties (false
 * or a schema), items, minItems, maxItems, default (filled in for a missing property), $ref to
 * `#/$defs/NAME`. Annotations (description, examples, title, `x-…`) are not checked.
 */
import {hasControlCharacter} from './limits.js'

export type SchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null'

export interface JsonSchema {
  type?: SchemaType | readonly SchemaType[]
  enum?: readonly unknown[]
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: 'date-time' | 'date' | 'uri' | 'email'
  properties?: Readonly<Record<string, JsonSchema>>
  required?: readonly string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  default?: unknown
  $ref?: string
  $defs?: Readonly<Record<string, JsonSchema>>
}

/**
 * The type of a value that passed `schema`, as far as the schema's own type says it: properties
 * listed in a `required` known to the compiler are present, and so are those with a `default`
 * (filled in), the others optional (a `required` widened to string[] says nothing: every property
 * optional); enums are their members; a schema without a type is unknown. What a handler reads.
 */
export type FromSchema<S> = SchemaValue<S, 'checked'>
/** The same, as a caller may send it: a property with a `default` may be left out. */
export type SchemaInput<S> = SchemaValue<S, 'sent'>

type Side = 'checked' | 'sent'
type SchemaValue<S, D extends Side> = S extends {enum: readonly (infer E)[]}
  ? E
  : S extends {type: infer T}
    ? T extends readonly (infer U)[]
      ? TypeOf<U, S, D>
      : TypeOf<T, S, D>
    : unknown

type TypeOf<T, S, D extends Side> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends {items: infer I}
            ? SchemaValue<I, D>[]
            : unknown[]
          : T extends 'object'
            ? ObjectOf<S, D>
            : unknown

type RequiredOf<S> = S extends {required: readonly (infer R)[]} ? (string extends R ? never : R) : never
type WithDefault<P, D extends Side> = D extends 'checked' ? {[K in keyof P]: P[K] extends {default: unknown} ? K : never}[keyof P] : never

type ObjectOf<S, D extends Side> = S extends {properties: infer P}
  ? {-readonly [K in keyof P as K extends RequiredOf<S> | WithDefault<P, D> ? K : never]: SchemaValue<P[K], D>} & {
      -readonly [K in keyof P as K extends RequiredOf<S> | WithDefault<P, D> ? never : K]?: SchemaValue<P[K], D>
    } & (S extends {additionalProperties: false} ? unknown : Record<string, unknown>)
  : Record<string, unknown>

export type SchemaKeyword =
  | 'type'
  | 'enum'
  | 'minimum'
  | 'maximum'
  | 'control'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'format'
  | 'minItems'
  | 'maxItems'
  | 'required'
  | 'additionalProperties'

/** What is wrong, where. */
export interface SchemaProblem {
  /** The path of keys and indexes from the root to the value at fault (for required and additionalProperties: to the property). */
  at: (string | number)[]
  keyword: SchemaKeyword
  /** The keyword's own value: the allowed types, the enum, the limit, the pattern, the missing or unknown name. */
  expected: unknown
  /** The value as received (for required: undefined). */
  value: unknown
  /** The schema whose keyword failed (for required and additionalProperties: the object's schema). */
  schema: JsonSchema
}

export interface SchemaOptions {
  /** Query strings: read "20" as 20 and "true" as true where the schema wants a number or boolean. */
  coerce?: boolean
  /** Count a string's length in code points, as JSON Schema does (default: UTF-16 units). */
  codePoints?: boolean
  /** Refuse a string with a control character (keyword `control`). */
  refuseControl?: boolean
  /**
   * Every problem of every value, properties in the document's order (a file checked all at once);
   * default: a value stops at its first problem of type, enum, control and string keywords, properties
   * in the schema's order (a request's answer).
   */
  everyProblem?: boolean
  /** A number as a lossless JSON reader left it (an object holding the number): its value, else undefined. Never an integer. */
  lossless?: (value: unknown) => number | undefined
}

export interface SchemaResult {
  /** The value with defaults filled in (and, with `coerce`, query strings converted); lossless numbers as numbers. */
  value: unknown
  problems: SchemaProblem[]
}

const patternCache = new Map<string, RegExp>()
function regex(pattern: string): RegExp {
  let compiled = patternCache.get(pattern)
  if (!compiled) {
    compiled = new RegExp(pattern, 'u')
    patternCache.set(pattern, compiled)
  }
  return compiled
}

const FORMATS: Record<NonNullable<JsonSchema['format']>, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uri: /^[a-z][a-z0-9+.-]*:\/\/\S+$/i,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
}

/** Check `value` against `schema`: every problem, and the value as a handler reads it. */
export function checkSchema(schema: JsonSchema, value: unknown, options: SchemaOptions = {}): SchemaResult {
  const walker = new Walker(schema, options)
  const out = walker.check(schema, value, [])
  return {value: out, problems: walker.problems}
}

/**
 * Define, never assign, a key named `__proto__`, so that it stays an own property. Any other name
 * is assigned (the same own property on a plain object, whose prototype has no other setter).
 */
function put(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(target, name, {value, enumerable: true, writable: true, configurable: true})
  else target[name] = value
}

class Walker {
  readonly problems: SchemaProblem[] = []

  constructor(
    private readonly root: JsonSchema,
    private readonly options: SchemaOptions,
  ) {}

  private typeOf(value: unknown): SchemaType | 'undefined' {
    if (value === null) return 'null'
    if (this.options.lossless?.(value) !== undefined) return 'number'
    if (Array.isArray(value)) return 'array'
    if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
    return typeof value as SchemaType
  }

  private matchesType(value: unknown, type: SchemaType): boolean {
    const actual = this.typeOf(value)
    if (type === 'number') return (actual === 'number' || actual === 'integer') && Number.isFinite(this.options.lossless?.(value) ?? value)
    return actual === type
  }

  /** The value as handlers see it: numbers as numbers, plain objects. */
  private plain(value: unknown): unknown {
    const number = this.options.lossless?.(value)
    if (number !== undefined) return number
    if (Array.isArray(value)) return value.map((item) => this.plain(item))
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {}
      for (const [name, child] of Object.entries(value)) put(out, name, this.plain(child))
      return out
    }
    return value
  }

  private problem(at: (string | number)[], keyword: SchemaKeyword, expected: unknown, value: unknown, schema: JsonSchema): void {
    this.problems.push({at, keyword, expected, value, schema})
  }

  private resolve(schema: JsonSchema): JsonSchema {
    if (!schema.$ref) return schema
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1]
    const target = name ? this.root.$defs?.[name] : undefined
    if (!target) throw new Error(`schema: unresolved $ref ${schema.$ref}`)
    return this.resolve(target)
  }

  private coerce(value: unknown, schema: JsonSchema): unknown {
    if (!this.options.coerce || typeof value !== 'string') return value
    const types = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type
    if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value)
    if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true'
    return value
  }

  check(given: JsonSchema, input: unknown, at: (string | number)[]): unknown {
    const schema = this.resolve(given)
    const every = this.options.everyProblem === true
    let value = this.coerce(input, schema)
    if (schema.type !== undefined) {
      const types = typeof schema.type === 'string' ? [schema.type] : schema.type
      // A value of the wrong type is one problem; its other keywords would only repeat it.
      if (!types.some((type) => this.matchesType(value, type))) {
        this.problem(at, 'type', types, input, schema)
        return this.plain(value)
      }
    }
    const number = this.options.lossless?.(value)
    if (number !== undefined) value = number
    if (schema.enum && !schema.enum.includes(value)) {
      this.problem(at, 'enum', schema.enum, value, schema)
      if (!every) return value
    }
    if (typeof value === 'number') {
      if (schema.minimum !== undefined && value < schema.minimum) this.problem(at, 'minimum', schema.minimum, value, schema)
      if (schema.maximum !== undefined && value > schema.maximum) this.problem(at, 'maximum', schema.maximum, value, schema)
    }
    if (typeof value === 'string') {
      if (this.options.refuseControl && hasControlCharacter(value)) {
        this.problem(at, 'control', undefined, value, schema)
        return value
      }
      const length = this.options.codePoints ? [...value].length : value.length
      const checks: Array<[SchemaKeyword, unknown, boolean]> = [
        ['minLength', schema.minLength, schema.minLength !== undefined && length < schema.minLength],
        ['maxLength', schema.maxLength, schema.maxLength !== undefined && length > schema.maxLength],
        ['pattern', schema.pattern, schema.pattern !== undefined && !regex(schema.pattern).test(value)],
        ['format', schema.format, schema.format !== undefined && !FORMATS[schema.format].test(value)],
      ]
      for (const [keyword, expected, failed] of checks) {
        if (!failed) continue
        this.problem(at, keyword, expected, value, schema)
        if (!every) break
      }
    }
    if (Array.isArray(value)) {
      if (schema.minItems !== undefined && value.length < schema.minItems) this.problem(at, 'minItems', schema.minItems, value, schema)
      if (schema.maxItems !== undefined && value.length > schema.maxItems) this.problem(at, 'maxItems', schema.maxItems, value, schema)
      const items = schema.items
      if (items) return value.map((item, index) => this.check(items, item, [...at, index]))
    }
    if (this.typeOf(value) === 'object' && (schema.properties || schema.additionalProperties !== undefined || schema.required)) {
      return this.object(schema, value as Record<string, unknown>, at, every)
    }
    return this.plain(value)
  }

  private object(schema: JsonSchema, object: Record<string, unknown>, at: (string | number)[], every: boolean): Record<string, unknown> {
    const result: Record<string, unknown> = {}
    const properties = schema.properties ?? {}
    const present = (name: string) => Object.hasOwn(object, name) && object[name] !== undefined
    for (const name of schema.required ?? []) if (!present(name)) this.problem([...at, name], 'required', name, undefined, schema)
    const unknown = (name: string) => {
      if (schema.additionalProperties === false) this.problem([...at, name], 'additionalProperties', name, object[name], schema)
      else if (typeof schema.additionalProperties === 'object') put(result, name, this.check(schema.additionalProperties, object[name], [...at, name]))
      else put(result, name, this.plain(object[name]))
    }
    if (every) {
      // The document's order: the problems read as the file does.
      for (const name of Object.keys(object)) {
        if (Object.hasOwn(properties, name)) {
          if (object[name] !== undefined) put(result, name, this.check(properties[name], object[name], [...at, name]))
        } else unknown(name)
      }
      for (const [name, child] of Object.entries(properties)) if (!present(name) && child.default !== undefined) put(result, name, child.default)
      return result
    }
    for (const [name, child] of Object.entries(properties)) {
      if (present(name)) put(result, name, this.check(child, object[name], [...at, name]))
      else if (child.default !== undefined) put(result, name, child.default)
    }
    for (const name of Object.keys(object)) if (!Object.hasOwn(properties, name)) unknown(name)
    return result
  }
}
