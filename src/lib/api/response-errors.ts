/**
 * Turning what came back (or did not) into the CLI's errors: a non-2xx answer becomes an ApiError
 * with the service's message, code, failure_code, field errors, request id and Retry-After; any
 * body that is not the JSON error the contract promises (an HTML page from a proxy, truncated
 * JSON, an empty body) still gives a readable sentence. Network failures become NetworkError.
 */
import {ApiError, ExitCode, NetworkError, SvcError, type FieldError} from '../errors.js'
import {t} from '../i18n/index.js'
import type {HeaderBag} from './pacer.js'
import {parseRetryAfter} from './retry.js'
import {FALLBACK_OPERATIONS} from './service-description.js'

const REASONS: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content',
  301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 407: 'Proxy Authentication Required', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable',
  504: 'Gateway Timeout', 505: 'HTTP Version Not Supported',
}

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? ''
}

export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name.toLowerCase()] ?? headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** A short, single-line, tag-free excerpt of a body, for a message a person reads. */
export function cleanExcerpt(text: string, max = 160): string {
  let s = text
  if (/<[a-z!/][^>]*>/i.test(s)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(s)?.[1]
    s = s
      .replace(/<(script|style|head)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
    if (title && !s.includes(title.trim())) s = `${title} ${s}`
  }
  // Control characters (a binary body) become spaces; whitespace runs become one space.
  s = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim()
  return s.length > max ? `${s.slice(0, max - 1)}…` : s
}

export interface ResponseFacts {
  method: string
  url: string
  status: number
  headers: HeaderBag
  body: Buffer
  now: number
  redact: (text: string) => string
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined
}

function fieldErrors(value: unknown): FieldError[] | undefined {
  if (!Array.isArray(value)) return undefined
  const out: FieldError[] = []
  for (const item of value) {
    if (isRecord(item)) {
      out.push({field: String(item.field ?? item.path ?? item.name ?? ''), message: String(item.message ?? item.msg ?? '')})
    } else if (typeof item === 'string') {
      out.push({field: '', message: item})
    }
  }
  return out.length > 0 ? out : undefined
}

function contentType(headers: HeaderBag): string {
  return headerValue(headers, 'content-type')?.split(';')[0]?.trim() || 'no content type'
}

/** The ApiError for a non-2xx answer. Never throws, whatever the body. */
export function errorFromResponse(facts: ResponseFacts): ApiError {
  const {status, headers, redact} = facts
  const reason = reasonPhrase(status)
  const text = facts.body.toString('utf8')
  let parsed: unknown
  try {
    parsed = text.trim() ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  // The contract's shape is {message, code, errors?}; also read {error: "..."} and {error: {...}}.
  const envelope = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : parsed
  const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'), facts.now)
  const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000)
  let requestId = headerValue(headers, 'x-request-id')
  let message: string
  let code: string | undefined
  let failureCode: string | undefined
  let errors: FieldError[] | undefined
  if (isRecord(envelope)) {
    message =
      asString(envelope.message) ??
      asString(envelope.error) ??
      asString(envelope.detail) ??
      asString(envelope.title) ??
      t('api.error.nonJson', {status, reason, contentType: contentType(headers), excerpt: cleanExcerpt(text)})
    code = asString(envelope.code)
    failureCode = asString(envelope.failure_code)
    errors = fieldErrors(envelope.errors)
    requestId ??= asString(envelope.request_id) ?? (isRecord(parsed) ? asString(parsed.request_id) : undefined)
  } else if (text.trim() === '') {
    message = t('api.error.nonJsonEmpty', {status, reason})
  } else {
    message = t('api.error.nonJson', {status, reason, contentType: contentType(headers), excerpt: cleanExcerpt(text)})
  }
  return new ApiError(redact(message), {
    status,
    code,
    failureCode,
    requestId,
    errors: errors?.map((e) => ({field: e.field, message: redact(e.message)})),
    retryAfterSeconds,
    hint: hintFor(status, retryAfterSeconds, facts.method, facts.url),
  })
}

function hintFor(status: number, retryAfterSeconds: number | undefined, method: string, url: string): string | undefined {
  if (status === 401 || status === 403) return t('api.hint.auth')
  // The service's 404 message is English whatever the user's language: the hint says it in theirs.
  // An id is only at fault on a path that names one; elsewhere the path itself is unknown.
  if (status === 404) return namesAnId(url) ? t('api.hint.notFound') : t('api.hint.unknownPath', {path: pathOf(url)})
  if (status === 429) {
    return retryAfterSeconds === undefined ? t('api.hint.rateLimitedNoDelay') : t('api.hint.rateLimited', {seconds: retryAfterSeconds})
  }
  // A read changes nothing; a write that met a 5xx may still have happened.
  if (status >= 500 && !['GET', 'HEAD', 'OPTIONS'].includes(method)) return t('api.hint.unknownOutcome')
  return undefined
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}

/** Whether the path is one of the service's that take an id (`/v1/invoices/{invoiceId}/…`), with some id in it. */
function namesAnId(url: string): boolean {
  const segments = pathOf(url).replace(/\/+$/, '').split('/')
  return Object.values(FALLBACK_OPERATIONS).some(({path}) => {
    const template = path.split('/')
    return path.includes('{') && template.length === segments.length && template.every((part, i) => part.startsWith('{') || part === segments[i])
  })
}

/** A 2xx whose body cannot be read as promised: the operation may have happened (exit 7). */
export function invalidResponseError(facts: ResponseFacts): SvcError {
  const text = facts.body.toString('utf8')
  const message = t('api.error.badJson', {
    status: facts.status,
    reason: reasonPhrase(facts.status),
    method: facts.method,
    url: facts.url,
    contentType: contentType(facts.headers),
    excerpt: cleanExcerpt(text),
  })
  return new SvcError(facts.redact(message), {
    exitCode: ExitCode.UNAVAILABLE,
    code: 'invalid_response',
    status: facts.status,
    hint: t('api.hint.unknownOutcome'),
  })
}

export function errorCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && isRecord(current); depth++) {
    if (typeof current.code === 'string') return current.code
    current = current.cause
  }
  return undefined
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'])
const REFUSED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

/** The NetworkError for a failed attempt. `timedOut`: the attempt's own deadline fired. */
export function networkErrorFrom(
  error: unknown,
  context: {method: string; url: string; timeoutMs: number; timedOut: boolean; redact: (text: string) => string},
): NetworkError {
  const code = errorCode(error)
  const refused = code !== undefined && REFUSED_CODES.has(code)
  // Only a write that may have reached the service has an unknown outcome; a read, or a
  // connection that was never made, is a plain connectivity problem.
  const hint = context.method === 'GET' || context.method === 'HEAD' ? t('api.hint.unreachable') : t('api.hint.unknownOutcome')
  if (context.timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
    const seconds = Math.round(context.timeoutMs / 100) / 10
    return new NetworkError(context.redact(t('api.error.timeout', {method: context.method, url: context.url, seconds})), {
      code: 'timeout',
      hint,
      cause: error,
    })
  }
  if (refused) {
    // The connection was never made, so nothing left this machine: not an unknown outcome.
    return new NetworkError(context.redact(t('api.error.notConnected', {url: context.url, code})), {
      code: 'not_connected',
      hint: t('api.hint.unreachable'),
      cause: error,
    })
  }
  let reason: string
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') reason = t('api.error.reset', {code})
  else reason = error instanceof Error ? error.message || error.name : String(error)
  return new NetworkError(context.redact(t('api.error.network', {method: context.method, url: context.url, reason})), {
    code: 'network_error',
    hint,
    cause: error,
  })
}
