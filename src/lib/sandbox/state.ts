/**
 * What `svc sandbox serve` leaves for other terminals: the admin surface's address and token, in
 * `sandbox.json` in the config dir (mode 0600). The `local` profile holds the API side.
 */
import {readFileSync, rmSync, writeFileSync, chmodSync} from 'node:fs'
import {join} from 'node:path'

import {ensureConfigDir} from '../config/store.js'

export interface LocalSandboxState {
  base_url: string
  admin_url: string
  admin_token: string
  pay_url: string
  pid: number
  started_at: string
  /** No --data: its keys (and objects) live in memory and are new at each start. */
  in_memory?: boolean
}

export const STATE_FILE = 'sandbox.json'
export const LOCAL_PROFILE = 'local'

export function readSandboxState(dir: string): LocalSandboxState | undefined {
  try {
    const state = JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')) as LocalSandboxState
    return typeof state.admin_url === 'string' && typeof state.admin_token === 'string' ? state : undefined
  } catch {
    return undefined
  }
}

export function writeSandboxState(dir: string, state: LocalSandboxState): void {
  ensureConfigDir(dir)
  const path = join(dir, STATE_FILE)
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`, {mode: 0o600})
  chmodSync(path, 0o600)
}

/** Removes the state file if it is still ours (another serve may have replaced it). */
export function clearSandboxState(dir: string, pid: number): void {
  if (readSandboxState(dir)?.pid === pid) rmSync(join(dir, STATE_FILE), {force: true})
}
