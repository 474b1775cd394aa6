/**
 * `svc invoice import`, the encodings, and a file's bytes read whole as text (the results file
 * read back by a re-run; the import file itself is streamed by import-stream.ts, which reads the
 * same way) the way spreadsheets save it: UTF-8
 * (with or without a BOM), UTF-16 with a BOM (Excel's "Unicode text"), and anything else as
 * Windows-1252 (Excel on Windows, read with the code page's own table: windows-1252.ts), which is said with the file and the first line that is not
 * UTF-8. `--encoding` chooses instead, and then bytes that are not in that encoding are refused
 * (exit 2, the line named) rather than turned into replacement characters. A replacement
 * character (U+FFFD) already in the file is refused too: it stands for a letter lost earlier, and
 * must not reach a customer's name.
 */
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {decodeWindows1252, textDecoder} from './windows-1252.js'

export const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const
export type Encoding = (typeof ENCODINGS)[number]

export interface DecodedFile {
  text: string
  encoding: Encoding
  /** Set when the file was not UTF-8 and was read as Windows-1252 without being asked: the first such line. */
  guessedAt?: number
}

/** `--encoding` as given (`utf8`, `UTF-8`, `cp1252`, `latin1`, `utf16`…), or an error naming the flag. */
export function parseEncoding(raw: string): Encoding {
  const name = raw.trim().toLowerCase().replace(/_/g, '-')
  const aliases: Record<string, Encoding> = {
    'utf-8': 'utf-8',
    utf8: 'utf-8',
    'utf-16': 'utf-16le',
    utf16: 'utf-16le',
    'utf-16le': 'utf-16le',
    utf16le: 'utf-16le',
    'utf-16be': 'utf-16be',
    utf16be: 'utf-16be',
    'windows-1252': 'windows-1252',
    cp1252: 'windows-1252',
    latin1: 'windows-1252',
    'iso-8859-1': 'windows-1252',
    ansi: 'windows-1252',
  }
  const found = aliases[name]
  if (!found) throw new InputError(t('invoice.import.encodingFlag', {value: raw, accepted: ENCODINGS.join(', ')}), {field: 'encoding'})
  return found
}

/** 1-based line of byte offset `at` (LF, CRLF or a lone CR end a line). */
function lineOfOffset(bytes: Uint8Array, at: number): number {
  let line = 1
  for (let i = 0; i < at; i++) {
    if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) line += 1
  }
  return line
}

/** The first byte offset that is not valid UTF-8, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]!
    if (b < 0x80) {
      i += 1
      continue
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1
    if (need < 0 || i + need >= bytes.length) return i
    for (let k = 1; k <= need; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i
    // Overlong three-byte forms and surrogates, overlong or too-large four-byte forms.
    const second = bytes[i + 1]!
    if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f) || (b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) return i
    i += need + 1
  }
  return -1
}

function decodeStrict(bytes: Uint8Array, encoding: Encoding, label: string, path: string): string {
  if (encoding === 'utf-8') {
    const bad = firstInvalidUtf8(bytes)
    if (bad >= 0) throw new InputError(t('invoice.import.notEncoding', {path, line: lineOfOffset(bytes, bad), encoding: label}), {field: 'encoding'})
  }
  return textDecoder(encoding).decode(bytes)
}

/** The file's bytes as text (BOM removed), and how they were read. */
export function decodeImportFile(bytes: Uint8Array, path: string, chosen?: Encoding): DecodedFile {
  const b0 = bytes[0]
  const b1 = bytes[1]
  let result: DecodedFile
  if (chosen) {
    let body = bytes
    if (chosen === 'utf-8' && b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf) body = bytes.subarray(3)
    if (chosen === 'utf-16le' && b0 === 0xff && b1 === 0xfe) body = bytes.subarray(2)
    if (chosen === 'utf-16be' && b0 === 0xfe && b1 === 0xff) body = bytes.subarray(2)
    result = {text: decodeStrict(body, chosen, chosen.toUpperCase(), path), encoding: chosen}
  } else if (b0 === 0xff && b1 === 0xfe) {
    result = {text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le'}
  } else if (b0 === 0xfe && b1 === 0xff) {
    result = {text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be'}
  } else {
    const body = b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes
    const bad = firstInvalidUtf8(body)
    if (bad < 0) result = {text: new TextDecoder('utf-8').decode(body), encoding: 'utf-8'}
    else result = {text: decodeWindows1252(body), encoding: 'windows-1252', guessedAt: lineOfOffset(body, bad)}
  }
  // A text decoder leaves a BOM it was not told about: drop it.
  if (result.text.charCodeAt(0) === 0xfeff) result.text = result.text.slice(1)
  const replacement = result.text.indexOf('\uFFFD')
  if (replacement >= 0) {
    const line = result.text.slice(0, replacement).split(/\r\n|\n|\r/).length
    throw new InputError(t('invoice.import.replacementChar', {path, line}), {field: 'file'})
  }
  return result
}
