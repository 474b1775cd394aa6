/** Money: the fee settings, balances and the ledger, and live approvals on the simulated customer's handset. */
import {validationError} from '../errors.js'
import {t} from '../i18n/index.js'
import {env, envSchema, page, pageOf, pageQuery} from './common.js'
import type {AdminDependencies} from './common.js'
import {addAdminRoute} from './route.js'

export function registerMoneyRoutes({router, ledger, payments}: AdminDependencies): void {
  addAdminRoute(router, 'GET /_admin/fees', {handler: () => ({status: 200, body: ledger.fees()})})
  addAdminRoute(router, 'PUT /_admin/fees', {
    handler: (req) => {
      const {mode, value} = req.body
      if (mode === 'percent' && value > 100) throw validationError([{field: 'value', message: t('sandbox.admin.percent')}])
      if (mode === 'fixed' && !Number.isInteger(value)) throw validationError([{field: 'value', message: t('sandbox.admin.fixed')}])
      const absorb = req.body.absorb_fees ?? ledger.fees().absorb_fees
      return {status: 200, body: ledger.setFees({mode, value, absorb_fees: absorb})}
    },
  })
  addAdminRoute(router, 'GET /_admin/balance', {
    query: {type: 'object', properties: {environment: envSchema}},
    handler: (req) => {
      const only = env(req.query.environment)
      const list = (['SANDBOX', 'LIVE'] as const).filter((e) => !only || e === only).map((e) => ledger.balance(e))
      return {status: 200, body: {data: list}}
    },
  })
  addAdminRoute(router, 'GET /_admin/ledger', {
    query: {type: 'object', properties: {environment: envSchema, ...pageQuery}},
    handler: (req) => {
      const {limit, offset} = pageOf(req.query)
      const result = ledger.entries(env(req.query.environment, 'SANDBOX')!, offset, limit)
      return {status: 200, body: page(result.items, result.total, limit, offset)}
    },
  })

  // Live payments: the simulated customer's handset.
  addAdminRoute(router, 'POST /_admin/payments/{paymentId}/approve', {
    handler: (req) => ({status: 200, body: payments.decide(req.params.paymentId, 'approve')}),
  })
  addAdminRoute(router, 'POST /_admin/payments/{paymentId}/decline', {
    handler: (req) => ({status: 200, body: payments.decide(req.params.paymentId, 'decline')}),
  })
}
