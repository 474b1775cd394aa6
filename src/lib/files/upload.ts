/**
 * File uploads (docs/service.md, "Invoices": the cover image): `POST /v1/files/upload-url` with
 * `{filename, content_type, size}` → `{upload_url, method: "PUT", headers, file_url, expires_at}`,
 * then the bytes PUT to `upload_url`; `file_url` is what `cover_image_url` takes.
 *
 * Checked locally first, before any request: the file exists, is PNG, JPEG or WebP by BOTH its
 * extension and its first bytes (a renamed file is refused), and is at most 5 MB.
 *
 * The storage host. The service refuses a `cover_image_url` on any host but its storage host, and
 * the spec does not name that host. The CLI knows it without guessing: it is the origin of the
 * base URL (the local sandbox serves /storage/... on its own port) or an origin that
 * `upload-url` has returned as a `file_url` for this base URL (remembered in the config dir,
 * `cache/storage-hosts.json`, each time `svc files upload` or `--cover FILE` runs). A URL on any
 * other origin, or not http(s), is refused locally with a hint to upload the file instead.
 */
import {readFile, stat} from 'node:fs/promises'
import {basename, extname, join} from 'node:path'

import type {ApiClient, ServiceDescription} from '../api/index.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {readReason} from '../io/read-reason.js'
import {t} from '../i18n/index.js'

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024

const TYPES: Record<string, {contentType: string; magic: (b: Buffer) => boolean}> = {
  png: {contentType: 'image/png', magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))},
  jpeg: {contentType: 'image/jpeg', magic: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff},
  webp: {
    contentType: 'image/webp',
    magic: (b) => b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
}
const EXTENSIONS: Record<string, keyof typeof TYPES> = {'.png': 'png', '.jpg': 'jpeg', '.jpeg': 'jpeg', '.webp': 'webp'}

export interface CheckedFile {
  path: string
  filename: string
  contentType: string
  size: number
  bytes: Buffer
}

/** Reads and checks a file for upload; InputError (exit 2) naming `field` when it will not do. */
export async function checkUploadFile(path: string, field = 'file'): Promise<CheckedFile> {
  let size: number
  try {
    const info = await stat(path)
    if (!info.isFile()) throw new InputError(t('files.notAFile', {field, path}), {field})
    size = info.size
  } catch (error) {
    if (error instanceof InputError) throw error
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new InputError(t('files.notFound', {field, path}), {field})
    throw new InputError(t('files.unreadable', {field, path, reason: readReason(error)}), {field})
  }
  const kind = EXTENSIONS[extname(path).toLowerCase()]
  if (!kind) throw new InputError(t('files.badExtension', {field, path, ext: extname(path) || '(none)'}), {field})
  if (size > MAX_UPLOAD_BYTES) throw new InputError(t('files.tooLarge', {field, path, size: formatBytes(size), max: formatBytes(MAX_UPLOAD_BYTES)}), {field})
  if (size === 0) throw new InputError(t('files.empty', {field, path}), {field})
  const bytes = await readFile(path)
  const type = TYPES[kind]!
  if (!type.magic(bytes)) throw new InputError(t('files.badMagic', {field, path, type: type.contentType}), {field})
  return {path, filename: basename(path), contentType: type.contentType, size: bytes.length, bytes}
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / (1024 * 1024)).toFixed(1)} MB`
}

export interface UploadUrl {
  upload_url: string
  method?: string
  headers?: Record<string, string>
  file_url: string
  expires_at?: string
}

/** Asks for an upload URL, PUTs the bytes, returns the service's answer (its `file_url`). */
export async function uploadFile(client: ApiClient, service: ServiceDescription, file: CheckedFile): Promise<UploadUrl> {
  const operation = service.operations['files.uploadUrl']
  const response = await client.request<UploadUrl>({
    method: operation.method,
    path: operation.path,
    operation: 'files.uploadUrl',
    body: {filename: file.filename, content_type: file.contentType, size: file.size},
  })
  const answer = response.data
  if (!answer || typeof answer.upload_url !== 'string' || typeof answer.file_url !== 'string') {
    throw new SvcError(t('files.badAnswer'), {exitCode: ExitCode.UNAVAILABLE, code: 'invalid_response'})
  }
  const headers: Record<string, string> = {'Content-Type': file.contentType}
  for (const [name, value] of Object.entries(answer.headers ?? {})) if (typeof value === 'string') headers[name] = value
  await client.request({
    method: (answer.method ?? 'PUT').toUpperCase(),
    path: answer.upload_url,
    rawBody: file.bytes,
    headers,
    // Signed URL: no key needed; the client never sends it off the base URL's origin anyway.
    auth: false,
  })
  return answer
}

// ---------------------------------------------------------------------------------------------
// The storage host

function storageFile(configDir: string): string {
  return join(configDir, 'cache', 'storage-hosts.json')
}

async function rememberedOrigins(configDir: string, baseUrl: string): Promise<string[]> {
  try {
    const data = JSON.parse(await readFile(storageFile(configDir), 'utf8')) as Record<string, unknown>
    const list = data[normalise(baseUrl)]
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []
  } catch {
    return []
  }
}

function normalise(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').toLowerCase()
}

/** Records the origin of a `file_url` the service gave for this base URL. Best effort. */
export async function rememberStorageOrigin(configDir: string, baseUrl: string, fileUrl: string): Promise<void> {
  let origin: string
  try {
    origin = new URL(fileUrl).origin
  } catch {
    return
  }
  if (origin === originOf(baseUrl)) return
  const {mkdir, writeFile, rename} = await import('node:fs/promises')
  const file = storageFile(configDir)
  let data: Record<string, unknown> = {}
  try {
    data = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
  } catch {
    // none yet
  }
  const key = normalise(baseUrl)
  const list = Array.isArray(data[key]) ? (data[key] as string[]) : []
  if (list.includes(origin)) return
  data[key] = [...list, origin]
  try {
    await mkdir(join(configDir, 'cache'), {recursive: true, mode: 0o700})
    const temporary = `${file}.${process.pid}.tmp`
    await writeFile(temporary, JSON.stringify(data), {mode: 0o600})
    await rename(temporary, file)
  } catch {
    // Not remembering only means the next --cover URL on that host is refused with a hint.
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

export function looksLikeUrl(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim())
}

/**
 * A `cover_image_url` the service would accept, as far as we can tell without asking: http(s) on
 * the storage host (see the module comment). InputError naming `field` otherwise.
 */
export async function checkStorageUrl(url: string, options: {configDir: string; baseUrl: string; field?: string}): Promise<string> {
  const field = options.field ?? 'cover'
  let parsed: URL
  try {
    parsed = new URL(url.trim())
  } catch {
    throw new InputError(t('files.badUrl', {field, url}), {field})
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InputError(t('files.badUrl', {field, url}), {field})
  const allowed = [originOf(options.baseUrl), ...(await rememberedOrigins(options.configDir, options.baseUrl))].filter(Boolean)
  if (!allowed.includes(parsed.origin)) {
    throw new InputError(t('files.otherHost', {field, host: parsed.host, hosts: allowed.map((o) => new URL(o!).host).join(', ')}), {
      field,
      hint: t('files.otherHostHint'),
    })
  }
  return parsed.href
}
