/**
 * The JSON-Schema subset the sandbox validates requests with. The same objects are published in
 * `/v1/openapi.json` (see openapi.ts), so the document and the server cannot disagree: there is
 * one source of truth. The checking is the contract's one validator (src/contract/json-schema.ts);
 * this file words its problems in the sandbox's catalogue.
 *
 * Supported keywords: type (one or a list), enum, minimum, maximum, minLength, maxLength, pattern,
 * format (date-time, date, uri, email: checked loosely), properties, required,
 * additionalProperties (false or a schema), items, minItems, maxItems, default (filled in for a
 * missing property), description, examples. `named()` marks a schema as a reusable component.
 */
import {checkSchema, type JsonSchema, type SchemaProblem} from '../contract/json-schema.js'
import {type MessageKey} from './i18n/index.js'
import {t} from './i18n/index.js'
import {NumberToken} from './json.js'

/** The contract's schema, with its nested schemas the sandbox's own (for the `x-` keys below). */
export interface Schema extends JsonSchema {
  enum?: readonly (string | number | boolean | null)[]
  properties?: Readonly<Record<string, Schema>>
  additionalProperties?: boolean | Schema
  items?: Schema
  description?: string
  examples?: readonly unknown[]
  /**
   * Combinations of properties, published as they are (`dependentSchemas`, `const`): the validator
   * does not read them; the handler checks the same rule and words its refusal
   * (test/contract/description-fuzz.test.ts holds the two to each other).
   */
  dependentSchemas?: Readonly<Record<string, Schema>>
  const?: unknown
  /** Component name in the OpenAPI document (set by `named`). */
  'x-name'?: string
  /** Catalogue key of the message for a `pattern` mismatch (params: field). Not published. */
  'x-pattern-message'?: MessageKey
  /** Unknown properties refused with their own message (params: field), e.g. computed totals. Not published. */
  'x-refused'?: Record<string, MessageKey>
}

/**
 * The type of a value that passed `schema`, as far as the schema's own type says it: properties
 * listed in a `required` known to the compiler are present, the others optional (a `required`
 * widened to string[] says nothing: every property optional); enums are their members; a schema
 * without a type is unknown.
 */
export type FromSchema<S> = S extends {enum: readonly (infer E)[]}
  ? E
  : S extends {type: infer T}
    ? T extends readonly (infer U)[]
      ? TypeOf<U, S>
      : TypeOf<T, S>
    : unknown

type TypeOf<T, S> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends {items: infer I}
            ? FromSchema<I>[]
            : unknown[]
          : T extends 'object'
            ? ObjectOf<S>
            : unknown

type RequiredOf<S> = S extends {required: readonly (infer R)[]} ? (string extends R ? never : R) : never
type WithDefault<P> = {[K in keyof P]: P[K] extends {default: unknown} ? K : never}[keyof P]

type ObjectOf<S> = S extends {properties: infer P}
  ? {[K in keyof P as K extends RequiredOf<S> | WithDefault<P> ? K : never]: FromSchema<P[K]>} & {
      [K in keyof P as K extends RequiredOf<S> | WithDefault<P> ? never : K]?: FromSchema<P[K]>
    } & (S extends {additionalProperties: false} ? unknown : Record<string, unknown>)
  : Record<string, unknown>

export interface FieldError {
  field: string
  message: string
}

/**
 * Free text as the sandbox takes it, said as patterns so that the document states it: no control
 * character but tab and line breaks (the validator refuses one first, with its own message: see
 * `refuseControl`), and for a name, something besides spaces (the handler trims it).
 */
const CONTROL = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f'
export const TEXT_PATTERN = `^[^${CONTROL}]*$`
export const NAME_PATTERN = `^[^${CONTROL}]*[^\\s${CONTROL}][^${CONTROL}]*$`

/** Mark `schema` as the component `name`: the OpenAPI builder emits a `$ref` to it. */
export function named<S extends Schema>(name: string, schema: S): S {
  return {...schema, 'x-name': name}
}

