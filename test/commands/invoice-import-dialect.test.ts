/**
 * `svc invoice import` and the merchant's own dialect, both ways: a French spreadsheet's file is
 * read in its own convention whatever language svc speaks (dates day first), a row lists every one
 * of its errors, the results file is written in the input's dialect (separator, encoding or BOM)
 * with each row's customer and reference, and read back by LibreOffice headless where it is
 * installed (the bytes are checked either way). `--csv` on lists takes `--csv-sep` and follows the
 * language; a phone svc validated is shown as it is. An import stops at the first sign that the
 * service is gone (exit 7, one line, the command to resume), and the re-run creates nothing twice.
 */
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, vi} from 'vitest'

import {startFaultProxy} from '../helpers/fault-proxy.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {startServe, startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {allInvoices} from './invoice-helpers.js'

const it = withSandbox({settleAfterMs: 0}).extend<{work: string; svc: ReturnType<TestSandbox['cli']>}>({
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const work = mkdtempSync(join(tmpdir(), 'svc-dialect-'))
    try {
      await use(work)
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  },
  svc: async ({sandbox, temp}, use) => use(sandbox.cli(temp.dir, 'sandbox', runInProcess)),
})

/** Windows-1252 bytes of Latin-1 text (é = 0xE9). */
const cp1252 = (text: string) => Buffer.from(text, 'latin1')

/** The French Excel file: `;`, Windows-1252, CRLF, dates day first (a day over 12 in the column). */
const FRENCH = cp1252(
  'customer_name;due_date;items;customer_phone;external_reference\r\n' +
    'Boulangerie Émilie;21/01/2027;"Pain:500:3; Gâteau:2500:1";690000001;CMD-Été-1\r\n' +
    'Épicerie Noël;05/02/2027;Riz:800:2;;CMD-Été-2\r\n',
)

const SOFFICE = ['soffice', 'libreoffice'].find((bin) => spawnSync(bin, ['--version'], {stdio: 'ignore', timeout: 60_000}).status === 0)

/**
 * One LibreOffice user profile for the file's conversions: made by the first (it costs a call
 * ~0.1 s more of CPU), used as it is by the others.
 */
let loProfile: string | undefined
const loUserInstallation = () => `-env:UserInstallation=file://${(loProfile ??= mkdtempSync(join(tmpdir(), 'svc-lo-profile-')))}`
afterAll(() => {
  if (loProfile) rmSync(loProfile, {recursive: true, force: true})
})

/**
 * The results file as LibreOffice Calc opens it with a French spreadsheet's defaults (`;`, and
 * Windows-1252 unless a UTF-8 BOM says otherwise), converted to UTF-8 CSV to read its cells.
 */
function openedByLibreOffice(file: string, charset: 'windows-1252' | 'utf-8', work: string): string[][] {
  const out = join(work, `lo-${Date.now()}`)
  // 59 = ';', 34 = '"', charset 1 = Windows-1252, 76 = UTF-8; export: ',' '"' UTF-8.
  execFileSync(SOFFICE!, ['--headless', loUserInstallation(), `--infilter=CSV:59,34,${charset === 'utf-8' ? 76 : 1}`, '--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76', '--outdir', out, file], {
    stdio: 'ignore',
    timeout: 120_000,
  })
  const converted = readFileSync(join(out, readdirSync(out)[0]!), 'utf8')
  return converted.trim().split(/\r?\n/).map((line) => line.split(','))
}

