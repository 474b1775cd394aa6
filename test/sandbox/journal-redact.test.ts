/**
 * The journal's masking of secrets (src/sandbox/journal-redact.ts) on the texts a request leaves:
 * each shape masked as svc masks a secret (prefix, `…`, last four), whatever surrounds it; a text
 * without one left as it is (the same string); a secret cut by the body limit still masked whole.
 */
import {describe, expect, it} from 'vitest'

import {Redactor} from '../../src/sandbox/journal-redact.js'

const key = 'svc_sk_test_0123456789abcdefghijWXYZ'

describe('the journal’s masking', () => {
  const redactor = new Redactor()

  it('masks each shape, keeping its prefix and last four', () => {
    expect(redactor.text(`/v1/payments/${key}/status`)).toBe('/v1/payments/svc_sk_test_…WXYZ/status')
    expect(redactor.text('?secret=whsec_YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4%2Bz%3D')).toBe('?secret=whsec_…z%3D')
    expect(redactor.text('{"url":"http://x/storage/uploads/f?expires=1&signature=svc_sig_abcdefghijklmnopQRST"}')).toBe(
      '{"url":"http://x/storage/uploads/f?expires=1&signature=svc_sig_…QRST"}',
    )
    expect(redactor.text('expires=1&signature=7tDNKc8AyALj3lDS_w_Timiq')).toBe('expires=1&signature=…imiq')
    expect(redactor.text('{"pin": "1234", "decline": false}')).toBe('{"pin": "…", "decline": false}')
    expect(redactor.text('pin=0000&x=1')).toBe('pin=…&x=1')
    expect(redactor.text('/x?spin=1&pinned=2')).toBe('/x?spin=1&pinned=2')
  })

  it('leaves a text without a secret as it is: the same string', () => {
    const text = JSON.stringify({id: 'svcpay_test_0AbCdEfGhIjKlMnOpQrStUv', status: 'PENDING', shipping: 'pinned'})
    expect(redactor.text(text)).toBe(text)
    const bytes = Buffer.from(text)
    expect(redactor.bytes(bytes, 64 * 1024)).toBe(bytes)
  })

  it('masks a secret the body limit cuts through, whole', () => {
    const body = Buffer.from(`{"a":"${'x'.repeat(64 * 1024 - 16)}","key":"${key}","b":"${'y'.repeat(100_000)}"}`)
    const masked = redactor.bytes(body, 64 * 1024).toString('utf8')
    expect(masked.slice(0, 64 * 1024)).not.toContain(key.slice(0, 20))
    expect(masked).toContain('svc_sk_test_…WXYZ')
  })

  it('masks a value it was given, whatever its shape', () => {
    const own = new Redactor()
    own.add('my-own-admin-token-0123456789')
    expect(own.text('Bearer my-own-admin-token-0123456789 and svc_admin_abcdefghijklmnop')).toBe('Bearer …6789 and svc_admin_…mnop')
  })
})
