/**
 * `svc config set KEY VALUE` and `svc config get [KEY]`: the settings of config/settings.ts, on the
 * profile in use (`--profile`, `SVC_PROFILE`, the current one) or, with none, for every profile.
 */
import type {Clock} from '../../contract/clock.js'
import type {IO} from '../io/terminal.js'
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {checkSettingKey, checkSettingValue, readSetting, settingSource, SETTINGS, type SettingKey} from './settings.js'
import {readConfig, updateConfig, type ConfigData} from './store.js'

/** What the settings commands need of the run: its config dir, the profile it names (`--profile`, `SVC_PROFILE`), its output. */
export interface SettingsRun {
  configDir: string
  named?: string
  io: IO
  /** The run's: the wait on the config lock (updateConfig) is on it. */
  clock: Clock
}

/** The profile whose settings change: the one named (which must exist), else the current one, else none. */
function profileInUse(ctx: Omit<SettingsRun, 'clock'>, config: ConfigData): string | undefined {
  const named = ctx.named
  if (named !== undefined && !config.profiles[named]) throw new InputError(t('core.profile.notFound', {name: named}), {field: 'profile', code: 'profile_not_found'})
  const name = named ?? config.current
  return name && config.profiles[name] ? name : undefined
}

export async function configSet(ctx: SettingsRun, key: string, value: string): Promise<void> {
  const setting = checkSettingKey(key)
  const stored = checkSettingValue(setting, value)
  let profile: string | undefined
  await updateConfig(ctx.configDir, (data) => {
    profile = profileInUse(ctx, data)
    if (profile) {
      const record = data.profiles[profile]!
      record.settings = {...record.settings, [setting]: stored}
    } else data.settings = {...data.settings, [setting]: stored}
  }, ctx.clock)
  await ctx.io.result({key: setting, value: stored, profile: profile ?? null}, () =>
    ctx.io.err(profile ? t('core.config.setProfile', {key: setting, value: stored, profile}) : t('core.config.setShared', {key: setting, value: stored})),
  )
}

export async function configGet(ctx: Omit<SettingsRun, 'clock'>, key: string | undefined): Promise<void> {
  const keys = key === undefined ? (Object.keys(SETTINGS) as SettingKey[]) : [checkSettingKey(key)]
  const config = readConfig(ctx.configDir)
  const profile = profileInUse(ctx, config)
  const rows = keys.map((k) => ({key: k, value: readSetting(config, profile, k), source: settingSource(config, profile, k)}))
  await ctx.io.result(key === undefined ? {profile: profile ?? null, settings: rows} : {...rows[0], profile: profile ?? null}, async () => {
    // One key: its value alone, for `$(svc config get invoice.prefix)`.
    if (key !== undefined) return ctx.io.out(rows[0]!.value)
    ctx.io.out(
      await ctx.io.table(
        [t('core.config.table.key'), t('core.config.table.value'), t('core.config.table.source')],
        rows.map((r) => [r.key, r.value, t(`core.config.source.${r.source}`)]),
      ),
    )
  })
}
