/** What uploaded bytes claim to be, by their first bytes (the cheap check, before any decoding). */
import {IMAGE_TYPES, type ImageType} from './schemas.js'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

export const IMAGE_SIGNATURES: Record<ImageType, (bytes: Uint8Array) => boolean> = {
  'image/png': (b) => b.length >= 8 && PNG_SIGNATURE.equals(b.subarray(0, 8)),
  'image/jpeg': (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) => b.length >= 12 && Buffer.from(b.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(b.subarray(8, 12)).toString('latin1') === 'WEBP',
}

/** What the bytes are, by their signature. */
export function sniffImage(bytes: Uint8Array): ImageType | undefined {
  return IMAGE_TYPES.find((type) => IMAGE_SIGNATURES[type](bytes))
}
