/**
 * Files: `POST /v1/files/upload-url` and the sandbox's storage host (`${url}/storage/...`).
 *
 * The upload URL is signed and expires after 15 minutes of sandbox time. The PUT must carry the
 * declared content type and exactly the declared size, and its first bytes must be an image of
 * that type (PNG, JPEG or WebP signature), at most 10 000 × 10 000 and decodable (images.ts, in the
 * document worker); it may be repeated until the URL expires (PUT is
 * idempotent). The `file_url` is then served publicly by GET (like a CDN), and is the only kind
 * of URL accepted as an invoice's `cover_image_url`: this host, this environment, uploaded.
 */
import {t} from '../i18n/index.js'
import type {SandboxContext} from '../context.js'
import {MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE} from '../../contract/limits.js'
import {ApiError, validationError} from '../errors.js'
import {EXAMPLE_FILE, isExample} from '../examples.js'
import {idEnvironment, newId} from '../ids.js'
import type {Collection} from '../store.js'
import type {Environment} from '../types.js'
import type {DocumentWorker} from './document-worker.js'
import {IMAGE_SIGNATURES, sniffImage} from './image-signature.js'
import {MAX_FILE_BYTES, UploadUrlRequestSchema, UploadUrlSchema, type ImageType} from './schemas.js'
import type {UrlSigner} from './signing.js'

export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000

export interface StoredFile {
  id: string
  environment: Environment
  filename: string
  content_type: ImageType
  size: number
  status: 'pending' | 'uploaded'
  created_at: string
  upload_expires_at: string
  uploaded_at?: string
  /** The bytes, base64 (kept with the rest of the data file). */
  data?: string
}

/** A file name safe in a URL path segment (the original is kept on the record). */
function urlName(filename: string): string {
  const cleaned = filename.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')
  return cleaned === '' ? 'file' : cleaned.slice(0, 100)
}

export class Files {
  constructor(
    private readonly ctx: SandboxContext,
    private readonly signer: UrlSigner,
    private readonly documents: DocumentWorker,
  ) {
    this.routes()
  }

  collection(environment: Environment): Collection<StoredFile> {
    return this.ctx.store.env(environment).collection<StoredFile>('files')
  }

  fileUrl(file: StoredFile): string {
    return `${this.ctx.baseUrl()}/storage/files/${file.id}/${urlName(file.filename)}`
  }

  /**
   * The uploaded file `url` names, for `cover_image_url` in `environment`; a 400 naming `field`
   * otherwise (another host, not a file URL, another environment's file, not uploaded).
   */
  resolveFileUrl(environment: Environment, url: string, field: string): StoredFile {
    const prefix = `${this.ctx.baseUrl()}/storage/files/`
    const refuse = (key: 'sandboxInvoices.files.otherHost' | 'sandboxInvoices.files.missing') =>
      validationError([{field, message: t(key, {field, url, host: `${this.ctx.baseUrl()}/storage/files/`})}])
    if (!url.startsWith(prefix)) throw refuse('sandboxInvoices.files.otherHost')
    const [id, name, ...rest] = url.slice(prefix.length).split('/')
    if (!id || !name || rest.length > 0 || idEnvironment('file', id) !== environment) throw refuse('sandboxInvoices.files.missing')
    const file = this.find(environment, id)
    if (!file || file.status !== 'uploaded' || this.fileUrl(file) !== url) throw refuse('sandboxInvoices.files.missing')
    return file
  }

  /** A file by id: the merchant's, or the example file (examples.ts), which no list has. */
  find(environment: Environment, id: string): StoredFile | undefined {
    return isExample(environment, id) && id === EXAMPLE_FILE.id ? EXAMPLE_FILE : this.collection(environment).get(id)
  }

  /** The bytes of an uploaded file (for documents that embed the cover). */
  bytes(file: StoredFile): Buffer | undefined {
    return file.data === undefined ? undefined : Buffer.from(file.data, 'base64')
  }

