/**
 * Property-based tests of the parsers test/lib/domain does not cover: the import's CSV reader,
 * webhook headers and secrets, the `webhooks listen` routing flags, `svc api` fields and paths,
 * percentages and profile names. For each: arbitrary input never throws anything but the
 * documented error (InputError, exit 2, naming its field; CsvSyntaxError inside the CSV reader),
 * and exactly the documented forms are accepted.
 *
 * RUNS below is the number of generated inputs per property; docs/reliability.md sums them.
 */
import fc from 'fast-check'
import {Webhook} from 'standardwebhooks'
import {describe, expect, it} from 'vitest'

import {isValidProfileName} from '../../src/lib/config/store.js'
import {validateProfileName} from '../../src/lib/config/profiles.js'
import {InputError} from '../../src/lib/errors.js'
import {csvLine, CsvSyntaxError, parseCsv} from '../../src/lib/invoices/csv.js'
import {checkRows, readSourceRows} from '../../src/lib/invoices/import-rows.js'
import {parseDiscount} from '../../src/lib/invoices/input.js'
import {parsePercent} from '../../src/lib/sandbox-admin/dashboard.js'
import {parseField, parseMethod, parsePath} from '../../src/lib/raw/request.js'
import {maskSecret} from '../../src/contract/keys.js'
import {EVENT_TYPES} from '../../src/contract/events.js'
import {parseEventsFilter, parseExtraHeaders, parseForwardTo, parseForwardUrl, parseHeaderLine} from '../../src/lib/webhooks/routes.js'
import {generateSecret, secretKey, signPayload, verifyPayload} from '../../src/contract/signature.js'
import {parseHeaderFlags, verifyDelivery} from '../../src/lib/webhooks/verify-input.js'

/** Generated inputs per property (the figure docs/reliability.md adds up). */
export const RUNS = 1000

/** `fn` either returns or throws an InputError with a field and exit 2; anything else fails. */
function onlyInputError<T>(fn: () => T, input = ''): T | InputError {
  try {
    return fn()
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    // An unfilled catalogue placeholder, unless the user's own input holds those braces; a
    // character shown escaped (`\u{e0020}`, a format character of the input) is not one.
    const unfilled = (error.message.match(/(?<!\\u)\{\w+\}/g) ?? []).filter((p) => !input.toLowerCase().includes(p.toLowerCase()))
    if (error.exitCode !== 2 || !error.field || unfilled.length > 0) throw new Error(`malformed InputError: ${error.message}`)
    return error
  }
}

const refused = (value: unknown): value is InputError => value instanceof InputError

/** Any text, including control characters, lone surrogates and the separators the parsers split on. */
const anyText = fc.oneof(
  fc.string({maxLength: 60}),
  fc.string({unit: 'binary', maxLength: 40}),
  fc.string({unit: fc.constantFrom(',', '"', '\r', '\n', ':', '=', ' ', ';', '/', '\\', '%', '?', '#', 'a', '1', '.', '\u0000', '\ufeff'), maxLength: 40}),
)

