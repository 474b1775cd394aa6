/**
 * `svc api METHOD PATH`: a raw request with the profile's key, like `gh api`. The request goes
 * through the same client, so the same retry policy applies (POST /v1/payments is never retried).
 */
import {randomUUID} from 'node:crypto'
import {readFileSync} from 'node:fs'

import type {Context} from '../context.js'
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const
type Method = (typeof METHODS)[number]

export function parseMethod(input: string): Method {
  const method = input.toUpperCase()
  if (!(METHODS as readonly string[]).includes(method)) {
    throw new InputError(t('raw.method', {method: input, accepted: METHODS.join(', ')}), {field: 'method'})
  }
  return method as Method
}

/** `/v1/payments`, `v1/payments?limit=5` → the path and query; absolute URLs are refused. */
export function parsePath(input: string): {path: string; query: Record<string, string>} {
  if (/^[a-z]+:\/\//i.test(input)) throw new InputError(t('raw.absolute'), {field: 'path'})
  // Leading slashes (or backslashes, which URL reads as slashes) collapse to one: `//host/x` must not
  // become a host (its first segment silently dropped) nor `//` an unexpected "Invalid URL".
  const relative = `/${input.replace(/^[/\\]+/, '')}`
  let url: URL
  try {
    url = new URL(relative, 'http://svc.invalid')
  } catch {
    throw new InputError(t('raw.absolute'), {field: 'path'})
  }
  // Dot segments may leave `//` at the start again (a path of `.` and backslashes): still one slash.
  return {path: url.pathname.replace(/^\/+/, '/'), query: Object.fromEntries(url.searchParams)}
}

/**
 * `-F key=value`: numbers, true, false and null are typed (as `gh api -F`); anything else is a
 * string. `-f key=value` (`{raw: true}`) is always a string: phone numbers are digits, not numbers.
 */
export function parseField(input: string, options: {raw?: boolean} = {}): [string, unknown] {
  const at = input.indexOf('=')
  if (at <= 0) throw new InputError(t('raw.field', {field: input}), {field: options.raw ? 'raw-field' : 'field'})
  const key = input.slice(0, at)
  const raw = input.slice(at + 1)
  if (options.raw) return [key, raw]
  if (raw === 'true') return [key, true]
  if (raw === 'false') return [key, false]
  if (raw === 'null') return [key, null]
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw) && Number.isSafeInteger(Math.trunc(Number(raw)))) return [key, Number(raw)]
  return [key, raw]
}

/** `-d '{"a":1}'`, `-d @file.json`, or `-d -` for standard input. */
export async function readBody(input: string, stdin: NodeJS.ReadableStream): Promise<unknown> {
  let text = input
  if (input === '-') {
    const chunks: Buffer[] = []
    for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer))
    text = Buffer.concat(chunks).toString('utf8')
  } else if (input.startsWith('@')) {
    try {
      text = readFileSync(input.slice(1), 'utf8')
    } catch (error) {
      throw new InputError(t('raw.file', {path: input.slice(1), reason: (error as Error).message}), {field: 'data'})
    }
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new InputError(t('raw.json', {reason: (error as Error).message}), {field: 'data'})
  }
}

export interface RawFlags {
  data?: string
  field?: string[]
  'raw-field'?: string[]
  'idempotency-key'?: string
  include: boolean
}

export async function rawRequest(ctx: Context, methodInput: string, pathInput: string, flags: RawFlags): Promise<void> {
  const method = parseMethod(methodInput)
  const {path, query} = parsePath(pathInput)
  // A raw write may create a payment, deliver or cancel an invoice: on a LIVE key it is confirmed
  // like pay create and invoice send are (refused without --yes when not interactive).
  if (method !== 'GET' && method !== 'HEAD') await ctx.confirmLive(t('raw.live', {method, path}))
  const hasFields = Boolean(flags.field?.length || flags['raw-field']?.length)
  if (flags.data !== undefined && hasFields) throw new InputError(t('raw.dataAndField'), {field: 'data'})
  const fields = Object.fromEntries([
    ...(flags.field ?? []).map((f) => parseField(f)),
    ...(flags['raw-field'] ?? []).map((f) => parseField(f, {raw: true})),
  ])
  let body: unknown
  if (flags.data !== undefined) body = await readBody(flags.data, ctx.io.streams.stdin)
  else if (hasFields) {
    // As gh: fields are the query of a GET, the JSON body otherwise.
    if (method === 'GET' || method === 'HEAD') Object.assign(query, Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])))
    else body = fields
  }
  // Invoice creation always carries an Idempotency-Key, so that the client may retry it safely.
  const idempotencyKey =
    flags['idempotency-key'] ?? (method === 'POST' && path === '/v1/invoices' ? randomUUID() : undefined)
  const client = await ctx.client({auth: path !== '/v1/openapi.json'})
  const response = await client
    .request<unknown>({method, path, query, body, idempotencyKey})
    .catch(async (error: unknown) => {
      if (!idempotencyKey) throw error
      const {withSafeRetry} = await import('../api/safe-retry.js')
      throw await withSafeRetry(error, idempotencyKey)
    })
  if (flags.include) {
    ctx.io.out(`HTTP ${response.status}`)
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) ctx.io.out(`${name}: ${Array.isArray(value) ? value.join(', ') : value}`)
    }
    ctx.io.out('')
  }
  if (response.data !== undefined && response.data !== '') ctx.io.outJson(response.data)
}
