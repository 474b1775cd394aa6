/**
 * `svc sandbox stop [--profile NAME | --all]`: stops running local sandboxes of this config
 * directory as Ctrl-C would (SIGTERM: the sandbox flushes its data, releases its data file and
 * removes its registry entry), waits until each has exited, then removes what it saved: the
 * profiles at its address that `serve` saved (`local`, and any other it saved there), its log when
 * it ran in the background, and an entry it could not remove itself. An exec'd sandbox (no
 * profile) stops with its command: SIGTERM goes to exec, which passes it to the command first.
 *
 * Which: `--all`; the sandbox that owns the profile named (`--profile`, SVC_PROFILE); else the one at
 * the address given (`--base-url`, SVC_BASE_URL, SVC_SANDBOX_URL: what `serve --detach` exports);
 * else the current profile's. None running: exit 7.
 */
import {rmSync} from 'node:fs'
import {join} from 'node:path'

import {sleep} from '../../contract/clock.js'
import type {Context} from '../context.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {isOwnerAlive} from '../config/process-owner.js'
import {namedProfile, normaliseBaseUrl, selectedProfileName} from '../config/resolve.js'
import {readConfig, updateConfig} from '../config/store.js'
import {pruneRegistry, unregisterSandbox, type SandboxEntry} from './registry.js'

/** How long a sandbox may take to stop after SIGTERM (a large --data file flushes first). */
const STOP_WAIT_MS = 60_000

/** Where `serve --detach` writes a background sandbox's stderr. */
export function detachedLogPath(configDir: string, pid: number): string {
  return join(configDir, 'sandboxes', `sandbox-${pid}.log`)
}

export interface Stopped {
  url: string
  pid: number
  profiles: string[]
}

export async function stopSandboxes(ctx: Context, flags: {all?: boolean}): Promise<void> {
  const live = await pruneRegistry(ctx.configDir)
  let targets: SandboxEntry[]
  if (flags.all) {
    targets = live
    if (targets.length === 0) throw new SvcError(t('exec.stopNone'), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_not_running'})
  } else if (namedProfile(ctx.flags, ctx.env) === undefined && addressGiven(ctx)) {
    // The settings `serve --detach` printed (SVC_BASE_URL) or --base-url: the sandbox at that address, never the current profile's.
    const {source, url} = addressGiven(ctx)!
    targets = live.filter((entry) => normaliseBaseUrl(entry.base_url) === url)
    if (targets.length === 0) throw new SvcError(t('exec.stopNoAddress', {url, source}), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_not_running'})
  } else {
    const name = selectedProfileName(ctx.flags, ctx.env, ctx.config())
    if (!name) throw new InputError(t('exec.stopNoCurrent'), {field: 'profile'})
    targets = live.filter((entry) => entry.profile === name)
    if (targets.length === 0) throw new SvcError(t('exec.stopNoProfile', {profile: name}), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_not_running'})
  }
  const stopped: Stopped[] = []
  for (const entry of targets) stopped.push(await stopOne(ctx, entry))
  await ctx.io.result(stopped, () => {
    for (const one of stopped) {
      const profiles = one.profiles.length > 0 ? t('exec.stoppedProfiles', {count: one.profiles.length, names: one.profiles.join(', ')}) : ''
      ctx.io.err(t('exec.stopped', {url: one.url, pid: one.pid, profiles}))
    }
  })
}

/** The address given by a flag or variable (not by a profile), and which gave it. */
function addressGiven(ctx: Context): {source: string; url: string} | undefined {
  const given: Array<[string, string | undefined]> = [
    ['--base-url', ctx.flags.baseUrl],
    ['SVC_BASE_URL', ctx.env.SVC_BASE_URL],
    ['SVC_SANDBOX_URL', ctx.env.SVC_SANDBOX_URL],
  ]
  const found = given.find(([, url]) => url)
  return found ? {source: found[0], url: normaliseBaseUrl(found[1]!)} : undefined
}

async function stopOne(ctx: Context, entry: SandboxEntry): Promise<Stopped> {
  try {
    process.kill(entry.pid, 'SIGTERM')
  } catch {
    // Gone already: what it left is removed below.
  }
  const deadline = ctx.clock.now() + STOP_WAIT_MS
  while (isOwnerAlive(entry)) {
    if (ctx.clock.now() > deadline) {
      throw new SvcError(t('exec.stopStuck', {url: entry.base_url, pid: entry.pid, seconds: STOP_WAIT_MS / 1000}), {exitCode: ExitCode.FAILURE, code: 'sandbox_stuck'})
    }
    await sleep(ctx.clock, 50)
  }
  await unregisterSandbox(ctx.configDir, entry)
  const profiles: string[] = []
  const saved = Object.values(readConfig(ctx.configDir).profiles).some((profile) => profile.local_sandbox && sameUrl(profile.base_url, entry.base_url))
  if (saved) await updateConfig(ctx.configDir, (data) => {
    for (const [name, profile] of Object.entries(data.profiles)) {
      if (!profile.local_sandbox || !sameUrl(profile.base_url, entry.base_url)) continue
      delete data.profiles[name]
      profiles.push(name)
      if (data.current === name) delete data.current
    }
  }, ctx.clock)
  rmSync(detachedLogPath(ctx.configDir, entry.pid), {force: true})
  return {url: entry.base_url, pid: entry.pid, profiles}
}

function sameUrl(a: string | undefined, b: string): boolean {
  try {
    return a !== undefined && normaliseBaseUrl(a) === normaliseBaseUrl(b)
  } catch {
    return false
  }
}
