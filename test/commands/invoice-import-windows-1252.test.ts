/**
 * `svc invoice import` and Windows-1252 as French Excel writes it: the bytes 0x80–0x9F are
 * letters and marks (’ “ ” € Œ œ …), not C1 control characters as Latin-1 would have them. The
 * file is read with the real table, whether svc guessed the encoding or was told it, and the
 * results file written back in Windows-1252 holds the same bytes the input had. The five bytes
 * Windows-1252 leaves unassigned are read as the control characters they stand for, and refused
 * with the column named, alongside every other error of the row.
 */
import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {encodeText} from '../../src/lib/invoices/import-results.js'
import {decodeImportFile} from '../../src/lib/invoices/import-text.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import type {TestSandbox} from '../helpers/sandbox.js'
import {allInvoices} from './invoice-helpers.js'

const it = withSandbox({settleAfterMs: 0}).extend<{work: string; svc: ReturnType<TestSandbox['cli']>}>({
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const work = mkdtempSync(join(tmpdir(), 'svc-cp1252-'))
    try {
      await use(work)
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  },
  svc: async ({sandbox, temp}, use) => use(sandbox.cli(temp.dir, 'sandbox', runInProcess)),
})

/** The letters of 0x80–0x9F this file uses, from the Windows-1252 code page itself (not from svc). */
const HIGH: Record<string, number> = {'€': 0x80, '…': 0x85, 'Œ': 0x8c, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, 'œ': 0x9c}

/** Text as French Excel saves it: Latin-1 letters one byte each, and the table above. */
function windows1252(text: string): Buffer {
  return Buffer.from([...text].map((c) => HIGH[c] ?? (c.charCodeAt(0) < 0x100 ? c.charCodeAt(0) : 0x3f)))
}

const NAME = 'L’Atelier Œuvre'
const ITEM = 'Pain “Œuf” €'
const FILE = windows1252(
  'customer_name;due_date;items;external_reference\r\n' +
    `${NAME};21/01/2027;${ITEM}:500:1;CMD-Œ-1\r\n` +
    'Cœur d’Été…;05/02/2027;Gâteau:2500:1;CMD-Œ-2\r\n',
)

