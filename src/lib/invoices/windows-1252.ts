/**
 * Windows-1252 both ways, with the code page's own table. Node's `TextDecoder('windows-1252')`
 * cannot be trusted for it: a whole-buffer decode takes a Latin-1 shortcut (0x92 → U+0092, where
 * French Excel means `’`), while a streamed one does not. So svc reads and writes the code page
 * itself:
 * - 0x00–0x7F and 0xA0–0xFF are the same code points (as Latin-1);
 * - 0x80–0x9F are the letters and marks below (`€ … ’ “ ” Œ œ`…);
 * - the five bytes the code page leaves unassigned (0x81 0x8D 0x8F 0x90 0x9D) are read as the C1
 *   control characters of the same number, as Windows and the WHATWG table do: no letter is made
 *   up, and the import refuses them as control characters with the column named;
 * - writing, a character the code page lacks becomes `?`, except the narrow no-break space French
 *   typography puts before `:` (U+202F), which becomes a no-break space (0xA0). Text read from a
 *   Windows-1252 file always goes back as its own bytes.
 */

/** 0x80–0x9F. */
const HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ'

const BYTE_OF = new Map<number, number>([...HIGH].map((c, i) => [c.charCodeAt(0), 0x80 + i]))
BYTE_OF.set(0x202f, 0xa0)

const C1 = /[\u0080-\u009f]/g

/** Bytes as Windows-1252 text; every byte is a character (nothing is ever refused or replaced here). */
export function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  return latin1.replace(C1, (c) => HIGH[c.charCodeAt(0) - 0x80]!)
}

/** Text as Windows-1252 bytes: a character the code page lacks is `?` (U+202F a no-break space). */
export function encodeWindows1252(text: string): Buffer {
  const out = Buffer.alloc(text.length)
  let length = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const high = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length
    if (high) i += 1 // A character beyond the BMP is one `?`, not two.
    out[length++] = code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : (BYTE_OF.get(code) ?? 0x3f)
  }
  return out.subarray(0, length)
}

/** A decoder for an encoding: Windows-1252 with the table above (it keeps no state between chunks), others Node's. */
export function textDecoder(encoding: string): {decode(bytes?: Uint8Array, options?: {stream?: boolean}): string} {
  if (encoding === 'windows-1252') return {decode: (bytes) => (bytes ? decodeWindows1252(bytes) : '')}
  return new TextDecoder(encoding)
}
