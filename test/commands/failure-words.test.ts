/**
 * Failure codes in words: every failure_code of the contract has a sentence in both languages
 * (what happened, what to do), shown by pay create --watch, status, watch and list, and by the
 * walkthrough; --json carries the service's object unchanged. Against a local sandbox whose
 * scripted numbers fail with a chosen code; `pay status` also under a pseudo-terminal at 80 and
 * 120 columns.
 */
import {describe, expect} from 'vitest'

import {FAILURE_CODES} from '../../src/contract/payments.js'
import {en} from '../../src/lib/i18n/en/index.js'
import {fr} from '../../src/lib/i18n/fr/index.js'
import type {CliOptions, CliResult} from '../helpers/cli.js'
import {skippingClock} from '../helpers/clock.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {inTerminal} from '../helpers/script-terminal.js'

type Run = (args: string[], extra?: Partial<CliOptions>) => Promise<CliResult>

// The file's sandbox (payments settle at once) with 670112233 scripted to fail INSUFFICIENT_FUNDS
// (by `svc sandbox numbers set`, once per file), a config dir per test, and the CLI in-process on them,
// on a clock the sandbox shares that jumps through the runs' waits (the walkthrough's settlements).
const it = withSandbox({settleAfterMs: 0, clock: skippingClock()}).extend<{scripted: void; run: Run}>({
  scripted: [
    async ({sandbox}, use) => {
      const temp = tempConfigDir()
      try {
        const scripted = await sandbox.cli(temp.dir, 'sandbox', runInProcess)(['sandbox', 'numbers', 'set', '670112233', '--operator', 'MTN', '--outcome', 'FAILED', '--failure-code', 'INSUFFICIENT_FUNDS'], {
          env: {SVC_SANDBOX_URL: sandbox.sb.adminUrl, SVC_SANDBOX_ADMIN_TOKEN: sandbox.sb.adminToken},
        })
        expect(scripted.exitCode, scripted.stderr).toBe(0)
      } finally {
        temp.cleanup()
      }
      await use()
    },
    {scope: 'file'},
  ],
  run: async ({sandbox, temp, scripted}, use) => use(sandbox.cli(temp.dir, 'sandbox', runInProcess)),
})

// The payment that failed, shown by the first test, read again by the next ones.
let failedId: string
const TOP_UP_EN = /wallet lacks the funds: ask them to top up, then try again/
const TOP_UP_FR = /n’a pas assez d’argent : demandez-lui de le recharger, puis réessayez/

describe('every failure code has its sentence', () => {
  it('in both languages, each its own (no code left to the generic sentence)', () => {
    const sentences = new Set<string>()
    for (const code of FAILURE_CODES) {
      const key = `domain.failure.${code}` as keyof typeof en
      expect(en[key], code).toBeTruthy()
      expect(fr[key], code).toBeTruthy()
      expect(fr[key]).not.toBe(en[key])
      sentences.add(en[key])
    }
    expect(sentences.size).toBe(FAILURE_CODES.length)
  })
})

describe('shown where a person reads a failed payment', {timeout: 60_000}, () => {
  it('pay create --watch: the sentence on stderr, exit 1; --json: the service’s object, no sentence', async ({sandbox, run}) => {
    const r = await run(['pay', 'create', '--amount', '1500', '--phone', '670112233', '--operator', 'MTN', '--watch', '--interval', '250ms'])
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toMatch(/failed \(INSUFFICIENT_FUNDS\)/)
    expect(r.stderr).toMatch(TOP_UP_EN)
    failedId = /(svcpay_test_\w+)/.exec(r.stdout + r.stderr)![1]!

    const json = await run(['pay', 'status', failedId, '--json'])
    expect(json.exitCode).toBe(0)
    const body = JSON.parse(json.stdout)
    expect(body).toEqual(await sandbox.get(`/v1/payments/${failedId}/status`))
    expect(json.stdout).not.toMatch(/top up/)
  })

  it('pay status and pay watch: a WHAT TO DO row; in French QUE FAIRE', async ({run}) => {
    const status = await run(['pay', 'status', failedId])
    expect(status.stdout).toMatch(/FAILURE CODE\s+INSUFFICIENT_FUNDS/)
    expect(status.stdout).toMatch(new RegExp(`WHAT TO DO\\s+The customer’s mobile money ${TOP_UP_EN.source}`))
    const watch = await run(['pay', 'watch', failedId, '--lang', 'fr'])
    expect(watch.exitCode).toBe(1)
    expect(watch.stdout).toMatch(/QUE FAIRE\s+Le portefeuille mobile money du client/)
    expect(watch.stderr).toMatch(TOP_UP_FR)
  })

  it('pay list: each failure code of the page explained once, under the table', async ({run}) => {
    const r = await run(['pay', 'list'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/INSUFFICIENT_FUNDS/)
    expect(r.stderr.match(/^INSUFFICIENT_FUNDS: /gm)).toHaveLength(1)
    expect(r.stderr).toMatch(TOP_UP_EN)
  })

  it('at 80 and 120 columns on a terminal, in both languages', async ({sandbox, temp, scripted}) => {
    for (const cols of [80, 120]) {
      const en = await inTerminal(['pay', 'status', failedId], cols, {configDir: temp.dir, env: sandbox.env()})
      expect(en.screen.replace(/\s+/g, ' ')).toMatch(/WHAT TO DO The customer’s mobile money wallet lacks the funds/)
      const frScreen = await inTerminal(['pay', 'status', failedId, '--lang', 'fr'], cols, {configDir: temp.dir, env: sandbox.env()})
      expect(frScreen.screen.replace(/\s+/g, ' ')).toMatch(/QUE FAIRE Le portefeuille mobile money du client n’a pas assez d’argent/)
    }
  })

  it('the walkthrough explains the failure it shows', async ({run}) => {
    const r = await run(['sandbox', 'walkthrough', '--settle-after', '250ms', '--lang', 'fr'], {env: {CI: 'true', SVC_API_KEY: undefined, SVC_BASE_URL: undefined}, timeoutMs: 60_000})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout + r.stderr).toMatch(/Le client a refusé la demande sur son téléphone : vérifiez le montant avec lui, puis réessayez/)
  })
})
