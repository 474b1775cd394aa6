/**
 * Secrets are never shown whole: an API key shows as its prefix and last four characters
 * (`svc_sk_live_…a1b2`), a signing secret as `whsec_…a1b2`.
 */

/**
 * Every secret svc and its sandbox mint starts with its kind: API keys, the sandbox's admin token,
 * the inspector's login codes, session cookies and CSRF tokens, replay stand-ins, link signatures,
 * webhook signing secrets. The sandbox's request journal finds them by it (src/sandbox/journal-redact.ts).
 */
export const SECRET_PREFIXES = ['svc_sk_test_', 'svc_sk_live_', 'svc_admin_', 'svc_login_', 'svc_session_', 'svc_csrf_', 'svc_replay_', 'svc_sig_', 'whsec_'] as const
const KNOWN_PREFIXES: readonly string[] = SECRET_PREFIXES

export function maskSecret(secret: string | undefined): string {
  if (!secret) return ''
  const prefix = KNOWN_PREFIXES.find((p) => secret.startsWith(p)) ?? ''
  const rest = secret.slice(prefix.length)
  // Too short to show a tail without giving most of it away.
  if (rest.length <= 8) return `${prefix}…`
  return `${prefix}…${rest.slice(-4)}`
}

export type KeyEnvironment = 'SANDBOX' | 'LIVE'

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
