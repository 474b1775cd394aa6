/**
 * What an app under test needs to reach a local sandbox, as environment variables: the names
 * `svc sandbox exec` puts in its command's environment and `svc sandbox serve --detach` prints.
 * svc itself reads them too (config/resolve.ts: SVC_API_KEY and SVC_BASE_URL before any profile;
 * running.ts: SVC_SANDBOX_URL and SVC_SANDBOX_ADMIN_TOKEN before the registry), so an svc command
 * run with them reaches that sandbox and no other.
 */
export interface SandboxSettings {
  /** The public API's base URL (paths are /v1/…). */
  SVC_BASE_URL: string
  /** A SANDBOX key. */
  SVC_API_KEY: string
  SVC_LIVE_API_KEY: string
  /** What forwarded events are signed with (`whsec_…`). */
  SVC_WEBHOOK_SECRET: string
  /** The sandbox for the dashboard stand-ins (`svc sandbox …`): its base URL and admin token. */
  SVC_SANDBOX_URL: string
  SVC_SANDBOX_ADMIN_TOKEN: string
  /** exec with --fixtures: the file holding each step's answer (`{step: response}`). */
  SVC_FIXTURES_FILE?: string
}

export function sandboxSettings(sandbox: {url: string; adminToken: string; keys: {sandbox: string; live: string}}, webhookSecret: string): SandboxSettings {
  return {
    SVC_BASE_URL: sandbox.url,
    SVC_API_KEY: sandbox.keys.sandbox,
    SVC_LIVE_API_KEY: sandbox.keys.live,
    SVC_WEBHOOK_SECRET: webhookSecret,
    SVC_SANDBOX_URL: sandbox.url,
    SVC_SANDBOX_ADMIN_TOKEN: sandbox.adminToken,
  }
}

/**
 * The environment of a command run against the sandbox: the caller's, with these settings over it
 * and `SVC_PROFILE` removed. Inside it, SVC_API_KEY and SVC_BASE_URL win over any profile (the
 * current one, or one the caller's environment named), so no saved profile can send a command to
 * another sandbox or service; only a flag the command itself gives (`--api-key`, `--base-url`) does.
 */
export function environmentWith(env: NodeJS.ProcessEnv, settings: SandboxSettings): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {...env, ...settings}
  delete out.SVC_PROFILE
  if (settings.SVC_FIXTURES_FILE === undefined) delete out.SVC_FIXTURES_FILE
  return out
}

/**
 * `export KEY=value` lines a POSIX shell can eval (values quoted only where they need it), so that
 * the commands run after `eval "$(svc sandbox serve --detach)"` see them.
 */
export function settingsLines(settings: SandboxSettings): string {
  return Object.entries(settings)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `export ${name}=${/^[\w./:@%+=,-]+$/.test(value as string) ? value : `'${(value as string).replace(/'/g, `'\\''`)}'`}`)
    .join('\n')
}
