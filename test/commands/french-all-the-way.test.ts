/**
 * French all the way (and dates as people write them in English too): `31/12/2026` and `30d`
 * taken by --due-date, --due-before and import files; dates printed in the reader's form in
 * dry-runs; statuses translated; plurals that agree; the guided form's errors speaking of the
 * question. Against a local sandbox over HTTP, in-process; the terminal cases under a real pseudo-terminal
 * (`script`) at 80 and 120 columns.
 */
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import type {CliResult} from '../helpers/cli.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

const DAY = 86_400_000
type Run = (args: string[], env?: Record<string, string>) => Promise<CliResult>

// The file's sandbox (payments settle at once), its clock moved 10 days on once for the file (the
// service's today is not this machine's: 30d must count from the sandbox's clock); a config dir per
// test; the commands in-process, in English (`run`) or French (`fr`).
const it = withSandbox({settleAfterMs: 0}).extend<{sb: TestSandbox; run: Run; fr: Run}>({
  sb: [
    async ({sandbox}, use) => {
      await sandbox.sb.clock.advance(10 * DAY)
      await use(sandbox)
    },
    {scope: 'file'},
  ],
  run: async ({sb, temp}, use) => use((args, env = {}) => sb.cli(temp.dir, 'sandbox', runInProcess)(args, {env})),
  fr: async ({run}, use) => use((args) => run([...args, '--lang', 'fr'])),
})

const sandboxDay = (sb: TestSandbox, plusDays: number) => new Date(sb.sb.clock.now() + plusDays * DAY).toISOString().slice(0, 10)

