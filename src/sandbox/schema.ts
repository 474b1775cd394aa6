/**
 * The JSON-Schema subset the sandbox validates requests with. The same objects are published in
 * `/v1/openapi.json` (see openapi.ts), so the document and the server cannot disagree: there is
 * one source of truth.
 *
 * Supported keywords: type (one or a list), enum, minimum, maximum, minLength, maxLength, pattern,
 * format (date-time, date, uri, email: checked loosely), properties, required,
 * additionalProperties (false or a schema), items, minItems, maxItems, default (filled in for a
 * missing property), description, examples. `named()` marks a schema as a reusable component.
 */
import {hasControlCharacter} from '../contract/limits.js'
import {type MessageKey} from './i18n/index.js'
import {t} from './i18n/index.js'
import {NumberToken} from './json.js'

export type SchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null'

export interface Schema {
  type?: SchemaType | readonly SchemaType[]
  enum?: readonly (string | number | boolean | null)[]
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: 'date-time' | 'date' | 'uri' | 'email'
  properties?: Record<string, Schema>
  required?: readonly string[]
  additionalProperties?: boolean | Schema
  items?: Schema
  minItems?: number
  maxItems?: number
  default?: unknown
  description?: string
  examples?: readonly unknown[]
  /** Component name in the OpenAPI document (set by `named`). */
  'x-name'?: string
  /** Catalogue key of the message for a `pattern` mismatch (params: field). Not published. */
  'x-pattern-message'?: MessageKey
  /** Unknown properties refused with their own message (params: field), e.g. computed totals. Not published. */
  'x-refused'?: Record<string, MessageKey>
}

export interface FieldError {
  field: string
  message: string
}

/** Mark `schema` as the component `name`: the OpenAPI builder emits a `$ref` to it. */
export function named<S extends Schema>(name: string, schema: S): S {
  return {...schema, 'x-name': name}
}

export interface ValidateOptions {
  /** Query strings: read "20" as 20 and "true" as true where the schema wants a number or boolean. */
  coerce?: boolean
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

function typeOf(value: unknown): SchemaType | 'undefined' {
  if (value === null) return 'null'
  // A number not written as a plain safe integer (json.ts) is never an integer, whatever its value.
  if (value instanceof NumberToken) return 'number'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value as SchemaType
}

function matchesType(value: unknown, type: SchemaType): boolean {
  const actual = typeOf(value)
  if (type === 'number') return (actual === 'number' || actual === 'integer') && Number.isFinite(value instanceof NumberToken ? value.value : value)
  return actual === type
}

/** How a value shows in a message: short, JSON-like ("100" for a string, 1.5 for a number). */
function show(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value instanceof NumberToken) return value.text.length > 40 ? `${value.text.slice(0, 37)}…` : value.text
  const text = JSON.stringify(value)
  return text.length > 40 ? `${text.slice(0, 37)}…` : text
}

function coerceScalar(value: unknown, schema: Schema): unknown {
  if (typeof value !== 'string') return value
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type as SchemaType]
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value)
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true'
  return value
}

const FORMATS: Record<NonNullable<Schema['format']>, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uri: /^[a-z][a-z0-9+.-]*:\/\/\S+$/i,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
}

/**
 * Validate `value` against `schema`. Returns the value (with defaults filled in and, with `coerce`,
 * query strings converted) and one error per offending field, named by its path (`items[0].price`).
 */
export function validate(
  schema: Schema,
  value: unknown,
  options: ValidateOptions = {},
  path = '',
): {value: unknown; errors: FieldError[]} {
  const errors: FieldError[] = []
  const out = check(schema, value, path, options, errors)
  return {value: out, errors}
}

/**
 * Define, never assign, a key named `__proto__`, so that it stays an own property. Any other name
 * is assigned (the same own property on a plain object, whose prototype has no other setter, and
 * several times faster than defineProperty).
 */
function put(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(target, name, {value, enumerable: true, writable: true, configurable: true})
  else target[name] = value
}

/** The value as handlers see it: numbers as numbers, plain objects, whatever the schema said of it. */
function plain(value: unknown): unknown {
  if (value instanceof NumberToken) return value.value
  if (Array.isArray(value)) return value.map(plain)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [name, child] of Object.entries(value)) put(out, name, plain(child))
    return out
  }
  return value
}

function fieldName(path: string): string {
  return path === '' ? 'body' : path
}

