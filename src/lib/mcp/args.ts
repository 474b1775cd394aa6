/**
 * Reading a tool's arguments. The JSON Schema a tool publishes tells the assistant what to send;
 * the MCP client does not enforce it, so every argument is read here, and every value then goes
 * through the same parser the CLI's flag goes through (amount.ts, phone.ts, operator.ts,
 * invoices/, time/): one set of rules for a person and an assistant. Any refusal is an InputError
 * whose `field` is the tool's argument name, thrown before any request. The shape (an object of
 * the listed names, each of its type) is checked by the contract's one validator
 * (src/contract/json-schema.ts); the sentences are the MCP catalogue's.
 */
import {checkSchema, type SchemaType} from '../../contract/json-schema.js'
import {InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'

export type Args = Record<string, unknown>

/** A refusal that already names the tool argument at fault (not re-labelled again). */
export class ArgumentError extends InputError {}

/** The arguments as an object with only the names the tool's schema lists. */
export function readArgs(raw: unknown, tool: string, allowed: readonly string[]): Args {
  if (raw === undefined || raw === null) return {}
  const shape = {type: 'object', additionalProperties: false, properties: Object.fromEntries(allowed.map((name) => [name, {}]))} as const
  const problem = checkSchema(shape, raw).problems[0]
  if (problem?.keyword === 'type') throw new ArgumentError(t('mcp.error.notObject'))
  if (problem?.keyword === 'additionalProperties') {
    const name = String(problem.expected)
    throw new ArgumentError(t('mcp.error.unknownArgument', {name: quoteInput(name, 40), tool, allowed: allowed.join(', ') || '-'}), {field: name})
  }
  return raw as Args
}

/** The value is of the schema type `type`. */
function is(value: unknown, type: SchemaType): boolean {
  return checkSchema({type}, value).problems.length === 0
}

export function optionalString(args: Args, name: string): string | undefined {
  const value = args[name]
  if (value === undefined || value === null) return undefined
  if (!is(value, 'string')) throw new ArgumentError(t('mcp.error.string', {name}), {field: name})
  return value as string
}

export function requiredString(args: Args, name: string): string {
  const value = optionalString(args, name)
  if (value === undefined) throw new ArgumentError(t('mcp.error.missing', {name}), {field: name})
  return value
}

export function optionalBoolean(args: Args, name: string): boolean | undefined {
  const value = args[name]
  if (value === undefined || value === null) return undefined
  if (!is(value, 'boolean')) throw new ArgumentError(t('mcp.error.boolean', {name}), {field: name})
  return value as boolean
}

export function optionalInteger(args: Args, name: string): number | undefined {
  const value = args[name]
  if (value === undefined || value === null) return undefined
  if (!is(value, 'integer') || !Number.isSafeInteger(value)) throw new ArgumentError(t('mcp.error.integer', {name}), {field: name})
  return value as number
}

/**
 * A whole-XAF value that the schema lets be a number (5000) or a string as a person writes it
 * ("5 000", "5,000", "5000 XAF"): either way it is read as text by the CLI's parser, so 50.5,
 * "50.5" and 1e21 are refused exactly as `--amount 50.5` is.
 */
export function xafText(args: Args, name: string): string | undefined {
  const value = args[name]
  if (value === undefined || value === null) return undefined
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'NaN'
  if (typeof value !== 'string') throw new ArgumentError(t('mcp.error.xaf', {name}), {field: name})
  return value
}

export function optionalChoice<T extends string>(args: Args, name: string, choices: readonly T[]): T | undefined {
  const value = optionalString(args, name)
  if (value === undefined) return undefined
  const upper = value.trim().toUpperCase()
  const found = choices.find((choice) => choice.toUpperCase() === upper)
  if (!found) throw new ArgumentError(t('mcp.error.choice', {name, value: quoteInput(value, 40), allowed: choices.join(', ')}), {field: name})
  return found
}

/**
 * Runs a CLI parser on a tool argument: its refusal keeps the CLI's sentence (what is accepted)
 * and is re-labelled with the argument's name, which is what the assistant has to fix.
 */
export function asArgument<T>(name: string, parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    throw relabel(error, name)
  }
}

/**
 * The CLI's sentence as the tool's: each `--flag` it names becomes the tool's argument (by
 * `fields`, else the flag with underscores: `--to-email` is `to_email`), since an assistant has
 * arguments to fix, not flags.
 */
export function argumentWords(text: string, fields: Record<string, string> = {}): string {
  return text.replace(/(?<![\w-])--([a-z][a-z0-9-]*)/g, (_, flag: string) => {
    const argument = Object.hasOwn(fields, flag) ? fields[flag] : flag.replaceAll('-', '_')
    // A sentence about one of a list ("--item number 2") speaks of one item, not of `items`.
    return argument === `${flag}s` ? flag : argument
  })
}

/** An input error from the CLI's rules, re-labelled with the tool argument at fault. */
export function relabel(error: unknown, name: string, fields: Record<string, string> = {}): unknown {
  // Input refused before sending: an InputError, or a usage error of a flag's own check (--limit).
  const refused = error instanceof InputError || (error instanceof SvcError && error.status === undefined && error.code === 'invalid_input')
  if (!refused || error instanceof ArgumentError) return error
  const words = {...fields, ...(error.field ? {[error.field]: name} : {})}
  return new ArgumentError(t('mcp.error.input', {field: name, message: argumentWords(error.message, words)}), {
    field: name,
    hint: error.hint === undefined ? undefined : argumentWords(error.hint, words),
    code: error.code,
  })
}

/** An InputError's field, as this tool names it (the CLI's flag names mapped to the arguments). */
export function relabelField(error: unknown, fields: Record<string, string>): unknown {
  if (!(error instanceof SvcError) || error instanceof ArgumentError || !error.field) return error
  return relabel(error, fields[error.field] ?? error.field, fields)
}
