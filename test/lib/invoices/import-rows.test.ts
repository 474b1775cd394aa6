import {describe, expect, it} from 'vitest'

import {canonicalJson, checkRows, Occurrences, readSourceRows, rowKey} from '../../../src/lib/invoices/import-rows.js'

const CSV = 'customer_name,due_date,items\nA,2026-12-31,Bread:500:3\nB,2026-12-31,Bread:500:3\nA,2026-12-31,Bread:500:3\n'

describe('import rows and keys', () => {
  it('one key per row, stable across runs, distinct for identical rows, UUID-shaped', () => {
    const keys = checkRows(readSourceRows('x.csv', CSV).rows).map((r) => r.key)
    const again = checkRows(readSourceRows('x.csv', CSV).rows).map((r) => r.key)
    expect(keys).toEqual(again)
    expect(new Set(keys).size).toBe(3)
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('editing or inserting another row does not change a row key; editing the row does', () => {
    const [a1, b1] = checkRows(readSourceRows('x.csv', CSV).rows)
    const edited = 'customer_name,due_date,items\nNew,2026-12-31,Tea:300:1\nA,2026-12-31,Bread:500:3\nB,2026-12-31,Bread:500:4\n'
    const [, a2, b2] = checkRows(readSourceRows('x.csv', edited).rows)
    expect(a2!.key).toBe(a1!.key)
    expect(b2!.key).not.toBe(b1!.key)
  })

  it('the key does not depend on key order or layout of the input', () => {
    const draft = {customer_name: 'A', due_date: '2026-12-31', items: [{name: 'Bread', price: 500, quantity: 3}]}
    const shuffled = {items: [{quantity: 3, price: 500, name: 'Bread'}], due_date: '2026-12-31', customer_name: 'A'}
    expect(canonicalJson(draft)).toBe(canonicalJson(shuffled))
    expect(rowKey(draft, 1)).toBe(rowKey(shuffled as typeof draft, 1))
    expect(rowKey(draft, 1)).not.toBe(rowKey(draft, 2))
  })

  it('a row keeps the key earlier versions gave it (a results file written by one resumes with the next)', () => {
    const csv =
      'customer_name,due_date,items,customer_phone,customer_email,discount_percent,notes,external_reference\r\n' +
      'Boulangerie Émilie,21/01/2027,Pain:500:2; Gâteau "rond":2500:1,6 90 00 00 01,emilie@example.cm,"12,5","Note ""quoted"" \\\\ é",CMD-Été-1\r\n'.repeat(2) +
      'B,2027-01-21,Bread:500:3,,,,,\r\n'
    const rows = checkRows(readSourceRows('x.csv', csv).rows)
    expect(rows.map((r) => r.key)).toEqual(['8a1cd794-8f89-8399-bafc-61d7a96595a6', 'a84f944c-471a-8c28-930f-63ea25c53208', '59936daa-7877-8433-8797-7e7d03fb90cc'])
    expect(canonicalJson(rows[0]!.draft)).toBe(
      '{"customer_email":"emilie@example.cm","customer_name":"Boulangerie Émilie","customer_phone":"+237690000001","discount_percent":12.5,"due_date":"2027-01-21","external_reference":"CMD-Été-1","items":[{"name":"Pain","price":500,"quantity":2},{"name":"Gâteau \\"rond\\"","price":2500,"quantity":1}],"notes":"Note \\"quoted\\" \\\\\\\\ é"}',
    )
    // Undefined fields left out, control and line-separator characters escaped as JSON does.
    const odd = {customer_name: 'A\u2028\u0001', due_date: '2026-12-31', items: [{name: 'x', price: 1, quantity: 1, description: undefined}], notes: '😀'}
    expect(rowKey(odd, 7)).toBe('517b4ffa-9f52-8dff-af9d-9dc8b0614fc2')
  })

  it('reports every bad row with its line; unknown and missing columns are file errors', () => {
    const text = 'customer_name,due_date,items\nA,2026-13-01,Bread:500:3\n"B",2026-12-31,\nC,2026-12-31,Bread:500:3,extra\n'
    const rows = checkRows(readSourceRows('x.csv', text).rows)
    expect(rows.map((r) => [r.line, r.error?.field])).toEqual([
      // A row's field is its CSV column (issue 19, point 5), not the flag of `invoice create`.
      [2, 'due_date'],
      [3, 'items'],
      [4, 'file'],
    ])
    expect(() => readSourceRows('x.csv', 'customer_name,due_date,items,total_amount\n')).toThrow(/total_amount/)
    expect(() => readSourceRows('x.csv', 'customer_name,items\n')).toThrow(/due_date/)
    expect(() => readSourceRows('x.txt', 'whatever')).toThrow(/\.csv/)
  })

  it('numbers each body\'s occurrences, through the table\'s growth', () => {
    const occurrences = new Occurrences()
    const seen: number[] = []
    for (let round = 1; round <= 3; round++) for (let i = 0; i < 5000; i++) seen.push(occurrences.next(`body ${i}`))
    expect(seen.slice(0, 5000).every((n) => n === 1)).toBe(true)
    expect(seen.slice(5000, 10_000).every((n) => n === 2)).toBe(true)
    expect(seen.slice(10_000).every((n) => n === 3)).toBe(true)
  })
})
