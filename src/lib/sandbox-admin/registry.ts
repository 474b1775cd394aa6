/**
 * The registry of the local sandboxes `svc sandbox serve` runs from one config directory:
 * `sandboxes.json` (mode 0600: it holds each sandbox's admin token), one entry per running
 * `serve` (its URLs, admin token, PID, data file and the profile it owns). Every change is a
 * read-modify-write of the file as it is now, under the inter-process lock of config/lock.ts, and
 * an atomic rename: two serves starting at once never both take the profile `local`, and a serve
 * stopping removes its own entry only. An entry whose process is gone (SIGKILL, a power cut) is
 * dead: never returned, and dropped at the next write.
 *
 * Which of these sandboxes a command talks to is running.ts's one rule, not this file's.
 */
import {chmodSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {isOwnerAlive} from '../config/process-owner.js'
import {ensureConfigDir} from '../config/store.js'

export interface SandboxEntry {
  base_url: string
  admin_url: string
  admin_token: string
  pay_url: string
  pid: number
  /** The process's start time (Linux), so that a PID reused after a SIGKILL is not taken for this sandbox. */
  pid_start?: string
  started_at: string
  /** The `--data` file (absolute), or null for a sandbox in memory. */
  data_file: string | null
  /** The profile this sandbox saved and owns while it runs (`local`, `local-PORT`, `--profile-name`); empty for exec's. */
  profile: string
  /** Started by `svc sandbox exec`: it saves no profile and stops with its command. */
  exec?: true
}

interface RegistryFile {
  version: 1
  sandboxes: SandboxEntry[]
}

export const REGISTRY_FILE = 'sandboxes.json'
/** The profile the first running sandbox owns. */
export const LOCAL_PROFILE = 'local'

export function registryPath(dir: string): string {
  return join(dir, REGISTRY_FILE)
}

function isEntry(value: unknown): value is SandboxEntry {
  const entry = value as SandboxEntry
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.base_url === 'string' &&
    typeof entry.admin_url === 'string' &&
    typeof entry.admin_token === 'string' &&
    typeof entry.pid === 'number' &&
    typeof entry.profile === 'string'
  )
}

/** Every entry as written (dead ones included); a missing or unreadable file is an empty registry. */
function readAll(dir: string): SandboxEntry[] {
  try {
    const parsed = JSON.parse(readFileSync(registryPath(dir), 'utf8')) as Partial<RegistryFile>
    return Array.isArray(parsed.sandboxes) ? parsed.sandboxes.filter(isEntry).map((e) => ({...e, data_file: e.data_file ?? null})) : []
  } catch {
    return []
  }
}

/** The sandboxes running now, oldest first. Read-only: dead entries are skipped, not removed. */
export function liveSandboxes(dir: string): SandboxEntry[] {
  return readAll(dir).filter((entry) => isOwnerAlive(entry))
}

function write(dir: string, sandboxes: SandboxEntry[]): void {
  ensureConfigDir(dir)
  const path = registryPath(dir)
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, `${JSON.stringify({version: 1, sandboxes} satisfies RegistryFile, null, 2)}\n`, {mode: 0o600})
  chmodSync(temporary, 0o600)
  renameSync(temporary, path)
}

/**
 * Under the registry's lock: the live entries (dead ones dropped), handed to `change`, which
 * returns the new list and a result; written back only when it differs.
 */
export async function updateRegistry<T>(dir: string, change: (live: SandboxEntry[]) => {sandboxes: SandboxEntry[]; result: T}): Promise<T> {
  ensureConfigDir(dir)
  const {withFileLock} = await import('../config/lock.js')
  return withFileLock(registryPath(dir), () => {
    const all = readAll(dir)
    const live = all.filter((entry) => isOwnerAlive(entry))
    const {sandboxes, result} = change(live)
    if (JSON.stringify(sandboxes) !== JSON.stringify(all)) write(dir, sandboxes)
    return result
  })
}

/** Drops dead entries; returns the live ones. */
export function pruneRegistry(dir: string): Promise<SandboxEntry[]> {
  return updateRegistry(dir, (live) => ({sandboxes: live, result: live}))
}

/** Removes this sandbox's own entry (same PID and URL), nothing else. */
export function unregisterSandbox(dir: string, entry: Pick<SandboxEntry, 'pid' | 'base_url'>): Promise<void> {
  return updateRegistry(dir, (live) => ({
    sandboxes: live.filter((e) => !(e.pid === entry.pid && e.base_url === entry.base_url)),
    result: undefined,
  }))
}
