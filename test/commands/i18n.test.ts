/**
 * The CLI in both languages: an error (and its exit code), tables (headers, FCFA, dd/mm/yyyy) and
 * --json identical in both languages, and the profile's language, run in-process (messages and
 * formatting); a prompt in a pseudo-terminal and the French catalogue loaded only by French runs, as
 * built, in child processes.
 */
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect} from 'vitest'

import {BIN} from '../helpers/cli.js'
import {test} from '../helpers/fixtures.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import type {TestSandbox} from '../helpers/sandbox.js'
import {runInProcess} from '../helpers/in-process.js'

const DMY = /\b\d{2}\/\d{2}\/\d{4}\b/
const YMD = /\b\d{4}-\d{2}-\d{2}\b/

type InProcess = (args: string[], env?: Record<string, string | undefined>) => ReturnType<typeof runInProcess>

// The file's sandbox, with two settled payments and an invoice made once for the file (`seeded`), a
// config dir per test (test/helpers/fixtures.ts), and the CLI in-process on them.
const it = test.extend<{seeded: TestSandbox; inProcess: InProcess}>({
  seeded: [
    async ({sandbox}, use) => {
      for (const [amount, phone] of [
        [12500, '237670000001'],
        [3000, '237670000099'],
      ] as const) {
        const response = await fetch(`${sandbox.sb.url}/v1/payments`, {
          method: 'POST',
          headers: {'x-api-key': sandbox.sb.keys.sandbox, 'content-type': 'application/json'},
          body: JSON.stringify({amount, phone_number: phone, operator: 'MTN'}),
        })
        expect(response.status).toBe(201)
      }
      // Both payments settle now, on the sandbox's clock, before any test runs: a payment that turns
      // from PENDING to FAILED between the English and the French run is not a difference of language.
      await sandbox.sb.clock.advance(200)
      expect((await sandbox.get('/v1/payments')).data.map((p: {status: string}) => p.status).sort()).toEqual(['FAILED', 'SUCCESS'])
      const invoice = await fetch(`${sandbox.sb.url}/v1/invoices`, {
        method: 'POST',
        headers: {'x-api-key': sandbox.sb.keys.sandbox, 'content-type': 'application/json', 'idempotency-key': 'i18n-test-1'},
        body: JSON.stringify({customer_name: 'Boulangerie Awa', due_date: '2026-12-31', currency: 'XAF', items: [{name: 'Pain', price: 500, quantity: 3}]}),
      })
      expect(invoice.status).toBe(201)
      await use(sandbox)
    },
    {scope: 'file'},
  ],
  inProcess: async ({seeded, temp}, use) => use((args, env = {}) => runInProcess(args, {configDir: temp.dir, env: {...seeded.env(), ...env}})),
})

