import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Readable} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {InputError} from '../../../src/lib/errors.js'
import {
  formatDuration,
  generateSecret,
  parseHeaderFlags,
  readPayload,
  signPayload,
  verifyDelivery,
} from '../../../src/lib/webhooks/index.js'

const secret = generateSecret()
const body = JSON.stringify({id: 'evt_1', type: 'payment.success', data: {id: 'svcpay_test_1'}})
const now = 1_760_000_000

function headerFlags(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
}

describe('verifyDelivery', () => {
  it('accepts a good delivery whatever the header names case and spacing', () => {
    const signed = signPayload(secret, 'msg_1', body, now - 30)
    const report = verifyDelivery({
      secret,
      payload: body,
      headers: [`Webhook-Id:msg_1`, `WEBHOOK-TIMESTAMP:   ${now - 30}`, ` webhook-signature : ${signed['webhook-signature']} `],
      nowSeconds: now,
    })
    expect(report).toMatchObject({ok: true, webhookId: 'msg_1', timestamp: now - 30})
    expect(report.message).toContain('msg_1')
    expect(report.message).toContain('30 s ago')
  })

  it('says "signature mismatch" for another secret or a changed body', () => {
    const headers = headerFlags({...signPayload(generateSecret(), 'msg_1', body, now)})
    const report = verifyDelivery({secret, payload: body, headers, nowSeconds: now})
    expect(report).toMatchObject({ok: false, reason: 'signature_mismatch'})
    expect(report.message).toMatch(/Signature mismatch/)
    const changed = verifyDelivery({
      secret,
      payload: body.replace('evt_1', 'evt_2'),
      headers: headerFlags({...signPayload(secret, 'msg_1', body, now)}),
      nowSeconds: now,
    })
    expect(changed).toMatchObject({ok: false, reason: 'signature_mismatch'})
    expect(changed.ok ? undefined : changed.hint).toBeUndefined()
  })

  it('spots a trailing newline the sender did not sign', () => {
    const headers = headerFlags({...signPayload(secret, 'msg_1', body, now)})
    const report = verifyDelivery({secret, payload: body + '\n', headers, nowSeconds: now})
    expect(report.ok).toBe(false)
    expect(report.ok ? '' : report.hint).toContain('trailing newline')
  })

  it('says how far outside the tolerance the timestamp is, and which way', () => {
    const old = verifyDelivery({
      secret,
      payload: body,
      headers: headerFlags({...signPayload(secret, 'msg_1', body, now - 432)}),
      nowSeconds: now,
    })
    expect(old).toMatchObject({ok: false, reason: 'timestamp_too_old', skewSeconds: -432})
    expect(old.message).toContain('7 min 12 s in the past')
    expect(old.message).toContain('5 min tolerance')
    const ahead = verifyDelivery({
      secret,
      payload: body,
      headers: headerFlags({...signPayload(secret, 'msg_1', body, now + 3720)}),
      nowSeconds: now,
      toleranceSeconds: 60,
    })
    expect(ahead).toMatchObject({ok: false, reason: 'timestamp_too_new', skewSeconds: 3720})
    expect(ahead.message).toContain('1 h 2 min in the future')
    expect(ahead.message).toContain('1 min tolerance')
  })

  it('names the missing header', () => {
    const {'webhook-timestamp': _omit, ...rest} = signPayload(secret, 'msg_1', body, now)
    const report = verifyDelivery({secret, payload: body, headers: headerFlags(rest), nowSeconds: now})
    expect(report).toMatchObject({ok: false, reason: 'header_missing', header: 'webhook-timestamp'})
    expect(report.message).toContain('webhook-timestamp')
    expect(report.message).toContain('--header')
  })

  it('a malformed secret is bad input (exit 2, naming --secret), not a failed verification', () => {
    const headers = headerFlags({...signPayload(secret, 'msg_1', body, now)})
    for (const bad of ['whsec_', 'sk_live_abc', 'whsec_not base64!', 'nope']) {
      expect(() => verifyDelivery({secret: bad, payload: body, headers, nowSeconds: now})).toThrow(
        expect.objectContaining({exitCode: 2, code: 'secret_malformed', field: '--secret', message: expect.stringContaining('--secret')}),
      )
    }
  })

  it('explains an invalid timestamp and a malformed signature header', () => {
    const signed = signPayload(secret, 'msg_1', body, now)
    const badTs = verifyDelivery({
      secret,
      payload: body,
      headers: headerFlags({...signed, 'webhook-timestamp': '2025-01-01T00:00:00Z'}),
      nowSeconds: now,
    })
    expect(badTs).toMatchObject({ok: false, reason: 'timestamp_invalid'})
    expect(badTs.message).toContain('2025-01-01T00:00:00Z')
    const badSig = verifyDelivery({
      secret,
      payload: body,
      headers: headerFlags({...signed, 'webhook-signature': 'sha256=abcdef'}),
      nowSeconds: now,
    })
    expect(badSig).toMatchObject({ok: false, reason: 'signature_malformed'})
    expect(badSig.message).toContain('v1,')
  })

  it('refuses malformed or repeated --header values, naming the flag', () => {
    for (const bad of [['webhook-id msg_1'], ['webhook-id: a', 'Webhook-ID: b']]) {
      let caught: unknown
      try {
        parseHeaderFlags(bad)
      } catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(InputError)
      expect((caught as InputError).field).toBe('--header')
      expect((caught as InputError).message).toContain('--header')
    }
  })
})

describe('readPayload', () => {
  it('reads a file or standard input byte for byte, and names --payload when the file is missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-verify-'))
    try {
      await writeFile(join(dir, 'body.json'), body + '\n')
      expect(await readPayload(join(dir, 'body.json'))).toBe(body + '\n')
      expect(await readPayload('-', Readable.from([Buffer.from(body.slice(0, 5)), Buffer.from(body.slice(5))]))).toBe(body)
      await expect(readPayload(join(dir, 'missing.json'))).rejects.toMatchObject({field: '--payload', exitCode: 2})
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })
})

describe('formatDuration', () => {
  it('reads like a person wrote it', () => {
    expect(formatDuration(850)).toBe('850 ms')
    expect(formatDuration(12_000)).toBe('12 s')
    expect(formatDuration(432_000)).toBe('7 min 12 s')
    expect(formatDuration(300_000)).toBe('5 min')
    expect(formatDuration(7_500_000)).toBe('2 h 5 min')
  })
})
