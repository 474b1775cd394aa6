/**
 * A fuzzer of every route of the sandbox, driven by the routes' own declarations (method, path
 * parameters, query and body schemas: the objects the server validates with and publishes): for
 * each request it picks a route and builds a request from its schemas, mostly well formed with
 * hostile values mixed in (numbers past every bound or inexact, unicode and control characters,
 * __proto__ and friends as keys, deep nesting, bytes that are not UTF-8, crafted images, odd
 * headers). The oracle: no 5xx, and the process stays up. Used by test/sandbox/fuzz.test.ts (a
 * few thousand requests) and bench/fuzz/run.ts (the long run).
 *
 * Two routes are fuzzed within limits that are not what this fuzzer is about: the admin clock
 * advance (its bounds are the storage work's, issue 17) gets ms up to a day, and a webhook
 * endpoint's URL is always a closed local port (no delivery ever leaves the machine).
 */
import {request} from 'node:http'
import fc from 'fast-check'
import type {RouteDefinition} from '../../src/sandbox/router.js'
import type {Schema} from '../../src/sandbox/schema.js'
import {anyCodePoint} from './any-code-point.js'
import {craftedPng, realJpeg, realPng, webp} from './images.js'

/** What the fuzzer knows of a running sandbox: keys, and objects it created to reach past 404s. */
export interface FuzzTarget {
  url: string
  keys: {sandbox: string; live: string}
  adminToken: string
  invoiceIds: string[]
  paymentIds: string[]
  /** Signed URLs (upload, PDF) as path + query. */
  uploadUrls: string[]
  pdfUrls: string[]
}

export interface FuzzRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: Buffer
}

export interface FuzzOutcome {
  request: FuzzRequest
  status: number
  body: string
}

/** JSON text written exactly as given: a number JSON.stringify cannot write (9007199254740993), deep nesting. */
class RawNumber {
  constructor(readonly text: string) {}
}

/** JSON text with raw numbers and keys in any order, `__proto__` included. */
function serialise(value: unknown): string {
  if (value instanceof RawNumber) return value.text
  if (Array.isArray(value)) return `[${value.map(serialise).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${serialise(v)}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

const hostileNumber = fc.oneof(
  fc.constantFrom('1e300', '9007199254740993', '12.5', '-0', '0', '-1', '1e400', '2.0e0', '1000000000001', '1000000000000', '1000001', '1E2', '0.1', '-9999999999999999999'),
  fc.integer().map(String),
  fc.double({noNaN: true, noDefaultInfinity: true}).map((n) => String(n)),
  fc.bigInt({min: -(10n ** 30n), max: 10n ** 30n}).map(String),
).map((text) => new RawNumber(text))

const hostileString = fc.oneof(
  fc.string({unit: anyCodePoint, maxLength: 40}),
  fc.string({unit: 'grapheme', maxLength: 40}),
  fc.constantFrom('\u0000', '\u001b[31mred', '\u0085', '\u202e', '\ud800', '\ufeff', 'a\r\nb', '\t', '', ' ', '../../etc/passwd', '%00', '<script>', '${x}', '{}'),
  fc.integer({min: 199, max: 2100}).map((n) => 'x'.repeat(n)),
)

const hostileKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'total_amount', 'status'), fc.string({maxLength: 12}))

/** Nested arrays or objects, `depth` deep (as text: no recursion here). */
const nested = fc.tuple(fc.oneof(fc.integer({min: 1, max: 40}), fc.integer({min: 1, max: 100_000})), fc.boolean()).map(
  ([depth, objects]) => new RawNumber(objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`),
)

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  {weight: 3, arbitrary: hostileNumber},
  {weight: 3, arbitrary: hostileString},
  {weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {})},
  {weight: 1, arbitrary: fc.jsonValue({maxDepth: 3})},
  {weight: 1, arbitrary: nested},
)

function types(schema: Schema): string[] {
  return schema.type === undefined ? [] : Array.isArray(schema.type) ? [...schema.type] : [schema.type as string]
}

/** A value for `schema`: well formed three times in four, anything otherwise. */
function valueFor(schema: Schema, name: string, depth = 0): fc.Arbitrary<unknown> {
  if (name === 'url') return fc.constantFrom('http://127.0.0.1:9/hook', 'nope', 'http://127.0.0.1:9/' + 'a'.repeat(3000))
  if (name === 'ms') return fc.oneof(fc.integer({min: 0, max: 86_400_000}), fc.constantFrom(-1, 1.5, '60000', null))
  return fc.oneof({weight: 3, arbitrary: wellFormed(schema, name, depth)}, {weight: 1, arbitrary: anyValue})
}

