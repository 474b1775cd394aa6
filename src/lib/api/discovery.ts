/**
 * Operation discovery. The spec leaves some paths (invoice read, publish, cancel, PDF) and the list
 * envelopes "not shown"; the service's own `GET /v1/openapi.json` is the authority for them. It is
 * read once per base URL and cached on disk (TTL 1 h); when it is missing, unreachable, unreadable
 * or silent on an operation, the choices of service-contract.md are used instead, and the command
 * carries on.
 */
import {SvcError, ExitCode} from '../errors.js'
import {t} from '../i18n/index.js'
import type {ApiClient} from './client.js'
import type {OperationName} from './retry.js'

export interface Operation {
  method: string
  /** A path template in full, e.g. `/v1/invoices/{invoiceId}/publish`. */
  path: string
  source: 'openapi' | 'fallback'
  operationId?: string
}

export interface ListShape {
  /** The envelope key holding the array; undefined: a bare array. */
  itemsKey?: string
  totalKey?: string
  hasMoreKey?: string
}

export type ListName = 'payments' | 'invoices'

export interface ServiceDescription {
  operations: Record<OperationName, Operation>
  lists: Record<ListName, ListShape>
  /** Names of response fields the CLI reads that the spec does not show (e.g. where the PDF link is). */
  fields: ResponseFields
  /** Where the description came from: fetched now, the cache, or the built-in fallback alone. */
  source: 'network' | 'cache' | 'fallback'
  /** When the document was fetched (ISO 8601), for network and cache. */
  fetchedAt?: string
  /** Why the fallback was used, when it was. */
  fallbackReason?: string
}

export interface ResponseFields {
  /** The field of the PDF operation's answer that carries the download link. */
  pdfUrl: string
}

/** service-contract.md: `GET …/pdf` → `{ "pdf_url": "...", "expires_at": "..." }`. */
export const FALLBACK_FIELDS: Readonly<ResponseFields> = {pdfUrl: 'pdf_url'}

/** The choices of service-contract.md (and the spec's own paths). */
export const FALLBACK_OPERATIONS: Readonly<Record<OperationName, {method: string; path: string}>> = {
  'payment.create': {method: 'POST', path: '/v1/payments'},
  'payment.list': {method: 'GET', path: '/v1/payments'},
  'payment.status': {method: 'GET', path: '/v1/payments/{paymentId}/status'},
  'invoice.list': {method: 'GET', path: '/v1/invoices'},
  'invoice.create': {method: 'POST', path: '/v1/invoices'},
  'invoice.get': {method: 'GET', path: '/v1/invoices/{invoiceId}'},
  'invoice.publish': {method: 'POST', path: '/v1/invoices/{invoiceId}/publish'},
  'invoice.cancel': {method: 'POST', path: '/v1/invoices/{invoiceId}/cancel'},
  'invoice.pdf': {method: 'GET', path: '/v1/invoices/{invoiceId}/pdf'},
  'invoice.send': {method: 'POST', path: '/v1/invoices/{invoiceId}/send'},
  'files.uploadUrl': {method: 'POST', path: '/v1/files/upload-url'},
  openapi: {method: 'GET', path: '/v1/openapi.json'},
}

export const FALLBACK_LISTS: Readonly<Record<ListName, ListShape>> = {
  payments: {itemsKey: 'data', totalKey: 'total', hasMoreKey: 'has_more'},
  invoices: {itemsKey: 'data', totalKey: 'total'},
}

export const DEFAULT_DISCOVERY_TTL_MS = 60 * 60 * 1000
/** A service without a readable description is asked again sooner. */
const NEGATIVE_TTL_MS = 5 * 60 * 1000
const OPENAPI_PATH = '/v1/openapi.json'

type Json = Record<string, unknown>

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// ---------------------------------------------------------------------------------------------
// Reading an OpenAPI document

interface Candidate {
  method: string
  path: string
  operationId?: string
  /** Lower-case operationId and summary, words split. */
  text: string
  literals: string[]
  params: number
  lastLiteral: string
  endsWithParam: boolean
  /** The operation object itself. */
  operation: Json
}

