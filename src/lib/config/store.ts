/**
 * Profiles and settings, in one JSON file (`config.json`) in the config directory: mode 0600 in a
 * 0700 directory. `SVC_CONFIG_DIR` moves it (tests always set it).
 *
 * Writes go through `conf` (atomic write, file mode). Reads parse the same file directly: `conf`
 * always loads ajv (~100 ms), which would put every read-only command over its start-up budget.
 */
import {chmodSync, existsSync, mkdirSync, readFileSync, statSync} from 'node:fs'
import {homedir} from 'node:os'
import {join} from 'node:path'

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
}

export interface ConfigData {
  current?: string
  profiles: Record<string, ProfileRecord>
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

export function readConfig(dir: string): ConfigData {
  const path = join(dir, CONFIG_FILE)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return {profiles: {}}
  }
  try {
    const data = JSON.parse(text) as Partial<ConfigData>
    return {current: data.current, profiles: data.profiles && typeof data.profiles === 'object' ? data.profiles : {}}
  } catch {
    throw new SvcError(t('core.config.unreadable', {path}), {exitCode: ExitCode.FAILURE, code: 'config_unreadable'})
  }
}

/** Read, change and write back the whole config, atomically, mode 0600. */
export async function updateConfig(dir: string, change: (data: ConfigData) => void): Promise<ConfigData> {
  ensureConfigDir(dir)
  const data = readConfig(dir)
  change(data)
  const {default: Conf} = await import('conf')
  const conf = new Conf<ConfigData>({
    cwd: dir,
    configName: CONFIG_FILE.replace(/\.json$/, ''),
    configFileMode: 0o600,
    projectName: 'svc',
  })
  conf.store = data
  chmodSync(join(dir, CONFIG_FILE), 0o600)
  return data
}

/** Profile names are used in paths and shell commands: keep them plain. */
export function isValidProfileName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/.test(name)
}
