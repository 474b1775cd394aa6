/**
 * The API reference under `/_reference/`: Swagger UI on this sandbox's own description
 * (`/v1/openapi.json`), every operation and webhook, with "Try it out" against this sandbox (the
 * description's server) once the sandbox key is given under Authorize. Static files, no key needed,
 * served with the inspector's Content-Security-Policy (no inline script, nothing from elsewhere).
 *
 * Swagger UI's two files (swagger-ui-dist, a dev dependency) are copied beside the built sandbox
 * (dist/sandbox/reference/) by scripts/build.mjs; run from the sources, they are read from
 * node_modules. The page's own files are in assets/.
 *
 * May import: the sandbox (`../`) and src/contract/. Never the CLI.
 */
import {existsSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {REFERENCE_BASE} from '../../contract/sandbox-inspector.js'
import {businessLanguage, fromAcceptLanguage} from '../business.js'
import {t, type Locale, type MessageKey} from '../i18n/index.js'
import {CSP} from '../inspector/index.js'
import type {Router} from '../router.js'
import type {Store} from '../store.js'

const FILES: Record<string, {type: string; from: 'page' | 'swagger'}> = {
  'index.html': {type: 'text/html; charset=utf-8', from: 'page'},
  'reference.js': {type: 'text/javascript; charset=utf-8', from: 'page'},
  'reference.css': {type: 'text/css; charset=utf-8', from: 'page'},
  'swagger-ui-bundle.js': {type: 'text/javascript; charset=utf-8', from: 'swagger'},
  'swagger-ui.css': {type: 'text/css; charset=utf-8', from: 'swagger'},
}

/** Where each file is: beside the built sandbox (dist/sandbox/reference), else the sources and node_modules. */
function locate(name: string, from: 'page' | 'swagger'): string | undefined {
  // The build defines import.meta.dirname as __dirname (scripts/build.mjs): its output is CommonJS.
  const here = typeof __dirname === 'string' ? __dirname : import.meta.dirname
  for (const dir of [join(here, 'reference'), join(here, '../sandbox/reference')]) if (existsSync(join(dir, name))) return join(dir, name)
  if (from === 'page') return join(here, 'assets', name)
  try {
    return join(dirname(createRequire(join(here, 'index.js')).resolve('swagger-ui-dist/package.json')), name)
  } catch {
    return undefined
  }
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The page in `locale`: each `{{key}}` of index.html is that message of the catalogue. */
function render(template: string, locale: Locale): Buffer {
  return Buffer.from(template.replace(/\{\{([\w.]+)\}\}/g, (_, key: string) => (key === 'lang' ? locale : escapeHtml(t(key as MessageKey, undefined, locale)))))
}

export function registerReference(router: Router, store: Store): void {
  const cache = new Map<string, Buffer>()
  const headers = {'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY', 'cache-control': 'no-cache'}
  for (const [name, file] of Object.entries(FILES)) {
    router.add({
      method: 'GET',
      path: `${REFERENCE_BASE}/${name === 'index.html' ? '' : name}`,
      auth: 'none',
      responses: {200: {description: 'The API reference.', contentType: file.type}},
      handler: (req) => {
        // The page speaks the reader's language (Accept-Language, else the business's); Swagger UI is English.
        const header = req.headers['accept-language']
        const fallback = businessLanguage(store)
        const locale = name === 'index.html' ? (fromAcceptLanguage(Array.isArray(header) ? header.join(',') : header, fallback) ?? fallback) : undefined
        const cacheKey = locale ? `${name}:${locale}` : name
        let bytes = cache.get(cacheKey)
        if (!bytes) {
          const path = locate(name, file.from)
          if (!path || !existsSync(path)) return {status: 404, raw: t('inspector.reference.missing', undefined, locale ?? fallback), contentType: 'text/plain; charset=utf-8', headers}
          bytes = readFileSync(path)
          if (locale) bytes = render(bytes.toString('utf8'), locale)
          cache.set(cacheKey, bytes)
        }
        return {status: 200, raw: bytes, contentType: file.type, headers: locale ? {...headers, 'content-language': locale, vary: 'Accept-Language'} : headers}
      },
    })
  }
  router.add({
    method: 'GET',
    path: REFERENCE_BASE,
    auth: 'none',
    responses: {308: {description: `To ${REFERENCE_BASE}/.`}},
    handler: () => ({status: 308, headers: {location: `${REFERENCE_BASE}/`}}),
  })
}
