/**
 * The spec's sandbox test numbers (docs/service.md, "Sandbox test numbers"). A number is a test
 * number only with its own operator: 237650000001 with MTN is "any other number".
 * Shared by the CLI (inference, `svc sandbox numbers`) and the local sandbox (outcomes).
 */
export type Operator = 'MTN' | 'ORANGE'
export const OPERATORS: readonly Operator[] = ['MTN', 'ORANGE']

export interface TestNumber {
  phone: string
  operator: Operator
  outcome: 'SUCCESS' | 'FAILED'
}

export const TEST_NUMBERS: readonly TestNumber[] = [
  {phone: '237670000001', operator: 'MTN', outcome: 'SUCCESS'},
  {phone: '237670000002', operator: 'MTN', outcome: 'SUCCESS'},
  {phone: '237680000001', operator: 'MTN', outcome: 'SUCCESS'},
  {phone: '237670000099', operator: 'MTN', outcome: 'FAILED'},
  {phone: '237680000099', operator: 'MTN', outcome: 'FAILED'},
  {phone: '237650000001', operator: 'ORANGE', outcome: 'SUCCESS'},
  {phone: '237650000002', operator: 'ORANGE', outcome: 'SUCCESS'},
  {phone: '237690000001', operator: 'ORANGE', outcome: 'SUCCESS'},
  {phone: '237650000099', operator: 'ORANGE', outcome: 'FAILED'},
  {phone: '237690000099', operator: 'ORANGE', outcome: 'FAILED'},
]

/** The test-number row for this normalised number, whatever the operator given. */
export function findTestNumber(phone: string): TestNumber | undefined {
  return TEST_NUMBERS.find((row) => row.phone === phone)
}

/** The fixed outcome of a sandbox payment, or undefined when it resolves randomly. */
export function testOutcome(phone: string, operator: Operator): 'SUCCESS' | 'FAILED' | undefined {
  const row = findTestNumber(phone)
  return row && row.operator === operator ? row.outcome : undefined
}