describe('CSV reader (invoice import)', () => {
  const record = fc.array(fc.string({unit: fc.constantFrom(',', '"', '\r', '\n', ' ', 'é', 'a', 'Z', '0', ';', '\t', '☕'), maxLength: 12}), {minLength: 1, maxLength: 5})
  // A record of one empty field is a blank line, which the reader skips (documented).
  const records = fc.array(record.filter((r) => !(r.length === 1 && r[0] === '')), {maxLength: 8})

  it('round trip: what csvLine writes, parseCsv reads back field for field, with the line each record starts on', () => {
    fc.assert(
      fc.property(records, (rows) => {
        const text = rows.map((row) => csvLine(row)).join('')
        const parsed = parseCsv(text)
        // A field that a spreadsheet would read as a formula comes back with the `'` that disarms it.
        expect(parsed.map((r) => r.fields)).toEqual(rows.map((row) => row.map((f) => (/^[=+\-@\t\r]/.test(f) ? `'${f}` : f))))
        let line = 1
        rows.forEach((row, i) => {
          expect(parsed[i]!.line).toBe(line)
          line += csvLine(row).match(/\r\n|\r|\n/g)!.length
        })
      }),
      {numRuns: RUNS},
    )
  })

  it('arbitrary text: parseCsv returns records or throws CsvSyntaxError (an unterminated quote), nothing else', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        try {
          const out = parseCsv(text)
          for (const r of out) expect(r.line).toBeGreaterThanOrEqual(1)
        } catch (error) {
          expect(error).toBeInstanceOf(CsvSyntaxError)
          expect(text).toContain('"')
        }
      }),
      {numRuns: RUNS},
    )
  })

  it('arbitrary file contents: the import only ever refuses with InputError, and checkRows never throws', () => {
    const header = fc.constantFrom('customer_name,due_date,items\n', 'customer_name,due_date,items,discount_percent,notes\r\n', '', 'x\n')
    fc.assert(
      fc.property(header, anyText, (head, body) => {
        const read = onlyInputError(() => readSourceRows('rows.csv', head + body), head + body)
        if (refused(read)) return
        const checked = checkRows(read.rows)
        for (const row of checked) expect(Boolean(row.draft) !== Boolean(row.error)).toBe(true)
      }),
      {numRuns: RUNS},
    )
  })

  it('well-formed rows are accepted whatever their quoting: name, items and discount come through', () => {
    // (A name that begins like a formula is written disarmed, with a `'`: see the CSV writer's test.)
    const name = fc.string({minLength: 1, maxLength: 20}).filter((s) => s.trim() !== '' && !/[\u0000-\u001f]/.test(s) && !/^[=+\-@]/.test(s))
    const item = fc.record({name: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,10}$/), price: fc.integer({min: 200, max: 100_000}), quantity: fc.integer({min: 1, max: 50})})
    fc.assert(
      fc.property(name, fc.array(item, {minLength: 1, maxLength: 3}), fc.integer({min: 0, max: 50}), (customer, items, discount) => {
        const cell = items.map((i) => `${i.name}:${i.price}:${i.quantity}`).join(';')
        const text = csvLine(['customer_name', 'due_date', 'items', 'discount_percent']) + csvLine([customer, '2099-12-31', cell, discount])
        const [row] = checkRows(readSourceRows('rows.csv', text).rows)
        expect(row!.error).toBeUndefined()
        expect(row!.draft!.customer_name).toBe(customer.trim())
        expect(row!.draft!.items.map((i) => i.quantity)).toEqual(items.map((i) => i.quantity))
        expect(row!.draft!.discount_percent ?? 0).toBe(discount)
      }),
      {numRuns: RUNS},
    )
  })
})

describe('CSV writer: every CSV svc writes is safe in a spreadsheet', () => {
  it('a text beginning with = + - @ (or a tab or CR) gets a leading \' ; numbers and other text are unchanged', () => {
    expect(csvLine(['=HYPERLINK("http://x","y")', '+237670000001', '-5', '@SUM(A1)', '\tx', 'Awa', -5, 1250])).toBe(
      `"'=HYPERLINK(""http://x"",""y"")",'+237670000001,'-5,'@SUM(A1),'\tx,Awa,-5,1250\r\n`,
    )
    fc.assert(
      fc.property(fc.string({maxLength: 20}), (text) => {
        const field = parseCsv(csvLine([text, 'x']))[0]!.fields[0]!
        expect(/^[=+\-@\t\r]/.test(field)).toBe(false)
      }),
      {numRuns: RUNS},
    )
  })
})

describe('webhook headers (`--header "Name: value"`, `-H "K: V"`)', () => {
  const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,20}$/)
  const value = fc.string({maxLength: 40}).filter((v) => !/[\r\n\0]/.test(v))

  it('accepts exactly "token: value" (no CR, LF or NUL in the value): name lower-cased, value trimmed', () => {
    fc.assert(
      fc.property(token, value, fc.constantFrom('', ' ', '  '), (name, v, pad) => {
        expect(parseHeaderLine(`${pad}${name}${pad}:${v}`)).toEqual([name.toLowerCase(), v.trim()])
      }),
      {numRuns: RUNS},
    )
  })

  it('arbitrary text: only InputError (naming the flag); whatever is accepted is a token name', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        const out = onlyInputError(() => parseHeaderLine(raw), raw)
        if (refused(out)) {
          expect(out.field).toBe('-H')
          return
        }
        expect(out[0]).toMatch(/^[!#$%&'*+.^_`|~0-9a-z-]+$/)
        expect(out[1]).not.toMatch(/[\r\n\0]/)
      }),
      {numRuns: RUNS},
    )
  })

  it('-H: the signature and framing headers are refused, repeats are joined; --header: a repeat is refused', () => {
    const reserved = fc.constantFrom('webhook-id', 'Webhook-Signature', 'WEBHOOK-TIMESTAMP', 'content-length', 'Host', 'transfer-encoding', 'connection')
    fc.assert(
      fc.property(reserved, value, (name, v) => {
        expect(refused(onlyInputError(() => parseExtraHeaders([`${name}: ${v}`])))).toBe(true)
      }),
      {numRuns: RUNS / 4},
    )
    fc.assert(
      fc.property(token.filter((n) => !/^(webhook-|content-length$|host$|connection$|transfer-encoding$|keep-alive$|upgrade$)/i.test(n)), value, value, (name, a, b) => {
        expect(parseExtraHeaders([`${name}: ${a}`, `${name.toUpperCase()}: ${b}`])[name.toLowerCase()]).toBe(`${a.trim()}, ${b.trim()}`)
        expect(refused(onlyInputError(() => parseHeaderFlags([`${name}: ${a}`, `${name}: ${b}`])))).toBe(true)
      }),
      {numRuns: RUNS},
    )
  })
})

