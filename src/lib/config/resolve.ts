/**
 * Which key and base URL a command uses (README.md, "Environment"): `--api-key`, then `SVC_API_KEY`, then the
 * profile named by `--profile` / `SVC_PROFILE`, then the current profile. Same order for the base
 * URL (`--base-url`, `SVC_BASE_URL`, profile, default).
 */
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {keyEnvironment, type KeyEnvironment} from '../../contract/keys.js'
import {DEFAULT_BASE_URL} from './defaults.js'
import {describeKeyProblem} from './profiles.js'
import type {ConfigData, ProfileRecord} from './store.js'

export interface Credentials {
  apiKey?: string
  baseUrl: string
  environment?: KeyEnvironment
  /**
   * The run's profile: the one that gave the key (named or current), or the one named whose key is
   * the key given. None when the key comes from --api-key / SVC_API_KEY otherwise.
   */
  profileName?: string
  profile?: ProfileRecord
  /** The profile whose base URL is used (no --base-url, no SVC_BASE_URL), run's profile or not. */
  baseUrlProfile?: string
}

export interface CredentialInputs {
  apiKey?: string
  baseUrl?: string
  profile?: string
}

/** The profile a run names: `--profile`, else `SVC_PROFILE` (empty names none). The one place this order is written. */
export function namedProfile(flags: Pick<CredentialInputs, 'profile'>, env: NodeJS.ProcessEnv): string | undefined {
  return flags.profile ?? (env.SVC_PROFILE || undefined)
}

/** The profile a run uses: the one it names, else the current one. */
export function selectedProfileName(flags: Pick<CredentialInputs, 'profile'>, env: NodeJS.ProcessEnv, config: ConfigData): string | undefined {
  return namedProfile(flags, env) ?? config.current
}

export function resolveCredentials(flags: CredentialInputs, env: NodeJS.ProcessEnv, config: ConfigData): Credentials {
  // `--api-key "$SVC_API_KEY"` (a pasted hint) in a shell where the variable is unset.
  if (flags.apiKey !== undefined && flags.apiKey.trim() === '') {
    throw new InputError(t('core.key.emptyFlag'), {field: 'api-key', code: 'invalid_key'})
  }
  const explicitProfile = namedProfile(flags, env)
  if (explicitProfile !== undefined && !config.profiles[explicitProfile]) {
    throw new InputError(t('core.profile.notFound', {name: explicitProfile}), {field: 'profile', code: 'profile_not_found'})
  }
  const profileName = selectedProfileName(flags, env, config)
  const profile = profileName ? config.profiles[profileName] : undefined
  const givenKey = flags.apiKey ?? (env.SVC_API_KEY || undefined)
  const apiKey = givenKey ?? profile?.api_key
  // The base URL keeps its order (flag, variable, profile) whoever gave the key.
  const baseUrl = resolveBaseUrl(flags, env, profile)
  if (apiKey !== undefined && !keyEnvironment(apiKey)) {
    throw new InputError(describeKeyProblem(apiKey), {field: 'api-key', code: 'invalid_key'})
  }
  // The run's profile is the one that gave the key, or the one named whose key is the one given.
  // A key from --api-key / SVC_API_KEY beside a current profile (`sandbox exec` inside another
  // sandbox's config) is no profile's: its invoice numbers, webhook secret and hints are the key's own.
  const owns = profile !== undefined && (givenKey === undefined || (explicitProfile !== undefined && profile.api_key === givenKey))
  return {
    apiKey,
    baseUrl,
    environment: apiKey ? keyEnvironment(apiKey) : undefined,
    profileName: owns ? profileName : undefined,
    profile: owns ? profile : undefined,
    baseUrlProfile: !flags.baseUrl && !env.SVC_BASE_URL && profile?.base_url ? profileName : undefined,
  }
}

export function resolveBaseUrl(flags: CredentialInputs, env: NodeJS.ProcessEnv, profile?: ProfileRecord): string {
  return normaliseBaseUrl(flags.baseUrl ?? (env.SVC_BASE_URL || undefined) ?? profile?.base_url ?? DEFAULT_BASE_URL)
}

export function normaliseBaseUrl(input: string): string {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    throw new InputError(t('core.baseUrl.invalid', {url: input}), {field: 'base-url'})
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(t('core.baseUrl.invalid', {url: input}), {field: 'base-url'})
  }
  // The spec's paths start with /v1: a base URL copied with it (`https://api.example.com/v1`) is
  // read as the service root, rather than calling /v1/v1/….
  return url.toString().replace(/\/+$/, '').replace(/\/v1$/, '')
}