const ACTION_WORDS = ['publish', 'finalize', 'finalise', 'cancel', 'void', 'pdf', 'send', 'deliver', 'status', 'upload']

interface Matcher {
  methods: string[]
  /** The resource the path must name. */
  resource: RegExp
  /** true: one path parameter or more; false: none. */
  withParam: boolean
  /** Words naming the action (in the last literal segment, the operationId or the summary). */
  keywords: string[]
  /** For plain reads and lists: the path must end on a parameter (read) or the resource (list). */
  endsWithParam?: boolean
}

const MATCHERS: Record<Exclude<OperationName, 'openapi'>, Matcher> = {
  'payment.create': {methods: ['post'], resource: /payment/, withParam: false, keywords: [], endsWithParam: false},
  'payment.list': {methods: ['get'], resource: /payment/, withParam: false, keywords: [], endsWithParam: false},
  'payment.status': {methods: ['get'], resource: /payment/, withParam: true, keywords: ['status']},
  'invoice.list': {methods: ['get'], resource: /invoice/, withParam: false, keywords: [], endsWithParam: false},
  'invoice.create': {methods: ['post'], resource: /invoice/, withParam: false, keywords: [], endsWithParam: false},
  'invoice.get': {methods: ['get'], resource: /invoice/, withParam: true, keywords: [], endsWithParam: true},
  'invoice.publish': {methods: ['post', 'put', 'patch'], resource: /invoice/, withParam: true, keywords: ['publish', 'finalize', 'finalise']},
  'invoice.cancel': {methods: ['post', 'put', 'patch', 'delete'], resource: /invoice/, withParam: true, keywords: ['cancel', 'void']},
  'invoice.pdf': {methods: ['get'], resource: /invoice/, withParam: true, keywords: ['pdf']},
  'invoice.send': {methods: ['post'], resource: /invoice/, withParam: true, keywords: ['send', 'deliver']},
  'files.uploadUrl': {methods: ['post'], resource: /file|upload/, withParam: false, keywords: ['upload']},
}

function words(text: string): string {
  // operationId `publishInvoice` / `invoices_publish` / `invoice-publish` → "publish invoice"
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .toLowerCase()
}

function candidatesOf(doc: Json): Candidate[] {
  const paths = isRecord(doc.paths) ? doc.paths : {}
  const prefix = serverPrefix(doc, Object.keys(paths))
  const out: Candidate[] = []
  for (const [rawPath, item] of Object.entries(paths)) {
    if (!isRecord(item) || !rawPath.startsWith('/')) continue
    const path = prefix + rawPath
    const segments = path.split('/').filter(Boolean)
    const isParam = (s: string) => /^\{[^}]+\}$/.test(s)
    const literals = segments.filter((s) => !isParam(s)).map((s) => s.toLowerCase())
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method]
      if (!isRecord(op)) continue
      const operationId = typeof op.operationId === 'string' ? op.operationId : undefined
      const summary = typeof op.summary === 'string' ? op.summary : ''
      out.push({
        method,
        path,
        operationId,
        text: ` ${words(`${operationId ?? ''} ${summary}`)} `,
        literals,
        params: segments.filter(isParam).length,
        lastLiteral: literals.at(-1) ?? '',
        endsWithParam: segments.length > 0 && isParam(segments.at(-1)!),
        operation: op,
      })
    }
  }
  return out
}

/** Paths are written in full (`/v1/...`); a document that puts `/v1` in `servers` is read too. */
function serverPrefix(doc: Json, paths: string[]): string {
  if (paths.some((p) => p.startsWith('/v1/') || p === '/v1')) return ''
  const servers = Array.isArray(doc.servers) ? doc.servers : []
  const first = servers.find(isRecord)
  if (!first || typeof first.url !== 'string') return ''
  let pathname: string
  try {
    pathname = new URL(first.url, 'http://placeholder.invalid').pathname
  } catch {
    return ''
  }
  return pathname.replace(/\/+$/, '')
}