describe('invoice import: the file speaks its own dialect', () => {
  it('imports a French Excel file with 21/01/2027 dates while svc speaks English (LANG=C)', async ({sandbox, work, svc}) => {
    const file = join(work, 'factures.csv')
    writeFileSync(file, FRENCH)
    const r = await svc(['invoice', 'import', file], {env: {LANG: 'C'}})
    expect(r.exitCode, r.stderr).toBe(0)
    const made = (await allInvoices(sandbox)).filter((i) => String(i.external_reference).startsWith('CMD-Été'))
    expect(made.map((i) => [i.customer_name, i.due_date]).sort()).toEqual([
      ['Boulangerie Émilie', '2027-01-21'],
      ['Épicerie Noël', '2027-02-05'],
    ])
  }, 60_000)

  it('a comma file reads day first too (a XAF merchant), month first when its column says so, or as --date-order says', async ({sandbox, work, svc}) => {
    const dmy = join(work, 'dmy.csv')
    writeFileSync(dmy, 'customer_name,due_date,items\r\nOrder DMY,03/04/2027,Bread:500:3\r\n')
    expect((await svc(['invoice', 'import', dmy], {env: {LANG: 'C'}})).exitCode).toBe(0)
    const mdy = join(work, 'mdy.csv')
    writeFileSync(mdy, 'customer_name,due_date,items\r\nOrder MDY 1,03/04/2027,Bread:500:3\r\nOrder MDY 2,01/21/2027,Bread:500:3\r\n')
    expect((await svc(['invoice', 'import', mdy], {env: {LANG: 'C'}})).exitCode).toBe(0)
    const chosen = join(work, 'chosen.csv')
    writeFileSync(chosen, 'customer_name,due_date,items\r\nOrder YMD,2027/05/06,Bread:500:3\r\n')
    expect((await svc(['invoice', 'import', chosen, '--date-order', 'ymd'])).exitCode).toBe(0)
    const due = Object.fromEntries((await allInvoices(sandbox)).filter((i) => String(i.customer_name).startsWith('Order ')).map((i) => [i.customer_name, i.due_date]))
    expect(due).toEqual({'Order DMY': '2027-04-03', 'Order MDY 1': '2027-03-04', 'Order MDY 2': '2027-01-21', 'Order YMD': '2027-05-06'})
    const bad = await svc(['invoice', 'import', chosen, '--date-order', 'dym'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/--date-order.*dmy, mdy, ymd/)
  }, 60_000)

  it('a row with two errors lists both, and no hint offers what a file cannot take', async ({sandbox, work, svc}) => {
    const file = join(work, 'two.csv')
    writeFileSync(file, cp1252('customer_name;due_date;items;customer_phone\r\nGood Row;21/01/2027;Pain:500:3;\r\nDouble Faute;31/02/2027;Pain:500:3;12ab\r\n'))
    const r = await svc(['invoice', 'import', file], {env: {LANG: 'C'}})
    expect(r.exitCode).toBe(2)
    const lines = r.stderr.split('\n').filter((l) => l.includes('line 3'))
    expect(lines.join('\n')).toMatch(/customer_phone/)
    expect(lines.join('\n')).toMatch(/due_date.*02\/2027 has 28 days/)
    expect(r.stderr).not.toMatch(/30d/)
    expect(r.stderr).toMatch(/--date-order/)
    expect((await allInvoices(sandbox)).filter((i) => i.customer_name === 'Good Row')).toEqual([])
  }, 60_000)
})

describe('invoice import: the results file in the reader\'s dialect', () => {
  it('mirrors a Windows-1252 ";" file, names each row by customer and reference, and LibreOffice opens it in columns', async ({work, svc}) => {
    const file = join(work, 'fr.csv')
    writeFileSync(file, FRENCH)
    const r = await svc(['invoice', 'import', file], {env: {LANG: 'C'}})
    expect(r.exitCode, r.stderr).toBe(0)
    const bytes = readFileSync(join(work, 'fr.results.csv'))
    // Windows-1252: É is one byte 0xC9; no UTF-8 BOM; `;` between the cells.
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false)
    expect(bytes.includes(Buffer.from('Boulangerie \xc9milie', 'latin1'))).toBe(true)
    const text = bytes.toString('latin1')
    const [header, first] = text.split('\r\n')
    expect(header!.split(';').slice(0, 5)).toEqual(['row', 'line', 'customer_name', 'external_reference', 'status'])
    expect(first!.split(';').slice(0, 4)).toEqual(['1', '2', 'Boulangerie Émilie', 'CMD-Été-1'])
    // Created here, or by the first test of the file (the same row, the same Idempotency-Key).
    expect(first!.split(';')[4]).toMatch(/^(created|existing)$/)
    if (SOFFICE) {
      const cells = openedByLibreOffice(join(work, 'fr.results.csv'), 'windows-1252', work)
      expect(cells[0]!.slice(0, 5)).toEqual(['row', 'line', 'customer_name', 'external_reference', 'status'])
      expect(cells[1]!.slice(2, 4)).toEqual(['Boulangerie Émilie', 'CMD-Été-1'])
      expect(cells[2]!.slice(2, 4)).toEqual(['Épicerie Noël', 'CMD-Été-2'])
    }
    // Run again: the results file is read back in its dialect, and every row is skipped.
    const again = await svc(['invoice', 'import', file], {env: {LANG: 'C'}})
    expect(again.exitCode, again.stderr).toBe(0)
    expect(again.stderr).toMatch(/2 .*already done|skipped 2|2 rows/i)
  }, 120_000)

  it('mirrors a UTF-8 file with a BOM (and a tab-separated UTF-16 one)', async ({work, svc}) => {
    const file = join(work, 'bom.csv')
    writeFileSync(file, '\uFEFFcustomer_name;due_date;items;external_reference\r\nÇa Va Shop;21/01/2027;Pain:500:3;R-ç\r\n')
    expect((await svc(['invoice', 'import', file], {env: {LANG: 'C'}})).exitCode).toBe(0)
    const bytes = readFileSync(join(work, 'bom.results.csv'))
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(bytes.toString('utf8')).toContain(';Ça Va Shop;R-ç;created;')
    if (SOFFICE) expect(openedByLibreOffice(join(work, 'bom.results.csv'), 'utf-8', work)[1]!.slice(2, 4)).toEqual(['Ça Va Shop', 'R-ç'])

    const unicode = join(work, 'unicode.csv')
    writeFileSync(unicode, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('customer_name\tdue_date\titems\r\nSeize Œuvre\t2027-01-21\tPain:500:3\r\n', 'utf16le')]))
    expect((await svc(['invoice', 'import', unicode])).exitCode).toBe(0)
    const sixteen = readFileSync(join(work, 'unicode.results.csv'))
    expect([...sixteen.subarray(0, 2)]).toEqual([0xff, 0xfe])
    expect(sixteen.subarray(2).toString('utf16le')).toContain('\tSeize Œuvre\t')
  }, 120_000)
})

