/**
 * Reading an OpenAPI document: which of its operations is each one svc uses (by method, path shape,
 * operationId and summary words), the envelope of its lists and the PDF link's field. Pure.
 */
import type {OperationName} from './retry.js'
import {FALLBACK_FIELDS, FALLBACK_LISTS, fallbackOperations, type ListName, type ListShape, type ResponseFields, type ServiceDescription} from './service-description.js'

type Json = Record<string, unknown>

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}


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

export const ITEM_KEYS = ['data', 'items', 'results', 'payments', 'invoices']
export const TOTAL_KEYS = ['total', 'total_count', 'totalCount', 'count']
export const HAS_MORE_KEYS = ['has_more', 'hasMore']

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
