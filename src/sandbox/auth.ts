/**
 * API keys, scopes and the IP allowlist: what the dashboard's Developers section manages in the
 * real service. Keys are stored hashed (sha256); the secret is shown once, at creation.
 */
import {createHash} from 'node:crypto'
import ipaddr from 'ipaddr.js'
import {keyEnvironment, maskSecret} from '../contract/keys.js'
import {newPlainId, randomToken} from './ids.js'
import type {SandboxTime} from './clock.js'
import type {Collection, Store} from './store.js'
import {SCOPES, type Environment, type Scope} from './types.js'

export interface ApiKeyRecord {
  id: string
  environment: Environment
  /** sha256 of the secret, hex. */
  hash: string
  /** The secret as it may be shown: prefix and last four. */
  masked: string
  scopes: Scope[]
  created_at: string
  revoked: boolean
  revoked_at?: string
}

/** What the admin surface returns for a key: never the hash. */
export interface ApiKeyView {
  id: string
  environment: Environment
  key: string
  scopes: Scope[]
  created_at: string
  revoked: boolean
  revoked_at?: string
}

export interface AllowlistEntry {
  /** The normalised CIDR, e.g. `10.0.0.0/8`, `2001:db8::/32`. */
  id: string
  cidr: string
  created_at: string
}

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

export function keyView(record: ApiKeyRecord): ApiKeyView {
  const {hash: _hash, masked, ...rest} = record
  return {...rest, key: masked}
}

export class KeyRing {
  private readonly keys: Collection<ApiKeyRecord>
  /** Key ids by the hash of their secret (the records stay in the store). */
  private byHash = new Map<string, string>()

  constructor(store: Store, private readonly clock: SandboxTime) {
    this.keys = store.business.collection<ApiKeyRecord>('api_keys')
    this.index()
    store.onReload(() => this.index())
  }

  private index(): void {
    this.byHash = new Map(this.keys.values().map((record) => [record.hash, record.id]))
  }

  /** Mint a key; without `scopes` it has them all. Returns the secret, which is not kept. */
  mint(environment: Environment, scopes?: readonly Scope[]): {record: ApiKeyRecord; secret: string} {
    const secret = `${environment === 'SANDBOX' ? 'svc_sk_test_' : 'svc_sk_live_'}${randomToken(32)}`
    const record: ApiKeyRecord = {
      id: newPlainId('key'),
      environment,
      hash: hashKey(secret),
      masked: maskSecret(secret),
      scopes: scopes === undefined ? [...SCOPES] : [...new Set(scopes)],
      created_at: this.clock.iso(),
      revoked: false,
    }
    this.keys.insert(record)
    this.byHash.set(record.hash, record.id)
    return {record, secret}
  }

  /** The active or revoked key for this secret; undefined when unknown or malformed. */
  identify(secret: string | undefined): ApiKeyRecord | undefined {
    if (!secret) return undefined
    const environment = keyEnvironment(secret)
    if (!environment) return undefined
    const id = this.byHash.get(hashKey(secret))
    const record = id === undefined ? undefined : this.keys.get(id)
    return record && record.environment === environment ? record : undefined
  }

  /** The key whose secret hashes to `digest` (sha256, hex), active or revoked; undefined when unknown. */
  byDigest(digest: string): ApiKeyRecord | undefined {
    const id = this.byHash.get(digest.toLowerCase())
    return id === undefined ? undefined : this.keys.get(id)
  }

  list(environment?: Environment): ApiKeyRecord[] {
    return this.keys.values().filter((record) => !environment || record.environment === environment)
  }

  get(id: string): ApiKeyRecord | undefined {
    return this.keys.get(id)
  }

  revoke(id: string): ApiKeyRecord | undefined {
    return this.keys.update(id, (record) => {
      if (record.revoked) return
      record.revoked = true
      record.revoked_at = this.clock.iso()
    })
  }
}

/** Parse `10.0.0.0/8`, `2001:db8::/32` or a bare address (a /32 or /128); undefined when invalid. */
export function parseCidr(input: string): {cidr: string; range: [ipaddr.IPv4 | ipaddr.IPv6, number]} | undefined {
  const text = input.trim()
  try {
    if (text.includes('/')) {
      if (!ipaddr.isValidCIDR(text)) return undefined
      const [address, bits] = ipaddr.parseCIDR(text)
      return {cidr: `${address.toString()}/${bits}`, range: [address, bits]}
    }
    if (!ipaddr.isValid(text)) return undefined
    const address = ipaddr.parse(text)
    const bits = address.kind() === 'ipv4' ? 32 : 128
    return {cidr: `${address.toString()}/${bits}`, range: [address, bits]}
  } catch {
    return undefined
  }
}

/**
 * Does `ip` (as node reports it: `127.0.0.1`, `::1`, `::ffff:127.0.0.1`) fall in `range`? An
 * IPv4-mapped IPv6 address matches IPv4 ranges, and an IPv4 address matches `::ffff:…` ranges.
 */
export function ipInRange(ip: string, range: [ipaddr.IPv4 | ipaddr.IPv6, number]): boolean {
  let address: ipaddr.IPv4 | ipaddr.IPv6
  try {
    address = ipaddr.parse(ip.replace(/%.*$/, ''))
  } catch {
    return false
  }
  const forms: Array<ipaddr.IPv4 | ipaddr.IPv6> = [address]
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    forms.push((address as ipaddr.IPv6).toIPv4Address())
  if (address.kind() === 'ipv4') forms.push((address as ipaddr.IPv4).toIPv4MappedAddress())
  const [base, bits] = range
  return forms.some((form) => form.kind() === base.kind() && form.match(base, bits))
}

export class Allowlist {
  private readonly entries: Collection<AllowlistEntry>
  private ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = []

  constructor(store: Store, private readonly clock: SandboxTime) {
    this.entries = store.business.collection<AllowlistEntry>('ip_allowlist')
    this.rebuild()
    store.onReload(() => this.rebuild())
  }

  list(): readonly AllowlistEntry[] {
    return this.entries.values()
  }

  /** Add a CIDR (idempotent); undefined when it is not a valid CIDR or address. */
  add(input: string): AllowlistEntry | undefined {
    const parsed = parseCidr(input)
    if (!parsed) return undefined
    const existing = this.entries.get(parsed.cidr)
    if (existing) return existing
    const entry = this.entries.insert({id: parsed.cidr, cidr: parsed.cidr, created_at: this.clock.iso()})
    this.rebuild()
    return entry
  }

  remove(input: string): boolean {
    const parsed = parseCidr(input)
    if (!parsed) return false
    const removed = this.entries.delete(parsed.cidr)
    this.rebuild()
    return removed
  }

  /** An empty list allows every address. */
  allows(ip: string): boolean {
    if (this.ranges.length === 0) return true
    return this.ranges.some((range) => ipInRange(ip, range))
  }

  private rebuild(): void {
    this.ranges = this.entries.values().flatMap((entry) => {
      const parsed = parseCidr(entry.cidr)
      return parsed ? [parsed.range] : []
    })
  }
}
