// Messages of the api section: the HTTP client, its errors, retries, pacing and operation
// discovery. Keys start with 'api.'.
export const api = {
  'api.error.nonJson': 'The service answered {status} {reason} with a body that is not a JSON error ({contentType}): "{excerpt}"',
  'api.error.nonJsonEmpty': 'The service answered {status} {reason} with an empty body.',
  'api.error.badJson':
    'The service answered {status} {reason} to {method} {url} but its body is not valid JSON ({contentType}): "{excerpt}". The outcome may be unknown.',
  'api.error.timeout':
    '{method} {url} got no complete answer within {seconds} s.',
  'api.error.network':
    '{method} {url} failed: {reason}.',
  'api.error.notConnected': 'Could not connect to {url} ({code}): nothing was sent.',
  'api.error.reset': 'the connection was closed before the answer was complete ({code})',
  'api.error.aborted': '{method} {url} was interrupted. The outcome may be unknown.',
  'api.error.tooManyRedirects': '{method} {url} was redirected more than {max} times.',
  'api.error.badUrl': 'Invalid request address "{url}".',
  'api.error.unrecognisedList': 'The service answered a list in an unrecognised shape (keys: {keys}).',
  'api.hint.notFound': 'Check the id: nothing has it in this environment (an id made with a sandbox key, `…_test_…`, exists only in the sandbox). `svc pay list` and `svc invoice list` show what exists.',
  'api.hint.unknownPath': 'The service has no path {path}: `svc openapi --operations` lists the paths it has.',
  'api.hint.auth': 'Check the API key (X-API-Key) and that it belongs to the environment of the data addressed.',
  'api.hint.rateLimited': 'Rate limited by the service: wait {seconds} s and try again.',
  'api.hint.rateLimitedNoDelay': 'Rate limited by the service: wait a little and try again.',
  'api.hint.unreachable': "Check the base URL (--base-url, SVC_BASE_URL), your network and any proxy (HTTPS_PROXY, NO_PROXY); then run the command again.",
  'api.hint.unknownOutcome': 'The outcome may be unknown: the request may still have been processed. Check whether it took effect before repeating it.',
  'api.hint.safeRetry':
    'The service may have acted. This request used Idempotency-Key: {key}. Retry only with that key, which replays the first answer instead of acting twice: `{command}`',
  'api.hint.requestId': 'Request id: {requestId}',
  'api.trace.request': '> {method} {url}{attempt}',
  'api.trace.response': '< {status} {reason} ({ms} ms, {bytes} bytes)',
  'api.trace.failed': '< failed after {ms} ms: {reason}',
  'api.trace.retry': '* retry {n}/{max} in {delay} ms after {reason}',
  'api.wait.pacing': 'Rate limit: waiting {seconds} s before the next request (the service allows so many requests a minute; SVC_RATE_LIMIT sets the pace)…',
  'api.wait.retry': 'The service asked to slow down or failed for a moment: retrying in {seconds} s…',
  'api.trace.noRetry': '* not retried: {reason}',
  'api.trace.pacing': '* pacing: waited {delay} ms to stay under the rate limit',
  'api.trace.redirect': '* following redirect to {url}',
  'api.trace.discovery': '* operations from {source}{detail}',
  'api.trace.builtInDescription': "svc's built-in description",

  // waits before a retry, by what caused them (a 429, another status)
  'api.wait.retry429': 'The service asked to slow down (429): retrying in {seconds} s…',
  'api.wait.retryStatus': 'The service answered {status}: retrying in {seconds} s…',
} as const
