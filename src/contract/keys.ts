/**
 * Secrets are never shown whole: an API key shows as its prefix and last four characters
 * (`svc_sk_live_…a1b2`), a signing secret as `whsec_…a1b2`.
 */
const KNOWN_PREFIXES = ['svc_sk_test_', 'svc_sk_live_', 'whsec_']

export function maskSecret(secret: string | undefined): string {
  if (!secret) return ''
  const prefix = KNOWN_PREFIXES.find((p) => secret.startsWith(p)) ?? ''
  const rest = secret.slice(prefix.length)
  // Too short to show a tail without giving most of it away.
  if (rest.length <= 8) return `${prefix}…`
  return `${prefix}…${rest.slice(-4)}`
}

export type KeyEnvironment = 'SANDBOX' | 'LIVE'

/** Every scope a key can carry. A key minted with no list has them all. */
export const SCOPES = ['payments:read', 'payments:write', 'invoices:read', 'invoices:write', 'invoices:send', 'files:write'] as const
export type Scope = (typeof SCOPES)[number]

/** What is wrong with a string given as an API key, or undefined when it is well formed. */
export type KeyProblem = 'prefix' | 'short' | 'characters'

export function keyProblem(key: string): KeyProblem | undefined {
  const prefix = ['svc_sk_test_', 'svc_sk_live_'].find((p) => key.startsWith(p))
  if (!prefix) return 'prefix'
  const rest = key.slice(prefix.length)
  if (!/^[A-Za-z0-9_-]*$/.test(rest)) return 'characters'
  if (rest.length < 8) return 'short'
  return undefined
}

/** The environment a key selects, from its prefix alone; undefined for any other prefix. */
export function keyEnvironment(key: string): KeyEnvironment | undefined {
  if (/^svc_sk_test_[A-Za-z0-9_-]{8,}$/.test(key)) return 'SANDBOX'
  if (/^svc_sk_live_[A-Za-z0-9_-]{8,}$/.test(key)) return 'LIVE'
  return undefined
}
