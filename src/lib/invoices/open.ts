/**
 * Opening a URL in the browser with the platform's opener: `xdg-open` (Linux, BSD), `open`
 * (macOS), `rundll32 url.dll,FileProtocolHandler` on Windows (what `start` does, without a shell:
 * `cmd /c start` would read `&` in a query string as a command separator). The URL is passed as one
 * argument, never through a shell, and the child is detached so the CLI exits at once.
 */
import {spawn} from 'node:child_process'
import {accessSync, constants} from 'node:fs'
import {delimiter, join} from 'node:path'

export interface Opener {
  command: string
  args: (url: string) => string[]
}

/** The opener for this platform, or undefined when none is on the PATH. */
export function findOpener(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Opener | undefined {
  if (platform === 'win32') return {command: 'rundll32', args: (url) => ['url.dll,FileProtocolHandler', url]}
  const name = platform === 'darwin' ? 'open' : 'xdg-open'
  const path = onPath(name, env)
  return path ? {command: path, args: (url) => [url]} : undefined
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

/** Starts the opener detached; resolves true once it has spawned, false if it could not. */
export function openUrl(opener: Opener, url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return new Promise((resolve) => {
    let child
    try {
      child = spawn(opener.command, opener.args(url), {detached: true, stdio: 'ignore', shell: false, env})
    } catch {
      resolve(false)
      return
    }
    child.once('error', () => resolve(false))
    child.once('spawn', () => {
      child.unref()
      resolve(true)
    })
  })
}
