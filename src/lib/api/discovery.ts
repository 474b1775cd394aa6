/**
 * Operation discovery. The spec leaves some paths (invoice read, publish, cancel, PDF) and the list
 * envelopes "not shown"; the service's own `GET /v1/openapi.json` is the authority for them. It is
 * read once per base URL and cached on disk (TTL 1 h); when it is missing, unreachable, unreadable
 * or silent on an operation, svc's choices (docs/service.md) are used instead, and the command
 * carries on. What a description holds: service-description.ts; how a document is read:
 * openapi-reading.ts; here, fetching and caching it, and reading list envelopes.
 */
import {SvcError, ExitCode} from '../errors.js'
import {t} from '../i18n/index.js'
import type {ApiClient} from './client.js'
import {HAS_MORE_KEYS, ITEM_KEYS, TOTAL_KEYS, describeFromOpenApi, isRecord} from './openapi-reading.js'
import type {ListShape, ServiceDescription} from './service-description.js'
import {systemClock, type Clock} from '../../contract/clock.js'
import {ORIGIN_HEADER} from '../../contract/sandbox-inspector.js'

export {describeFromOpenApi} from './openapi-reading.js'
export {FALLBACK_FIELDS, FALLBACK_LISTS, FALLBACK_OPERATIONS} from './service-description.js'
export type {ListName, ListShape, Operation, ResponseFields, ServiceDescription} from './service-description.js'

export const DEFAULT_DISCOVERY_TTL_MS = 60 * 60 * 1000
/** A service without a readable description is asked again sooner. */
const NEGATIVE_TTL_MS = 5 * 60 * 1000
const OPENAPI_PATH = '/v1/openapi.json'

/**
 * Fill a path template: `fillPath('/v1/invoices/{invoiceId}/pdf', 'inv_1')` (the one parameter,
 * whatever its name) or with named values. Values are URL-encoded.
 */
export function fillPath(template: string, values: string | Record<string, string>): string {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)
  return template.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    let value: string | undefined
    if (typeof values === 'string') value = names.length === 1 ? values : undefined
    else value = values[name] ?? (names.length === 1 && Object.keys(values).length === 1 ? Object.values(values)[0] : undefined)
    if (value === undefined) throw new Error(`fillPath: no value for {${name}} in ${template}`)
    return encodeURIComponent(value)
  })
}

// ---------------------------------------------------------------------------------------------
// Fetching and caching

export interface DiscoveryOptions {
  /** Where cache files go (one per base URL); no cache when absent. */
  cacheDir?: string
  ttlMs?: number
  /** What "fresh" is measured by (default: the system clock). */
  clock?: Clock
  /** Ignore a fresh cache and fetch again. */
  refresh?: boolean
  /** Deadline of the fetch (short: discovery must not hold a command up). Default 5 s. */
  timeoutMs?: number
  /** The --verbose sink: one line saying where the operations came from. */
  trace?: (line: string) => void
}

interface CacheFile {
  baseUrl: string
  fetchedAt: string
  /** null: the service had no readable description at that time. */
  document: unknown
  reason?: string
}

export async function cacheFileFor(cacheDir: string, baseUrl: string): Promise<string> {
  const {createHash} = await import('node:crypto')
  const {join} = await import('node:path')
  const hash = createHash('sha256').update(normaliseBaseUrl(baseUrl)).digest('hex').slice(0, 24)
  return join(cacheDir, `openapi-${hash}.json`)
}

function normaliseBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').toLowerCase()
}

async function readCache(file: string, baseUrl: string): Promise<CacheFile | undefined> {
  const {readFile} = await import('node:fs/promises')
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'))
    if (!isRecord(parsed) || typeof parsed.fetchedAt !== 'string' || !('document' in parsed)) return undefined
    if (typeof parsed.baseUrl !== 'string' || normaliseBaseUrl(parsed.baseUrl) !== normaliseBaseUrl(baseUrl)) return undefined
    if (Number.isNaN(Date.parse(parsed.fetchedAt))) return undefined
    return parsed as unknown as CacheFile
  } catch {
    // Missing or corrupt: as if there were none.
    return undefined
  }
}

