/**
 * `--open`: a URL opened in the person's browser, when there is a person and a browser to open it
 * in. Not from a script or a pipe (stdin and stdout not both a terminal, or CI), nor on Linux
 * without a display (DISPLAY, WAYLAND_DISPLAY): then the URL is said on stderr, to open by hand.
 * The browser is `$BROWSER` when set (a command, the URL as its last argument, as gh does), else
 * the system's opener (xdg-open, open, start). The opener runs detached: svc does not wait for it.
 */
import {spawn} from 'node:child_process'

import type {Context} from '../context.js'
import {t} from '../i18n/index.js'

/** The command that opens `url` here, or undefined when none can (no display). */
function opener(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, url: string): string[] | undefined {
  const browser = env.BROWSER?.trim()
  if (browser) return [...browser.split(/\s+/), url]
  if (platform === 'darwin') return ['open', url]
  if (platform === 'win32') return ['cmd', '/c', 'start', '""', url]
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined
  return ['xdg-open', url]
}

/** Opens `url` in a browser, or says it on stderr where none can be opened. True when a browser was started. */
export async function openInBrowser(ctx: Context, url: string): Promise<boolean> {
  const command = ctx.io.interactive ? opener(ctx.env, process.platform, url) : undefined
  const started = command ? await start(command, ctx.env) : false
  if (started) ctx.io.err(t('core.open.opened', {url}))
  else ctx.io.err(t('core.open.cannot', {url}))
  return started
}

function start([file, ...args]: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const child = spawn(file!, args, {detached: true, stdio: 'ignore', env})
      child.once('error', () => resolve(false))
      child.once('spawn', () => {
        child.unref()
        resolve(true)
      })
    } catch {
      resolve(false)
    }
  })
}
