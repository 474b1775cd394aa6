/**
 * The admin surface under `/_admin`: the dashboard's stand-in (the business, keys and the allowlist,
 * webhook endpoints, fees, balance and ledger, live approvals, the clock, reset and snapshots, event
 * deliveries). Bearer admin token; JSON; never under /v1 and never in the OpenAPI document.
 * docs/sandbox.md documents every route. Each area registers its routes from its own file, by
 * their names in the admin contract (`src/contract/sandbox-admin-routes.ts`, through `route.ts`).
 * This folder imports the sandbox's own files and the contract only.
 */
import {businessLanguage, businessName} from '../business.js'
import {registerAccessRoutes} from './access.js'
import type {AdminDependencies} from './common.js'
import {registerBusinessRoutes} from './business.js'
import {registerEventRoutes} from './events.js'
import {registerMoneyRoutes} from './money.js'
import {addAdminRoute} from './route.js'
import {registerTimeRoutes} from './time.js'
import {registerWebhookRoutes} from './webhooks.js'

export type {AdminDependencies} from './common.js'

export function registerAdminRoutes(deps: AdminDependencies): void {
  const {router, options, scheduler, store} = deps
  addAdminRoute(router, 'GET /_admin', {
    handler: () => ({
      status: 200,
      body: {
        business_name: businessName(store, options.businessName),
        language: businessLanguage(store),
        ...deps.urls(),
        settle_after_ms: options.settleAfterMs,
        rate_limit: options.rateLimit,
        seed: options.seed,
        persistent: Boolean(options.dataFile),
        storage: store.kind,
        clock: scheduler.state(),
      },
    }),
  })
  registerBusinessRoutes(deps)
  registerAccessRoutes(deps)
  registerWebhookRoutes(deps)
  registerMoneyRoutes(deps)
  registerTimeRoutes(deps)
  registerEventRoutes(deps)
}
