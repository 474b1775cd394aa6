/**
 * The language is the run's, not the process's: commands run in-process at the same time, one
 * with `--lang fr` and one in English, each print in their own language (messages, table headers,
 * amounts and dates), and each keeps its own exit code.
 */
import {describe, expect} from 'vitest'

import {it} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'

describe('runs in one process at the same time', {timeout: 60_000}, () => {
  it('each speaks its own language', async ({sandbox, temp}) => {
    const env = {...sandbox.env(), SVC_RATE_LIMIT: '0'}
    const made = await runInProcess(['pay', 'create', '--amount', '1500', '--phone', '670000001', '--json'], {configDir: temp.dir, env})
    expect(made.exitCode).toBe(0)
    // Several of each, started together: their requests to the sandbox interleave.
    const runs = await Promise.all(
      ['fr', 'en', 'fr', 'en', 'fr', 'en'].map((lang) =>
        runInProcess(['pay', 'list', ...(lang === 'fr' ? ['--lang', 'fr'] : [])], {configDir: temp.dir, env}).then((r) => ({lang, ...r})),
      ),
    )
    for (const run of runs) {
      expect(run.exitCode, run.stderr).toBe(0)
      if (run.lang === 'fr') {
        expect(run.stdout).toContain('MONTANT')
        expect(run.stdout).toContain('1 500 FCFA')
        expect(run.stdout).toMatch(/\d\d\/\d\d\/\d{4} \d\d:\d\d UTC/)
        expect(run.stdout).not.toContain('AMOUNT')
      } else {
        expect(run.stdout).toContain('AMOUNT')
        expect(run.stdout).toContain('1 500 XAF')
        expect(run.stdout).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/)
        expect(run.stdout).not.toContain('MONTANT')
      }
    }
  })

  it('each keeps its own error, in its own language, and exit code', async ({temp}) => {
    const env = {SVC_API_KEY: 'svc_sk_test_abcdefghijklmnopqrstuv1234', SVC_BASE_URL: 'http://127.0.0.1:9'}
    const [fr, en, ok] = await Promise.all([
      runInProcess(['pay', 'create', '--amount', '500', '--phone', '12', '--lang', 'fr'], {configDir: temp.dir, env}),
      runInProcess(['pay', 'create', '--amount', '50.5', '--phone', '670000001'], {configDir: temp.dir, env}),
      runInProcess(['sandbox', 'numbers', '--lang', 'fr'], {configDir: temp.dir, env: {}}),
    ])
    expect(fr.exitCode).toBe(2)
    expect(fr.stderr).toContain('Erreur :')
    expect(en.exitCode).toBe(2)
    expect(en.stderr).toContain('Error:')
    expect(ok.exitCode).toBe(0)
  })
})