function score(c: Candidate, m: Matcher): number {
  if (!m.methods.includes(c.method)) return -1
  if (!c.literals.some((l) => m.resource.test(l))) return -1
  if (m.withParam !== c.params > 0) return -1
  if (m.endsWithParam !== undefined && m.endsWithParam !== c.endsWithParam) return -1
  const lastIsResource = m.resource.test(c.lastLiteral)
  if (m.keywords.length === 0) {
    // A plain read, list or create: the last literal is the resource, not an action.
    if (!lastIsResource || ACTION_WORDS.some((w) => c.lastLiteral.includes(w))) return -1
    if (!m.withParam && c.literals.length > 2) return 1
    return 5
  }
  let s = 0
  if (m.keywords.some((k) => c.lastLiteral.includes(k))) s += 10
  if (m.keywords.some((k) => c.text.includes(` ${k}`))) s += c.operationId && m.keywords.some((k) => words(c.operationId!).includes(k)) ? 6 : 3
  if (s === 0) return -1
  // The path names a different action: the keyword only appeared in passing in the summary.
  if (!m.keywords.some((k) => c.lastLiteral.includes(k)) && ACTION_WORDS.some((w) => c.lastLiteral.includes(w))) s -= 8
  return s
}

function resolveRef(doc: Json, value: unknown, depth = 0): unknown {
  if (!isRecord(value) || typeof value.$ref !== 'string' || depth > 10) return value
  const ref = value.$ref
  if (!ref.startsWith('#/')) return value
  let node: unknown = doc
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~')
    node = isRecord(node) ? node[key] : undefined
  }
  return resolveRef(doc, node, depth + 1)
}

/** The properties of an object schema, through $ref and allOf. */
function schemaShape(doc: Json, schema: unknown, depth = 0): {array: boolean; properties: Record<string, unknown>} {
  const s = resolveRef(doc, schema)
  if (!isRecord(s) || depth > 6) return {array: false, properties: {}}
  if (s.type === 'array') return {array: true, properties: {}}
  const properties: Record<string, unknown> = {}
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) Object.assign(properties, schemaShape(doc, part, depth + 1).properties)
  if (isRecord(s.properties)) Object.assign(properties, s.properties)
  return {array: false, properties}
}

const ITEM_KEYS = ['data', 'items', 'results', 'payments', 'invoices']
const TOTAL_KEYS = ['total', 'total_count', 'totalCount', 'count']
const HAS_MORE_KEYS = ['has_more', 'hasMore']

function listShapeOf(doc: Json, candidate: Candidate | undefined): ListShape | undefined {
  if (!candidate) return undefined
  const operation = candidate.operation
  if (!isRecord(operation.responses)) return undefined
  const responses = operation.responses
  const ok = resolveRef(doc, responses['200'] ?? responses['2XX'] ?? responses.default)
  if (!isRecord(ok) || !isRecord(ok.content)) return undefined
  const media = Object.entries(ok.content).find(([type]) => type.includes('json'))?.[1]
  if (!isRecord(media)) return undefined
  const shape = schemaShape(doc, media.schema)
  if (shape.array) return {}
  const names = Object.keys(shape.properties)
  const isArrayProperty = (name: string) => {
    const p = resolveRef(doc, shape.properties[name])
    return isRecord(p) && (p.type === 'array' || p.items !== undefined)
  }
  const itemsKey = ITEM_KEYS.find((k) => names.includes(k) && isArrayProperty(k)) ?? names.find(isArrayProperty)
  if (!itemsKey) return undefined
  return {
    itemsKey,
    totalKey: TOTAL_KEYS.find((k) => names.includes(k)),
    hasMoreKey: HAS_MORE_KEYS.find((k) => names.includes(k)),
  }
}

const URL_FIELD_NAMES = ['pdf_url', 'url', 'download_url', 'href', 'link']

/**
 * The field of an operation's 2xx answer that carries a link: a known name first, then a string
 * property whose format is `uri` or whose name ends in `url`.
 */
