/**
 * `svc invoice import` reads what spreadsheets write: `;` and tab separated files (Excel and
 * LibreOffice in a French locale), UTF-8 with or without a BOM, UTF-16 with a BOM, and Windows-1252
 * (a warning names the file and the first line that is not UTF-8); a replacement character never
 * reaches a customer's name. A JSON-lines field of the wrong shape says which shape it needs.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import type {TestSandbox} from '../helpers/sandbox.js'
import {allInvoices} from './invoice-helpers.js'

// The file's sandbox, a config dir (test/helpers/fixtures.ts) and a work dir per test, and the CLI
// in-process on them (`svc`).
const it = withSandbox({settleAfterMs: 0}).extend<{work: string; svc: ReturnType<TestSandbox['cli']>}>({
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const work = mkdtempSync(join(tmpdir(), 'svc-sheet-'))
    try {
      await use(work)
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  },
  svc: async ({sandbox, temp}, use) => use(sandbox.cli(temp.dir, 'sandbox', runInProcess)),
})

async function names(sandbox: TestSandbox, prefix: string): Promise<string[]> {
  return (await allInvoices(sandbox)).map((i) => String(i.customer_name)).filter((n) => n.startsWith(prefix)).sort()
}

/** Windows-1252 bytes of a string made of Latin-1 letters (é = 0xE9). */
function cp1252(text: string): Buffer {
  return Buffer.from(text, 'latin1')
}

describe('invoice import: files as spreadsheets write them', () => {
  it('reads a ";" file (French Excel) with quoted items and a tab-separated file', async ({sandbox, work, svc}) => {
    const semi = join(work, 'excel-fr.csv')
    writeFileSync(semi, '\uFEFFcustomer_name;due_date;items;discount_percent\r\nSemi One;2026-12-31;"Pain:500:3; Gâteau:2 500:1";10\r\nSemi Two;2026-12-31;Riz:800:2;\r\n')
    const a = await svc(['invoice', 'import', semi])
    expect(a.exitCode, a.stderr).toBe(0)
    expect(await names(sandbox, 'Semi')).toEqual(['Semi One', 'Semi Two'])
    const one = (await allInvoices(sandbox)).find((i) => i.customer_name === 'Semi One')!
    expect(one.total_amount).toBe(Math.round(4000 * 0.9))

    const tab = join(work, 'sheet.tsv.csv')
    writeFileSync(tab, 'customer_name\tdue_date\titems\nTab One\t2026-12-31\tBread:500:3; Cake:1000:1\n')
    const b = await svc(['invoice', 'import', tab])
    expect(b.exitCode, b.stderr).toBe(0)
    expect(await names(sandbox, 'Tab')).toEqual(['Tab One'])
  }, 60_000)

  it('reads Windows-1252 with a warning naming the file and the first line, never a replacement character', async ({sandbox, work, svc}) => {
    const file = join(work, 'windows.csv')
    writeFileSync(file, cp1252('customer_name;due_date;items\r\nPlain Shop;2026-12-31;Pain:500:3\r\nBébé Shop;2026-12-31;Crème:1500:1\r\n'))
    const r = await svc(['invoice', 'import', file])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/windows\.csv.*line 3.*Windows-1252|Windows-1252.*windows\.csv.*line 3/)
    expect(await names(sandbox, 'B')).toEqual(['Bébé Shop'])
    const bebe = (await allInvoices(sandbox)).find((i) => i.customer_name === 'Bébé Shop')!
    expect((bebe.items as Array<{name: string}>)[0]!.name).toBe('Crème')
    expect(JSON.stringify(await allInvoices(sandbox))).not.toContain('\uFFFD')

    // --encoding utf-8 says the bytes are UTF-8: those are not, so nothing is sent (exit 2, the line named).
    const strict = join(work, 'strict.csv')
    writeFileSync(strict, cp1252('customer_name;due_date;items\r\nStrict Bébé;2026-12-31;Pain:500:3\r\n'))
    const refused = await svc(['invoice', 'import', strict, '--encoding', 'utf-8'])
    expect(refused.exitCode).toBe(2)
    expect(refused.stderr).toMatch(/strict\.csv.*line 2|line 2.*strict\.csv/)
    expect(refused.stderr).toMatch(/--encoding/)
    expect(await names(sandbox, 'Strict')).toEqual([])
    // --encoding windows-1252 reads it, without the warning.
    const chosen = await svc(['invoice', 'import', strict, '--encoding', 'windows-1252'])
    expect(chosen.exitCode, chosen.stderr).toBe(0)
    expect(chosen.stderr).not.toMatch(/Windows-1252/)
    expect(await names(sandbox, 'Strict')).toEqual(['Strict Bébé'])

    // A replacement character already in the file (a past bad conversion) is refused with its line.
    const replaced = join(work, 'replaced.csv')
    writeFileSync(replaced, 'customer_name,due_date,items\nGood Row,2026-12-31,Pain:500:3\nB\uFFFDb\uFFFD Shop,2026-12-31,Pain:500:3\n')
    const bad = await svc(['invoice', 'import', replaced])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/line 3/)
    expect(bad.stderr).toMatch(/U\+FFFD|replacement/)
  }, 60_000)

  it('reads UTF-16 (little and big endian, with a BOM), as Excel saves "Unicode text"', async ({sandbox, work, svc}) => {
    const text = 'customer_name\tdue_date\titems\r\nSeize Élodie 🍞\t2026-12-31\tPain:500:3\r\n'
    const le = join(work, 'unicode-le.csv')
    writeFileSync(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))
    const a = await svc(['invoice', 'import', le])
    expect(a.exitCode, a.stderr).toBe(0)
    const be = join(work, 'unicode-be.csv')
    const swapped = Buffer.from(text.replace('Seize', 'Sixteen'), 'utf16le')
    swapped.swap16()
    writeFileSync(be, Buffer.concat([Buffer.from([0xfe, 0xff]), swapped]))
    const b = await svc(['invoice', 'import', be])
    expect(b.exitCode, b.stderr).toBe(0)
    expect([...(await names(sandbox, 'Seize')), ...(await names(sandbox, 'Sixteen'))]).toEqual(['Seize Élodie 🍞', 'Sixteen Élodie 🍞'])
  }, 60_000)

  it('a JSON-lines field of the wrong shape says the shape it needs', async ({work, svc}) => {
    const file = join(work, 'shapes.jsonl')
    writeFileSync(
      file,
      [
        JSON.stringify({customer_name: 'Shape A', due_date: '2026-12-31', items: 'Bread:500:3'}),
        JSON.stringify({customer_name: 42, due_date: '2026-12-31', items: [{name: 'Bread', price: 500, quantity: 3}]}),
        JSON.stringify({customer_name: 'Shape C', due_date: '2026-12-31', items: [{name: 'Bread', price: '500', quantity: 3}]}),
      ].join('\n'),
    )
    const r = await svc(['invoice', 'import', file])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/line 1: .*items must be a list/)
    expect(r.stderr).toMatch(/line 2: .*customer_name must be a string/)
    expect(r.stderr).toMatch(/line 3: .*price .*must be a whole number|line 3: .*price/)
    const fr = await svc(['invoice', 'import', file, '--lang', 'fr'])
    expect(fr.stderr).toMatch(/items doit être une liste/)
  }, 60_000)
})
