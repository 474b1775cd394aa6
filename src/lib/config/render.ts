import {t} from '../i18n/index.js'
import type {IO} from '../io/terminal.js'
import type {ProfileView} from './profiles.js'

export async function renderProfiles(io: IO, profiles: ProfileView[]): Promise<string> {
  return io.table(
    [t('core.table.current'), t('core.table.name'), t('core.table.environment'), t('core.table.key'), t('core.table.baseUrl')],
    profiles.map((p) => [p.current ? '*' : '', p.name, p.environment ?? '', p.api_key ?? t('core.none'), p.base_url]),
    [{priority: 1}, {kind: 'id'}, {priority: 2}, {kind: 'id'}, {kind: 'text', priority: 3}],
  )
}

export function renderProfileDetail(view: ProfileView): string {
  const rows: [string, string][] = [
    [t('core.table.name'), view.name],
    [t('core.table.current'), view.current ? t('core.yes') : t('core.no')],
    [t('core.table.environment'), view.environment ?? t('core.none')],
    [t('core.table.key'), view.api_key ?? t('core.none')],
    [t('core.table.baseUrl'), view.base_url],
    [t('core.table.secret'), view.endpoint_secret ?? t('core.none')],
    [t('core.table.lang'), view.lang ?? t('core.none')],
  ]
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')
}
