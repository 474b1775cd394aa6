/**
 * A sandbox handler's body is typed from its route's schema (src/sandbox/router.ts, FromSchema in
 * src/sandbox/schema.ts): no `body: any`. The lines marked @ts-expect-error must fail to compile
 * (`tsc --noEmit` checks them); the test runs the same route to show the value matches its type.
 */
import {describe, expect, it} from 'vitest'
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
