/**
 * Where `svc webhooks …` keeps its per-profile state, and its two secrets.
 *
 * - The scope is the profile in use; with no profile at all (key from `--api-key`/`SVC_API_KEY`
 *   only) it is named after a hash of the key, so that state never mixes between keys.
 * - `<config dir>/webhooks/<scope>/`: the event log (`events.jsonl`), the poll position
 *   (`poll-<hash>.json`, one per base URL and environment), the routes `listen` last used
 *   (`routes.json`, the default of `replay`) and the sandbox endpoint a listener registered
 *   (`session.json`, removed at the next start if a crash left it behind).
 * - The local secret (`whsec_…`, what forwarded events are signed with) is generated once and kept
 *   in the profile's `local_secret`; the endpoint secret (inbound deliveries) in its
 *   `endpoint_secret`. Without a profile both live in `secrets.json` in the scope directory (0600).
 */
import {createHash} from 'node:crypto'
import {chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import type {Context} from '../context.js'
import {ensureConfigDir, updateConfig} from '../config/store.js'
import type {EventType} from '../../contract/events.js'
import type {ForwardRoutes} from './routes.js'
import {generateSecret, secretKey} from '../../contract/signature.js'

export interface WebhookScope {
  /** The profile name, or `key-<hash>` without a profile. */
  name: string
  profileName?: string
  dir: string
  /** The local signing secret, created (and saved) on first use. */
  localSecret(): Promise<string>
  endpointSecret(): string | undefined
  saveEndpointSecret(secret: string): Promise<void>
  /** The poll source's state file for these credentials. */
  pollStatePath(): string
  saveRoutes(saved: SavedRoutes): void
  savedRoutes(): SavedRoutes | undefined
  saveSession(session: SavedSession | undefined): void
  savedSession(): SavedSession | undefined
}

export interface SavedRoutes {
  routes: ForwardRoutes
  events?: EventType[]
  headers: Record<string, string>
}

export interface SavedSession {
  endpoint_id: string
  /** Every endpoint it registered (one per environment); endpoint_id alone in older files. */
  endpoint_ids?: string[]
  admin_url: string
  pid: number
}

interface ScopeSecrets {
  local_secret?: string
  endpoint_secret?: string
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12)
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch {
    return undefined
  }
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`, {mode: 0o600})
  chmodSync(path, 0o600)
}

export function webhookScope(ctx: Context): WebhookScope {
  const creds = ctx.credentials()
  const profileName = creds.profileName
  const name = profileName ?? (creds.apiKey ? `key-${shortHash(creds.apiKey)}` : 'default')
  const dir = join(ctx.configDir, 'webhooks', name)
  const ensureDir = () => {
    ensureConfigDir(ctx.configDir)
    mkdirSync(dir, {recursive: true, mode: 0o700})
  }
  const secretsPath = join(dir, 'secrets.json')
  const readSecrets = (): ScopeSecrets => readJson<ScopeSecrets>(secretsPath) ?? {}
  const writeSecret = async (field: keyof ScopeSecrets, value: string) => {
    if (profileName) {
      await updateConfig(ctx.configDir, (data) => {
        data.profiles[profileName] = {...data.profiles[profileName], [field]: value}
      }, ctx.clock)
      return
    }
    ensureDir()
    writeJson(secretsPath, {...readSecrets(), [field]: value})
  }
  const stored = (field: keyof ScopeSecrets): string | undefined => {
    // Read afresh: another listener (or a previous run) may have created it.
    const value = profileName ? ctx.config().profiles[profileName]?.[field] : readSecrets()[field]
    return value && secretKey(value) ? value : undefined
  }

  let local: string | undefined
  return {
    name,
    profileName,
    dir,
    async localSecret() {
      local ??= stored('local_secret')
      if (!local) {
        local = generateSecret()
        await writeSecret('local_secret', local)
      }
      return local
    },
    endpointSecret: () => stored('endpoint_secret'),
    saveEndpointSecret: (secret) => writeSecret('endpoint_secret', secret),
    pollStatePath: () => join(dir, `poll-${shortHash(`${creds.baseUrl}|${creds.environment ?? ''}`)}.json`),
    saveRoutes(saved) {
      ensureDir()
      writeJson(join(dir, 'routes.json'), saved)
    },
    savedRoutes: () => readJson<SavedRoutes>(join(dir, 'routes.json')),
    saveSession(session) {
      const path = join(dir, 'session.json')
      if (!session) {
        rmSync(path, {force: true})
        return
      }
      ensureDir()
      writeJson(path, session)
    },
    savedSession: () => readJson<SavedSession>(join(dir, 'session.json')),
  }
}

/**
 * A scope of its own in `dir`, nothing kept in the config directory: `svc sandbox exec`'s
 * forwarding, for a sandbox that lives as long as one command. Its local secret is the one given
 * (the command's SVC_WEBHOOK_SECRET); there is no endpoint secret (events come from the sandbox).
 */
export function ephemeralScope(dir: string, localSecret: string): WebhookScope {
  mkdirSync(dir, {recursive: true, mode: 0o700})
  return {
    name: 'exec',
    dir,
    localSecret: async () => localSecret,
    endpointSecret: () => undefined,
    async saveEndpointSecret() {},
    pollStatePath: () => join(dir, 'poll.json'),
    saveRoutes: (saved) => writeJson(join(dir, 'routes.json'), saved),
    savedRoutes: () => readJson<SavedRoutes>(join(dir, 'routes.json')),
    saveSession(session) {
      const path = join(dir, 'session.json')
      if (session) writeJson(path, session)
      else rmSync(path, {force: true})
    },
    savedSession: () => readJson<SavedSession>(join(dir, 'session.json')),
  }
}
