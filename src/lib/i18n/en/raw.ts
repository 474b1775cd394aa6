// Messages of `svc api` and `svc openapi`. Keys start with 'raw.'.
export const raw = {
  'raw.method': 'Unknown method "{method}": use one of {accepted}.',
  'raw.absolute': 'Give a path such as /v1/payments, not a full URL: the base URL comes from the profile or --base-url.',
  'raw.field': 'Invalid --field "{field}": write key=value.',
  'raw.file': 'Cannot read {path}: {reason}',
  'raw.json': 'The request body is not valid JSON: {reason}',
  'raw.dataAndField': 'Use either --data or --field, not both.',
  'raw.live': 'send {method} {path} (a raw request that may move money or reach customers)',
  'raw.ops.method': 'METHOD',
  'raw.ops.path': 'PATH',
  'raw.ops.operation': 'OPERATION',
  'raw.ops.summary': 'SUMMARY',
} as const
