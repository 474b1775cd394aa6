/**
 * Cameroon wallet numbers as the API accepts them: 9 national digits, `237XXXXXXXXX` or
 * `+237 …`, spaces allowed anywhere between digits; stored and returned as `237XXXXXXXXX`.
 * Numbers are portable, so no prefix is refused here; a number that is not a Cameroon number
 * (national numbers start with 2 or 6) is.
 */
export const PHONE_PATTERN = '^ *(\\+ *)?(2 *3 *7 *)?[26]( *[0-9]){8} *$'

const phoneRegex = new RegExp(PHONE_PATTERN)

/** `237XXXXXXXXX`, or undefined when `input` is not an accepted form. */
export function normalisePhone(input: string): string | undefined {
  if (!phoneRegex.test(input)) return undefined
  const digits = input.replace(/\D/g, '')
  if (digits.length === 9) return `237${digits}`
  return digits.length === 12 && digits.startsWith('237') ? digits : undefined
}
