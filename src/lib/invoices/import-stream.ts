/**
 * `svc invoice import`, the file read as a stream: bytes in chunks of 64 KiB, decoded as they come
 * (UTF-8 checked by the decoder, so that a file that is not UTF-8 is found at its first bad line
 * without holding the file), then cut into CSV records or JSON lines. Nothing grows with the
 * file: a cell is kept up to `CELL_CAP` characters and a record (a line, or the lines a quoted
 * cell spans) up to `LINE_CAP`; past that, the rest is counted and dropped, and the record comes
 * out marked `over` (the row's error names the column and the line). So a 100 MB cell costs the
 * reader its cap, not 100 MB (docs/import.md, "Streamed"). Records come out `BATCH` at a time.
 *
 * PURE of the CLI: no context, no output. import-source.ts turns records into rows.
 */
import {createReadStream} from 'node:fs'
import {open, stat} from 'node:fs/promises'

import type {Encoding} from './import-text.js'
import {textDecoder} from './windows-1252.js'

/**
 * Records handed on at a time: one step of the stream each, not one per record (a step costs
 * more than checking a record), and not a whole chunk's (the rows of a batch are alive until it
 * has been checked and listed; the garbage collector's young space copies what is alive when it
 * runs, so batches of a chunk's thousand rows cost it four times the work of the rows themselves).
 */
export const BATCH = 64

/** Characters a cell may hold (a long `items` cell of 100 entries is a few KB). */
export const CELL_CAP = 65_536
/** Characters a record (a line, or the lines of a quoted cell) or a JSON line may hold. */
export const LINE_CAP = 1_048_576
/** Bytes of a `.json` array, which JSON.parse reads whole (JSON lines stream instead). */
export const JSON_FILE_CAP = 64 * 1024 * 1024

export interface Over {
  kind: 'cell' | 'line'
  /** The 0-based column of the cell over its cap. */
  column?: number
  /** Characters it had. */
  length: number
}

export interface RawRecord {
  /** 1-based line where the record starts. */
  line: number
  fields: string[]
  over?: Over
}

export interface RawLine {
  line: number
  text: string
  over?: Over
}

/** Bytes that are not UTF-8, at this line (the import then reads the file as Windows-1252, or refuses it). */
export class NotUtf8Error extends Error {
  constructor(readonly line: number) {
    super(`not UTF-8 at line ${line}`)
  }
}

/** A quoted cell never closed, from this line to the end of the file. */
export class UnterminatedQuoteError extends Error {
  constructor(readonly line: number) {
    super('unterminated quoted field')
  }
}

/** How the file starts: its BOM, if any, names its encoding. */
export async function readStart(path: string): Promise<{bomEncoding?: Encoding; bomLength: number; head: Buffer; size: number}> {
  const handle = await open(path, 'r')
  try {
    const head = Buffer.alloc(4096)
    const {bytesRead} = await handle.read(head, 0, head.length, 0)
    const bytes = head.subarray(0, bytesRead)
    const size = (await stat(path)).size
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return {bomEncoding: 'utf-16le', bomLength: 2, head: bytes, size}
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return {bomEncoding: 'utf-16be', bomLength: 2, head: bytes, size}
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return {bomEncoding: 'utf-8', bomLength: 3, head: bytes, size}
    return {bomLength: 0, head: bytes, size}
  } finally {
    await handle.close()
  }
}

/** UTF-8 checked across chunk boundaries; counts lines (LF, CRLF, a lone CR) to say where it fails. */
class Utf8Check {
  private need = 0
  private lead = 0
  private line = 1
  private lastCR = false

  check(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!
      if (this.need > 0) {
        if ((b & 0xc0) !== 0x80) throw new NotUtf8Error(this.line)
        // Overlong three- and four-byte forms, surrogates, past U+10FFFF: checked on the second byte.
        if (this.lead !== 0) {
          const lead = this.lead
          this.lead = 0
          if ((lead === 0xe0 && b < 0xa0) || (lead === 0xed && b > 0x9f) || (lead === 0xf0 && b < 0x90) || (lead === 0xf4 && b > 0x8f)) throw new NotUtf8Error(this.line)
        }
        this.need -= 1
        continue
      }
      if (b < 0x80) {
        if (b === 0x0a) {
          if (!this.lastCR) this.line += 1
        } else if (b === 0x0d) this.line += 1
        this.lastCR = b === 0x0d
        continue
      }
      this.lastCR = false
      const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1
      if (need < 0) throw new NotUtf8Error(this.line)
      this.need = need
      this.lead = need > 1 ? b : 0
    }
  }

  end(): void {
    if (this.need > 0) throw new NotUtf8Error(this.line)
  }
}

/**
 * The file's text in chunks, the BOM left out. `checkUtf8`: bytes that are not UTF-8 throw
 * NotUtf8Error (the caller reads the file again as Windows-1252, or refuses it). The decoder checks
 * them itself (fatal: at native speed, across chunks); the line of the first bad byte is counted
 * only then, by reading the file again up to it (`firstBadLine`).
 */
export async function* textChunks(path: string, encoding: Encoding, options: {skip: number; checkUtf8: boolean}): AsyncGenerator<string> {
  const fatal = options.checkUtf8 && encoding === 'utf-8'
  const decoder = fatal ? new TextDecoder('utf-8', {fatal: true}) : textDecoder(encoding)
  const stream = createReadStream(path, {start: options.skip, highWaterMark: 64 * 1024})
  const decode = async (chunk?: Buffer): Promise<string> => {
    try {
      return chunk ? decoder.decode(chunk, {stream: true}) : decoder.decode()
    } catch (error) {
      if (fatal && error instanceof TypeError) throw new NotUtf8Error(await firstBadLine(path, options.skip))
      throw error
    }
  }
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const text = await decode(chunk)
      if (text !== '') yield text
    }
    const rest = await decode()
    if (rest !== '') yield rest
  } finally {
    stream.destroy()
  }
}