describe('webhook secrets and signatures', () => {
  const body = fc.oneof(fc.string({maxLength: 200}), fc.json({maxDepth: 3}))
  const id = fc.string({minLength: 1, maxLength: 40}).filter((s) => !/[\s]/.test(s))
  const now = 1_750_000_000

  it('secretKey never throws; it accepts exactly whsec_ + non-empty padded base64', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.base64String({minLength: 4, maxLength: 64}).map((b) => `whsec_${b}`)), (secret) => {
        const key = secretKey(secret)
        const shape = /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret) && (secret.length - 6) % 4 === 0
        if (!shape) expect(key).toBeUndefined()
        else if (key) expect(key.length).toBeGreaterThan(0)
      }),
      {numRuns: RUNS},
    )
  })

  it('verifyPayload never throws on arbitrary secret, headers and body, and never says ok to them', () => {
    const headers = fc.dictionary(fc.oneof(fc.constantFrom('webhook-id', 'Webhook-Timestamp', 'webhook-signature'), fc.string({maxLength: 20})), fc.oneof(fc.string({maxLength: 60}), fc.array(fc.string({maxLength: 20}), {maxLength: 3})), {maxKeys: 5})
    fc.assert(
      fc.property(fc.oneof(anyText, fc.constant(generateSecret())), headers, anyText, (secret, h, b) => {
        const result = verifyPayload(secret, h as Record<string, string | string[]>, b, {nowSeconds: now})
        expect(result.ok).toBe(false)
      }),
      {numRuns: RUNS},
    )
  })

  it('sign → verify round trip (any id, body, timestamp within tolerance); any change to the body fails', () => {
    fc.assert(
      fc.property(id, body, fc.integer({min: -300, max: 300}), (webhookId, b, skew) => {
        const secret = generateSecret()
        const headers = signPayload(secret, webhookId, b, now + skew)
        expect(verifyPayload(secret, {...headers}, b, {nowSeconds: now})).toEqual({ok: true})
        expect(verifyPayload(secret, {...headers}, `${b} `, {nowSeconds: now})).toMatchObject({ok: false, reason: 'signature_mismatch'})
        expect(verifyPayload(generateSecret(), {...headers}, b, {nowSeconds: now})).toMatchObject({ok: false, reason: 'signature_mismatch'})
      }),
      {numRuns: RUNS},
    )
  })

  it('rotation: signed with two secrets, verified by either; outside the tolerance, refused for the time alone', () => {
    fc.assert(
      fc.property(id, body, fc.integer({min: 301, max: 10_000_000}), fc.boolean(), (webhookId, b, distance, past) => {
        const [a, c] = [generateSecret(), generateSecret()]
        const ts = now + (past ? -distance : distance)
        const both = signPayload([a, c], webhookId, b, now)
        expect(verifyPayload(a, {...both}, b, {nowSeconds: now}).ok).toBe(true)
        expect(verifyPayload(c, {...both}, b, {nowSeconds: now}).ok).toBe(true)
        const late = signPayload(a, webhookId, b, ts)
        expect(verifyPayload(a, {...late}, b, {nowSeconds: now})).toMatchObject({ok: false, reason: past ? 'timestamp_too_old' : 'timestamp_too_new'})
      }),
      {numRuns: RUNS},
    )
  })

  it('our signatures verify with the reference library (standardwebhooks) for JSON bodies', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^msg_[A-Za-z0-9]{1,24}$/), fc.json({maxDepth: 3}), (webhookId, b) => {
        const secret = generateSecret()
        const headers = signPayload(secret, webhookId, b)
        expect(() => new Webhook(secret).verify(b, {...headers})).not.toThrow()
      }),
      {numRuns: RUNS / 4},
    )
  })

  it('the verify command (verifyDelivery) never throws for a bad delivery: only InputError for a malformed --header or --secret', () => {
    fc.assert(
      fc.property(anyText, fc.array(anyText, {maxLength: 4}), anyText, (secret, headerFlags, payload) => {
        const out = onlyInputError(() => verifyDelivery({secret, headers: headerFlags, payload, nowSeconds: now}), headerFlags.join(''))
        if (refused(out)) {
          expect(['--header', '--secret']).toContain(out.field)
          return
        }
        expect(out.ok).toBe(false)
        expect(out.message).not.toMatch(/undefined|\{\w+\}/)
      }),
      {numRuns: RUNS},
    )
  })

  it('a masked secret never holds the secret, and keeps at most its last 4 characters', () => {
    fc.assert(
      fc.property(fc.constantFrom('svc_sk_test_', 'svc_sk_live_', 'whsec_', ''), fc.stringMatching(/^[A-Za-z0-9_-]{9,64}$/), (prefix, rest) => {
        const masked = maskSecret(prefix + rest)
        expect(masked).not.toContain(rest)
        expect(masked).toBe(`${prefix}…${rest.slice(-4)}`)
      }),
      {numRuns: RUNS},
    )
  })
})

