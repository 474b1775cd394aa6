/**
 * The `--verbose` HTTP trace. Every line goes through the redactor: the API key is shown only as
 * `maskSecret(key)`, in the X-API-Key header and anywhere else it might appear (a URL, an echoed
 * body excerpt). Other credentials in headers are hidden whole.
 */
import {maskSecret} from '../../contract/keys.js'
import {t} from '../i18n/index.js'
import type {HeaderBag} from './pacer.js'

export type TraceSink = (line: string) => void

const HIDDEN_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie'])

/** A function that removes the key (and only shows its mask) from any text. */
export function createRedactor(secret: string | undefined): (text: string) => string {
  if (!secret) return (text) => text
  const mask = maskSecret(secret)
  return (text) => (text.includes(secret) ? text.split(secret).join(mask) : text)
}

export class Tracer {
  constructor(
    private readonly sink: TraceSink | undefined,
    readonly redact: (text: string) => string,
  ) {}

  get enabled(): boolean {
    return this.sink !== undefined
  }

  line(text: string): void {
    if (this.sink) this.sink(this.redact(text))
  }

  headers(direction: '>' | '<', headers: HeaderBag): void {
    if (!this.sink) return
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue
      for (const one of Array.isArray(value) ? value : [value]) {
        this.line(`${direction} ${name}: ${displayHeader(name, one)}`)
      }
    }
  }
}

function displayHeader(name: string, value: string): string {
  const lower = name.toLowerCase()
  if (lower === 'x-api-key') return maskSecret(value)
  if (HIDDEN_HEADERS.has(lower)) return '[redacted]'
  return value
}

export function traceRequestLine(method: string, url: string, attempt: number, maxAttempts: number): string {
  const suffix = maxAttempts > 1 ? ` (attempt ${attempt}/${maxAttempts})` : ''
  return t('api.trace.request', {method, url, attempt: suffix})
}