function wellFormed(schema: Schema, name: string, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const kinds = types(schema)
  if (kinds.includes('object') && depth < 4) return objectFor(schema, depth + 1)
  if (kinds.includes('array') && depth < 4)
    return fc.array(schema.items ? valueFor(schema.items, name, depth + 1) : anyValue, {maxLength: Math.min(schema.maxItems ?? 5, 5) + 1})
  if (kinds.includes('integer') || kinds.includes('number')) {
    const min = schema.minimum ?? -1000
    const max = schema.maximum ?? 1_000_000
    return fc.oneof(fc.integer({min: Math.max(min, -1e9), max: Math.min(max, 1e12)}), hostileNumber)
  }
  if (kinds.includes('boolean')) return fc.boolean()
  if (kinds.includes('string')) {
    if (schema.format === 'email') return fc.oneof(fc.emailAddress(), hostileString)
    if (schema.format === 'date' || schema.pattern?.includes('\\d{4}-')) return fc.constantFrom('2099-12-31', '2020-01-31', '2026-02-30', '2099-12-31T18:00:00Z', '9999-99-99')
    if (name.includes('phone')) return fc.constantFrom('670000001', '+237670000002', '699999999', '+33612345678', '12')
    return fc.oneof(fc.string({minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30)}), hostileString)
  }
  return anyValue
}

function objectFor(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {})
  const known = fc.record(Object.fromEntries(properties.map(([name, child]) => [name, valueFor(child, name, depth)])), {
    requiredKeys: (schema.required ?? []).filter(() => true) as string[],
  })
  return fc.tuple(known, fc.option(fc.dictionary(hostileKey, anyValue, {maxKeys: 2}), {freq: 4})).map(([object, extra]) => {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(object)) Object.defineProperty(out, k, {value: v, enumerable: true, configurable: true, writable: true})
    for (const [k, v] of Object.entries(extra ?? {})) Object.defineProperty(out, k, {value: v, enumerable: true, configurable: true})
    return out
  })
}

const imageBytes = fc.oneof(
  fc.constant(realPng()),
  fc.constant(realJpeg()),
  fc.constant(webp(64, 64)),
  fc.tuple(fc.integer({min: 0, max: 70_000}), fc.integer({min: 0, max: 70_000}), fc.uint8Array({maxLength: 200})).map(([w, h, data]) => craftedPng(w, h, Buffer.from(data))),
  fc.tuple(fc.constantFrom(realPng(), realJpeg(), webp()), fc.integer({min: 0, max: 80}), fc.uint8Array({minLength: 1, maxLength: 16})).map(([image, at, noise]) => {
    const copy = Buffer.from(image)
    copy.set(noise.subarray(0, Math.max(0, copy.length - at)), Math.min(at, copy.length - 1))
    return copy
  }),
  fc.uint8Array({maxLength: 300}).map((b) => Buffer.from(b)),
)

function pathFor(route: RouteDefinition, target: FuzzTarget): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
  const idFor = (name: string) => {
    const known = name === 'invoiceId' ? target.invoiceIds : name === 'paymentId' ? target.paymentIds : []
    return fc.oneof(
      {weight: known.length > 0 ? 3 : 0, arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.constant('x')},
      {weight: 1, arbitrary: fc.string({unit: 'grapheme', maxLength: 80}).map((s) => encodeURIComponent(s) || 'x')},
      {weight: 1, arbitrary: fc.constantFrom('%', '%E0%A4%A', 'inv_test_nope', 'svcpay_test_nope', 'inv_nope', '..', 'x'.repeat(500))},
    )
  }
  return fc.tuple(...names.map(idFor)).map((values) => {
    let path = route.path
    names.forEach((name, i) => (path = path.replace(`{${name}}`, values[i])))
    return path
  })
}

