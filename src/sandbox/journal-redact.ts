/**
 * Secrets out of the request journal's texts, by value, before an entry is stored (journal-ring.ts:
 * its URL, its headers' text, its bodies), so that every view of the journal (the list, one entry,
 * the live stream, the inspector, `serve --log`, the data file) is clean by construction.
 *
 * Every secret the sandbox mints carries its kind at its start (SECRET_PREFIXES,
 * src/contract/keys.ts): API keys (`svc_sk_test_`, `svc_sk_live_`), the admin token
 * (`svc_admin_`), the inspector's login codes (`svc_login_`), session cookies (`svc_session_`) and
 * CSRF tokens (`svc_csrf_`), replay stand-ins (`svc_replay_`), the signatures of upload and PDF
 * links (`svc_sig_`; one without it, from before, as the value of a `signature=` parameter),
 * webhook signing secrets (`whsec_`). A handset PIN is the value of a `pin` field (JSON) or
 * parameter (a query, a form). What the sandbox accepts without such a shape (an admin token given
 * at start) is known by its value (`add`). Each is masked as svc masks a secret anywhere: its
 * prefix, `…`, its last four (nothing of a value of 8 characters or fewer).
 *
 * Cost: a text is first tested against one regular expression of the anchors (the prefixes,
 * `signature=`, `pin`, the known values); only a text that has one is searched and rewritten.
 * Most texts have none: a URL, a JSON answer, a client's headers.
 */
import {SECRET_PREFIXES} from '../contract/keys.js'

/** Characters of a body looked at past the journal's body limit: a secret cut by the limit is still masked whole. */
export const MARGIN = 1024

/** The masked form of `rest` (what follows a secret's prefix). */
const tail = (rest: string): string => (rest.length <= 8 ? '…' : `…${rest.slice(-4)}`)

/** `…` as the bytes of its UTF-8 read as latin-1: the journal keeps header text as latin-1 bytes. */
export const ELLIPSIS_LATIN1 = Buffer.from('…').toString('latin1')

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const TOKEN_PREFIXES = SECRET_PREFIXES.filter((prefix) => prefix.startsWith('svc_')).map((prefix) => prefix.slice(4, -1))

/** The shapes, one alternative each; the groups: (prefix)(secret). */
const SHAPES = [
  `(svc_(?:${TOKEN_PREFIXES.join('|')})_)([A-Za-z0-9_-]+)`,
  '(whsec_)((?:[A-Za-z0-9+/]|%2[BbFf])+(?:=|%3[Dd]){0,2})',
  // A signature with its kind is the first shape's (its prefix kept).
  '(signature=(?!svc_)|(?:^|[?&])pin=)([^&\\s"\'<>\\\\\\0]+)',
  '("pin"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|-?[0-9.]+)',
]
const ANCHORS = ['svc_', 'whsec_', 'signature=', 'pin']

export class Redactor {
  private values: string[] = []
  private anchors = new RegExp(ANCHORS.join('|'))
  private shapes = new RegExp(SHAPES.join('|'), 'g')

  /** A secret known by its value (8 characters at least: a shorter one would mask ordinary text). */
  add(value: string | undefined): void {
    if (!value || value.length < 8 || this.values.includes(value)) return
    this.values.push(value)
    // The longest first: a value that holds another is masked whole.
    this.values.sort((a, b) => b.length - a.length)
    const known = this.values.map(escape)
    this.anchors = new RegExp([...ANCHORS, ...known].join('|'))
    this.shapes = new RegExp([`(${known.join('|')})()`, ...SHAPES].join('|'), 'g')
  }

  /**
   * `text` with every secret masked (the same string when it holds none). `limit`: only so many
   * characters (and a margin) are kept: the text returned is cut when it was longer and held one.
   */
  text(text: string, ellipsis = '…', limit = Number.POSITIVE_INFINITY): string {
    const head = text.length > limit + MARGIN ? text.slice(0, limit + MARGIN) : text
    if (!this.anchors.test(head)) return text
    return head.replace(this.shapes, (...groups: Array<string | undefined>) => {
      // Pairs of groups: (prefix)(secret) of the alternative that matched.
      for (let i = 1; i + 1 < groups.length; i += 2) {
        const prefix = groups[i]
        const secret = groups[i + 1]
        if (prefix === undefined || secret === undefined) continue
        // A value known whole (its own group, the second one empty).
        if (secret === '' && i === 1 && this.values.length > 0) return tail(prefix).replace('…', ellipsis)
        if (prefix.startsWith('"pin"')) return `${prefix}"${ellipsis}"`
        return prefix + tail(secret).replace('…', ellipsis)
      }
      return groups[0]!
    })
  }

  /** Header text (latin-1 bytes, journal-arena.ts): the mask's `…` as its UTF-8 bytes. */
  headerText(text: string): string {
    return this.text(text, ELLIPSIS_LATIN1)
  }

  /**
   * A body's bytes with every secret masked: the same Buffer when it holds none; else its first
   * `limit` bytes (and a margin) masked, as UTF-8.
   */
  bytes(body: Buffer, limit: number): Buffer {
    const head = body.length > limit + MARGIN ? body.subarray(0, limit + MARGIN) : body
    // Latin-1: a byte a character, no decoding; every anchor is ASCII.
    if (!this.anchors.test(head.toString('latin1'))) return body
    const text = head.toString('utf8')
    const masked = this.text(text)
    return masked === text ? body : Buffer.from(masked)
  }
}
