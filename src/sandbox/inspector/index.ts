/**
 * The web inspector under `/_inspector/`: a page of static files (assets/: HTML, CSS, one script;
 * no inline script, no external asset) that reads and drives the sandbox through the admin surface.
 *
 * Who gets in: a login link carrying a one-time code (`serve` prints one; `POST
 * /_admin/inspector/login-links` makes another) sets an HttpOnly, SameSite=Strict session cookie;
 * the admin token as a Bearer token works too. A request with the cookie passes the admin
 * surface's authentication (server.ts `admits`); one that changes something must also carry the
 * session's CSRF token in a header (which a page of another site can neither read nor send) and,
 * when the browser says where it comes from (Origin), come from this sandbox.
 *
 * Like the rest of the sandbox, it imports only the sandbox's own modules and src/contract/ (its
 * routes' paths and answers: sandbox-inspector.ts); the page's files import nothing at all.
 */
import {randomBytes, timingSafeEqual} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import type {IncomingMessage} from 'node:http'
import {join} from 'node:path'
import {CSRF_HEADER, INSPECTOR_BASE, INSPECTOR_COOKIE, INSPECTOR_ROUTES, type InspectorSession, type LoginLink} from '../../contract/sandbox-inspector.js'
import {businessLanguage, businessName} from '../business.js'
import {inspectorMessages} from '../i18n/index.js'
import type {Journal} from '../journal.js'
import {eventStream, SSE_HEADERS} from '../journal-admin.js'
import {registerInspectorData, type InspectorDependencies} from './data.js'
import {addAdminRoute} from '../admin/route.js'

export type {InspectorDependencies} from './data.js'

/** How long a login code stays good (it is used once). */
const CODE_TTL_MS = 24 * 60 * 60 * 1000
/** Sessions kept at most (the oldest goes). */
const MAX_SESSIONS = 100

export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

const ASSETS: Record<string, {file: string; type: string}> = {
  '': {file: 'index.html', type: 'text/html; charset=utf-8'},
  'app.js': {file: 'app.js', type: 'text/javascript; charset=utf-8'},
  'app.css': {file: 'app.css', type: 'text/css; charset=utf-8'},
}

/** Where the assets are: beside the built sandbox (dist/sandbox/inspector), or in the sources. */
function assetDir(): string {
  // The build defines import.meta.dirname as __dirname (scripts/build.mjs): its output is CommonJS.
  const here = typeof __dirname === 'string' ? __dirname : import.meta.dirname
  for (const dir of [join(here, 'inspector'), join(here, '../sandbox/inspector'), join(here, 'assets')]) if (existsSync(join(dir, 'app.js'))) return dir
  return join(here, 'assets')
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie
  if (!header) return undefined
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim()
  }
  return undefined
}