function queryFor(route: RouteDefinition, target: FuzzTarget, path: string): fc.Arbitrary<string> {
  const signed = path.startsWith('/storage/uploads/') ? target.uploadUrls : path.startsWith('/storage/invoices/') ? target.pdfUrls : []
  const fromSchema = route.query ? objectFor(route.query, 1).map((q) => new URLSearchParams(Object.entries(q).map(([k, v]) => [k, (typeof v === 'string' ? v : serialise(v)).slice(0, 300)] as [string, string])).toString()) : fc.constant('')
  return fc.oneof(
    {weight: signed.length > 0 ? 4 : 0, arbitrary: signed.length > 0 ? fc.constantFrom(...signed).map((u) => u.split('?')[1] ?? '') : fc.constant('')},
    {weight: 2, arbitrary: fromSchema},
    // Any text, with what an HTTP request line cannot carry percent-encoded (bad escapes like %zz stay).
    {weight: 1, arbitrary: fc.string({unit: 'grapheme', maxLength: 60}).map((q) => q.replace(/[^\x21-\x7e]|#/gu, (c) => encodeURIComponent(c)))},
  )
}

function bodyFor(route: RouteDefinition): fc.Arbitrary<Buffer | undefined> {
  const text = (arb: fc.Arbitrary<unknown>) => arb.map((v) => Buffer.from(serialise(v)))
  const garbage = fc.oneof(
    fc.uint8Array({maxLength: 200}).map((b) => Buffer.from(b)),
    fc.constantFrom('', '{', '{"a":}', '[1,]', '{"a":1,"a":2}', '\ufeff{}', 'null', '"x"', '{"a":"\\ud800"}').map((s) => Buffer.from(s)),
    nested.map((v) => Buffer.from(serialise(v))),
  )
  if (route.body === 'raw')
    return fc.oneof(
      {weight: 3, arbitrary: imageBytes},
      {weight: 1, arbitrary: fc.dictionary(fc.constantFrom('phone', 'operator', 'amount', 'x'), fc.oneof(hostileString, hostileNumber.map((n) => n.text))).map((f) => Buffer.from(new URLSearchParams(f as Record<string, string>).toString()))},
      {weight: 1, arbitrary: garbage},
    )
  if (route.body) return fc.oneof({weight: 4, arbitrary: text(objectFor(route.body, 0))}, {weight: 1, arbitrary: garbage}, {weight: 1, arbitrary: fc.constant(undefined)})
  return fc.oneof({weight: 4, arbitrary: fc.constant(undefined)}, {weight: 1, arbitrary: garbage})
}

function headersFor(route: RouteDefinition, target: FuzzTarget): fc.Arbitrary<Record<string, string>> {
  const headerText = fc.string({maxLength: 40}).map((s) => s.replace(/[^\t\x20-\x7e]/g, ''))
  return fc
    .record(
      {
        'x-api-key': fc.oneof(fc.constantFrom(target.keys.sandbox, target.keys.sandbox, target.keys.live, 'svc_sk_test_nope'), headerText),
        authorization: fc.oneof(fc.constant(`Bearer ${target.adminToken}`), fc.constant(`Bearer ${target.adminToken}`), headerText),
        'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'image/png', 'image/jpeg', 'image/webp', 'application/x-www-form-urlencoded', 'text/plain', ''),
        'idempotency-key': fc.oneof(fc.uuid(), headerText, fc.constant('k'.repeat(300))),
        'accept-language': fc.oneof(fc.constantFrom('fr-CM,fr;q=0.9', 'en', '*', 'fr;q=abc'), headerText),
        'if-none-match': fc.oneof(headerText, fc.constant('*')),
      },
      {requiredKeys: []},
    )
    .map((headers) => {
      if (route.auth === 'admin' && headers.authorization === undefined) headers.authorization = `Bearer ${target.adminToken}`
      if (route.auth === 'key' && headers['x-api-key'] === undefined) headers['x-api-key'] = target.keys.sandbox
      return headers as Record<string, string>
    })
}

/**
 * An upload as a client does it, then its use: POST /v1/files/upload-url for exactly these bytes,
 * PUT them, and when the PUT is taken, an invoice with the file as its cover, published, and its
 * PDF fetched (the path by which a crafted image used to reach the renderer).
 */
const UPLOAD = 'UPLOAD'

const uploadScenario = fc.tuple(imageBytes, fc.constantFrom('image/png', 'image/jpeg', 'image/webp')).map(
  ([body, type]): FuzzRequest => ({method: UPLOAD, path: '/v1/files/upload-url', headers: {'content-type': type}, body}),
)

export function requestArbitrary(routes: readonly RouteDefinition[], target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return fc.oneof({weight: 1, arbitrary: uploadScenario}, {weight: 12, arbitrary: routeRequest(routes, target)})
}

function routeRequest(routes: readonly RouteDefinition[], target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) =>
    pathFor(route, target).chain((path) =>
      fc.record({query: queryFor(route, target, path), headers: headersFor(route, target), body: bodyFor(route), method: fc.oneof({weight: 9, arbitrary: fc.constant(route.method)}, {weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS')})}).map(({query, headers, body, method}) => ({
        method,
        path: query === '' ? path : `${path}?${query}`,
        headers,
        body,
      })),
    ),
  )
}

/** Send one request over node:http (fetch refuses some of what a hostile client sends). */
export function send(base: string, fuzz: FuzzRequest): Promise<FuzzOutcome> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    // A connection per request: a kept-alive socket left idle while the next batch is generated is
    // closed by the server (keepAliveTimeout) and a request sent on it then is lost to the race.
    const req = request({agent: false, host: url.hostname, port: url.port, method: fuzz.method, path: fuzz.path, headers: {...fuzz.headers, ...(fuzz.body ? {'content-length': fuzz.body.length} : {})}}, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({request: fuzz, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8')}))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(fuzz.body)
  })
}

/** The upload scenario (see UPLOAD): its last answer, or the first 5xx on the way. */
async function upload(base: string, target: FuzzTarget, scenario: FuzzRequest): Promise<FuzzOutcome> {
  const type = scenario.headers['content-type']
  const bytes = scenario.body ?? Buffer.alloc(0)
  const json = {'x-api-key': target.keys.sandbox, 'content-type': 'application/json'}
  const step = async (request: FuzzRequest): Promise<FuzzOutcome & {json?: any}> => {
    const outcome = await send(base, request)
    let parsed: unknown
    try {
      parsed = JSON.parse(outcome.body)
    } catch {
      parsed = undefined
    }
    return {...outcome, json: parsed}
  }
  const slot = await step({method: 'POST', path: '/v1/files/upload-url', headers: json, body: Buffer.from(JSON.stringify({filename: 'cover', content_type: type, size: Math.max(1, bytes.length)}))})
  if (slot.status !== 201) return slot
  const put = await step({method: 'PUT', path: slot.json.upload_url.slice(base.length), headers: {'content-type': type}, body: bytes})
  if (put.status !== 200) return put
  const items = [{name: 'Cover test', price: 500, quantity: 1}]
  const created = await step({method: 'POST', path: '/v1/invoices', headers: json, body: Buffer.from(JSON.stringify({customer_name: 'Cover', due_date: '2099-12-31', items, cover_image_url: slot.json.file_url}))})
  if (created.status !== 201) return created
  const published = await step({method: 'POST', path: `/v1/invoices/${created.json.id}/publish`, headers: json})
  if (published.status !== 200) return published
  return step({method: 'GET', path: published.json.pdf_url.slice(base.length), headers: {}})
}

/** Run `count` requests, `concurrency` at a time; resolves with every 5xx (and every request that got no answer). */
export async function fuzz(base: string, target: FuzzTarget, requests: FuzzRequest[], concurrency = 8): Promise<{sent: number; failures: Array<FuzzOutcome | {request: FuzzRequest; error: string}>; statuses: Record<number, number>}> {
  const failures: Array<FuzzOutcome | {request: FuzzRequest; error: string}> = []
  const statuses: Record<number, number> = {}
  let next = 0
  let sent = 0
  const worker = async () => {
    while (next < requests.length) {
      const item = requests[next++]
      try {
        const outcome = item.method === UPLOAD ? await upload(base, target, item) : await send(base, item)
        statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1
        if (outcome.status >= 500) failures.push({...outcome, body: outcome.body.slice(0, 500)})
      } catch (error) {
        failures.push({request: item, error: (error as Error).message})
      }
      sent++
    }
  }
  await Promise.all(Array.from({length: concurrency}, worker))
  return {sent, failures, statuses}
}

/** Objects to aim at: published invoices (their ids and PDF links), payments, signed upload URLs. */
export async function prepareTarget(info: {url: string; keys: {sandbox: string; live: string}; adminToken: string}): Promise<FuzzTarget> {
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${info.url}${path}`, {method, headers: {'x-api-key': info.keys.sandbox, 'content-type': 'application/json'}, body: body === undefined ? undefined : JSON.stringify(body)})
    return (await response.json()) as any
  }
  const target: FuzzTarget = {...info, invoiceIds: [], paymentIds: [], uploadUrls: [], pdfUrls: []}
  const local = (url: string) => url.slice(info.url.length)
  for (let i = 0; i < 5; i++) {
    const invoice = await api('POST', '/v1/invoices', {customer_name: `Fuzz ${i}`, due_date: '2099-12-31', items: Array.from({length: 1 + i * 10}, (_, n) => ({name: `Item ${n}`, price: 500 + n, quantity: 1 + n}))})
    const published = await api('POST', `/v1/invoices/${invoice.id}/publish`)
    target.invoiceIds.push(invoice.id)
    target.pdfUrls.push(local(published.pdf_url))
    const payment = await api('POST', '/v1/payments', {amount: 1000 + i, phone_number: '670000001', operator: 'MTN'})
    target.paymentIds.push(payment.id)
    for (const [type, size] of [['image/png', 300], ['image/jpeg', 300], ['image/webp', 100]] as const) {
      const upload = await api('POST', '/v1/files/upload-url', {filename: `f${i}`, content_type: type, size})
      target.uploadUrls.push(local(upload.upload_url))
    }
  }
  return target
}

/** The sandbox's routes, from the declarations themselves (an in-process sandbox, started and closed). */
export async function sandboxRoutes(): Promise<RouteDefinition[]> {
  const {startSandbox} = await import('../../src/sandbox/index.js')
  const sb = await startSandbox({rateLimit: 0})
  try {
    // A stream (server-sent events) never ends as an answer does: not a request the fuzzer can wait for.
    return sb.context.router.routes().filter((route) => !route.eventStream)
  } finally {
    await sb.close()
  }
}
