/**
 * Flag parsing for `svc webhooks listen`: where each event goes (`--forward-to URL`,
 * `--forward-to TYPE=URL`, repeatable), which events (`--events a,b`) and extra headers
 * (`-H "K: V"`). Every error is an InputError naming the flag at fault.
 */
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {EVENT_TYPES, type EventType, isEventType} from '../../contract/events.js'

export interface ForwardRoutes {
  /** Where events of a type without its own route go; undefined: only the typed routes. */
  defaultUrl?: string
  byType: Partial<Record<EventType, string>>
}

export interface ListenRouting {
  routes: ForwardRoutes
  /** Only these types are forwarded; undefined: all. */
  events?: EventType[]
  headers: Record<string, string>
}

export const FORWARD_TO_FLAG = '--forward-to'
export const EVENTS_FLAG = '--events'
export const HEADER_FLAG = '-H'

/** Headers the forwarder sets itself: a user value would break the signature or the framing. */
const RESERVED_HEADERS = new Set([
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-length',
  'transfer-encoding',
  'connection',
  'host',
  'keep-alive',
  'upgrade',
])

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** `http://…` or `https://…`; a bare `localhost:3000/hook` is taken as http, as `stripe listen` does. */
export function parseForwardUrl(raw: string, flag: string = FORWARD_TO_FLAG): string {
  const value = raw.trim()
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new InputError(t('webhooks.route.badUrl', {flag, value: raw}), {field: flag})
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new InputError(t('webhooks.route.badUrl', {flag, value: raw}), {field: flag})
  }
  return url.toString()
}

/**
 * Parse the repeated `--forward-to` values. `TYPE=URL` when the part before the first `=` has no
 * `/` or `:` (a URL's query string may hold `=` too); anything else is the default URL.
 */
export function parseForwardTo(values: readonly string[], flag: string = FORWARD_TO_FLAG): ForwardRoutes {
  const routes: ForwardRoutes = {byType: {}}
  for (const raw of values) {
    const eq = raw.indexOf('=')
    const head = eq > 0 ? raw.slice(0, eq).trim() : ''
    if (eq > 0 && !/[/:]/.test(head)) {
      if (!isEventType(head)) {
        throw new InputError(t('webhooks.route.unknownType', {flag, type: head, types: EVENT_TYPES.join(', ')}), {
          field: flag,
        })
      }
      if (routes.byType[head]) {
        throw new InputError(t('webhooks.route.duplicateType', {flag, type: head}), {field: flag})
      }
      routes.byType[head] = parseForwardUrl(raw.slice(eq + 1), flag)
      continue
    }
    if (routes.defaultUrl) throw new InputError(t('webhooks.route.twoDefaults', {flag}), {field: flag})
    routes.defaultUrl = parseForwardUrl(raw, flag)
  }
  if (!routes.defaultUrl && Object.keys(routes.byType).length === 0) {
    throw new InputError(t('webhooks.route.none', {flag}), {field: flag})
  }
  return routes
}

/** `--events payment.success,payment.failed` (repeatable, comma-separated); empty → all. */
export function parseEventsFilter(
  values: string | readonly string[] | undefined,
  flag: string = EVENTS_FLAG,
): EventType[] | undefined {
  if (values === undefined) return undefined
  const list = (typeof values === 'string' ? [values] : values)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0)
  if (list.length === 0) return undefined
  const out: EventType[] = []
  for (const value of list) {
    if (!isEventType(value)) {
      throw new InputError(t('webhooks.route.unknownType', {flag, type: value, types: EVENT_TYPES.join(', ')}), {
        field: flag,
      })
    }
    if (!out.includes(value)) out.push(value)
  }
  return out
}

/** One `Name: value` header line: name case-insensitive (returned lower-case), value trimmed. */
export function parseHeaderLine(raw: string, flag: string = HEADER_FLAG): [name: string, value: string] {
  const colon = raw.indexOf(':')
  const name = colon > 0 ? raw.slice(0, colon).trim() : ''
  if (colon <= 0 || !TOKEN.test(name)) {
    throw new InputError(t('webhooks.header.malformed', {flag, value: raw}), {field: flag})
  }
  const value = raw.slice(colon + 1).trim()
  if (/[\r\n\0]/.test(value)) throw new InputError(t('webhooks.header.malformed', {flag, value: raw}), {field: flag})
  return [name.toLowerCase(), value]
}

/** Extra headers for forwarded requests (`-H "K: V"`, repeatable); the signature headers are refused. */
export function parseExtraHeaders(values: readonly string[], flag: string = HEADER_FLAG): Record<string, string> {
  // A Map, not an object: a header named `constructor` or `__proto__` is a header like any other.
  const headers = new Map<string, string>()
  for (const raw of values) {
    const [name, value] = parseHeaderLine(raw, flag)
    if (RESERVED_HEADERS.has(name)) {
      throw new InputError(t('webhooks.header.reserved', {flag, name}), {field: flag})
    }
    const before = headers.get(name)
    headers.set(name, before === undefined ? value : `${before}, ${value}`)
  }
  return Object.fromEntries(headers)
}

/** All the routing flags of `svc webhooks listen` at once. */
export function parseListenRouting(flags: {
  forwardTo: readonly string[]
  events?: string | readonly string[]
  headers?: readonly string[]
}): ListenRouting {
  const routes = parseForwardTo(flags.forwardTo)
  const events = parseEventsFilter(flags.events)
  const headers = parseExtraHeaders(flags.headers ?? [])
  return {routes, events, headers}
}

/** Where an event of this type goes, or undefined when no route takes it. */
export function routeFor(routes: ForwardRoutes, type: string): string | undefined {
  return (isEventType(type) ? routes.byType[type] : undefined) ?? routes.defaultUrl
}
