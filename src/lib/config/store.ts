/**
 * Profiles and settings, in one JSON file (`config.json`) in the config directory: mode 0600 in a
 * 0700 directory. `SVC_CONFIG_DIR` moves it (tests always set it).
 *
 * Writes replace the file whole (src/lib/io/durable-file.ts: a temporary file, flushed, renamed;
 * mode 0600), with Node's fs only: a library such as `conf` loads ajv (~100 ms of start-up for
 * every login). Reads parse the same file directly.
 */
import {chmodSync, existsSync, mkdirSync, readFileSync, statSync} from 'node:fs'
import {homedir} from 'node:os'
import {join} from 'node:path'

import type {Clock} from '../../contract/clock.js'
import {ExitCode, SvcError} from '../errors.js'
import {t, type Locale} from '../i18n/index.js'

export interface ProfileRecord {
  api_key?: string
  base_url?: string
  /** The endpoint signing secret of the service, for inbound `webhooks listen` deliveries. */
  endpoint_secret?: string
  /** The local secret `webhooks listen` re-signs forwarded events with; stable per profile. */
  local_secret?: string
  lang?: Locale
  /** Set by `svc sandbox serve` on the profile it saves: how to start that sandbox again. */
  /** Saved by `svc sandbox serve`; `profile`: on a LIVE profile, the sandbox's own profile it sits beside. */
  local_sandbox?: {data_file: string | null; profile?: string}
  /** `svc config set` on this profile (config/settings.ts). */
  settings?: Record<string, string>
}

export interface ConfigData {
  current?: string
  profiles: Record<string, ProfileRecord>
  /** `svc config set` with no profile in use: for every profile (config/settings.ts). */
  settings?: Record<string, string>
}

export const CONFIG_FILE = 'config.json'

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config')
  return join(base, 'svc')
}

/** Creates the directory 0700 (and tightens an existing one we own). */
export function ensureConfigDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, {recursive: true, mode: 0o700})
  if ((statSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700)
}

/**
 * The config as written, checked for the shape the CLI relies on. A file that cannot be read,
 * parsed or understood is never taken for an empty one (that would offer "No profiles yet" and
 * let the next write replace it): it is an error naming the file and what is wrong (exit 2).
 */
export function readConfig(dir: string): ConfigData {
  const path = join(dir, CONFIG_FILE)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO'
    if (code === 'ENOENT') return {profiles: {}}
    throw new SvcError(t('core.config.unreadable', {path, code}), {exitCode: ExitCode.USAGE, code: 'config_unreadable', cause: error})
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw invalid(path, t('core.config.problem.json'))
  }
  return checkShape(path, parsed)
}

function invalid(path: string, problem: string): SvcError {
  return new SvcError(t('core.config.invalid', {path, problem}), {exitCode: ExitCode.USAGE, code: 'config_invalid'})
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const TEXT_FIELDS = ['api_key', 'base_url', 'endpoint_secret', 'local_secret'] as const

function checkShape(path: string, parsed: unknown): ConfigData {
  if (!isObject(parsed)) throw invalid(path, t('core.config.problem.notObject'))
  if (parsed.current !== undefined && typeof parsed.current !== 'string') throw invalid(path, t('core.config.problem.current'))
  if (parsed.profiles !== undefined && !isObject(parsed.profiles)) throw invalid(path, t('core.config.problem.profiles'))
  const profiles = (parsed.profiles ?? {}) as Record<string, unknown>
  for (const [name, record] of Object.entries(profiles)) {
    if (!isObject(record)) throw invalid(path, t('core.config.problem.profile', {name}))
    for (const field of TEXT_FIELDS) {
      if (record[field] !== undefined && typeof record[field] !== 'string') throw invalid(path, t('core.config.problem.field', {name, field}))
    }
    if (record.lang !== undefined && record.lang !== 'en' && record.lang !== 'fr') throw invalid(path, t('core.config.problem.lang', {name}))
  }
  return {...(parsed as object), current: parsed.current as string | undefined, profiles: profiles as Record<string, ProfileRecord>}
}

/**
 * Read, change and write back the whole config, atomically, mode 0600, under a lock held
 * across the read and the write: two processes (100 logins at once, a login racing
 * `profiles use`) never write over each other's change. `change` sees the file as it is now.
 * `clock` (the run's) paces and measures the wait for another holder of the lock.
 */
export async function updateConfig(dir: string, change: (data: ConfigData) => void, clock: Clock): Promise<ConfigData> {
  ensureConfigDir(dir)
  const {withFileLock} = await import('./lock.js')
  const {writeFileDurably} = await import('../io/durable-file.js')
  return withFileLock(
    join(dir, CONFIG_FILE),
    () => {
      const data = readConfig(dir)
      change(data)
      // Tab-indented, as the file has always been written.
      writeFileDurably(join(dir, CONFIG_FILE), JSON.stringify(data, undefined, '\t'))
      return data
    },
    {clock},
  )
}

/**
 * The config file or, failing that, its directory when other users may read or enter it (any
 * group or other permission bit): keys would be exposed. A sentence to warn with, or undefined.
 * The file first (it holds the keys); only one is named, so a user sees one line. Nothing when
 * there is no config file.
 */
export function configExposure(dir: string): string | undefined {
  const mode = (path: string) => {
    try {
      return statSync(path).mode & 0o777
    } catch {
      return undefined
    }
  }
  const octal = (value: number) => `0${value.toString(8).padStart(3, '0')}`
  const file = join(dir, CONFIG_FILE)
  const fileMode = mode(file)
  // No config file, no keys to expose (a directory the user made for other files is their business).
  if (fileMode === undefined) return undefined
  if ((fileMode & 0o077) !== 0) return t('core.config.exposedFile', {path: file, mode: octal(fileMode)})
  const dirMode = mode(dir)
  if (dirMode !== undefined && (dirMode & 0o077) !== 0) return t('core.config.exposedDir', {path: dir, mode: octal(dirMode)})
  return undefined
}

/** Profile names are used in paths and shell commands: keep them plain. */
export function isValidProfileName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/.test(name)
}
