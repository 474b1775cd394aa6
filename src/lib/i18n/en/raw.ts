// Messages of `svc api` and `svc openapi`. Keys start with 'raw.'.
export const raw = {
  'raw.method': 'Unknown method "{method}": use one of {accepted}.',
  'raw.absolute': 'Give a path such as /v1/payments, not a full URL: the base URL comes from the profile or --base-url.',
  'raw.field': 'Invalid {flag} "{field}": write key=value.',
  'raw.file': 'Cannot read {path} ({flag}): {reason}',
  'raw.json': 'The request body is not valid JSON: {reason}',
  'raw.dataAndField': 'Use either --data or --field, not both.',
  'raw.live': 'send {method} {path} (a raw request that may move money or reach customers)',
  'raw.ops.method': 'METHOD',
  'raw.ops.path': 'PATH',
  'raw.ops.operation': 'OPERATION',
  'raw.ops.summary': 'SUMMARY',
  // svc api as gh api: PATH alone, -X, -H, --input, --paginate.
  'raw.noFile': 'no such file.',
  'raw.methodTwice': 'The method is given twice ({arg} and -X {flag}): give it once.',
  'raw.dataAndInput': 'Use either --data or --input, not both.',
  'raw.paginateGet': '--paginate follows the pages of a list: it needs GET, not {method}.',
  'raw.fieldStdin': '-F key=@- reads standard input: give it for one field at most, and not with --input - or -d -.',
} as const
