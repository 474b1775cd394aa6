/**
 * Signed, expiring URLs (upload URLs, PDF links), checked without any API key: an HMAC-SHA256 over
 * the path and the expiry, keyed with a secret minted once per sandbox (kept with `dataFile`, so
 * links survive a restart). Expiry is sandbox time, so `clock advance` expires links as it would.
 */
import {createHmac, randomBytes, timingSafeEqual} from 'node:crypto'
import type {SandboxTime} from '../clock.js'
import type {Store} from '../store.js'

/** A signature carries its kind, as every secret the sandbox mints: the journal finds it by that (journal-redact.ts). */
const SIGNATURE_PREFIX = 'svc_sig_'

export type SignatureCheck = 'ok' | 'invalid' | 'expired'

export class UrlSigner {
  private readonly secret: string

  constructor(store: Store, private readonly clock: SandboxTime) {
    let secret = store.business.setting<string>('url_signing_secret')
    if (!secret) {
      secret = randomBytes(32).toString('base64url')
      store.business.setSetting('url_signing_secret', secret)
    }
    this.secret = secret
    // `reset --all` empties the business's settings: keep the links already handed out valid.
    store.onReload(() => {
      if (!store.business.setting<string>('url_signing_secret')) store.business.setSetting('url_signing_secret', this.secret)
    })
  }

  private mac(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('base64url')
  }

  /** `path?expires=…&signature=…` valid for `ttlMs` of sandbox time, and when it expires. */
  sign(path: string, ttlMs: number): {url: string; expiresAt: number} {
    const expires = Math.floor((this.clock.now() + ttlMs) / 1000)
    return {url: `${path}?expires=${expires}&signature=${SIGNATURE_PREFIX}${this.mac(path, expires)}`, expiresAt: expires * 1000}
  }

  check(path: string, query: {expires?: unknown; signature?: unknown}): SignatureCheck {
    const expires = Number(query.expires)
    const signed = typeof query.signature === 'string' ? query.signature : ''
    // Without its prefix: a link handed out before signatures carried one.
    const signature = signed.startsWith(SIGNATURE_PREFIX) ? signed.slice(SIGNATURE_PREFIX.length) : signed
    if (!Number.isInteger(expires) || signature === '') return 'invalid'
    const expected = Buffer.from(this.mac(path, expires))
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid'
    return this.clock.now() >= expires * 1000 ? 'expired' : 'ok'
  }
}
