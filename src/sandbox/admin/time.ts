/** Time and state: the sandbox clock, reset, and snapshots (test isolation). */
import {MAX_ADVANCE_MS, MAX_SANDBOX_TIME} from '../clock.js'
import {ApiError, validationError} from '../errors.js'
import {t} from '../i18n/index.js'
import {KEPT_BY_RESTORE, SNAPSHOT_NAME} from '../store.js'
import type {RestoreCounts} from '../../contract/sandbox-admin-routes.js'
import type {AdminDependencies} from './common.js'
import {addAdminRoute} from './route.js'

export function registerTimeRoutes(deps: AdminDependencies): void {
  const {router, scheduler, store} = deps
  addAdminRoute(router, 'GET /_admin/clock', {handler: () => ({status: 200, body: scheduler.state()})})
  addAdminRoute(router, 'POST /_admin/clock/advance', {
    body: {type: 'object', required: ['ms'], additionalProperties: false, properties: {ms: {type: 'integer', minimum: 1, maximum: MAX_ADVANCE_MS}}},
    handler: async (req) => {
      const now = scheduler.clock.now()
      if (now + req.body.ms > MAX_SANDBOX_TIME)
        throw validationError([{field: 'ms', message: t('sandbox.admin.clockPast', {now: new Date(now).toISOString(), max: MAX_SANDBOX_TIME - now})}])
      return {status: 200, body: await scheduler.advance(req.body.ms)}
    },
  })

  addAdminRoute(router, 'POST /_admin/reset', {
    body: {type: 'object', additionalProperties: false, properties: {all: {type: 'boolean'}}},
    bodyOptional: true,
    handler: async (req) => {
      const all = req.body?.all === true
      // Deliveries in flight finish first: they would write into the emptied data.
      await scheduler.idle()
      store.reset(all)
      // --all removed every key: the sandbox is not usable without one.
      const keys = all ? deps.mintKeys() : undefined
      return {status: 200, body: {reset: true, all, ...(keys ? {keys} : {})}}
    },
  })

  const snapshotName = (name: unknown): string => {
    if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name))
      throw validationError([{field: 'name', message: t('sandbox.admin.snapshotName', {got: JSON.stringify(name)})}])
    return name
  }
  addAdminRoute(router, 'GET /_admin/snapshots', {handler: () => ({status: 200, body: {data: store.listSnapshots()}})})
  addAdminRoute(router, 'POST /_admin/snapshots', {
    body: {type: 'object', required: ['name'], additionalProperties: false, properties: {name: {type: 'string'}}},
    handler: async (req) => ({status: 201, body: await store.saveSnapshot(snapshotName(req.body.name))}),
  })
  addAdminRoute(router, 'POST /_admin/snapshots/{name}/restore', {
    handler: async (req) => {
      const name = snapshotName(req.params.name)
      await scheduler.idle()
      if (!(await store.restoreSnapshot(name))) throw new ApiError(404, 'not_found', t('sandbox.admin.snapshotNotFound', {name}))
      // What it brought back, both environments together; the credentials are not in a snapshot's reach.
      const count = (collection: string) => store.env('SANDBOX').collection(collection).size + store.env('LIVE').collection(collection).size
      const counts: RestoreCounts = {
        payments: count('payments'),
        invoices: count('invoices'),
        events: count('events'),
        webhook_endpoints: store.business.collection('webhook_endpoints').size,
      }
      return {status: 200, body: {name, restored: true, clock: scheduler.state(), counts, kept: [...KEPT_BY_RESTORE]}}
    },
  })
  addAdminRoute(router, 'DELETE /_admin/snapshots/{name}', {
    handler: (req) => {
      const name = snapshotName(req.params.name)
      if (!store.deleteSnapshot(name)) throw new ApiError(404, 'not_found', t('sandbox.admin.snapshotNotFound', {name}))
      return {status: 200, body: {name, deleted: true}}
    },
  })
}