/** Writes of this process so far: with the pid, a temporary name no other write shares. */
let writes = 0

async function writeCache(file: string, content: CacheFile): Promise<void> {
  const {mkdir, writeFile, rename} = await import('node:fs/promises')
  const {dirname} = await import('node:path')
  try {
    await mkdir(dirname(file), {recursive: true, mode: 0o700})
    const temporary = `${file}.${process.pid}.${++writes}.tmp`
    await writeFile(temporary, JSON.stringify(content), {mode: 0o600})
    await rename(temporary, file)
  } catch {
    // A cache that cannot be written only costs a fetch next time.
  }
}

export interface OpenApiDocument {
  /** The document; undefined when the service has none readable. */
  document: unknown
  source: 'network' | 'cache' | 'fallback'
  fetchedAt?: string
  reason?: string
}

/** The service's OpenAPI document, from the cache when fresh. Never throws for a missing document. */
export async function loadOpenApiDocument(client: ApiClient, options: DiscoveryOptions = {}): Promise<OpenApiDocument> {
  const now = () => (options.clock ?? systemClock).now()
  const ttlMs = options.ttlMs ?? DEFAULT_DISCOVERY_TTL_MS
  const file = options.cacheDir ? await cacheFileFor(options.cacheDir, client.baseUrl) : undefined
  if (file && !options.refresh) {
    const cached = await readCache(file, client.baseUrl)
    if (cached) {
      const age = now() - Date.parse(cached.fetchedAt)
      const ttl = cached.document === null ? Math.min(ttlMs, NEGATIVE_TTL_MS) : ttlMs
      if (age >= 0 && age < ttl) {
        return cached.document === null
          ? {document: undefined, source: 'fallback', fetchedAt: cached.fetchedAt, reason: cached.reason}
          : {document: cached.document, source: 'cache', fetchedAt: cached.fetchedAt}
      }
    }
  }
  const fetchedAt = new Date(now()).toISOString()
  let document: unknown
  try {
    const response = await client.request<unknown>({
      method: 'GET',
      path: OPENAPI_PATH,
      auth: false,
      operation: 'openapi',
      // svc's own read (a probe in the sandbox's journal), not the app's.
      headers: {[ORIGIN_HEADER]: 'probe'},
      maxRetries: 0,
      timeoutMs: options.timeoutMs ?? 5000,
    })
    document = response.data
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    // A definite answer (404, garbage) is remembered briefly; an unreachable service is not.
    const definite = error instanceof SvcError && error.status !== undefined
    if (file && definite) await writeCache(file, {baseUrl: client.baseUrl, fetchedAt, document: null, reason})
    return {document: undefined, source: 'fallback', reason}
  }
  if (!isRecord(document) || !isRecord(document.paths)) {
    const reason = 'not an OpenAPI document'
    if (file) await writeCache(file, {baseUrl: client.baseUrl, fetchedAt, document: null, reason})
    return {document: undefined, source: 'fallback', reason}
  }
  if (file) await writeCache(file, {baseUrl: client.baseUrl, fetchedAt, document})
  return {document, source: 'network', fetchedAt}
}

const memory = new Map<string, ServiceDescription>()

/**
 * The service's operations and list shapes: from its OpenAPI document (cached per base URL), any
 * gap from svc's choices. Never fails: at worst the fallback alone.
 */
