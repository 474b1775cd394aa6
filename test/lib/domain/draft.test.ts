import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {type InvoiceDraft, MIN_INVOICE_TOTAL, validateInvoiceDraft} from '../../../src/lib/invoices/draft.js'
import {computeTotals} from '../../../src/contract/totals.js'
import {expectRefused} from './refusal.js'

const base: InvoiceDraft = {
  customer_name: 'Awa Bakery',
  due_date: '2026-12-31',
  items: [
    {name: 'Bread', price: 500, quantity: 3},
    {name: 'Cake', price: 2500, quantity: 1},
  ],
  discount_percent: 10,
}
const draft = (changes: Record<string, unknown>) => ({...base, ...changes}) as InvoiceDraft

describe('validateInvoiceDraft: accepted', () => {
  it('returns the totals', () => {
    expect(validateInvoiceDraft(base)).toEqual({subtotal_amount: 4000, discount_amount: 400, total_amount: 3600})
  })
  it.each([
    ['no discount', {discount_percent: undefined}],
    ['discount 0', {discount_percent: 0}],
    ['fractional discount', {discount_percent: 12.5}],
    ['a due date with time and offset', {due_date: '2026-12-31T17:00:00+01:00'}],
    ['a free item next to a paid one', {items: [{name: 'Gift', price: 0, quantity: 1}, {name: 'Cake', price: 100, quantity: 1}], discount_percent: 0}],
    ['exactly 100 XAF after discount', {items: [{name: 'X', price: 200, quantity: 1}], discount_percent: 50}],
    ['an email', {customer_email: 'awa@example.com'}],
    // Lengths in characters, as the service counts them: 200 emoji are 400 UTF-16 units.
    ['a name of 200 emoji', {customer_name: '🥖'.repeat(200)}],
    ['an empty email (not given)', {customer_email: ''}],
    ['a description', {items: [{name: 'Bread', description: 'Fresh', price: 500, quantity: 1}]}],
  ])('%s', (_, changes) => {
    expect(() => validateInvoiceDraft(draft(changes))).not.toThrow()
  })
})

describe('validateInvoiceDraft: refused', () => {
  it.each([
    ['no customer name', {customer_name: ''}, 'customer-name', /customer name/],
    ['a blank customer name', {customer_name: '   '}, 'customer-name', /customer name/],
    ['a customer name that is not a string', {customer_name: 42}, 'customer-name', /customer name/],
    ['no due date', {due_date: undefined}, 'due-date', /Missing --due-date/],
    ['an impossible due date', {due_date: '2026-02-30'}, 'due-date', /28 days/],
    ['a due date in another format', {due_date: '31/12/2026'}, 'due-date', /YYYY-MM-DD/],
    ['a malformed email', {customer_email: 'awa.example.com'}, 'email', /email address/],
    ['no items', {items: []}, 'item', /at least one/],
    ['items missing', {items: undefined}, 'item', /at least one/],
    ['items not an array', {items: 'Bread:500:3'}, 'item', /at least one/],
    ['an item without a name', {items: [{name: ' ', price: 500, quantity: 1}]}, 'item', /number 1: the name is empty/],
    ['a null item', {items: [base.items[0], null]}, 'item', /number 2: the name is empty/],
    ['a decimal price', {items: [{name: 'Bread', price: 50.5, quantity: 1}]}, 'item', /"Bread"\): the price/],
    ['a negative price', {items: [{name: 'Bread', price: -1, quantity: 1}]}, 'item', /the price/],
    ['a price as a string', {items: [{name: 'Bread', price: '500', quantity: 1}]}, 'item', /the price/],
    ['an unsafe price', {items: [{name: 'Bread', price: 2 ** 53, quantity: 1}]}, 'item', /the price/],
    ['a zero quantity', {items: [{name: 'Bread', price: 500, quantity: 0}]}, 'item', /the quantity/],
    ['a fractional quantity', {items: [{name: 'Bread', price: 500, quantity: 1.5}]}, 'item', /the quantity/],
    ['a negative discount', {discount_percent: -1}, 'discount', /0 to 100/],
    ['a discount over 100', {discount_percent: 101}, 'discount', /0 to 100/],
    ['a discount that is not a number', {discount_percent: '10'}, 'discount', /0 to 100/],
    ['a NaN discount', {discount_percent: Number.NaN}, 'discount', /0 to 100/],
    ['a total under 100', {items: [{name: 'Bread', price: 99, quantity: 1}], discount_percent: 0}, 'total', /99 XAF.*under 100 XAF/],
    ['a total under 100 after discount', {items: [{name: 'X', price: 200, quantity: 1}], discount_percent: 50.5}, 'total', /99 XAF/],
    ['a total of 0 (100 % off)', {discount_percent: 100}, 'total', /is 0 XAF/],
    ['only free items', {items: [{name: 'Gift', price: 0, quantity: 3}]}, 'total', /under 100 XAF/],
    [
      'a subtotal beyond the contract\'s 10^15',
      {items: [{name: 'A', price: 1_000_000_000_000, quantity: 1_001}]},
      'total',
      /too large/,
    ],
  ])('%s → %s', (_, changes, field, message) => {
    expect(expectRefused(() => validateInvoiceDraft(draft(changes)), field).message).toMatch(message)
  })
})

describe('validateInvoiceDraft: properties', () => {
  it('accepts exactly the drafts whose total after discount is at least 100, and returns computeTotals', () => {
    const item = fc.record({name: fc.constantFrom('Bread', 'Cake', 'Cable 2:1'), price: fc.integer({min: 0, max: 500}), quantity: fc.integer({min: 1, max: 3})})
    fc.assert(
      fc.property(fc.array(item, {minLength: 1, maxLength: 4}), fc.integer({min: 0, max: 100}), (items, discount) => {
        const expected = computeTotals(items, discount)
        const candidate = draft({items, discount_percent: discount})
        if (expected.total_amount >= MIN_INVOICE_TOTAL) expect(validateInvoiceDraft(candidate)).toEqual(expected)
        else expectRefused(() => validateInvoiceDraft(candidate), 'total')
      }),
      {numRuns: 1000},
    )
  })
})