describe('--csv for the reader\'s spreadsheet', () => {
  it('writes a phone as it is, takes --csv-sep, and in French defaults to ";" with a BOM', async ({work, svc}) => {
    const file = join(work, 'phones.csv')
    writeFileSync(file, 'customer_name,due_date,items,customer_phone\r\nPhone Shop,2027-01-21,Bread:500:3,690000001\r\n=Evil Shop,2027-01-21,Bread:500:3,\r\n')
    expect((await svc(['invoice', 'import', file])).exitCode).toBe(0)
    const plain = await svc(['invoice', 'list', '--csv'])
    expect(plain.exitCode, plain.stderr).toBe(0)
    expect(plain.stdout).not.toContain("'+237")
    expect(plain.stdout).toContain(',"=""+237690000001""",')
    // A name is still the customer's text: neutralised.
    expect(plain.stdout).toContain(",'=Evil Shop,")
    expect(plain.stdout.charCodeAt(0)).not.toBe(0xfeff)
    const semi = await svc(['invoice', 'list', '--csv', '--csv-sep', ';'])
    expect(semi.stdout.split('\r\n')[0]).toMatch(/^id;status;customer_name;/)
    const tab = await svc(['pay', 'list', '--csv', '--csv-sep', 'tab'])
    expect(tab.exitCode, tab.stderr).toBe(0)
    expect(tab.stdout.split('\r\n')[0]).toContain('\t')
    const french = await svc(['invoice', 'list', '--csv'], {env: {LANG: 'fr_FR.UTF-8'}})
    expect(french.stdout.charCodeAt(0)).toBe(0xfeff)
    expect(french.stdout.slice(1).split('\r\n')[0]).toMatch(/^id;status;customer_name;/)
    const report = await svc(['report', 'receivables', '--csv', '--csv-sep', ';'])
    expect(report.exitCode, report.stderr).toBe(0)
    expect(report.stdout.split('\r\n')[0]).toContain(';')
    const wrong = await svc(['invoice', 'list', '--csv', '--csv-sep', '|'])
    expect(wrong.exitCode).toBe(2)
    expect(wrong.stderr).toMatch(/--csv-sep/)
    if (SOFFICE) {
      writeFileSync(join(work, 'list.csv'), plain.stdout)
      const out = join(work, 'lo-list')
      execFileSync(SOFFICE, ['--headless', loUserInstallation(), '--infilter=CSV:44,34,76', '--convert-to', 'csv:Text - txt - csv (StarCalc):59,34,76', '--outdir', out, join(work, 'list.csv')], {stdio: 'ignore', timeout: 120_000})
      const read = readFileSync(join(out, 'list.csv'), 'utf8')
      expect(read).toContain(';+237690000001;')
    }
  }, 120_000)
})

