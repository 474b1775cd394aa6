/**
 * A sandbox handler's body is typed from its route's schema (src/sandbox/router.ts, FromSchema in
 * src/contract/json-schema.ts): no `body: any`. An admin route's schema is the contract's
 * (src/contract/sandbox-admin-bodies.ts), given to the router by addAdminRoute: the handler's body,
 * the request the sandbox accepts and what the CLI and the inspector send come from one schema. The lines marked @ts-expect-error must fail to compile
 * (`tsc --noEmit` checks them); the test runs the same route to show the value matches its type.
 */
import {describe, expect, it} from 'vitest'
import {ADMIN_BODIES} from '../../src/contract/sandbox-admin-bodies.js'
import type {AdminInput} from '../../src/contract/sandbox-admin-routes.js'
import {addAdminRoute} from '../../src/sandbox/admin/route.js'
import {Router} from '../../src/sandbox/router.js'

describe("a handler's body has its schema's type", () => {
  it('required properties present, others optional, enums as their members, raw as bytes', async () => {
    const router = new Router()
    const seen: unknown[] = []
    router.add({
      method: 'POST',
      path: '/typed',
      auth: 'none',
      responses: {200: {description: 'OK'}},
      body: {
        type: 'object',
        required: ['amount'],
        additionalProperties: false,
        properties: {amount: {type: 'integer'}, operator: {type: 'string', enum: ['MTN', 'ORANGE']}, note: {type: ['string', 'null']}},
      },
      handler: (req) => {
        const amount: number = req.body.amount
        const operator: 'MTN' | 'ORANGE' | undefined = req.body.operator
        const note: string | null | undefined = req.body.note
        // @ts-expect-error an optional property is not always there
        const always: 'MTN' | 'ORANGE' = req.body.operator
        // @ts-expect-error an integer is not text
        const text: string = req.body.amount
        // @ts-expect-error no such property (additionalProperties: false)
        void req.body.amout
        seen.push(amount, operator, note, always, text)
        return {status: 200}
      },
    })
    router.add({
      method: 'PUT',
      path: '/typed',
      auth: 'none',
      responses: {200: {description: 'OK'}},
      body: 'raw',
      handler: (req) => {
        const bytes: Buffer = req.body
        seen.push(bytes.length)
        return {status: 200}
      },
    })
    const match = router.match('POST', '/typed')!
    await match.route.handler({body: {amount: 5}} as never)
    expect(seen).toEqual([5, undefined, undefined, undefined, 5])
  })
})

describe("an admin handler's body has its schema's type, and the schema is the contract's", () => {
  it('the router validates with the very schema the contract types the body from; a handler declares no body of its own', async () => {
    const router = new Router()
    const seen: unknown[] = []
    addAdminRoute(router, 'POST /_admin/operators/{operator}/down', {
      handler: (req) => {
        // The handler reads what the schema says once validated: `mode` has a default, so it is there.
        const mode: 'fail' | 'unspecified' | 'slow' = req.body.mode
        const forMs: number | undefined = req.body.for_ms
        // @ts-expect-error an optional property is not always there
        const always: number = req.body.for_ms
        // @ts-expect-error no such property (additionalProperties: false)
        void req.body.for
        seen.push(mode, forMs, always)
        return {status: 200, body: {operator: 'MTN', up: false, outage: {}}}
      },
    })
    addAdminRoute(router, 'PUT /_admin/fees', {
      // @ts-expect-error the body's schema is the contract's: a handler cannot give another
      body: {type: 'object'},
      handler: () => ({status: 200, body: {mode: 'fixed', value: 0, absorb_fees: false}}),
    })
    const down = router.match('POST', '/_admin/operators/MTN/down')!
    expect(down.route.body).toBe(ADMIN_BODIES['POST /_admin/operators/{operator}/down'])
    expect(down.route.bodyOptional).toBe(true)
    // The contract's schema, not the one the handler tried to give.
    expect(router.match('PUT', '/_admin/fees')!.route.body).toBe(ADMIN_BODIES['PUT /_admin/fees'])
    expect(router.match('PUT', '/_admin/fees')!.route.bodyOptional).toBe(false)
    await down.route.handler({body: {mode: 'slow'}, params: {operator: 'MTN'}} as never)
    expect(seen).toEqual(['slow', undefined, undefined])
  })

  it('a caller sends the same schema’s body, where a property with a default may be left out', () => {
    const sent: AdminInput<'POST /_admin/operators/{operator}/down'> = {params: {operator: 'MTN'}, body: {for_ms: 1000}}
    const fees: AdminInput<'PUT /_admin/fees'> = {body: {mode: 'percent', value: 2}}
    // @ts-expect-error `value` is required by the schema
    const missing: AdminInput<'PUT /_admin/fees'> = {body: {mode: 'percent'}}
    // @ts-expect-error an enum's members only
    const wrong: AdminInput<'PUT /_admin/fees'> = {body: {mode: 'percentage', value: 2}}
    expect([sent, fees, missing, wrong].length).toBe(4)
  })
})
