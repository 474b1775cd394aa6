/** `svc files upload PATH`, and the `--cover FILE|URL` of invoice create/import. */
import type {Context} from '../context.js'
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {checkStorageUrl, checkUploadFile, formatBytes, looksLikeUrl, rememberStorageOrigin, uploadFile, type CheckedFile} from './upload.js'

/** A cover as given: a local file still to upload, or a URL already on the storage host. */
export type Cover = {file: CheckedFile} | {url: string}

/** Checks `--cover` locally (no request): a file by type and size, a URL by its host. */
export async function readCover(ctx: Context, value: string, field = 'cover'): Promise<Cover> {
  if (looksLikeUrl(value)) {
    return {url: await checkStorageUrl(value, {configDir: ctx.configDir, baseUrl: ctx.credentials().baseUrl, field})}
  }
  return {file: await checkUploadFile(value, field)}
}

/** The `file_url` for a cover: uploads the file when it is one. */
export async function coverUrl(ctx: Context, cover: Cover): Promise<string> {
  if ('url' in cover) return cover.url
  return (await upload(ctx, cover.file)).file_url
}

async function upload(ctx: Context, file: CheckedFile) {
  const client = await ctx.client()
  const service = await ctx.service()
  return ctx.io.withSpinner(t('files.uploading', {file: file.filename, size: formatBytes(file.size)}), async () => {
    const answer = await uploadFile(client, service, file)
    await rememberStorageOrigin(ctx.configDir, ctx.credentials().baseUrl, answer.file_url)
    return answer
  })
}

export async function filesUpload(ctx: Context, path: string): Promise<void> {
  const file = await checkUploadFile(path, 'file').catch((error: unknown) => {
    // PATH is an argument: named as the usage line shows it, not as a --file flag there is not.
    if (error instanceof InputError) throw new InputError(error.message.split('--file').join('PATH'), {field: 'path'})
    throw error
  })
  const answer = await upload(ctx, file)
  await ctx.io.result({file_url: answer.file_url, filename: file.filename, content_type: file.contentType, size: file.size}, () => {
    ctx.io.out(answer.file_url)
    ctx.io.err(t('files.uploaded', {file: file.filename, size: formatBytes(file.size)}))
  })
}
