/**
 * Cameroon phone numbers, normalised to the form the service stores and returns: `237XXXXXXXXX`.
 *
 * Accepted: the 9 national digits (`670000001`), with the country code (`237670000001`,
 * `+237670000001`, `00237670000001`), in any layout of spaces (including no-break ones), dots,
 * dashes and parentheses: `+237 6 70 00 00 01`, `(+237) 670-00-00-01`, `6.70.00.00.01`.
 * The national number has 9 digits and starts with 6 (mobile) or 2 (fixed). Cameroon has no
 * trunk prefix, so `0670000001` is refused, as are other countries, letters and wrong lengths.
 * Idempotent: a normalised number normalises to itself.
 */
import {InputError} from '../errors.js'
import {t, type MessageKey} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import {COUNTRY_CODE} from '../../contract/phone.js'

export {COUNTRY_CODE}


/** Layout characters people put in numbers: whitespace, dots, dashes of any kind, parentheses. */
const LAYOUT = /[\s.\-\u2010-\u2015\u2212()]/g
const NATIONAL = /^[62]\d{8}$/

/** The number as `237XXXXXXXXX`, or an InputError (exit 2) naming `field` with the accepted forms. */
export function normalisePhone(input: string, field = 'phone'): string {
  const fail = (key: MessageKey): never => {
    throw new InputError(t(key, {field, input: quoteInput(input)}), {field})
  }
  const text = typeof input === 'string' ? input.trim() : ''
  if (text === '') fail('domain.phone.missing')

  const compact = text.replace(LAYOUT, '')
  const match = /^(\+|00)?(\d+)$/.exec(compact)
  if (!match) return fail('domain.phone.invalid')
  const [, international, digits] = match as unknown as [string, string | undefined, string]

  let national: string
  if (international) {
    if (!digits.startsWith(COUNTRY_CODE)) return fail('domain.phone.foreign')
    national = digits.slice(COUNTRY_CODE.length)
  } else if (digits.length === 9) {
    national = digits
  } else if (digits.length === 12 && digits.startsWith(COUNTRY_CODE)) {
    national = digits.slice(COUNTRY_CODE.length)
  } else {
    return fail('domain.phone.invalid')
  }
  if (!NATIONAL.test(national)) return fail('domain.phone.invalid')
  return COUNTRY_CODE + national
}

/** The 9 national digits of a normalised number (`237670000001` → `670000001`). */
export function nationalDigits(phone: string): string {
  return phone.startsWith(COUNTRY_CODE) && phone.length === 12 ? phone.slice(COUNTRY_CODE.length) : phone
}