export interface ValidateOptions {
  /** Query strings: read "20" as 20 and "true" as true where the schema wants a number or boolean. */
  coerce?: boolean
}

/** How a value shows in a message: short, JSON-like ("100" for a string, 1.5 for a number). */
function show(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value instanceof NumberToken) return value.text.length > 40 ? `${value.text.slice(0, 37)}…` : value.text
  const text = JSON.stringify(value)
  return text.length > 40 ? `${text.slice(0, 37)}…` : text
}

/** A number json.ts kept as written (not a plain safe integer): its value. */
const lossless = (value: unknown): number | undefined => (value instanceof NumberToken ? value.value : undefined)

/**
 * Validate `value` against `schema`. Returns the value (with defaults filled in and, with `coerce`,
 * query strings converted) and one error per offending field, named by its path (`items[0].price`).
 */
export function validate(schema: Schema, value: unknown, options: ValidateOptions = {}): {value: unknown; errors: FieldError[]} {
  // Lengths in code points, as JSON Schema counts them (the document's maxLength means that).
  const checked = checkSchema(schema, value, {coerce: options.coerce, refuseControl: true, codePoints: true, lossless})
  return {value: checked.value, errors: checked.problems.map(fieldError)}
}

/** `items[0].price`; the body itself is `body`. */
function pathOf(at: readonly (string | number)[]): string {
  let path = ''
  for (const step of at) path = typeof step === 'number' ? `${path}[${step}]` : path === '' ? step : `${path}.${step}`
  return path
}

function fieldError(problem: SchemaProblem): FieldError {
  const path = pathOf(problem.at)
  const field = path === '' ? 'body' : path
  const schema = problem.schema as Schema
  const message = (key: MessageKey, params: Record<string, string | number> = {}) => ({field, message: t(key, {field, ...params})})
  switch (problem.keyword) {
    case 'type': {
      const expected = (problem.expected as string[]).filter((type) => type !== 'null')
      const key: MessageKey =
        expected.length === 1 && expected[0] === 'integer'
          ? problem.value instanceof NumberToken
            ? 'sandbox.validation.notExact'
            : 'sandbox.validation.integer'
          : expected.length === 1 && expected[0] === 'object' && path === ''
            ? 'sandbox.validation.bodyObject'
            : 'sandbox.validation.type'
      return message(key, {type: expected.join(' or '), got: show(problem.value)})
    }
    case 'enum':
      return message('sandbox.validation.enum', {values: (problem.expected as unknown[]).join(', '), got: show(problem.value)})
    case 'minimum':
      return message('sandbox.validation.minimum', {minimum: problem.expected as number, got: show(problem.value)})
    case 'maximum':
      return message('sandbox.validation.maximum', {maximum: problem.expected as number, got: show(problem.value)})
    case 'control':
      return message('sandbox.validation.control')
    case 'minLength':
      return problem.expected === 1 ? message('sandbox.validation.empty') : message('sandbox.validation.minLength', {minLength: problem.expected as number})
    case 'maxLength':
      return message('sandbox.validation.maxLength', {maxLength: problem.expected as number})
    case 'pattern':
      return message(schema['x-pattern-message'] ?? 'sandbox.validation.pattern', {got: show(problem.value)})
    case 'format':
      return message('sandbox.validation.format', {format: String(problem.expected), got: show(problem.value)})
    case 'minItems':
      return message('sandbox.validation.minItems', {minItems: problem.expected as number})
    case 'maxItems':
      return message('sandbox.validation.maxItems', {maxItems: problem.expected as number})
    case 'required':
      return message('sandbox.validation.required')
    case 'additionalProperties': {
      const name = String(problem.expected)
      const refusedFields = schema['x-refused']
      const refused = refusedFields && Object.hasOwn(refusedFields, name) ? refusedFields[name] : undefined
      return refused ? message(refused) : message('sandbox.validation.unknownField', {known: Object.keys(schema.properties ?? {}).join(', ')})
    }
  }
}
