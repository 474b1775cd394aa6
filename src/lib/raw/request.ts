/**
 * `svc api PATH` (and the older `svc api METHOD PATH`): a raw request with the profile's key, as
 * `gh api` makes them: GET by default, POST once fields or a body are given, `-X` to choose;
 * `-f`/`-F` fields are the query of a GET (or of a request whose body comes from `--input`) and
 * the JSON body otherwise; `--paginate` follows the service's list envelopes. The request goes
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
 * `-F key=value`: numbers, true, false and null are typed (as `gh api -F`), `@FILE` is the file's
 * text (`@-` standard input); anything else is a string. `-f key=value` (`{raw: true}`) is always
 * the string as written: phone numbers are digits, not numbers.
 */
export function parseField(input: string, options: {raw?: boolean; readFile?: (path: string) => string} = {}): [string, unknown] {
  const at = input.indexOf('=')
  if (at <= 0) throw new InputError(t('raw.field', {field: input, flag: options.raw ? '-f' : '-F'}), {field: options.raw ? 'raw-field' : 'field'})
  const key = input.slice(0, at)
  const raw = input.slice(at + 1)
  if (options.raw) return [key, raw]
  if (raw.startsWith('@') && options.readFile) return [key, options.readFile(raw.slice(1))]
  if (raw === 'true') return [key, true]
  if (raw === 'false') return [key, false]
  if (raw === 'null') return [key, null]
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw) && Number.isSafeInteger(Math.trunc(Number(raw)))) return [key, Number(raw)]
  return [key, raw]
}

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}

function readText(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new InputError(t('raw.file', {path, flag, reason: code === 'ENOENT' ? t('raw.noFile') : (error as Error).message}), {field: flag})
  }
}

/**
 * A JSON body: `-d '{"a":1}'`, `-d @file.json`, `-d -`; or `--input FILE|-` (`{file: true}`:
 * the argument is always a file, as gh's --input).
 */
export async function readBody(input: string, stdin: NodeJS.ReadableStream, options: {file?: boolean} = {}): Promise<unknown> {
  const flag = options.file ? '--input' : '--data'
  let text = input
  if (input === '-') text = await readStdin(stdin)
  else if (options.file) text = readText(input, flag)
  else if (input.startsWith('@')) text = readText(input.slice(1), flag)
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new InputError(t('raw.json', {reason: (error as Error).message}), {field: options.file ? 'input' : 'data'})
  }
}

export interface RawFlags {
  method?: string
  data?: string
  input?: string
  field?: string[]
  'raw-field'?: string[]
  header?: string[]
  'idempotency-key'?: string
  include: boolean
  paginate?: boolean
}

/** `svc api PATH` or `svc api METHOD PATH` (with -X, the method once only). */
export function resolveTarget(first: string, second: string | undefined, flags: RawFlags): {method: Method; pathInput: string} {
  const hasParameters = Boolean(flags.field?.length || flags['raw-field']?.length || flags.data !== undefined || flags.input !== undefined)
  if (second !== undefined) {
    const method = parseMethod(first)
    if (flags.method !== undefined && parseMethod(flags.method) !== method) throw new InputError(t('raw.methodTwice', {arg: first, flag: flags.method}), {field: 'method'})
    return {method, pathInput: second}
  }
  // As gh: GET, or POST once parameters are added; -X says otherwise.
  return {method: flags.method !== undefined ? parseMethod(flags.method) : hasParameters ? 'POST' : 'GET', pathInput: first}
}

export async function rawRequest(ctx: Context, first: string, second: string | undefined, flags: RawFlags): Promise<void> {
  const {method, pathInput} = resolveTarget(first, second, flags)
  const {path, query} = parsePath(pathInput)
  if (flags.data !== undefined && flags.input !== undefined) throw new InputError(t('raw.dataAndInput'), {field: 'input'})
  if (flags.paginate && method !== 'GET') throw new InputError(t('raw.paginateGet', {method}), {field: 'paginate'})
  const headers = flags.header?.length ? (await import('../webhooks/routes.js')).parseExtraHeaders(flags.header, '-H') : {}
  // A raw write may create a payment, deliver or cancel an invoice: on a LIVE key it is confirmed
  // like pay create and invoice send are (refused without --yes when not interactive).
  if (method !== 'GET' && method !== 'HEAD') await ctx.confirmLive(t('raw.live', {method, path}))
  const hasFields = Boolean(flags.field?.length || flags['raw-field']?.length)
  if (flags.data !== undefined && hasFields) throw new InputError(t('raw.dataAndField'), {field: 'data'})
  // `-F key=@-` reads standard input, once: for one field, and not when the body comes from it.
  const fromStdin = (flags.field ?? []).filter((f) => f.slice(f.indexOf('=') + 1) === '@-')
  if (fromStdin.length > 1 || (fromStdin.length === 1 && (flags.input === '-' || flags.data === '-'))) throw new InputError(t('raw.fieldStdin'), {field: 'field'})
  const fields = Object.fromEntries([
    ...(flags.field ?? []).map((f) => parseField(f, {readFile: (file) => (file === '-' ? '' : readText(file, '-F'))})),
    ...(flags['raw-field'] ?? []).map((f) => parseField(f, {raw: true})),
  ])
  if (fromStdin.length === 1) fields[fromStdin[0]!.slice(0, fromStdin[0]!.indexOf('='))] = await readStdin(ctx.io.streams.stdin)
  let body: unknown
  if (flags.data !== undefined) body = await readBody(flags.data, ctx.io.streams.stdin)
  else if (flags.input !== undefined) body = await readBody(flags.input, ctx.io.streams.stdin, {file: true})
  if (hasFields) {
    // As gh: fields are the query of a GET (and of a request whose body is --input), the JSON body otherwise.
    if (method === 'GET' || method === 'HEAD' || flags.input !== undefined) Object.assign(query, Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])))
    else body = fields
  }
  // Invoice creation always carries an Idempotency-Key, so that the client may retry it safely.
  const headerKey = headers['idempotency-key']
  delete headers['idempotency-key']
  const idempotencyKey = flags['idempotency-key'] ?? headerKey ?? (method === 'POST' && path === '/v1/invoices' ? randomUUID() : undefined)
  const client = await ctx.client({auth: path !== '/v1/openapi.json'})
  const send = (pageQuery: Record<string, string>) =>
    client.request<unknown>({method, path, query: pageQuery, body, headers, idempotencyKey}).catch(async (error: unknown) => {
      if (!idempotencyKey) throw error
      const {withSafeRetry} = await import('../api/safe-retry.js')
      throw await withSafeRetry(error, idempotencyKey, ctx.argv)
    })
  const response = await send(query)
  if (flags.include) {
    ctx.io.out(`HTTP ${response.status}`)
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) ctx.io.out(`${name}: ${Array.isArray(value) ? value.join(', ') : value}`)
    }
    ctx.io.out('')
  }
  if (flags.paginate) {
    const {followPages} = await import('./paginate.js')
    ctx.io.outJson(await followPages(response.data, query, (next) => send(next).then((r) => r.data)))
    return
  }
  if (response.data !== undefined && response.data !== '') ctx.io.outJson(response.data)
}
