// Messages of the `svc sandbox …` commands (the CLI side of the local sandbox). Keys start with 'local.'.
export const local = {
  'local.numbers.operator': 'OPERATOR',
  'local.numbers.number': 'NUMBER',
  'local.numbers.national': 'NATIONAL',
  'local.numbers.outcome': 'OUTCOME',
  'local.numbers.footer': 'Any other number resolves randomly to SUCCESS or FAILED (reproducible with --seed). A test number given with the other operator counts as any other number.',
} as const
