/**
 * What an uploaded image is, checked before it is stored (docs/service.md, "Invoices": "PNG, JPEG or WebP
 * whose content is checked at upload: signature, dimensions at most 10 000 × 10 000, decodable",
 * and a decoded size within the budget: MAX_IMAGE_PIXELS, an A4 page at 300 dpi).
 * Dimensions come from the header (image-size) before anything is decoded, so a header declaring
 * 60 000 × 60 000, or 10 000 × 10 000 of zeros, is refused without allocating for it; then PNG and JPEG are decoded in full by
 * pngjs and jpeg-js, so that nothing the renderer later meets in them is a surprise. WebP is
 * checked by its header and dimensions (pdfkit does not embed WebP, so nothing decodes it).
 *
 * Runs in the document worker (document-worker.ts): decoding is CPU-bound and a decoder's failure
 * must not reach the server's event loop.
 */
import {inflateSync} from 'node:zlib'
import {imageSize} from 'image-size'
import jpeg from 'jpeg-js'
import {PNG} from 'pngjs'
import {MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE} from '../../contract/limits.js'
import {IMAGE_SIGNATURES, sniffImage} from './image-signature.js'
import type {ImageType} from './schemas.js'

export type ImageVerdict =
  | {ok: true; width: number; height: number}
  | {ok: false; reason: 'signature'; got: string}
  | {ok: false; reason: 'dimensions'; width: number; height: number}
  | {ok: false; reason: 'pixels'; width: number; height: number}
  | {ok: false; reason: 'undecodable'}

export function inspectImage(bytes: Uint8Array, type: ImageType): ImageVerdict {
  if (!IMAGE_SIGNATURES[type](bytes)) return {ok: false, reason: 'signature', got: sniffImage(bytes) ?? 'unknown'}
  let width: number | undefined
  let height: number | undefined
  try {
    const size = imageSize(bytes)
    width = size.width
    height = size.height
  } catch {
    return {ok: false, reason: 'undecodable'}
  }
  if (!width || !height) return {ok: false, reason: 'undecodable'}
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) return {ok: false, reason: 'dimensions', width, height}
  // The decoded size, from the header: refused before anything allocates for it.
  if (width * height > MAX_IMAGE_PIXELS) return {ok: false, reason: 'pixels', width, height}
  try {
    if (type === 'image/png') {
      // pngjs's own inflate accepts data that is not zlib at all (and hands back zeros): check the stream first.
      if (!pngDataInflates(bytes)) return {ok: false, reason: 'undecodable'}
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
      if (png.width !== width || png.height !== height) return {ok: false, reason: 'undecodable'}
    } else if (type === 'image/jpeg') {
      const image = jpeg.decode(bytes, {tolerantDecoding: false, maxResolutionInMP: (MAX_IMAGE_SIDE * MAX_IMAGE_SIDE) / 1e6, maxMemoryUsageInMB: 1024})
      if (image.width !== width || image.height !== height) return {ok: false, reason: 'undecodable'}
    }
  } catch {
    return {ok: false, reason: 'undecodable'}
  }
  return {ok: true, width, height}
}

const CHANNELS: Record<number, number> = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}

/**
 * The IDAT stream is zlib and inflates to exactly the size IHDR announces (for a non-interlaced
 * image; an interlaced one is left to pngjs, whose path for it inflates strictly). Never inflates
 * more than that size plus one byte.
 */
function pngDataInflates(bytes: Uint8Array): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.length < 33 || view.toString('latin1', 12, 16) !== 'IHDR') return false
  const width = view.readUInt32BE(16)
  const height = view.readUInt32BE(20)
  const depth = view[24]
  const channels = CHANNELS[view[25]]
  const interlaced = view[28] !== 0
  if (!channels) return false
  const parts: Buffer[] = []
  for (let at = 8; at + 12 <= view.length; ) {
    const length = view.readUInt32BE(at)
    const kind = view.toString('latin1', at + 4, at + 8)
    if (at + 12 + length > view.length) return false
    if (kind === 'IDAT') parts.push(view.subarray(at + 8, at + 8 + length))
    if (kind === 'IEND') break
    at += 12 + length
  }
  if (parts.length === 0) return false
  if (interlaced) return true
  const expected = (Math.ceil((width * channels * depth) / 8) + 1) * height
  try {
    return inflateSync(Buffer.concat(parts), {maxOutputLength: expected + 1}).length === expected
  } catch {
    return false
  }
}

/**
 * The box a cover is drawn in on the PDF (pdf.ts: the page's width within its margins × 120 pt)
 * at 300 dpi: more pixels than that are never seen.
 */
export const COVER_BOX = {width: 2146, height: 500}

/**
 * A cover made small enough for the PDF (COVER_BOX), once per cover file (invoices.ts keeps it):
 * decoded, averaged down (each output pixel the mean of the source pixels it covers), encoded
 * again as PNG (JPEG for a JPEG; RGB without alpha when every pixel is opaque). An image already
 * within the box is returned as it is.
 */
export function downscaleCover(bytes: Uint8Array, type: ImageType): Uint8Array {
  if (type !== 'image/png' && type !== 'image/jpeg') return bytes
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const source = type === 'image/png' ? PNG.sync.read(buffer) : jpeg.decode(buffer, {useTArray: true, formatAsRGBA: true})
  const {width, height} = source
  const scale = Math.min(1, COVER_BOX.width / width, COVER_BOX.height / height)
  if (scale === 1) return bytes
  const w = Math.max(1, Math.round(width * scale))
  const h = Math.max(1, Math.round(height * scale))
  const out = Buffer.alloc(w * h * 4)
  const data = source.data
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor((y * height) / h)
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * height) / h))
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor((x * width) / w)
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * width) / w))
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * width + sx) * 4
          r += data[i]!
          g += data[i + 1]!
          b += data[i + 2]!
          a += data[i + 3]!
        }
      }
      const n = (y1 - y0) * (x1 - x0)
      const o = (y * w + x) * 4
      out[o] = r / n
      out[o + 1] = g / n
      out[o + 2] = b / n
      out[o + 3] = a / n
    }
  }
  if (type === 'image/jpeg') return new Uint8Array(jpeg.encode({data: out, width: w, height: h}, 85).data)
  const png = new PNG({width: w, height: h})
  out.copy(png.data)
  // An opaque cover (most photos) is written without its alpha channel: pdfkit then embeds the
  // PNG's compressed data as it is, where an alpha channel makes it decode, split and compress the
  // image again for every PDF (~50 ms of CPU each for a cover of the box's size).
  return new Uint8Array(PNG.sync.write(png, opaque(out) ? {colorType: 2} : {}))
}

/** Whether every pixel of RGBA `data` is fully opaque. */
function opaque(data: Buffer): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false
  return true
}