describe('invoice import: the service gone', () => {
  it('stops at the first unreachable answer (exit 7, two lines at most), and the re-run creates nothing twice', async ({work, temp}) => {
    const sandbox = await startTestSandbox({settleAfterMs: 0})
    try {
      const proxy = await startFaultProxy(sandbox.sb.url, [])
      const file = join(work, 'gone.csv')
      let text = 'customer_name,due_date,items,external_reference\r\n'
      for (let i = 1; i <= 12; i++) text += `Gone ${i},2027-01-21,Bread:${100 + i}:2,G-${i}\r\n`
      writeFileSync(file, text)
      const env = {...sandbox.env(), SVC_BASE_URL: proxy.url, SVC_RATE_LIMIT: '0'}
      const run = runInProcess(['invoice', 'import', file, '--concurrency', '1'], {configDir: temp.dir, env})
      // The service goes away after three creates.
      await vi.waitFor(() => expect(proxy.seen.filter((s) => s === 'POST /v1/invoices').length).toBeGreaterThanOrEqual(3), {timeout: 30_000, interval: 5})
      await proxy.close()
      const stopped = await run
      const before = (await allInvoices(sandbox)).filter((i) => String(i.customer_name).startsWith('Gone ')).length
      expect(before).toBeGreaterThanOrEqual(2)
      expect(stopped.exitCode, stopped.stderr).toBe(7)
      const lines = stopped.stderr.trim().split('\n')
      expect(lines.length, stopped.stderr).toBeLessThanOrEqual(2)
      expect(stopped.stderr).toContain(proxy.url)
      expect(stopped.stderr).toMatch(/svc invoice import .*gone\.csv/)
      expect(stopped.stderr).not.toMatch(/Could not connect[\s\S]*Could not connect/)

      // Resumed against the service: every row once.
      const resumed = await runInProcess(['invoice', 'import', file], {configDir: temp.dir, env: {...sandbox.env(), SVC_RATE_LIMIT: '0'}})
      expect(resumed.exitCode, resumed.stderr).toBe(0)
      const made = (await allInvoices(sandbox)).map((i) => String(i.customer_name)).filter((n) => n.startsWith('Gone ')).sort()
      expect(made).toHaveLength(12)
      expect(new Set(made).size).toBe(12)
    } finally {
      await sandbox.close()
    }
  }, 120_000)

  it('the profile\'s local sandbox stopped: one line with the command that starts it again and the one that resumes', async ({work, temp}) => {
    const served = await startServe(temp.dir)
    await served.stop()
    const file = join(work, 'local.csv')
    writeFileSync(file, 'customer_name,due_date,items\r\nLocal One,2027-01-21,Bread:500:3\r\nLocal Two,2027-01-21,Bread:600:3\r\n')
    const r = await runInProcess(['--profile', 'local', 'invoice', 'import', file], {configDir: temp.dir, env: {LANG: 'C'}})
    expect(r.exitCode, r.stderr).toBe(7)
    expect(r.stderr.trim().split('\n').length, r.stderr).toBeLessThanOrEqual(2)
    const port = new URL(served.info.base_url as string).port
    expect(r.stderr).toContain(`the local sandbox of the profile "local" (${served.info.base_url}) is not running; 0 of 2 rows done`)
    expect(r.stderr).toContain(`Start it again with \`svc sandbox serve --port ${port}\``)
    expect(r.stderr).toMatch(/then resume with `svc (--profile local )?invoice import \S*local\.csv( --profile local)?`/)
    expect(r.stderr).toMatch(/then resume with `[^`]*--profile local/)
  }, 120_000)

  it('stops at a 5xx the client\'s retries did not get past, once, naming the status', async ({sandbox, work, temp}) => {
    const proxy = await startFaultProxy(sandbox.sb.url, [{method: 'POST', path: /^\/v1\/invoices$/, fault: {kind: 'status', status: 503, body: '{"message":"down","code":"internal_error"}'}, times: Infinity}])
    try {
      const file = join(work, 'five.csv')
      writeFileSync(file, 'customer_name,due_date,items\r\nFive One,2027-01-21,Bread:500:3\r\nFive Two,2027-01-21,Bread:600:3\r\nFive Three,2027-01-21,Bread:700:3\r\n')
      const r = await runInProcess(['invoice', 'import', file, '--concurrency', '1'], {configDir: temp.dir, env: {...sandbox.env(), SVC_BASE_URL: proxy.url, SVC_RATE_LIMIT: '0', SVC_MAX_RETRIES: '1'}})
      expect(r.exitCode, r.stderr).toBe(7)
      expect(r.stderr.match(/Stopped: the service at .* is not available \(HTTP 503\)/g)).toHaveLength(1)
      // One row tried (its create and the client's one retry), the others not sent.
      expect(proxy.seen.filter((s) => s === 'POST /v1/invoices')).toHaveLength(2)
    } finally {
      await proxy.close()
    }
  }, 60_000)

  it('a --rate above the service\'s limit says it is capped', async ({work, svc}) => {
    const file = join(work, 'rate.csv')
    writeFileSync(file, 'customer_name,due_date,items\r\nRate Shop,2027-01-21,Bread:500:3\r\n')
    const r = await svc(['invoice', 'import', file, '--rate', '300', '--dry-run'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/--rate 300.*100/)
    expect(r.stderr).toMatch(/100\/min/)
  }, 60_000)
})
