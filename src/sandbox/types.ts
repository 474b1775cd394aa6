/** Shared vocabulary of the local sandbox. */
export type Environment = 'SANDBOX' | 'LIVE'
export const ENVIRONMENTS: readonly Environment[] = ['SANDBOX', 'LIVE']

/** Every scope a key can carry (docs/service.md, "Environments and keys"). A key minted with no list has them all. */
export const SCOPES = [
  'payments:read',
  'payments:write',
  'invoices:read',
  'invoices:write',
  'invoices:send',
  'files:write',
] as const
export type Scope = (typeof SCOPES)[number]

export type JsonValue = string | number | boolean | null | JsonValue[] | {[key: string]: JsonValue}
