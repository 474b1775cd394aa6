/**
 * Cameroon wallet numbers on the wire (docs/service.md, "Payments (collections)").
 *
 * The API accepts 9 national digits, `237XXXXXXXXX` or `+237 …`, spaces allowed anywhere between
 * digits, and stores and returns `237XXXXXXXXX`. Numbers are portable, so the server refuses no
 * prefix; a number that is not a Cameroon number (national numbers start with 2 or 6) is refused.
 * The CLI accepts more layouts on input (`src/lib/payments/phone.ts`) and sends this wire form.
 *
 * The prefix table says which network a number was issued by: a prefix only suggests the
 * operator (the CLI infers and warns), and Nexttel and Camtel numbers are not collectable.
 */
export const COUNTRY_CODE = '237'

export const PHONE_PATTERN = '^ *(\\+ *)?(2 *3 *7 *)?[26]( *[0-9]){8} *$'

const phoneRegex = new RegExp(PHONE_PATTERN)

/** `237XXXXXXXXX`, or undefined when `input` is not an accepted wire form. */
export function normalisePhone(input: string): string | undefined {
  if (!phoneRegex.test(input)) return undefined
  const digits = input.replace(/\D/g, '')
  if (digits.length === 9) return `${COUNTRY_CODE}${digits}`
  return digits.length === 12 && digits.startsWith(COUNTRY_CODE) ? digits : undefined
}

export type Network = 'MTN' | 'ORANGE' | 'Nexttel' | 'Camtel'

/** Inclusive ranges of three-digit national prefixes, from libphonenumber's carrier data. */
const PREFIX_TABLE: ReadonlyArray<readonly [from: number, to: number, network: Network]> = [
  [650, 654, 'MTN'],
  [670, 679, 'MTN'],
  [680, 683, 'MTN'],
  [655, 659, 'ORANGE'],
  [690, 699, 'ORANGE'],
  [686, 689, 'ORANGE'],
  [640, 642, 'ORANGE'],
  [660, 669, 'Nexttel'],
  [684, 685, 'Nexttel'],
  [620, 629, 'Camtel'],
  [200, 299, 'Camtel'], // 242–243 in the carrier data; every 2… number is a Camtel line
]

/** The network of a three-digit national prefix (`670` → MTN), or undefined when unknown. */
export function networkOfPrefix(prefix: string): Network | undefined {
  const value = Number(prefix)
  return PREFIX_TABLE.find(([from, to]) => value >= from && value <= to)?.[2]
}