describe('dates as the user writes them', {timeout: 60_000}, () => {
  it('--due-date 31/12/2026 in French creates an invoice due 2026-12-31', async ({sb, fr}) => {
    const r = await fr(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '31/12/2026', '--item', 'Pain:500:3', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    const id = JSON.parse(r.stdout).id
    expect((await sb.get(`/v1/invoices/${id}`)).due_date).toBe('2026-12-31')
  })

  it('--due-date 30d is 30 days from the service’s today (the sandbox clock, moved 10 days on)', async ({sb, run}) => {
    const r = await run(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '30d', '--item', 'Bread:500:3', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).due_date).toBe(sandboxDay(sb, 30))
  })

  it('the French dry-run prints the date as French writes it, never ISO', async ({fr}) => {
    const r = await fr(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2026-12-31', '--item', 'Pain:500:3', '--dry-run'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout).toContain('échéance 31/12/2026')
    expect(r.stdout + r.stderr).not.toMatch(/\d{4}-\d{2}-\d{2}/)
  })

  it('--due-before 31/12/2027 and --due-after 30j in French filter the list', async ({sb, fr}) => {
    const r = await fr(['invoice', 'list', '--due-before', '31/12/2027', '--due-after', '20j', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    const dues = JSON.parse(r.stdout).map((i: {due_date: string}) => i.due_date)
    expect(dues).toContain('2026-12-31')
    expect(dues.every((d: string) => d > sandboxDay(sb, 20) && d < '2027-12-31')).toBe(true)
  })

  it('invoice import: French dates in a CSV; a row with 30d is refused naming the column, nothing created', async ({sb, temp, run, fr}) => {
    const file = join(temp.dir, '..', 'rows.csv')
    writeFileSync(file, 'customer_name,due_date,items\nAwa,31/12/2026,Pain:500:3\n')
    const dry = await fr(['invoice', 'import', file, '--dry-run'])
    expect(dry.exitCode, dry.stderr).toBe(0)
    expect(dry.stdout + dry.stderr).toContain('31/12/2026')
    expect(dry.stdout + dry.stderr).toContain('1 facture serait créée en brouillon')
    // The file's dates are the file's: read day first whatever language svc speaks (invoice-import-dialect.test.ts).
    const en = await run(['invoice', 'import', file, '--dry-run'])
    expect(en.exitCode, en.stderr).toBe(0)
    expect(en.stdout).toContain('due 2026-12-31')

    const relative = join(temp.dir, '..', 'relative.csv')
    writeFileSync(relative, 'customer_name,due_date,items\nAwa,30d,Bread:500:3\n')
    const before = (await sb.get('/v1/invoices?limit=100')).data.length
    const refused = await run(['invoice', 'import', relative])
    expect(refused.exitCode).toBe(2)
    expect(refused.stdout + refused.stderr).toMatch(/due_date "30d".*the date itself/s)
    expect((await sb.get('/v1/invoices?limit=100')).data.length).toBe(before)
  })

  it('report collections takes French dates and answers a reversed range with French dates', async ({fr}) => {
    const ok = await fr(['report', 'collections', '--since', '01/11/2026', '--until', '31/12/2026'])
    expect(ok.exitCode, ok.stderr).toBe(0)
    const reversed = await fr(['report', 'collections', '--since', '01/11/2026', '--until', '01/10/2026'])
    expect(reversed.exitCode).toBe(2)
    expect(reversed.stderr).toMatch(/--until \(02\/10\/2026 00:00 UTC\) doit être postérieur à --since \(01\/11\/2026 00:00 UTC\)/)
    expect(reversed.stderr).not.toMatch(/\d{4}-\d{2}-\d{2}/)
  })

  it('English still refuses 31/12/2026, saying which form to write', async ({run}) => {
    const r = await run(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '31/12/2026', '--item', 'Bread:500:3'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/Invalid --due-date "31\/12\/2026".*YYYY-MM-DD/)
  })
})

describe('statuses and plurals in the reader’s language', {timeout: 60_000}, () => {
  it('invoice create in French: « créée (BROUILLON) », never DRAFT', async ({fr}) => {
    const r = await fr(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '31/12/2026', '--item', 'Pain:500:3'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/créée \(BROUILLON\)/)
    expect(r.stdout + r.stderr).not.toMatch(/\bDRAFT\b/)
  })

  it('sandbox numbers in French at 80 and 120 columns: RÉUSSI / ÉCHOUÉ, no SUCCESS or FAILED', async ({temp}) => {
    for (const cols of [80, 120]) {
      // What a terminal of that width receives (in-process: test/helpers/in-process.ts, `terminal`).
      const r = await runInProcess(['sandbox', 'numbers', '--lang', 'fr'], {configDir: temp.dir, env: {TERM: 'xterm-256color'}, terminal: {columns: cols}})
      const screen = stripAnsi(r.screen!)
      expect(r.exitCode, screen).toBe(0)
      expect(screen).toMatch(/237670000001[\s│|]+670000001[\s│|]+RÉUSSI/)
      expect(screen).toMatch(/237670000099[\s│|]+670000099[\s│|]+ÉCHOUÉ/)
      expect(screen).not.toMatch(/\b(SUCCESS|FAILED)\b/)
    }
  })

  it('one open invoice in French: « 1 facture ouverte », not « 1 factures ouvertes »', async ({temp}) => {
    const one = await startTestSandbox({settleAfterMs: 0})
    try {
      const cli = one.cli(temp.dir, 'sandbox', runInProcess)
      const created = JSON.parse((await cli(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-12-31', '--item', 'Pain:500:3', '--publish', '--json'])).stdout)
      expect(created.status).toBe('UNPAID')
      const r = await cli(['report', 'receivables', '--lang', 'fr'])
      expect(r.exitCode, r.stderr).toBe(0)
      expect(r.stdout + r.stderr).toMatch(/1 facture ouverte,/)
      expect(r.stdout + r.stderr).not.toMatch(/1 factures/)
    } finally {
      await one.close()
    }
  })
})

describe('the guided form speaks of the question, in the person’s date form', {timeout: 60_000}, () => {
  it('French: a wrong due date is refused as « Échéance … », not --due-date; 31/12/2099 accepted and summarised so', async ({sb, temp}) => {
    const s = runInPty(['invoice', 'create', '--lang', 'fr'], {configDir: temp.dir, env: {...sb.env(), SVC_RATE_LIMIT: '0'}})
    try {
      await s.waitFor('Nom du client')
      s.type('Awa\r')
      await s.waitFor('E-mail du client')
      s.type('\r')
      await s.waitFor('Téléphone du client')
      s.type('\r')
      await s.waitFor('Article 1')
      s.type('Pain\r')
      await s.waitFor('Prix unitaire')
      s.type('5.000\r')
      await s.waitFor(/Prix « 5\.000 » invalide/)
      s.type('\b'.repeat(10) + '500\r')
      await s.waitFor('Quantité')
      s.type('\r')
      await s.waitFor('Article 2')
      s.type('\r')
      await s.waitFor('Remise')
      s.type('\r')
      // The suggestion is written as French writes dates: today + 30 on the sandbox's clock.
      const [y, m, d] = sandboxDay(sb, 30).split('-')
      await s.waitFor(`${d}/${m}/${y}`)
      s.type('\b'.repeat(12) + '31/13/2099\r')
      await s.waitFor(/Échéance « 31\/13\/2099 » invalide : le mois doit aller de 01 à 12/)
      s.type('\b'.repeat(12) + '31/12/2099\r')
      await s.waitFor('échéance 31/12/2099')
      await s.waitFor('Créer cette facture')
      s.type('n\r')
      await s.exit
      const screen = stripAnsi(s.output())
      expect(screen).not.toMatch(/--due-date|--item/)
      expect(screen).not.toMatch(/2099-12-31/)
    } finally {
      s.kill()
    }
  })
})