describe('invoice import: Windows-1252 as French Excel writes it', () => {
  it('reads ’ “ ” € Œ œ … as letters, guessed or told, under LANG=C', async ({work, svc}) => {
    const file = join(work, 'atelier.csv')
    writeFileSync(file, FILE)
    for (const flags of [[], ['--encoding', 'windows-1252']]) {
      const r = await svc(['invoice', 'import', file, '--dry-run', ...flags], {env: {LANG: 'C'}})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(r.stderr + r.stdout).not.toMatch(/control character/)
      expect(r.stderr + r.stdout).toContain(NAME)
      expect(r.stderr + r.stdout).toContain('Cœur d’Été…')
    }
    // A JSON array is read whole, not streamed: the same table.
    const json = join(work, 'atelier.json')
    writeFileSync(json, windows1252(JSON.stringify([{customer_name: NAME, due_date: '2027-01-21', items: [{name: ITEM, price: 500, quantity: 1}]}])))
    const r = await svc(['invoice', 'import', json, '--dry-run', '--encoding', 'windows-1252'], {env: {LANG: 'C'}})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout).toContain(NAME)
  }, 60_000)

  it('creates the invoices with those letters, and the results file holds the input\'s very bytes', async ({sandbox, work, svc}) => {
    const file = join(work, 'atelier.csv')
    writeFileSync(file, FILE)
    const r = await svc(['invoice', 'import', file], {env: {LANG: 'C'}})
    expect(r.exitCode, r.stderr).toBe(0)
    const made = (await allInvoices(sandbox)).filter((i) => String(i.external_reference).startsWith('CMD-Œ'))
    expect(made.map((i) => i.customer_name).sort()).toEqual(['Cœur d’Été…', NAME])
    const atelier = made.find((i) => i.customer_name === NAME) as unknown as {items: {name: string}[]}
    expect(atelier.items[0]!.name).toBe(ITEM)

    const results = readFileSync(join(work, 'atelier.results.csv'))
    // The very bytes of the input's cells, one byte a letter.
    for (const cell of [NAME, 'Cœur d’Été…', 'CMD-Œ-1']) expect(results.includes(windows1252(`;${cell};`)), cell).toBe(true)
    expect(results.includes(Buffer.from('Œ', 'utf8'))).toBe(false)
    // And read by another program's Windows-1252 table.
    const readBack = execFileSync('iconv', ['-f', 'WINDOWS-1252', '-t', 'UTF-8'], {input: results}).toString('utf8')
    expect(readBack).toContain(`;${NAME};CMD-Œ-1;`)
    expect(readBack).toContain(';Cœur d’Été…;CMD-Œ-2;')

    // The re-run reads its results file back with the same table: every row is already done.
    const again = await svc(['invoice', 'import', file], {env: {LANG: 'C'}})
    expect(again.exitCode, again.stderr).toBe(0)
    expect((await allInvoices(sandbox)).filter((i) => String(i.external_reference).startsWith('CMD-Œ'))).toHaveLength(2)
  }, 120_000)

  it('an unassigned byte (0x81) is a control character, listed with the row\'s date error under LANG=C', async ({sandbox, work, svc}) => {
    const file = join(work, 'unassigned.csv')
    const bytes = windows1252('customer_name;due_date;items\r\nGood Row;21/01/2027;Pain:500:3\r\nBad XName;31/02/2027;Pain:500:1\r\n')
    bytes[bytes.indexOf('XName')] = 0x81
    writeFileSync(file, bytes)
    for (const lang of ['C', 'fr_FR.UTF-8']) {
      const r = await svc(['invoice', 'import', file], {env: {LANG: lang}})
      expect(r.exitCode).toBe(2)
      const row = r.stderr.split('\n').filter((l) => / 3 ?:/.test(l))
      expect(row.join('\n'), r.stderr).toMatch(/customer_name.*(control character|caractère de contrôle)/)
      expect(row.join('\n'), r.stderr).toMatch(/due_date/)
    }
    expect((await allInvoices(sandbox)).filter((i) => i.customer_name === 'Good Row')).toEqual([])
  }, 60_000)
})

describe('invoice import: every error of a row, whatever the language', () => {
  it('a JSON line with a control character in its name and an impossible date lists both', async ({work, svc}) => {
    const file = join(work, 'two.jsonl')
    writeFileSync(file, `${JSON.stringify({customer_name: 'Good', due_date: '21/01/2027', items: [{name: 'Pain', price: 500, quantity: 1}]})}\n${JSON.stringify({customer_name: 'Bad\u0007Bell', due_date: '31/02/2027', items: [{name: 'Pain', price: 500, quantity: 1}]})}\n`)
    for (const lang of ['C', 'fr_FR.UTF-8']) {
      const r = await svc(['invoice', 'import', file, '--dry-run'], {env: {LANG: lang}})
      expect(r.exitCode).toBe(2)
      const row = r.stderr.split('\n').filter((l) => / 2 ?:/.test(l)).join('\n')
      expect(row, r.stderr).toMatch(/customer_name.*(control character|caractère de contrôle)/)
      expect(row, r.stderr).toMatch(/due_date/)
    }
  }, 60_000)
})