function urlFieldOf(doc: Json, candidate: Candidate | undefined): string | undefined {
  if (!candidate || !isRecord(candidate.operation.responses)) return undefined
  const responses = candidate.operation.responses
  const ok = resolveRef(doc, responses['200'] ?? responses['2XX'] ?? responses.default)
  if (!isRecord(ok) || !isRecord(ok.content)) return undefined
  const media = Object.entries(ok.content).find(([type]) => type.includes('json'))?.[1]
  if (!isRecord(media)) return undefined
  const {properties} = schemaShape(doc, media.schema)
  const isString = (name: string) => {
    const p = resolveRef(doc, properties[name])
    return isRecord(p) && (p.type === 'string' || p.type === undefined)
  }
  const names = Object.keys(properties).filter(isString)
  return (
    URL_FIELD_NAMES.find((n) => names.includes(n)) ??
    names.find((n) => {
      const p = resolveRef(doc, properties[n])
      return (isRecord(p) && p.format === 'uri') || /url$/i.test(n)
    })
  )
}

/**
 * What an OpenAPI document says, with every gap filled from the fallback. Pure; never throws.
 */
export function describeFromOpenApi(document: unknown): Omit<ServiceDescription, 'source' | 'fetchedAt'> {
  const operations = fallbackOperations()
  const lists: Record<ListName, ListShape> = {payments: {...FALLBACK_LISTS.payments}, invoices: {...FALLBACK_LISTS.invoices}}
  const fields: ResponseFields = {...FALLBACK_FIELDS}
  if (!isRecord(document) || !isRecord(document.paths)) return {operations, lists, fields}
  const candidates = candidatesOf(document)
  const chosen: Partial<Record<OperationName, Candidate>> = {}
  for (const [name, matcher] of Object.entries(MATCHERS) as [Exclude<OperationName, 'openapi'>, Matcher][]) {
    let best: Candidate | undefined
    let bestScore = 0
    for (const c of candidates) {
      const s = score(c, matcher)
      if (s > bestScore) {
        best = c
        bestScore = s
      }
    }
    if (best) {
      chosen[name] = best
      operations[name] = {method: best.method.toUpperCase(), path: best.path, source: 'openapi', operationId: best.operationId}
    }
  }
  const paymentsShape = listShapeOf(document, chosen['payment.list'])
  if (paymentsShape) lists.payments = paymentsShape
  const invoicesShape = listShapeOf(document, chosen['invoice.list'])
  if (invoicesShape) lists.invoices = invoicesShape
  const pdfUrl = urlFieldOf(document, chosen['invoice.pdf'])
  if (pdfUrl) fields.pdfUrl = pdfUrl
  return {operations, lists, fields}
}

function fallbackOperations(): Record<OperationName, Operation> {
  const out = {} as Record<OperationName, Operation>
  for (const [name, op] of Object.entries(FALLBACK_OPERATIONS) as [OperationName, {method: string; path: string}][]) {
    out[name] = {...op, source: 'fallback'}
  }
  return out
}

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
  now?: () => number
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

async function writeCache(file: string, content: CacheFile): Promise<void> {
  const {mkdir, writeFile, rename} = await import('node:fs/promises')
  const {dirname} = await import('node:path')
  try {
    await mkdir(dirname(file), {recursive: true, mode: 0o700})
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`
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
  const now = options.now ?? Date.now
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
 * gap from service-contract.md. Never fails: at worst the fallback alone.
 */
export async function discoverService(client: ApiClient, options: DiscoveryOptions = {}): Promise<ServiceDescription> {
  const memoryKey = `${normaliseBaseUrl(client.baseUrl)}\u0000${options.cacheDir ?? ''}`
  const remembered = memory.get(memoryKey)
  const now = options.now ?? Date.now
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
  options.trace?.(t('api.trace.discovery', {source: loaded.source === 'fallback' ? 'service-contract.md' : `${client.baseUrl}${OPENAPI_PATH} (${loaded.source})`, detail}))
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
