/**
 * `svc sandbox list`: the local sandboxes running from this config directory (registry.ts): URL,
 * PID, data file, the profile each owns. Dead entries (a serve killed with SIGKILL) are removed on
 * the way. `--json` is a bare array; admin tokens are never shown.
 */
import type {Context} from '../context.js'
import {getLocale, t} from '../i18n/index.js'
import {formatDateTime} from '../time/date.js'
import {pruneRegistry} from './registry.js'

export interface SandboxListing {
  url: string
  pid: number
  data_file: string | null
  profile: string
  admin_url: string
  started_at: string
}

export async function listSandboxes(ctx: Context): Promise<void> {
  const live = await pruneRegistry(ctx.configDir)
  const rows: SandboxListing[] = live.map((e) => ({url: e.base_url, pid: e.pid, data_file: e.data_file, profile: e.profile, admin_url: e.admin_url, started_at: e.started_at}))
  await ctx.io.result(rows, async () => {
    if (rows.length === 0) return ctx.io.note(t('local.list.none'))
    ctx.io.out(
      await ctx.io.table(
        [t('local.col.url'), t('local.list.pid'), t('local.list.profile'), t('local.list.data'), t('local.list.since')],
        rows.map((r) => [r.url, String(r.pid), r.profile || t('exec.listNoProfile'), r.data_file ?? t('local.list.memory'), formatDateTime(r.started_at, getLocale())]),
      ),
    )
  })
}