describe('the Windows-1252 table both ways', () => {
  it('decodes every byte 0x80–0x9F as the code page has it, and encodes it back to the same byte', () => {
    const all = Uint8Array.from({length: 256}, (_, i) => i)
    const text = decodeImportFile(Buffer.concat([Buffer.from('\xe9', 'latin1'), all]), 'all.csv', 'windows-1252').text
    const high = [...text.slice(1 + 0x80, 1 + 0xa0)]
    expect(high.join('')).toBe('€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ')
    expect(encodeText(text.slice(1), 'windows-1252').equals(Buffer.from(all))).toBe(true)
  })

  it("writes a character Windows-1252 lacks as '?', and French typography's narrow no-break space as a no-break space", () => {
    expect(encodeText('Ligne 5\u202f: ₣ 中', 'windows-1252')).toEqual(Buffer.from('Ligne 5\xa0: ? ?', 'latin1'))
  })
})

describe('invoice import: one numbering, the numbers a dry run would give, one summary sentence', () => {
  it('the dry run names rows by the file\'s lines and shows each row\'s invoice number, which the import then gives', async ({sandbox, work, svc}) => {
    const file = join(work, 'numbers.csv')
    writeFileSync(file, 'customer_name,due_date,items,external_reference\r\nAwa Numbered,2099-01-31,Pain:500:1,\r\nBea Own Ref,2099-01-31,Pain:500:2,MY-REF-7\r\nCy Numbered,2099-01-31,Pain:500:3,\r\n')
    const dry = await svc(['invoice', 'import', file, '--dry-run'], {env: {LANG: 'C'}})
    expect(dry.exitCode, dry.stderr).toBe(0)
    const shown = dry.stdout.trim().split('\n')
    expect(shown.map((l) => l.split(':')[0])).toEqual(['line 2', 'line 3', 'line 4'])
    const numbers = shown.map((l) => /(INV|FAC)-\d{4}-\d+|MY-REF-7/.exec(l)?.[0])
    expect(numbers[1]).toBe('MY-REF-7')
    expect(numbers[0]).toMatch(/-\d{4}-\d+$/)
    expect(numbers[2]).toMatch(/-\d{4}-\d+$/)
    expect(numbers[0]).not.toBe(numbers[2])
    // A dry run reserves nothing: the import gives the numbers it showed.
    expect((await svc(['invoice', 'import', file], {env: {LANG: 'C'}})).exitCode).toBe(0)
    const made = await allInvoices(sandbox)
    const refOf = (name: string) => made.find((i) => i.customer_name === name)?.external_reference
    expect([refOf('Awa Numbered'), refOf('Bea Own Ref'), refOf('Cy Numbered')]).toEqual(numbers)
  }, 60_000)

  it('a re-run says in one sentence how many rows an earlier run created, skipped ones included', async ({work, svc}) => {
    const file = join(work, 'again.csv')
    writeFileSync(file, 'customer_name,due_date,items\r\nRerun One,2099-01-31,Pain:500:1\r\nRerun Two,2099-01-31,Pain:500:2\r\n')
    expect((await svc(['invoice', 'import', file], {env: {LANG: 'C'}})).exitCode).toBe(0)
    for (const [lang, done] of [['C', /2 already created by an earlier run \(2 of them skipped/], ['fr_FR.UTF-8', /2 déjà créées lors d’une exécution précédente \(dont 2 sautées/]] as const) {
      const again = await svc(['invoice', 'import', file], {env: {LANG: lang}})
      expect(again.exitCode, again.stderr).toBe(0)
      expect(again.stderr).toMatch(done)
      expect(again.stderr).not.toMatch(/\b0 already created|\b0 déjà créée|rows skipped|lignes sautées/)
    }
  }, 60_000)

  it('in French a row\'s errors read "ligne 3 :" as the other French messages do', async ({work, svc}) => {
    const file = join(work, 'faute.csv')
    writeFileSync(file, 'customer_name,due_date,items\r\nBon,2099-01-31,Pain:500:1\r\nMauvais,2099-01-31,Pain:abc:1\r\n')
    const r = await svc(['invoice', 'import', file, '--dry-run'], {env: {LANG: 'fr_FR.UTF-8'}})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^ {2}ligne 3 : /m)
    expect(r.stderr).not.toMatch(/ligne 3:/)
  }, 60_000)
})
