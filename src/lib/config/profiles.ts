/**
 * Profile operations behind `svc login`, `svc logout` and `svc profiles …`. Whatever leaves this
 * module for display carries masked secrets only.
 */
import {InputError, SvcError, ExitCode} from '../errors.js'
import {t, type Locale} from '../i18n/index.js'
import {keyEnvironment, keyProblem, maskSecret, type KeyEnvironment} from '../../contract/keys.js'
import type {Clock} from '../../contract/clock.js'
import {DEFAULT_BASE_URL} from './defaults.js'
import {isValidProfileName, readConfig, updateConfig, type ConfigData, type ProfileRecord} from './store.js'

export interface ProfileView {
  name: string
  current: boolean
  environment: KeyEnvironment | null
  api_key: string | null
  base_url: string
  endpoint_secret: string | null
  lang: Locale | null
}

export function viewProfile(name: string, record: ProfileRecord, current: boolean): ProfileView {
  return {
    name,
    current,
    environment: record.api_key ? (keyEnvironment(record.api_key) ?? null) : null,
    api_key: record.api_key ? maskSecret(record.api_key) : null,
    base_url: record.base_url ?? DEFAULT_BASE_URL,
    endpoint_secret: record.endpoint_secret ? maskSecret(record.endpoint_secret) : null,
    lang: record.lang ?? null,
  }
}

export function listProfiles(dir: string): ProfileView[] {
  const config = readConfig(dir)
  return Object.keys(config.profiles)
    .sort()
    .map((name) => viewProfile(name, config.profiles[name], name === config.current))
}

function requireProfile(config: ConfigData, name: string): ProfileRecord {
  const record = config.profiles[name]
  // Exit 2 as for --profile/SVC_PROFILE naming no profile: a local name mistyped, not a 404 of the service.
  if (!record) throw new SvcError(t('core.profile.notFound', {name}), {exitCode: ExitCode.USAGE, code: 'profile_not_found', field: 'profile'})
  return record
}

export function showProfile(dir: string, name?: string): ProfileView {
  const config = readConfig(dir)
  const chosen = name ?? config.current
  if (!chosen) throw new SvcError(t('core.profile.none'), {exitCode: ExitCode.NOT_FOUND, code: 'profile_not_found'})
  return viewProfile(chosen, requireProfile(config, chosen), chosen === config.current)
}

/** `clock` (here and below): the run's, for the wait on the config lock (updateConfig). */
export async function useProfile(dir: string, name: string, clock: Clock): Promise<void> {
  await updateConfig(
    dir,
    (data) => {
      requireProfile(data, name)
      data.current = name
    },
    clock,
  )
}

export async function removeProfile(dir: string, name: string, clock: Clock): Promise<void> {
  await updateConfig(
    dir,
    (data) => {
      requireProfile(data, name)
      delete data.profiles[name]
      if (data.current === name) data.current = Object.keys(data.profiles).sort()[0]
    },
    clock,
  )
}

/** Forget the key of a profile; its other settings (base URL, language, secrets) stay. */
export async function logoutProfile(dir: string, name: string, clock: Clock): Promise<void> {
  await updateConfig(
    dir,
    (data) => {
      requireProfile(data, name)
      delete data.profiles[name].api_key
    },
    clock,
  )
}

export function validateProfileName(name: string): string {
  if (!isValidProfileName(name)) throw new InputError(t('core.profile.invalidName', {name}), {field: 'profile'})
  return name
}

export function validateKey(key: string): {key: string; environment: KeyEnvironment} {
  const trimmed = key.trim()
  const environment = keyEnvironment(trimmed)
  if (!environment) throw new InputError(describeKeyProblem(trimmed), {field: 'api-key', code: 'invalid_key'})
  return {key: trimmed, environment}
}

/** What is actually wrong with a malformed key, in a sentence: its prefix, its length or its characters. */
export function describeKeyProblem(key: string): string {
  const problem = keyProblem(key)
  return t(problem === 'short' ? 'core.key.tooShort' : problem === 'characters' ? 'core.key.badCharacters' : 'core.key.badPrefix')
}

/**
 * Save (or update) a profile. `svc login` makes it the current one; `svc sandbox serve` only
 * when there is none, so that starting a sandbox never silently changes which account is used.
 */
export async function saveProfile(
  dir: string,
  name: string,
  record: ProfileRecord,
  options: {makeCurrent: 'always' | 'if-none' | 'never'; clock: Clock},
): Promise<ProfileView> {
  const data = await updateConfig(
    dir,
    (config) => {
      config.profiles[name] = {...config.profiles[name], ...record}
      if (options.makeCurrent === 'never') return
      if (options.makeCurrent === 'always' || !config.current || !config.profiles[config.current]) config.current = name
    },
    options.clock,
  )
  return viewProfile(name, data.profiles[name], data.current === name)
}