export function registerInspector(deps: InspectorDependencies) {
  const {router, journal, store, options} = deps
  const codes = new Map<string, number>()
  const sessions = new Map<string, {csrf: string}>()
  const cache = new Map<string, Buffer>()
  const dir = assetDir()

  const session = (req: IncomingMessage) => {
    const id = cookie(req, INSPECTOR_COOKIE)
    return id === undefined ? undefined : sessions.get(id)
  }

  function loginLink(): string {
    const code = `svc_login_${randomBytes(18).toString('base64url')}`
    codes.set(code, deps.context.clock.machine.now() + CODE_TTL_MS)
    return `${deps.baseUrl()}${INSPECTOR_BASE}/login?code=${code}`
  }

  const security = {'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY'}

  router.add({
    method: 'GET',
    path: `${INSPECTOR_BASE}/login`,
    auth: 'none',
    limitByAddress: true,
    responses: {303: {description: 'Logged in: to the inspector.'}},
    handler: (req) => {
      const code = new URL(req.req.url ?? '/', 'http://x').searchParams.get('code') ?? ''
      const until = codes.get(code)
      codes.delete(code)
      if (until === undefined || until < deps.context.clock.machine.now()) {
        const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>svc inspector</title></head><body><p>${inspectorMessages('en')['inspector.login.expired']}</p><p lang="fr">${inspectorMessages('fr')['inspector.login.expired']}</p></body></html>`
        return {status: 401, raw: page, contentType: 'text/html; charset=utf-8', headers: security}
      }
      // Each secret carries its kind: the journal finds it by that (journal-redact.ts).
      const id = `svc_session_${randomBytes(24).toString('base64url')}`
      sessions.set(id, {csrf: `svc_csrf_${randomBytes(24).toString('base64url')}`})
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!)
      return {
        status: 303,
        headers: {
          ...security,
          location: `${INSPECTOR_BASE}/`,
          'set-cookie': `${INSPECTOR_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict`,
        },
      }
    },
  })
  for (const [name, asset] of Object.entries(ASSETS)) {
    router.add({
      method: 'GET',
      path: `${INSPECTOR_BASE}/${name}`,
      auth: 'none',
      responses: {200: {description: 'The inspector.', contentType: asset.type}},
      handler: () => {
        let bytes = cache.get(name)
        if (!bytes) cache.set(name, (bytes = readFileSync(join(dir, asset.file))))
        return {status: 200, raw: bytes, contentType: asset.type, headers: {...security, 'cache-control': 'no-cache'}}
      },
    })
  }
  router.add({
    method: 'GET',
    path: INSPECTOR_BASE,
    auth: 'none',
    responses: {308: {description: 'To /_inspector/.'}},
    handler: () => ({status: 308, headers: {location: `${INSPECTOR_BASE}/`}}),
  })

  addAdminRoute(router, 'POST /_admin/inspector/login-links', {
    handler: () => ({status: 201, body: {url: loginLink()} satisfies LoginLink}),
  })
  addAdminRoute(router, 'GET /_admin/inspector/session', {
    query: {type: 'object', properties: {language: {type: 'string', enum: ['en', 'fr']}}},
    handler: (req) => {
      const language = (req.query.language as 'en' | 'fr' | undefined) ?? businessLanguage(store)
      const body: InspectorSession = {
        csrf: session(req.req)?.csrf ?? '',
        language,
        business_name: businessName(store, options.businessName),
        messages: inspectorMessages(language),
      }
      return {status: 200, body, headers: {'cache-control': 'no-store'}}
    },
  })
  // What changed, for the pages to read again: each request answered, each event.
  addAdminRoute(router, 'GET /_admin/inspector/changes', {
    eventStream: true,
    handler: () => ({
      status: 200,
      headers: SSE_HEADERS,
      stream: (res) =>
        eventStream(res, (send) => {
          let timer: NodeJS.Timeout | undefined
          const kinds = new Set<string>()
          // Coalesced: a burst of requests is one change a page reacts to.
          const changed = (kind: string) => {
            kinds.add(kind)
            timer ??= setTimeout(() => {
              timer = undefined
              send('change', {kinds: [...kinds]})
              kinds.clear()
            }, 150)
          }
          const offJournal = journal.subscribe((entry) => {
            // svc's own reads (listen checking its endpoint, a stand-in listing) change nothing a page shows.
            if (entry.origin !== 'app' && entry.method === 'GET') return
            changed('request')
            if (entry.origin === 'app') send('request', entry)
          })
          const offEvents = deps.context.events.subscribe(() => changed('event'))
          return () => {
            clearTimeout(timer)
            offJournal()
            offEvents()
          }
        }),
    }),
  })
  registerInspectorData(deps)

  return {
    loginLink,
    /** A request with the inspector's session cookie (and, to change anything, its CSRF token, from this origin). */
    admits(req: IncomingMessage, method: string): boolean {
      const found = session(req)
      if (!found) return false
      if (method === 'GET') return true
      const token = req.headers[CSRF_HEADER]
      if (typeof token !== 'string' || !same(token, found.csrf)) return false
      const origin = req.headers.origin
      return origin === undefined || origin === deps.baseUrl() || origin === `http://${req.headers.host}`
    },
  }
}