  private routes(): void {
    const {router, clock} = this.ctx
    router.add({
      method: 'POST',
      path: '/v1/files/upload-url',
      auth: 'key',
      scope: 'files:write',
      operationId: 'createUploadUrl',
      summary: 'Get a signed URL to upload an image',
      description:
        'PUT the bytes to upload_url (with the given headers, exactly `size` bytes, before expires_at), then use file_url as an invoice cover_image_url. PNG, JPEG or WebP, at most 5 MB.',
      tags: ['Files'],
      body: UploadUrlRequestSchema,
      responses: {201: {description: 'A signed upload URL and the future file URL.', schema: UploadUrlSchema}},
      errors: [400, 401, 403, 429],
      handler: (req) => {
        const {filename, content_type, size} = req.body as {filename: string; content_type: ImageType; size: number}
        const now = clock.now()
        const file = this.collection(req.environment).insert({
          id: newId('file', req.environment),
          environment: req.environment,
          filename,
          content_type,
          size,
          status: 'pending',
          created_at: clock.iso(now),
          upload_expires_at: clock.iso(now + UPLOAD_URL_TTL_MS),
        })
        const signed = this.signer.sign(`/storage/uploads/${file.id}`, UPLOAD_URL_TTL_MS)
        this.collection(req.environment).update(file.id, (f) => {
          f.upload_expires_at = clock.iso(signed.expiresAt)
        })
        return {
          status: 201,
          body: {
            upload_url: `${this.ctx.baseUrl()}${signed.url}`,
            method: 'PUT',
            headers: {'content-type': content_type},
            file_url: this.fileUrl(file),
            expires_at: clock.iso(signed.expiresAt),
          },
        }
      },
    })

    router.add({
      method: 'PUT',
      path: '/storage/uploads/{fileId}',
      auth: 'none',
      query: {type: 'object', properties: {expires: {type: 'string'}, signature: {type: 'string'}}},
      body: 'raw',
      maxBodyBytes: MAX_FILE_BYTES,
      limitByAddress: true,
      responses: {200: {description: 'Stored.'}},
      handler: async (req) => {
        const id = req.params.fileId
        const check = this.signer.check(`/storage/uploads/${id}`, req.query)
        if (check === 'invalid') throw new ApiError(403, 'invalid_signature', t('sandboxInvoices.files.badSignature'))
        if (check === 'expired') throw new ApiError(403, 'url_expired', t('sandboxInvoices.files.expired'))
        const environment = idEnvironment('file', id)
        const file = environment && this.collection(environment).get(id)
        if (!environment || !file) throw new ApiError(404, 'not_found', t('sandbox.error.notFound', {what: 'file', id}))
        const bytes = req.body as Buffer
        const declaredType = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
        if (declaredType !== file.content_type)
          throw validationError([{field: 'content-type', message: t('sandboxInvoices.files.contentType', {expected: file.content_type, got: declaredType || 'none'})}])
        if (bytes.length !== file.size)
          throw validationError([{field: 'body', message: t('sandboxInvoices.files.size', {expected: file.size, got: bytes.length})}])
        if (!IMAGE_SIGNATURES[file.content_type](bytes))
          throw validationError([{field: 'body', message: t('sandboxInvoices.files.notImage', {expected: file.content_type, got: sniffImage(bytes) ?? 'unknown'})}])
        // Dimensions and a full decode, in the document worker: never trust the renderer to cope later.
        const verdict = await this.documents.run({kind: 'image', type: file.content_type, bytes})
        if (!verdict.ok) {
          const message =
            verdict.reason === 'dimensions'
              ? t('sandboxInvoices.files.dimensions', {width: verdict.width, height: verdict.height, max: MAX_IMAGE_SIDE})
              : verdict.reason === 'pixels'
                ? t('sandboxInvoices.files.pixels', {width: verdict.width, height: verdict.height, pixels: grouped(verdict.width * verdict.height), max: grouped(MAX_IMAGE_PIXELS)})
              : verdict.reason === 'signature'
                ? t('sandboxInvoices.files.notImage', {expected: file.content_type, got: verdict.got})
                : t('sandboxInvoices.files.undecodable', {expected: file.content_type})
          throw validationError([{field: 'body', message}])
        }
        this.collection(environment).update(id, (f) => {
          f.status = 'uploaded'
          f.uploaded_at = clock.iso()
          f.data = bytes.toString('base64')
        })
        return {status: 200, body: {file_url: this.fileUrl(file), size: bytes.length, content_type: file.content_type}}
      },
    })

    router.add({
      method: 'GET',
      path: '/storage/files/{fileId}/{filename}',
      auth: 'none',
      limitByAddress: true,
      responses: {200: {description: 'The file.'}},
      handler: (req) => {
        const id = req.params.fileId
        const environment = idEnvironment('file', id)
        const file = environment && this.find(environment, id)
        if (!environment || !file || file.status !== 'uploaded' || urlName(file.filename) !== req.params.filename)
          throw new ApiError(404, 'not_found', t('sandbox.error.notFound', {what: 'file', id}))
        return {status: 200, raw: this.bytes(file)!, contentType: file.content_type, headers: {'cache-control': 'public, max-age=3600'}}
      },
    })
  }
}

/** 8699840 → 8,699,840 (the API's messages are English). */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}
