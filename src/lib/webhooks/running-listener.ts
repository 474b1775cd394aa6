/**
 * Whether a `svc webhooks listen` is receiving the local sandbox's events right now: what
 * `webhooks trigger` asks before suggesting to start one. A listener on the local sandbox saves
 * its endpoint in `webhooks/<scope>/session.json` (with its pid); one counts when its process is
 * alive and the sandbox still has that endpoint (asked through the admin surface).
 */
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import type {Context} from '../context.js'
import {findRunningSandbox} from '../sandbox-admin/running.js'
import type {SavedSession} from './scope.js'

/** Undefined when the base URL is not the local sandbox (or the sandbox could not be asked). */
export async function listenerRegistered(ctx: Context): Promise<boolean | undefined> {
  const state = findRunningSandbox(ctx)
  const creds = ctx.credentials()
  if (!state) return undefined
  // A listener registers one endpoint per environment it forwards.
  const ids = liveSessions(ctx.configDir, state.admin_url).flatMap((session) => session.endpoint_ids ?? [session.endpoint_id])
  if (ids.length === 0) return false
  try {
    const {localAdmin} = await import('../sandbox-admin/admin.js')
    const admin = await localAdmin(ctx)
    const listed = await admin.call('GET /_admin/webhook-endpoints', {query: {environment: creds.environment ?? 'SANDBOX'}})
    return listed.data.some((endpoint) => ids.includes(endpoint.id))
  } catch {
    return undefined
  }
}

function liveSessions(configDir: string, adminUrl: string): SavedSession[] {
  const root = join(configDir, 'webhooks')
  let scopes: string[]
  try {
    scopes = readdirSync(root)
  } catch {
    return []
  }
  const sessions: SavedSession[] = []
  for (const scope of scopes) {
    try {
      const session = JSON.parse(readFileSync(join(root, scope, 'session.json'), 'utf8')) as SavedSession
      if (session.admin_url === adminUrl && isAlive(session.pid)) sessions.push(session)
    } catch {
      // no session in this scope
    }
  }
  return sessions
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
