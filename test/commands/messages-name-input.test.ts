/**
 * Messages that name what the person typed: environment variables and arguments by their own
 * names, the accepted range, one maximum for amounts, `5.000` read as the thousands it probably
 * is, units suited to the flag, a mistyped id as no such object, a key of a restarted in-memory
 * sandbox, and the nearest flag for a mistyped one. The commands in-process against a local
 * sandbox; the flag typo also on a terminal at 80 and 120 columns (in-process), the restarted sandbox
 * as `sandbox serve` does it (its code, in this process: serveInProcess), started twice.
 */
import {describe, expect} from 'vitest'

import type {CliResult} from '../helpers/cli.js'

import {runInPty, stripAnsi} from '../helpers/pty.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {withSandbox} from '../helpers/fixtures.js'
import {serveInProcess} from '../helpers/sandbox.js'

// The file's sandbox (payments settle at once), a config dir per test, and the command run
// in-process against them.
const it = withSandbox({settleAfterMs: 0}).extend<{run: (args: string[], env?: Record<string, string>) => Promise<CliResult>}>({
  run: async ({sandbox, temp}, use) => {
    await use((args, env = {}) => sandbox.cli(temp.dir, 'sandbox', runInProcess)(args, {env}))
  },
})

describe('what the person typed, named as typed', {timeout: 60_000}, () => {
  it('SVC_TIMEOUT=abc names SVC_TIMEOUT, never --SVC_TIMEOUT', async ({run}) => {
    const r = await run(['pay', 'list'], {SVC_TIMEOUT: 'abc'})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/Invalid SVC_TIMEOUT "abc"/)
    expect(r.stderr).not.toMatch(/--SVC_TIMEOUT/)
  })

  it('SVC_MAX_RETRIES=9 and SVC_RATE_LIMIT=-1 say what is accepted', async ({run}) => {
    const retries = await run(['pay', 'list'], {SVC_MAX_RETRIES: '9'})
    expect(retries.exitCode).toBe(2)
    expect(retries.stderr).toMatch(/Invalid SVC_MAX_RETRIES=9: give a whole number from 0 to 4/)
    const rate = await run(['pay', 'list', '--lang', 'fr'], {SVC_RATE_LIMIT: '-1'})
    expect(rate.exitCode).toBe(2)
    expect(rate.stderr).toMatch(/SVC_RATE_LIMIT=-1 invalide : donnez un nombre entier de requêtes par minute, 0 ou plus/)
  })

  it('invoice import nope.csv names the FILE argument and says there is no such file', async ({run}) => {
    const r = await run(['invoice', 'import', 'nope.csv'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/Cannot read the file "nope\.csv" \(FILE\): no such file \(ENOENT\)/)
    expect(r.stderr).not.toMatch(/--file/)
  })

  it('files upload nope.png names its PATH argument, never a --file flag it does not have', async ({run}) => {
    const r = await run(['files', 'upload', 'nope.png'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/No file nope\.png \(PATH\)/)
    expect(r.stderr).not.toMatch(/--file/)
  })

  it('one maximum for --amount, however many digits', async ({run}) => {
    const maxima = new Set<string>()
    for (const amount of ['1000000000001', '99999999999999999999']) {
      const r = await run(['pay', 'create', '--amount', amount, '--phone', '670000001'])
      expect(r.exitCode).toBe(2)
      maxima.add(/at most ([\d ]+)/.exec(r.stderr)![1]!)
    }
    expect([...maxima]).toEqual(['1 000 000 000 000'])
  })

  it('--amount 5.000 in French: five thousand? write 5000 or 5 000', async ({run}) => {
    const r = await run(['pay', 'create', '--amount', '5.000', '--phone', '670000001', '--lang', 'fr'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/vouliez-vous dire 5 000 \?.*écrivez 5000 ou « 5 000 »/)
  })

  it('--due-within 3 suggests 3d, not 3s', async ({run}) => {
    const r = await run(['invoice', 'remind', '--due-within', '3', '--dry-run'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/e\.g\. 3d/)
    expect(r.stderr).not.toMatch(/3s|3ms/)
  })

  it('inv_x is no such invoice (exit 4); an id shaped as the live environment’s is still refused as such (exit 3)', async ({run}) => {
    const typo = await run(['invoice', 'get', 'inv_x'])
    expect(typo.exitCode).toBe(4)
    expect(typo.stderr).not.toMatch(/other environment/)
    const live = await run(['invoice', 'get', 'inv_0123456789abcdefghijklmn'])
    expect(live.exitCode).toBe(3)
    expect(live.stderr).toMatch(/other environment/)
  })

  it('a mistyped flag gets the nearest one, in the person’s language, at 80 and 120 columns', async ({run, temp}) => {
    const en = await run(['pay', 'list', '--limt', '5'])
    expect(en.exitCode).toBe(2)
    expect(en.stderr).toMatch(/Unknown flag --limt: did you mean --limit\?/)
    const fr = await run(['invoice', 'list', '--due-befor', '31/12/2026', '--lang', 'fr'])
    expect(fr.stderr).toMatch(/Option --due-befor inconnue : vouliez-vous dire --due-before \?/)
    for (const cols of [80, 120]) {
      const onTerminal = await runInProcess(['pay', 'list', '--profle', 'x'], {configDir: temp.dir, env: {TERM: 'xterm-256color'}, terminal: {columns: cols}})
      expect(stripAnsi(onTerminal.screen!)).toMatch(/did you mean --profile\?/)
    }
  })
})

describe('prompts speak of the question', {timeout: 60_000}, () => {
  it('pay create at a terminal, in French: « Montant « 5.000 » invalide », never --amount', async ({sandbox, temp}) => {
    const s = runInPty(['pay', 'create', '--lang', 'fr'], {configDir: temp.dir, env: {...sandbox.env(), SVC_RATE_LIMIT: '0'}})
    try {
      await s.waitFor('Montant en FCFA')
      s.type('5.000\r')
      await s.waitFor(/Montant « 5\.000 » invalide : vouliez-vous dire 5 000 \?/)
      expect(stripAnsi(s.output())).not.toMatch(/--amount/)
      s.type('\b'.repeat(8) + '5000\r')
      await s.waitFor('Numéro Mobile Money du client')
      s.type('12345\r')
      await s.waitFor(/Numéro Mobile Money « 12345 » invalide/)
      expect(stripAnsi(s.output())).not.toMatch(/--phone/)
    } finally {
      s.kill()
    }
  })
})

describe('a key of a restarted in-memory sandbox', {timeout: 120_000}, () => {
  it('says the sandbox restarted and its keys changed, and to rerun with the profile local', async () => {
    const own = tempConfigDir()
    try {
      const first = await serveInProcess(own.dir)
      const oldKey = first.info.sandbox_key as string
      await first.stop()
      const second = await serveInProcess(own.dir)
      try {
        const r = await runInProcess(['pay', 'list', '--profile', 'local'], {configDir: own.dir, env: {SVC_API_KEY: oldKey}})
        expect(r.exitCode).toBe(3)
        expect(r.stderr).toMatch(/The local sandbox \(started .*\) keeps its keys in memory and made new ones when it was restarted/)
        expect(r.stderr).toMatch(/unset SVC_API_KEY.*--profile local/)
        // The profile serve saved works.
        expect((await runInProcess(['pay', 'list', '--profile', 'local'], {configDir: own.dir})).exitCode).toBe(0)
      } finally {
        await second.stop()
      }
    } finally {
      own.cleanup()
    }
  })
})
