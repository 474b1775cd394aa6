import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {formatItemSpec, parseItemSpec} from '../../../src/lib/invoices/items.js'
import {expectRefused, onlyInputErrors} from './refusal.js'

describe('parseItemSpec: accepted forms', () => {
  it.each([
    ['Bread:500:3', {name: 'Bread', price: 500, quantity: 3}],
    ['Cake:2500:1', {name: 'Cake', price: 2500, quantity: 1}],
    ['Cable 2:1 HDMI:1500:2', {name: 'Cable 2:1 HDMI', price: 1500, quantity: 2}],
    ['a:b:c:100:4', {name: 'a:b:c', price: 100, quantity: 4}],
    ['Ratio 16:9:1500:1', {name: 'Ratio 16:9', price: 1500, quantity: 1}],
    ['Ratio 16:9:1500', {name: 'Ratio 16', price: 9, quantity: 1500}], // the last two fields rule
    ['Bread:500', {name: 'Bread', price: 500, quantity: 1}], // QTY omitted: 1
    ['Gift:0:1', {name: 'Gift', price: 0, quantity: 1}], // free item
    ['Gift:0', {name: 'Gift', price: 0, quantity: 1}],
    ['Laptop:1 250 000:2', {name: 'Laptop', price: 1250000, quantity: 2}],
    ['Laptop:1,250,000:2', {name: 'Laptop', price: 1250000, quantity: 2}],
    ['Laptop:1\u00a0250\u00a0000 XAF:2', {name: 'Laptop', price: 1250000, quantity: 2}],
    ['Pens:100:1,000', {name: 'Pens', price: 100, quantity: 1000}],
    ['  Bread  : 500 : 3 ', {name: 'Bread', price: 500, quantity: 3}],
    ['Pain au chocolat:300:12', {name: 'Pain au chocolat', price: 300, quantity: 12}],
    ['Café ☕:250:2', {name: 'Café ☕', price: 250, quantity: 2}],
    [':x:500:1', {name: ':x', price: 500, quantity: 1}],
    ['::500:3', {name: ':', price: 500, quantity: 3}],
  ])('%j', (spec, expected) => {
    expect(parseItemSpec(spec)).toEqual(expected)
  })
})

describe('parseItemSpec: refused forms', () => {
  it.each([
    ['', /NAME:PRICE:QTY/],
    ['Bread', /NAME:PRICE:QTY/],
    [':500:3', /name is empty/],
    ['   :500:3', /name is empty/],
    [':500', /name is empty/],
  ])('%j is refused (%s)', (spec, message) => {
    expect(expectRefused(() => parseItemSpec(spec), 'item').message).toMatch(message)
  })

  it.each([
    ['Bread:5.5:3', /price "5.5"/],
    ['Bread:-500:3', /price "-500"/],
    ['Bread:abc:3', /price "abc"/],
    ['Bread::3', /price ""/],
    ['Bread:5,00:3', /price "5,00"/],
    ['Bread:1e3:3', /price "1e3"/],
    ['Bread:9007199254740992:1', /price/],
    ['Cable 2:1 HDMI', /price "1 HDMI"/],
    ['Bread:500:0', /quantity "0"/],
    ['Bread:500:-1', /quantity "-1"/],
    ['Bread:500:1.5', /quantity "1.5"/],
    ['Bread:500:', /quantity ""/],
    ['Bread:500:two', /quantity "two"/],
    ['Bread:500:3 XAF', /quantity "3 XAF"/],
  ])('%j is refused (%s)', (spec, message) => {
    const error = expectRefused(() => parseItemSpec(spec), 'item')
    expect(error.message).toMatch(message)
    expect(error.message).toContain(spec.trim())
  })

  it('names the flag it was given', () => {
    expectRefused(() => parseItemSpec('x', 'line'), 'line')
  })
})

describe('parseItemSpec: properties', () => {
  const name = fc
    .string({minLength: 1, maxLength: 30})
    .filter((s) => s.trim() !== '')
  const nameWithColons = fc
    .array(fc.string({maxLength: 8}), {minLength: 2, maxLength: 5})
    .map((parts) => parts.join(':'))
    .filter((s) => s.trim() !== '')

  it('round-trips NAME:PRICE:QTY, names with colons included', () => {
    fc.assert(
      fc.property(
        fc.oneof(name, nameWithColons),
        fc.integer({min: 0, max: 1e12}),
        fc.integer({min: 1, max: 1e6}),
        (itemName, price, quantity) => {
          const parsed = parseItemSpec(formatItemSpec({name: itemName, price, quantity}))
          expect(parsed).toEqual({name: itemName.trim(), price, quantity})
        },
      ),
      {numRuns: 1000},
    )
  })

  it('NAME:PRICE means quantity 1 when the name has no colon', () => {
    fc.assert(
      fc.property(name.filter((s) => !s.includes(':')), fc.integer({min: 0, max: 1e9}), (itemName, price) => {
        expect(parseItemSpec(`${itemName}:${price}`)).toEqual({name: itemName.trim(), price, quantity: 1})
      }),
      {numRuns: 300},
    )
  })

  it('throws only InputError for arbitrary specs', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[a-z :0-9,.-]{0,20}$/)), (spec) => {
        onlyInputErrors(() => {
          const item = parseItemSpec(spec)
          expect(item.name.trim()).not.toBe('')
          expect(Number.isSafeInteger(item.price) && item.price >= 0).toBe(true)
          expect(Number.isSafeInteger(item.quantity) && item.quantity >= 1).toBe(true)
        })
      }),
      {numRuns: 1000},
    )
  })
})
