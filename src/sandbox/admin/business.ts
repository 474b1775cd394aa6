/** The business: its name, logo and the language its customers read; the logo's public address. */
import {ApiError, validationError} from '../errors.js'
import {t} from '../i18n/index.js'
import {
  businessLanguage,
  businessLogo,
  businessName,
  MAX_LOGO_BYTES,
  setBusinessLanguage,
  setBusinessLogo,
  setBusinessName,
  sniffLogo,
  type Logo,
} from '../business.js'
import type {AdminDependencies} from './common.js'
import {addAdminRoute} from './route.js'

export function registerBusinessRoutes(deps: AdminDependencies): void {
  const {router, store, options} = deps
  // The language its customers read (invoice PDFs, email and WhatsApp texts; the fallback of
  // checkout pages when the browser asks for neither language).
  const businessView = () => {
    const logo = businessLogo(store)
    return {
      name: businessName(store, options.businessName),
      language: businessLanguage(store),
      logo: logo ? {content_type: logo.content_type, size: logo.bytes.length, url: `${deps.urls().url}/storage/business/logo`} : null,
    }
  }
  addAdminRoute(router, 'GET /_admin/business', {handler: () => ({status: 200, body: businessView()})})
  addAdminRoute(router, 'PUT /_admin/business', {
    handler: (req) => {
      if (Object.keys(req.body).length === 0) throw validationError([{field: 'body', message: t('sandbox.business.nothing')}])
      // Every field is checked before any is applied: a bad logo never leaves a new name behind.
      let logo: Logo | null | undefined
      if (req.body.logo_base64 === null) logo = null
      else if (typeof req.body.logo_base64 === 'string') logo = checkLogo(req.body.logo_base64)
      if (req.body.language !== undefined) setBusinessLanguage(store, req.body.language)
      if (req.body.name !== undefined) setBusinessName(store, req.body.name.trim())
      if (logo !== undefined) setBusinessLogo(store, logo)
      return {status: 200, body: businessView()}
    },
  })
  router.add({
    method: 'GET',
    path: '/storage/business/logo',
    auth: 'none',
    responses: {200: {description: 'The business logo (PNG or JPEG).'}},
    handler: () => {
      const logo = businessLogo(store)
      if (!logo) throw new ApiError(404, 'not_found', t('sandbox.business.noLogo'))
      return {status: 200, raw: logo.bytes, contentType: logo.content_type, headers: {'cache-control': 'no-cache'}}
    },
  })
}

/** A logo as sent to PUT /_admin/business: base64 of a PNG or JPEG of at most 1 MB, else 400 naming logo_base64. */
function checkLogo(base64: string): Logo {
  const bytes = /^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(base64) ? Buffer.from(base64, 'base64') : Buffer.alloc(0)
  if (bytes.length === 0) throw validationError([{field: 'logo_base64', message: t('sandbox.business.logoNotBase64')}])
  if (bytes.length > MAX_LOGO_BYTES) throw validationError([{field: 'logo_base64', message: t('sandbox.business.logoTooBig', {size: bytes.length, max: MAX_LOGO_BYTES})}])
  const type = sniffLogo(bytes)
  if (!type) throw validationError([{field: 'logo_base64', message: t('sandbox.business.logoNotImage')}])
  return {content_type: type, bytes}
}
