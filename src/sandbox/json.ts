/**
 * Request bodies read as the contract says (docs/service.md, "Limits": the request body), which
 * JSON.parse cannot: bytes that are not UTF-8 are refused, never replaced; nesting
 * deeper than MAX_JSON_DEPTH is refused before it can exhaust the stack; and a number is kept
 * exactly as written. JSON.parse turns 9007199254740993 into ...992 and 2.0e0 into 2, and (on
 * Node 20) its reviver cannot see the source text: so this small parser keeps every number that
 * is not a plain safe integer literal as a `NumberToken` with its text, and the validator
 * (schema.ts) refuses it where an integer is due, never rounding it.
 *
 * Objects are created without a prototype, so a key named `__proto__` is an own key like any
 * other (and an unknown field to the validator), never a prototype change.
 */
import {MAX_JSON_DEPTH} from '../contract/limits.js'
import type {MessageKey, Params} from './i18n/index.js'

/** A number as written, when it is not a plain safe integer (a fraction, an exponent, too many digits). */
export class NumberToken {
  constructor(
    readonly text: string,
    readonly value: number,
  ) {}

  toJSON(): string {
    return this.text
  }
}

export type ReadResult = {value: unknown} | {error: {key: MessageKey; params?: Params}}

const decoder = new TextDecoder('utf-8', {fatal: true})

/** Parse a request body; the error is a catalogue key (the field is always `body`). */
export function readJson(bytes: Uint8Array): ReadResult {
  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    return {error: {key: 'sandbox.validation.notUtf8'}}
  }
  try {
    return {value: new Parser(text).document()}
  } catch (error) {
    if (error instanceof SyntaxFailure) return {error: error.detail}
    throw error
  }
}

class SyntaxFailure extends Error {
  constructor(readonly detail: {key: MessageKey; params?: Params}) {
    super(detail.key)
  }
}

const INTEGER = /^-?(0|[1-9]\d*)$/
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y
const ESCAPES: Record<string, string> = {'"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t'}

class Parser {
  private at = 0

  constructor(private readonly text: string) {}

  document(): unknown {
    // A byte order mark is not JSON; TextDecoder already dropped a leading one.
    this.space()
    const value = this.value(1)
    this.space()
    if (this.at < this.text.length) this.fail()
    return value
  }

  private fail(): never {
    throw new SyntaxFailure({key: 'sandbox.validation.jsonSyntax', params: {position: this.at}})
  }

  private space(): void {
    while (this.at < this.text.length) {
      const c = this.text.charCodeAt(this.at)
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.at++
      else break
    }
  }

  private value(depth: number): unknown {
    const c = this.text[this.at]
    if (c === '{' || c === '[') {
      if (depth > MAX_JSON_DEPTH) throw new SyntaxFailure({key: 'sandbox.validation.tooDeep', params: {depth: MAX_JSON_DEPTH}})
      return c === '{' ? this.object(depth) : this.array(depth)
    }
    if (c === '"') return this.string()
    if (c === '-' || (c >= '0' && c <= '9')) return this.number()
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length
        return value
      }
    }
    return this.fail()
  }

  private object(depth: number): Record<string, unknown> {
    const object: Record<string, unknown> = Object.create(null)
    this.at++
    this.space()
    if (this.text[this.at] === '}') {
      this.at++
      return object
    }
    for (;;) {
      this.space()
      if (this.text[this.at] !== '"') this.fail()
      const key = this.string()
      this.space()
      if (this.text[this.at] !== ':') this.fail()
      this.at++
      this.space()
      object[key] = this.value(depth + 1)
      this.space()
      const next = this.text[this.at++]
      if (next === '}') return object
      if (next !== ',') {
        this.at--
        this.fail()
      }
    }
  }

  private array(depth: number): unknown[] {
    const array: unknown[] = []
    this.at++
    this.space()
    if (this.text[this.at] === ']') {
      this.at++
      return array
    }
    for (;;) {
      this.space()
      array.push(this.value(depth + 1))
      this.space()
      const next = this.text[this.at++]
      if (next === ']') return array
      if (next !== ',') {
        this.at--
        this.fail()
      }
    }
  }

  private string(): string {
    this.at++
    let out = ''
    let from = this.at
    for (;;) {
      if (this.at >= this.text.length) this.fail()
      const c = this.text.charCodeAt(this.at)
      if (c === 0x22) {
        out += this.text.slice(from, this.at)
        this.at++
        return out
      }
      // Raw control characters are not allowed inside a JSON string (escaped ones are, and the validator judges them).
      if (c < 0x20) this.fail()
      if (c === 0x5c) {
        out += this.text.slice(from, this.at)
        const escape = this.text[this.at + 1]
        if (escape === 'u') {
          const hex = this.text.slice(this.at + 2, this.at + 6)
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail()
          out += String.fromCharCode(Number.parseInt(hex, 16))
          this.at += 6
        } else if (escape !== undefined && escape in ESCAPES) {
          out += ESCAPES[escape]
          this.at += 2
        } else {
          this.fail()
        }
        from = this.at
        continue
      }
      this.at++
    }
  }

  private number(): number | NumberToken {
    NUMBER.lastIndex = this.at
    const match = NUMBER.exec(this.text)
    if (!match) return this.fail()
    const text = match[0]
    this.at += text.length
    const value = Number(text)
    if (INTEGER.test(text) && Number.isSafeInteger(value)) return value
    return new NumberToken(text, value)
  }
}