describe('`webhooks listen` routing: --forward-to, --events', () => {
  const host = fc.oneof(fc.constant('localhost'), fc.constant('127.0.0.1'), fc.domain())
  const port = fc.integer({min: 1, max: 65535})
  const path = fc.webPath()

  it('accepts http(s) URLs and bare host:port/path (taken as http); the result is an http(s) URL', () => {
    fc.assert(
      fc.property(fc.constantFrom('http://', 'https://', ''), host, port, path, (scheme, h, p, pathPart) => {
        const url = new URL(parseForwardUrl(`${scheme}${h}:${p}${pathPart}`))
        expect(url.protocol).toBe(scheme === 'https://' ? 'https:' : 'http:')
        expect(url.hostname).toBeTruthy()
      }),
      {numRuns: RUNS},
    )
  })

  it('TYPE=URL routes by type; a URL whose query holds "=" stays the default route', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EVENT_TYPES), host, port, fc.stringMatching(/^[a-z]{1,8}=[a-z0-9]{0,8}$/), (type, h, p, q) => {
        const routes = parseForwardTo([`${type}=http://${h}:${p}/typed`, `http://${h}:${p}/all?${q}`])
        expect(new URL(routes.byType[type]!).pathname).toBe('/typed')
        expect(routes.defaultUrl).toContain(`?${q}`)
      }),
      {numRuns: RUNS},
    )
  })

  it('arbitrary --forward-to values: only InputError naming --forward-to; anything accepted is http(s)', () => {
    fc.assert(
      fc.property(fc.array(anyText, {minLength: 0, maxLength: 3}), (values) => {
        const out = onlyInputError(() => parseForwardTo(values), values.join(''))
        if (refused(out)) {
          expect(out.field).toBe('--forward-to')
          return
        }
        for (const url of [out.defaultUrl, ...Object.values(out.byType)]) if (url) expect(new URL(url).protocol).toMatch(/^https?:$/)
      }),
      {numRuns: RUNS},
    )
  })

  it('--events: any spacing, order, repetition of the known types is accepted, deduplicated; anything else refused', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENT_TYPES), {minLength: 1, maxLength: 5}), fc.constantFrom(',', ', ', ' ,'), (types, sep) => {
        expect(parseEventsFilter(types.join(sep))).toEqual([...new Set(types)])
      }),
      {numRuns: RUNS / 4},
    )
    fc.assert(
      fc.property(fc.array(anyText, {maxLength: 3}), (values) => {
        const out = onlyInputError(() => parseEventsFilter(values), values.join(''))
        if (refused(out)) {
          expect(out.field).toBe('--events')
          return
        }
        for (const type of out ?? []) expect(EVENT_TYPES).toContain(type)
      }),
      {numRuns: RUNS},
    )
  })
})

