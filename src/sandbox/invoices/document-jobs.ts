/**
 * The work the document worker does (document-worker.ts): render an invoice PDF, inspect an
 * uploaded image, make a cover small enough for the PDF. All are CPU-bound and run third-party
 * decoders on bytes a stranger sent, so they run off the server's event loop, where a decoder's
 * crash ends the worker, not the sandbox.
 */
import {downscaleCover, inspectImage, type ImageVerdict} from './images.js'
import {renderInvoice, type PdfInput} from './pdf.js'
import type {ImageType} from './schemas.js'

export type DocumentJob = {kind: 'pdf'; input: PdfInput} | {kind: 'image'; type: ImageType; bytes: Uint8Array} | {kind: 'cover'; type: ImageType; bytes: Uint8Array}

export interface DocumentJobResults {
  /** The PDF, and the code points its fonts could not draw (a placeholder shows instead). */
  pdf: {bytes: Uint8Array; missing: string[]}
  image: ImageVerdict
  cover: Uint8Array
}

export async function runDocumentJob(job: DocumentJob): Promise<DocumentJobResults[DocumentJob['kind']]> {
  if (job.kind === 'pdf') {
    const input = job.input.cover ? {...job.input, cover: Buffer.from(job.input.cover)} : job.input
    const {pdf, missing} = await renderInvoice(input)
    return {bytes: new Uint8Array(pdf), missing}
  }
  if (job.kind === 'cover') return downscaleCover(job.bytes, job.type)
  return inspectImage(job.bytes, job.type)
}
