/**
 * Which operator carries a collection (docs/service.md, "Payments (collections)").
 *
 * Prefixes (first three national digits): MTN 650–654, 67x, 680–683; ORANGE 655–659, 69x,
 * 686–689, 640–642; Nexttel 66x, 684–685 and Camtel 62x, 242–243 are not collectable. Every
 * other number starting with 2 is a Camtel fixed line and is refused as Camtel too.
 *
 * - `inferOperator`: the spec's sandbox test numbers first, from the spec's own table
 *   (237650000001 is ORANGE although 650 is an MTN prefix), then the prefix table. An unknown
 *   prefix cannot be inferred: refused, asking for --operator.
 * - `resolveOperator`: `given` is checked case-insensitively (MTN or ORANGE). Numbers are
 *   portable, so a given operator that contradicts the prefix, or a test number given with the
 *   other operator (which settles randomly in the sandbox), is a warning, not an error; with an
 *   unknown prefix the given operator is used, with a warning. Nexttel and Camtel numbers are
 *   always refused.
 */
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import {nationalDigits, normalisePhone} from './phone.js'
import {networkOfPrefix, type Network} from '../../contract/phone.js'
import {findTestNumber, OPERATORS, type Operator} from '../../contract/test-numbers.js'

export type {Network} from '../../contract/phone.js'

export interface PrefixInfo {
  /** The first three national digits, e.g. `670`. */
  prefix: string
  /** The network the prefix belongs to, or undefined when it is not in the table. */
  network?: Network
}

export interface InferredOperator {
  operator: Operator
  source: 'test-number' | 'prefix'
}

export interface ResolvedOperator {
  operator: Operator
  source: 'given' | 'test-number' | 'prefix'
  /** Sentences from the catalogue, to print on stderr. */
  warnings: string[]
}

/** The prefix of a number (any accepted form) and the network it belongs to. */
export function networkOf(phone: string, field = 'phone'): PrefixInfo {
  const prefix = nationalDigits(normalisePhone(phone, field)).slice(0, 3)
  const network = networkOfPrefix(prefix)
  return network ? {prefix, network} : {prefix}
}

/** The operator of a number: the spec's test-number table first, then the prefix table. */
export function inferOperator(phone: string, field = 'phone'): InferredOperator {
  const normalised = normalisePhone(phone, field)
  const info = refuseUncollectable(normalised, field)
  const test = findTestNumber(normalised)
  if (test) return {operator: test.operator, source: 'test-number'}
  if (info.network === 'MTN' || info.network === 'ORANGE') return {operator: info.network, source: 'prefix'}
  throw new InputError(t('domain.operator.unknownPrefix', {field, phone: normalised, prefix: info.prefix}), {field})
}

/** A `--operator` value, case-insensitive: `mtn` → `MTN`. */
export function parseOperator(input: string, field = 'operator'): Operator {
  const upper = typeof input === 'string' ? input.trim().toUpperCase() : ''
  const found = OPERATORS.find((op) => op === upper)
  if (!found) throw new InputError(t('domain.operator.invalid', {field, input: quoteInput(input)}), {field})
  return found
}

/**
 * The operator to send: `given` when there is one (checked, warned about when it contradicts the
 * number), else inferred. Nexttel and Camtel numbers are refused either way.
 */
export function resolveOperator(phone: string, given?: string, field = 'phone'): ResolvedOperator {
  const normalised = normalisePhone(phone, field)
  if (given === undefined) {
    return {...inferOperator(normalised, field), warnings: []}
  }
  const operator = parseOperator(given)
  const info = refuseUncollectable(normalised, field)
  const warnings: string[] = []
  const test = findTestNumber(normalised)
  if (test) {
    if (test.operator !== operator) {
      warnings.push(t('domain.operator.warn.testNumberOther', {phone: normalised, expected: test.operator, given: operator}))
    }
  } else if (info.network === undefined) {
    warnings.push(t('domain.operator.warn.unknownPrefix', {phone: normalised, prefix: info.prefix, given: operator}))
  } else if (info.network !== operator) {
    warnings.push(
      t('domain.operator.warn.contradictsPrefix', {phone: normalised, expected: info.network, prefix: info.prefix, given: operator}),
    )
  }
  return {operator, source: 'given', warnings}
}

function refuseUncollectable(normalised: string, field: string): PrefixInfo {
  const info = networkOf(normalised, field)
  if (info.network === 'Nexttel' || info.network === 'Camtel') {
    throw new InputError(
      t('domain.operator.unsupportedNetwork', {field, phone: normalised, network: info.network, prefix: info.prefix}),
      {field},
    )
  }
  return info
}