describe('errors', () => {
  it('pay create --amount 50.5 --lang fr: the message in French, exit 2; in English without it', async ({inProcess}) => {
    const fr = await inProcess(['pay', 'create', '--amount', '50.5', '--phone', '670000001', '--lang', 'fr'])
    expect(fr.exitCode).toBe(2)
    expect(fr.stderr).toContain('Erreur :')
    expect(fr.stderr).toContain('--amount « 50.5 » invalide : le franc CFA n’a ni décimales ni exposant')
    expect(fr.stderr).not.toMatch(/Invalid|whole francs/)

    const en = await inProcess(['pay', 'create', '--amount', '50.5', '--phone', '670000001'])
    expect(en.exitCode).toBe(2)
    expect(en.stderr).toContain('Error: Invalid --amount "50.5": XAF has no decimals')
    expect(en.stderr).not.toContain('invalide')
  })

  it('SVC_LANG=fr and LANG=fr_CM.UTF-8 speak French too; --lang en wins over both', async ({inProcess}) => {
    for (const env of [{SVC_LANG: 'fr'}, {LANG: 'fr_CM.UTF-8'}, {LC_ALL: 'fr_FR.UTF-8', LANG: 'en_US.UTF-8'}]) {
      const result = await inProcess(['pay', 'create', '--amount', '0', '--phone', '670000001'], env)
      expect(result.exitCode, JSON.stringify(env)).toBe(2)
      expect(result.stderr, JSON.stringify(env)).toContain('--amount « 0 » invalide : il faut un nombre entier de francs CFA d’au moins 1.')
    }
    const english = await inProcess(['pay', 'create', '--amount', '0', '--phone', '670000001', '--lang', 'en'], {SVC_LANG: 'fr', LANG: 'fr_CM.UTF-8'})
    expect(english.stderr).toContain('Invalid --amount "0"')
  })

  it('a hint is labelled in French as well (no key: Conseil)', async ({inProcess}) => {
    const result = await inProcess(['pay', 'list', '--lang', 'fr'], {SVC_API_KEY: undefined, SVC_BASE_URL: undefined})
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toContain('Aucune clé d’API. Lancez `svc login`')
  })

  it('an unknown flag is answered in French, with the nearest flag when there is one', async ({inProcess}) => {
    const result = await inProcess(['pay', 'list', '--lang', 'fr', '--nope'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('Option --nope inconnue : `svc pay list --help` liste les options acceptées.')
    const typo = await inProcess(['pay', 'list', '--lang', 'fr', '--limitt', '5'])
    expect(typo.stderr).toContain('Option --limitt inconnue : vouliez-vous dire --limit ?')
  })
})

describe('tables', () => {
  it('pay list --lang fr: French headers, FCFA, dates as dd/mm/yyyy', async ({inProcess}) => {
    const result = await inProcess(['pay', 'list', '--lang', 'fr'])
    expect(result.exitCode, result.stderr).toBe(0)
    const header = result.stdout.split('\n')[0]
    for (const word of ['ID', 'STATUT', 'MONTANT', 'TÉLÉPHONE', 'CODE D’ÉCHEC', 'CRÉÉ LE']) expect(header).toContain(word)
    expect(result.stdout).toContain('12 500 FCFA')
    expect(result.stdout).toContain('3 000 FCFA')
    expect(result.stdout).not.toContain('XAF')
    expect(result.stdout).toMatch(new RegExp(`${DMY.source} \\d{2}:\\d{2} UTC`))
    expect(result.stdout).not.toMatch(YMD)
  })

  it('pay list in English: English headers, XAF, yyyy-mm-dd', async ({inProcess}) => {
    const result = await inProcess(['pay', 'list'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout.split('\n')[0]).toContain('STATUS')
    expect(result.stdout).toContain('12 500 XAF')
    expect(result.stdout).toMatch(new RegExp(`${YMD.source} \\d{2}:\\d{2} UTC`))
    expect(result.stdout).not.toMatch(DMY)
  })

  it('invoice list --lang fr: ÉCHÉANCE 31/12/2026, totals in FCFA', async ({inProcess}) => {
    const result = await inProcess(['invoice', 'list', '--lang', 'fr'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout.split('\n')[0]).toMatch(/CLIENT.*TOTAL.*ÉCHÉANCE.*PAYÉ/)
    expect(result.stdout).toContain('31/12/2026')
    expect(result.stdout).toContain('1 500 FCFA')
    const en = await inProcess(['invoice', 'list'])
    expect(en.stdout).toContain('2026-12-31')
    expect(en.stdout).toContain('DUE DATE')
  })
})

describe('--json never changes with the locale', () => {
  it('pay list --json and invoice list --json: byte for byte the same in English and French', async ({inProcess}) => {
    for (const args of [
      ['pay', 'list', '--json'],
      ['invoice', 'list', '--json'],
    ]) {
      const en = await inProcess([...args, '--lang', 'en'])
      const fr = await inProcess([...args, '--lang', 'fr'])
      const lang = await inProcess(args, {LANG: 'fr_CM.UTF-8'})
      expect(en.exitCode).toBe(0)
      expect(fr.stdout).toBe(en.stdout)
      expect(lang.stdout).toBe(en.stdout)
      expect(fr.stdout).not.toContain('FCFA')
      expect(JSON.parse(fr.stdout)).toBeTruthy()
    }
  })

  it('an error envelope too (machine data: English whatever the locale)', async ({inProcess}) => {
    const args = ['pay', 'create', '--amount', '50.5', '--phone', '670000001', '--json']
    const en = await inProcess(args)
    const fr = await inProcess([...args, '--lang', 'fr'])
    expect(fr.exitCode).toBe(2)
    expect(fr.stdout).toBe(en.stdout)
    expect(JSON.parse(fr.stdout).error.code).toBe('invalid_input')
  })
})

describe('the profile’s language', () => {
  it('svc login --lang fr saves it, and later runs speak French without a flag; SVC_LANG=en overrides', async ({seeded, temp}) => {
    const env = {SVC_BASE_URL: seeded.sb.url}
    const login = await runInProcess(['login', '--api-key-stdin', '--profile', 'boutique', '--lang', 'fr'], {configDir: temp.dir, env, input: seeded.sb.keys.sandbox})
    expect(login.exitCode, login.stderr).toBe(0)
    expect(login.stderr + login.stdout).toContain('Connecté avec le profil « boutique »')
    const later = await runInProcess(['pay', 'create', '--amount', '1e3', '--phone', '670000001'], {configDir: temp.dir, env})
    expect(later.exitCode).toBe(2)
    expect(later.stderr).toContain('--amount « 1e3 » invalide')
    const english = await runInProcess(['pay', 'create', '--amount', '1e3', '--phone', '670000001'], {configDir: temp.dir, env: {...env, SVC_LANG: 'en'}})
    expect(english.stderr).toContain('Invalid --amount "1e3"')
  })
})

describe('prompts', () => {
  it('LANG=fr_CM.UTF-8 svc pay create on a terminal: French prompts, then the payment in French', async ({seeded, temp}) => {
    const session = runInPty(['pay', 'create'], {configDir: temp.dir, env: {...seeded.env(), LANG: 'fr_CM.UTF-8'}})
    try {
      await session.waitFor('Montant en FCFA (francs entiers)')
      session.type('5 000\r')
      await session.waitFor('Numéro Mobile Money du client')
      session.type('670000001\r')
      await session.waitFor(/Paiement \S+ créé : EN ATTENTE/)
      const {exitCode} = await session.exit
      expect(exitCode).toBe(0)
      const screen = stripAnsi(session.output())
      expect(screen).toContain('5 000 FCFA')
      expect(screen).not.toMatch(/Amount in XAF|mobile money number/)
    } finally {
      session.kill()
    }
  })
})

describe('start-up: the French catalogue is loaded only for French runs', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url))
  const tracer = fileURLToPath(new URL('../startup/trace-loads.mjs', import.meta.url))

  async function loadsFrench(args: string[], env: Record<string, string>): Promise<boolean> {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-i18n-trace-'))
    try {
      const traceFile = join(tmp, 'trace.txt')
      const child = spawn(process.execPath, ['--import', tracer, BIN, ...args], {
        stdio: ['ignore', 'ignore', 'ignore'],
        env: {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, SVC_CONFIG_DIR: join(tmp, 'config'), SVC_TRACE_LOADS: traceFile, ...env},
      })
      await new Promise((resolve) => child.on('close', resolve))
      const files = existsSync(traceFile) ? [...new Set(readFileSync(traceFile, 'utf8').split('\n').filter(Boolean))] : []
      expect(files.length).toBeGreaterThan(0)
      // The French catalogue is wherever its text is (a chunk of its own after bundling).
      return files
        .filter((f) => f.startsWith(join(root, 'dist')))
        .some((f) => readFileSync(f, 'utf8').includes('Vous pouvez relancer'))
    } finally {
      rmSync(tmp, {recursive: true, force: true})
    }
  }

  it('an English run never loads it; a French run does', async () => {
    const args = ['pay', 'create', '--amount', '0', '--phone', '670000001', '--api-key', 'svc_sk_test_abcdefghijklmnop']
    expect(await loadsFrench(args, {LANG: 'C.UTF-8'})).toBe(false)
    expect(await loadsFrench(args, {LANG: 'fr_CM.UTF-8'})).toBe(true)
  })
})