/** The line of a file's first byte that is not UTF-8 (the file read again, byte by byte). */
async function firstBadLine(path: string, skip: number): Promise<number> {
  const check = new Utf8Check()
  const stream = createReadStream(path, {start: skip, highWaterMark: 64 * 1024})
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) check.check(chunk)
    check.end()
  } catch (error) {
    if (error instanceof NotUtf8Error) return error.line
    throw error
  } finally {
    stream.destroy()
  }
  // The decoder refused what the check takes: said at the file's start rather than not at all.
  return 1
}

/**
 * RFC 4180 records from text chunks, with the caps. Same reading as csv.ts's parseCsv (blank lines
 * skipped, a quote inside an unquoted cell kept, line breaks inside quotes belong to the cell).
 */
export async function* csvRecords(chunks: AsyncIterable<string>, delimiter: string): AsyncGenerator<RawRecord[]> {
  let fields: string[] = []
  let field = ''
  let fieldLength = 0
  let recordLength = 0
  let over: Over | undefined
  let line = 1
  let recordLine = 1
  let quoted = false
  let started = false
  let afterCR = false
  let pendingQuote = false
  let out: RawRecord[] = []

  const add = (text: string) => {
    fieldLength += text.length
    recordLength += text.length
    if (over) return
    if (recordLength > LINE_CAP) {
      over = {kind: 'line', length: recordLength}
      fields = []
      field = ''
    } else if (fieldLength > CELL_CAP) {
      over = {kind: 'cell', column: fields.length, length: fieldLength}
      field = ''
    } else field += text
  }
  const endField = () => {
    if (over?.kind === 'cell' && over.column === fields.length) over.length = fieldLength
    if (over?.kind === 'line') over.length = recordLength
    if (!over || over.kind === 'cell') fields.push(field)
    field = ''
    fieldLength = 0
    started = false
  }
  const endRecord = () => {
    endField()
    if (over) out.push({line: recordLine, fields: over.kind === 'line' ? [] : fields, over})
    else if (!(fields.length === 1 && fields[0] === '')) out.push({line: recordLine, fields})
    fields = []
    recordLength = 0
    over = undefined
  }

  for await (const text of chunks) {
    let i = 0
    let run = 0
    const flush = (to: number) => {
      if (to > run) add(text.slice(run, to))
    }
    if (pendingQuote) {
      // A `"` ended the previous chunk inside quotes: `""` (one quote) or the closing quote.
      pendingQuote = false
      if (text[0] === '"') {
        add('"')
        i = 1
      } else quoted = false
    }
    run = i
    while (i < text.length) {
      const c = text.charCodeAt(i)
      if (afterCR) {
        afterCR = false
        if (c === 0x0a) {
          if (quoted) {
            flush(i)
            add('\n')
          }
          i += 1
          run = i
          continue
        }
      }
      if (quoted) {
        if (c === 0x22) {
          flush(i)
          if (i + 1 >= text.length) {
            pendingQuote = true
            i += 1
            run = i
            continue
          }
          if (text.charCodeAt(i + 1) === 0x22) {
            add('"')
            i += 2
          } else {
            quoted = false
            i += 1
          }
          run = i
          continue
        }
        if (c === 0x0d || c === 0x0a) {
          line += 1
          afterCR = c === 0x0d
        }
        i += 1
        continue
      }
      if (c === 0x22 && !started) {
        flush(i)
        quoted = true
        started = true
        i += 1
        run = i
        continue
      }
      if (text[i] === delimiter) {
        flush(i)
        endField()
        i += 1
        run = i
        continue
      }
      if (c === 0x0d || c === 0x0a) {
        flush(i)
        endRecord()
        afterCR = c === 0x0d
        line += 1
        recordLine = line
        i += 1
        run = i
        if (out.length >= BATCH) {
          yield out
          out = []
        }
        continue
      }
      started = true
      i += 1
    }
    flush(i)
    if (out.length > 0) {
      yield out
      out = []
    }
  }
  if (pendingQuote) quoted = false
  if (quoted) throw new UnterminatedQuoteError(recordLine)
  if (field !== '' || fields.length > 0 || started || fieldLength > 0) endRecord()
  if (out.length > 0) yield out
}

/** JSON lines: each line's text (blank lines skipped), a line over LINE_CAP marked and dropped. */
export async function* textLines(chunks: AsyncIterable<string>): AsyncGenerator<RawLine[]> {
  let current = ''
  let length = 0
  let line = 1
  let afterCR = false
  for await (const text of chunks) {
    let run = 0
    const out: RawLine[] = []
    const add = (to: number) => {
      if (to <= run) return
      length += to - run
      if (length <= LINE_CAP) current += text.slice(run, to)
      else current = ''
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c !== 0x0a && c !== 0x0d) {
        afterCR = false
        continue
      }
      add(i)
      run = i + 1
      if (c === 0x0a && afterCR) {
        afterCR = false
        continue
      }
      afterCR = c === 0x0d
      if (length > LINE_CAP) out.push({line, text: '', over: {kind: 'line', length}})
      else if (current.trim() !== '') out.push({line, text: current})
      current = ''
      length = 0
      line += 1
      if (out.length >= BATCH) yield out.splice(0)
    }
    add(text.length)
    if (out.length > 0) yield out
  }
  if (length > LINE_CAP) yield [{line, text: '', over: {kind: 'line', length}}]
  else if (current.trim() !== '') yield [{line, text: current}]
}
