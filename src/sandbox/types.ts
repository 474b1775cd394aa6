/** Shared vocabulary of the local sandbox. */
export type Environment = 'SANDBOX' | 'LIVE'
export const ENVIRONMENTS: readonly Environment[] = ['SANDBOX', 'LIVE']

/** Every scope a key can carry (src/contract/keys.ts). A key minted with no list has them all. */
import {SCOPES, type Scope} from '../contract/keys.js'
export {SCOPES, type Scope}

export type JsonValue = string | number | boolean | null | JsonValue[] | {[key: string]: JsonValue}
