/** Who may call the public API: keys (minted, listed, revoked) and the IP allowlist. */
import {keyView} from '../auth.js'
import {ApiError, notFound, validationError} from '../errors.js'
import {t} from '../i18n/index.js'
import {SCOPES, type Scope} from '../types.js'
import {env, envSchema} from './common.js'
import type {AdminDependencies} from './common.js'
import {addAdminRoute} from './route.js'

export function registerAccessRoutes({router, keys, allowlist}: AdminDependencies): void {
  addAdminRoute(router, 'GET /_admin/keys', {
    query: {type: 'object', properties: {environment: envSchema}},
    handler: (req) => ({status: 200, body: {data: keys.list(env(req.query.environment)).map(keyView)}}),
  })
  // Does this sandbox know a key? Asked by its digest (sha256 of the secret, hex), never the secret:
  // a command bound to a key acts only on the sandbox that knows it.
  addAdminRoute(router, 'GET /_admin/keys/known', {
    query: {type: 'object', required: ['sha256'], properties: {sha256: {type: 'string', pattern: '^[0-9a-fA-F]{64}$'}}},
    handler: (req) => {
      const record = keys.byDigest(req.query.sha256 as string)
      return {status: 200, body: record ? {known: true, key: keyView(record)} : {known: false}}
    },
  })
  addAdminRoute(router, 'POST /_admin/keys', {
    body: {
      type: 'object',
      required: ['environment'],
      additionalProperties: false,
      properties: {environment: envSchema, scopes: {type: 'array', items: {type: 'string', enum: SCOPES}}},
    },
    handler: (req) => {
      // The schema allows only SCOPES.
      const {record, secret} = keys.mint(env(req.body.environment)!, req.body.scopes as Scope[] | undefined)
      return {status: 201, body: {...keyView(record), secret}}
    },
  })
  addAdminRoute(router, 'POST /_admin/keys/{keyId}/revoke', {
    handler: (req) => {
      const record = keys.revoke(req.params.keyId)
      if (!record) throw notFound('key', req.params.keyId)
      return {status: 200, body: keyView(record)}
    },
  })

  addAdminRoute(router, 'GET /_admin/allowlist', {handler: () => ({status: 200, body: {data: allowlist.list()}})})
  addAdminRoute(router, 'POST /_admin/allowlist', {
    body: {type: 'object', required: ['cidr'], additionalProperties: false, properties: {cidr: {type: 'string', minLength: 1}}},
    handler: (req) => {
      const entry = allowlist.add(req.body.cidr)
      if (!entry) throw validationError([{field: 'cidr', message: t('sandbox.admin.cidr', {cidr: req.body.cidr})}])
      return {status: 201, body: entry}
    },
  })
  addAdminRoute(router, 'DELETE /_admin/allowlist', {
    query: {type: 'object', required: ['cidr'], properties: {cidr: {type: 'string', minLength: 1}}},
    handler: (req) => {
      const {cidr} = req.query
      if (!allowlist.remove(cidr)) throw new ApiError(404, 'not_found', t('sandbox.admin.cidrNotFound', {cidr}))
      return {status: 200, body: {cidr, deleted: true}}
    },
  })
}