describe('`svc api` -F/-f fields, method and path', () => {
  const key = fc.string({minLength: 1, maxLength: 12}).filter((k) => !k.includes('='))

  it('-f key=value: always the exact string after the first "="', () => {
    fc.assert(
      fc.property(key, fc.string({maxLength: 30}), (k, v) => {
        expect(parseField(`${k}=${v}`, {raw: true})).toEqual([k, v])
      }),
      {numRuns: RUNS},
    )
  })

  it('-F key=value: safe integers and decimals are numbers, true/false/null typed, anything else the string itself', () => {
    fc.assert(
      fc.property(key, fc.oneof(fc.integer({min: -1e12, max: 1e12}).map(String), fc.constantFrom('true', 'false', 'null', '0123', '1e3', '+5', '5.', 'NaN', '670000001'), fc.string({maxLength: 20})), (k, v) => {
        const [name, value] = parseField(`${k}=${v}`)
        expect(name).toBe(k)
        if (v === 'true' || v === 'false') expect(value).toBe(v === 'true')
        else if (v === 'null') expect(value).toBeNull()
        else if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(v)) expect(value).toBe(Number(v))
        else expect(value).toBe(v)
      }),
      {numRuns: RUNS},
    )
  })

  it('arbitrary -F/-f, method and path: only InputError; paths stay paths (never a host, never a crash)', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (raw, rawField) => {
        const out = onlyInputError(() => parseField(raw, {raw: rawField}), raw)
        if (refused(out)) expect(raw.indexOf('=')).toBeLessThanOrEqual(0)
        else expect(raw.indexOf('=')).toBeGreaterThan(0)
        const method = onlyInputError(() => parseMethod(raw), raw)
        if (!refused(method)) expect(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).toContain(method)
        const parsed = onlyInputError(() => parsePath(raw), raw)
        if (!refused(parsed)) {
          expect(parsed.path.startsWith('/')).toBe(true)
          expect(parsed.path.startsWith('//')).toBe(false)
        }
      }),
      {numRuns: RUNS},
    )
  })
})

describe('percentages and profile names', () => {
  it('fee --percent: accepts exactly 0–100 with at most 4 decimals, as written; arbitrary text only InputError', () => {
    fc.assert(
      fc.property(fc.integer({min: 0, max: 100}), fc.option(fc.stringMatching(/^\d{1,4}$/), {nil: undefined}), (whole, decimals) => {
        const text = decimals === undefined ? String(whole) : `${whole}.${decimals}`
        const value = Number(text)
        const out = onlyInputError(() => parsePercent(text, 'percent'))
        if (value <= 100) expect(out).toBe(value)
        else expect(refused(out)).toBe(true)
      }),
      {numRuns: RUNS},
    )
    fc.assert(
      fc.property(anyText, (raw) => {
        const out = onlyInputError(() => parsePercent(raw, 'percent'), raw)
        if (!refused(out)) {
          expect(out).toBeGreaterThanOrEqual(0)
          expect(out).toBeLessThanOrEqual(100)
        }
      }),
      {numRuns: RUNS},
    )
  })

  it('invoice --discount: 0–100 as "10", "12.5", "12,5", "10%"; arbitrary text only InputError, never francs', () => {
    fc.assert(
      fc.property(fc.integer({min: 0, max: 10_000}), fc.constantFrom('', '%', ' %'), fc.boolean(), (hundredths, suffix, comma) => {
        const value = hundredths / 100
        const written = comma ? String(value).replace('.', ',') : String(value)
        expect(parseDiscount(`${written}${suffix}`)).toBe(value)
      }),
      {numRuns: RUNS},
    )
    fc.assert(
      fc.property(anyText, (raw) => {
        const out = onlyInputError(() => parseDiscount(raw), raw)
        if (refused(out)) {
          expect(out.field).toBe('discount')
          return
        }
        expect(out).toBeGreaterThanOrEqual(0)
        expect(out).toBeLessThanOrEqual(100)
      }),
      // A format character the message shows escaped (\u{e0020}), found by a run of this property.
      {numRuns: RUNS, examples: [['\u{e0020}']]},
    )
  })

  it('profile names: exactly [A-Za-z0-9][A-Za-z0-9_-]{0,39}; anything else (paths, dots, spaces) refused', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,45}$/), fc.constantFrom('..', '../x', 'a/b', '.hidden', '__proto__', 'constructor')), (name) => {
        const out = onlyInputError(() => validateProfileName(name), name)
        const valid = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/.test(name)
        expect(isValidProfileName(name)).toBe(valid)
        if (valid) expect(out).toBe(name)
        else expect(refused(out) && out.field).toBe('profile')
      }),
      {numRuns: RUNS},
    )
  })
})