function check(schema: Schema, input: unknown, path: string, options: ValidateOptions, errors: FieldError[]): unknown {
  const field = fieldName(path)
  const value = options.coerce ? coerceScalar(input, schema) : input
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type as SchemaType]
    if (!types.some((type) => matchesType(value, type))) {
      const expected = types.filter((type) => type !== 'null')
      const key: MessageKey =
        expected.length === 1 && expected[0] === 'integer'
          ? value instanceof NumberToken
            ? 'sandbox.validation.notExact'
            : 'sandbox.validation.integer'
          : expected.length === 1 && expected[0] === 'object' && path === ''
            ? 'sandbox.validation.bodyObject'
            : 'sandbox.validation.type'
      errors.push({field, message: t(key, {field, type: expected.join(' or '), got: show(input)})})
      return plain(value)
    }
  }
  if (value instanceof NumberToken) return check(schema, value.value, path, options, errors)
  if (schema.enum && !schema.enum.includes(value as string)) {
    errors.push({field, message: t('sandbox.validation.enum', {field, values: schema.enum.join(', '), got: show(value)})})
    return value
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum)
      errors.push({field, message: t('sandbox.validation.minimum', {field, minimum: schema.minimum, got: show(value)})})
    if (schema.maximum !== undefined && value > schema.maximum)
      errors.push({field, message: t('sandbox.validation.maximum', {field, maximum: schema.maximum, got: show(value)})})
  }
  if (typeof value === 'string' && hasControlCharacter(value)) {
    errors.push({field, message: t('sandbox.validation.control', {field})})
    return value
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      errors.push({
        field,
        message:
          schema.minLength === 1
            ? t('sandbox.validation.empty', {field})
            : t('sandbox.validation.minLength', {field, minLength: schema.minLength}),
      })
    else if (schema.maxLength !== undefined && value.length > schema.maxLength)
      errors.push({field, message: t('sandbox.validation.maxLength', {field, maxLength: schema.maxLength})})
    else if (schema.pattern !== undefined && !regex(schema.pattern).test(value))
      errors.push({field, message: t(schema['x-pattern-message'] ?? 'sandbox.validation.pattern', {field, got: show(value)})})
    else if (schema.format !== undefined && !FORMATS[schema.format].test(value))
      errors.push({field, message: t('sandbox.validation.format', {field, format: schema.format, got: show(value)})})
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors.push({field, message: t('sandbox.validation.minItems', {field, minItems: schema.minItems})})
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      errors.push({field, message: t('sandbox.validation.maxItems', {field, maxItems: schema.maxItems})})
    if (schema.items) {
      const items = schema.items
      return value.map((item, index) => check(items, item, `${path}[${index}]`, options, errors))
    }
  }
  if (typeOf(value) === 'object' && (schema.properties || schema.additionalProperties !== undefined)) {
    const object = value as Record<string, unknown>
    const result: Record<string, unknown> = {}
    const properties = schema.properties ?? {}
    for (const name of schema.required ?? []) {
      if (!Object.hasOwn(object, name) || object[name] === undefined) {
        const child = path === '' ? name : `${path}.${name}`
        errors.push({field: child, message: t('sandbox.validation.required', {field: child})})
      }
    }
    for (const [name, child] of Object.entries(properties)) {
      const childPath = path === '' ? name : `${path}.${name}`
      if (Object.hasOwn(object, name) && object[name] !== undefined) put(result, name, check(child, object[name], childPath, options, errors))
      else if (child.default !== undefined) put(result, name, child.default)
    }
    for (const name of Object.keys(object)) {
      if (Object.hasOwn(properties, name)) continue
      const childPath = path === '' ? name : `${path}.${name}`
      if (schema.additionalProperties === false) {
        const refusedFields = schema['x-refused']
        const refused = refusedFields && Object.hasOwn(refusedFields, name) ? refusedFields[name] : undefined
        errors.push({
          field: childPath,
          message: refused ? t(refused, {field: childPath}) : t('sandbox.validation.unknownField', {field: childPath, known: Object.keys(properties).join(', ')}),
        })
      } else if (typeof schema.additionalProperties === 'object') {
        put(result, name, check(schema.additionalProperties, object[name], childPath, options, errors))
      } else {
        put(result, name, plain(object[name]))
      }
    }
    return result
  }
  return plain(value)
}
