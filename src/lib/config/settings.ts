/**
 * Settings a user changes with `svc config set KEY VALUE`: a few named keys, each checked, kept in
 * the config file on the profile in use (or, with no profile, for every profile). A profile's own
 * value wins over the shared one, which wins over the default.
 */
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import type {ConfigData} from './store.js'

interface Setting {
  default: string
  /** The value as stored, or undefined when refused. */
  read(value: string): string | undefined
  /** What is accepted, for the error. */
  accepted: () => string
}

export const SETTINGS = {
  'invoice.prefix': {
    default: 'FAC',
    read: (value) => (/^[A-Za-z0-9][A-Za-z0-9_./-]{0,19}$/.test(value.trim()) ? value.trim() : undefined),
    accepted: () => t('core.config.accepted.prefix'),
  },
  'invoice.width': {
    default: '4',
    read: (value) => (/^[1-9]$/.test(value.trim()) ? value.trim() : undefined),
    accepted: () => t('core.config.accepted.width'),
  },
  'invoice.numbering': {
    default: 'on',
    read: (value) => (['on', 'off'].includes(value.trim().toLowerCase()) ? value.trim().toLowerCase() : undefined),
    accepted: () => t('core.config.accepted.onOff'),
  },
} satisfies Record<string, Setting>

export type SettingKey = keyof typeof SETTINGS

export function checkSettingKey(key: string): SettingKey {
  if (key in SETTINGS) return key as SettingKey
  throw new InputError(t('core.config.unknownKey', {key: quoteInput(key), keys: Object.keys(SETTINGS).join(', ')}), {field: 'key', code: 'unknown_setting'})
}

export function checkSettingValue(key: SettingKey, value: string): string {
  const stored = SETTINGS[key].read(value)
  if (stored === undefined) throw new InputError(t('core.config.badValue', {key, value: quoteInput(value), accepted: SETTINGS[key].accepted()}), {field: 'value'})
  return stored
}

/** The value in force: the profile's, the shared one, the default. */
export function readSetting(config: ConfigData, profileName: string | undefined, key: SettingKey): string {
  const own = profileName ? config.profiles[profileName]?.settings?.[key] : undefined
  return own ?? config.settings?.[key] ?? SETTINGS[key].default
}

/** Where a value in force comes from. */
export function settingSource(config: ConfigData, profileName: string | undefined, key: SettingKey): 'profile' | 'shared' | 'default' {
  if (profileName && config.profiles[profileName]?.settings?.[key] !== undefined) return 'profile'
  return config.settings?.[key] !== undefined ? 'shared' : 'default'
}