export async function discoverService(client: ApiClient, options: DiscoveryOptions = {}): Promise<ServiceDescription> {
  const memoryKey = `${normaliseBaseUrl(client.baseUrl)}\u0000${options.cacheDir ?? ''}`
  const remembered = memory.get(memoryKey)
  const now = () => (options.clock ?? systemClock).now()
  const ttlMs = options.ttlMs ?? DEFAULT_DISCOVERY_TTL_MS
  if (remembered && !options.refresh && remembered.fetchedAt && now() - Date.parse(remembered.fetchedAt) < ttlMs) return remembered
  let loaded: OpenApiDocument
  try {
    loaded = await loadOpenApiDocument(client, options)
  } catch (error) {
    loaded = {document: undefined, source: 'fallback', reason: error instanceof Error ? error.message : String(error)}
  }
  const description: ServiceDescription = {
    ...describeFromOpenApi(loaded.document),
    source: loaded.source,
    fetchedAt: loaded.fetchedAt,
    fallbackReason: loaded.source === 'fallback' ? loaded.reason : undefined,
  }
  if (loaded.source !== 'fallback') memory.set(memoryKey, description)
  const detail = loaded.source === 'fallback' ? ` (${loaded.reason ?? 'no description'})` : loaded.fetchedAt ? ` (fetched ${loaded.fetchedAt})` : ''
  options.trace?.(t('api.trace.discovery', {source: loaded.source === 'fallback' ? t('api.trace.builtInDescription') : `${client.baseUrl}${OPENAPI_PATH} (${loaded.source})`, detail}))
  return description
}

/** Forget what discoverService remembered in this process (tests). */
export function clearDiscoveryMemory(): void {
  memory.clear()
}

// ---------------------------------------------------------------------------------------------
// Lists

export interface ExtractedList<T> {
  items: T[]
  total?: number
  hasMore?: boolean
}

/**
 * The items of a list answer: a bare array, or an envelope whose array is under the key the
 * description names (`hint`), else the first of `data`, `items`, `results`, `payments`,
 * `invoices`. `total` and `hasMore` when the envelope says (or implies, from page/offset).
 */
export function extractList<T = unknown>(body: unknown, hint?: ListShape | string): ExtractedList<T> {
  if (Array.isArray(body)) return {items: body as T[]}
  const shape: ListShape = typeof hint === 'string' ? {itemsKey: hint} : (hint ?? {})
  if (!isRecord(body)) {
    throw new SvcError(t('api.error.unrecognisedList', {keys: body === null ? 'null' : typeof body}), {
      exitCode: ExitCode.UNAVAILABLE,
      code: 'invalid_response',
    })
  }
  const itemsKey = [shape.itemsKey, ...ITEM_KEYS].find((k): k is string => k !== undefined && Array.isArray(body[k]))
  if (!itemsKey) {
    throw new SvcError(t('api.error.unrecognisedList', {keys: Object.keys(body).join(', ') || '(none)'}), {
      exitCode: ExitCode.UNAVAILABLE,
      code: 'invalid_response',
    })
  }
  const items = body[itemsKey] as T[]
  const numberAt = (keys: (string | undefined)[]) => {
    for (const k of keys) if (k !== undefined && typeof body[k] === 'number' && Number.isFinite(body[k])) return body[k] as number
    return undefined
  }
  const total = numberAt([shape.totalKey, ...TOTAL_KEYS])
  let hasMore: boolean | undefined
  for (const k of [shape.hasMoreKey, ...HAS_MORE_KEYS]) {
    if (k !== undefined && typeof body[k] === 'boolean') {
      hasMore = body[k] as boolean
      break
    }
  }
  if (hasMore === undefined) {
    const page = numberAt(['page'])
    const totalPages = numberAt(['total_pages', 'totalPages'])
    const offset = numberAt(['offset'])
    if (page !== undefined && totalPages !== undefined) hasMore = page < totalPages
    else if (offset !== undefined && total !== undefined) hasMore = offset + items.length < total
    else if (typeof body.next === 'string' || body.next === null) hasMore = typeof body.next === 'string' && body.next.length > 0
  }
  const out: ExtractedList<T> = {items}
  if (total !== undefined) out.total = total
  if (hasMore !== undefined) out.hasMore = hasMore
  return out
}
