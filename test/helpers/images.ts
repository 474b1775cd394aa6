/**
 * Images for upload tests: real ones (encoded by pngjs and jpeg-js, a lossless WebP header) and
 * crafted ones (a valid PNG signature and chunks around data that is not what they claim).
 */
import {crc32, deflateSync} from 'node:zlib'
import jpeg from 'jpeg-js'
import {PNG} from 'pngjs'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  // zlib's CRC-32 is PNG's (ISO 3309): in C, where a loop here took ~50 ms for a 5 MB chunk.
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A PNG whose chunks and CRCs are right but whose IHDR and IDAT say what the caller wants (RGBA, 8 bits). */
export function craftedPng(width: number, height: number, idat: Buffer): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = 6
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))])
}

/** Valid signature, image data that is not zlib. */
export const PNG_NOT_ZLIB = craftedPng(16, 16, Buffer.from('this is not a zlib stream at all'))
/** Valid signature and zlib data, an IHDR declaring 60000 × 60000. */
export const PNG_HUGE = craftedPng(60_000, 60_000, deflateSync(Buffer.alloc(64)))

export function realPng(width = 8, height = 8): Buffer {
  const png = new PNG({width, height})
  for (let i = 0; i < png.data.length; i += 4) png.data.set([200, 80, (i / 4) % 255, 255], i)
  return PNG.sync.write(png)
}

export function realJpeg(width = 8, height = 8): Buffer {
  const data = Buffer.alloc(width * height * 4, 128)
  return Buffer.from(jpeg.encode({data, width, height}, 80).data)
}

/** A lossless WebP (VP8L) header of the given dimensions: what the sandbox checks of a WebP. */
export function webp(width = 8, height = 8): Buffer {
  const bits = (width - 1) | ((height - 1) << 14)
  const vp8l = Buffer.concat([Buffer.from([0x2f]), Buffer.from([bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, (bits >>> 24) & 0xff]), Buffer.alloc(16)])
  const body = Buffer.concat([Buffer.from('WEBP'), chunk4('VP8L', vp8l)])
  const size = Buffer.alloc(4)
  size.writeUInt32LE(body.length)
  return Buffer.concat([Buffer.from('RIFF'), size, body])
}

function chunk4(type: string, data: Buffer): Buffer {
  const size = Buffer.alloc(4)
  size.writeUInt32LE(data.length)
  return Buffer.concat([Buffer.from(type, 'latin1'), size, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)])
}

/** A real PNG of exactly `size` bytes: an ancillary chunk (`tEXt`) before IEND pads it. */
export function paddedPng(size: number): Buffer {
  const png = realPng()
  const iend = png.length - 12
  const pad = size - png.length - 12
  if (pad < 5) throw new RangeError(`a padded PNG needs at least ${png.length + 17} bytes`)
  const text = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(pad - 8, 0x61)])
  return Buffer.concat([png.subarray(0, iend), chunk('tEXt', text), png.subarray(iend)])
}
