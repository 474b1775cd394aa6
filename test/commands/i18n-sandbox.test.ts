/**
 * `svc sandbox business set --language fr` against a running `svc sandbox serve`: the business's
 * customers then get the invoice PDF in French, whatever language svc itself speaks.
 */
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {pdfFileText} from '../helpers/documents.js'
import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {serveInProcess} from '../helpers/sandbox.js'

type Run = (args: string[], env?: Record<string, string>) => ReturnType<typeof runInProcess>

// A config dir (test/helpers/fixtures.ts) with `svc sandbox serve` running on it (in this process:
// the commands find it as they find a developer's, through the state it leaves in the config dir),
// stopped after the test; `cli`: the commands in-process against it.
const it = test.extend<{cli: Run}>({
  cli: async ({temp}, use) => {
    const served = await serveInProcess(temp.dir)
    try {
      await use((args, env = {}) => runInProcess(args, {configDir: temp.dir, env}))
    } finally {
      await served.stop()
    }
  },
})

describe('svc sandbox business', () => {
  it('set --language fr: the PDF a customer downloads is in French; show reports it; a bad value is exit 2', async ({temp, cli}) => {
    const before = await cli(['sandbox', 'business', 'show', '--json'])
    expect(before.exitCode, before.stderr).toBe(0)
    expect(JSON.parse(before.stdout)).toMatchObject({language: 'en'})

    const set = await cli(['sandbox', 'business', 'set', '--language', 'fr'])
    expect(set.exitCode, set.stderr).toBe(0)
    expect(set.stdout).toMatch(/^LANGUAGE\s+fr$/m)
    expect(JSON.parse((await cli(['sandbox', 'business', 'show', '--json'])).stdout)).toMatchObject({language: 'fr'})

    const bad = await cli(['sandbox', 'business', 'set', '--language', 'de'])
    expect(bad.exitCode).toBe(2)

    // svc itself speaks English here; the customer's document is French.
    const created = await cli(['invoice', 'create', '--profile', 'local', '--customer-name', 'Awa', '--due-date', '2026-12-31', '--item', 'Pain:500:3', '--publish', '--json'])
    expect(created.exitCode, created.stderr).toBe(0)
    const {id, external_reference: number} = JSON.parse(created.stdout) as {id: string; external_reference: string}
    const file = join(temp.dir, '..', 'facture.pdf')
    const saved = await cli(['invoice', 'pdf', id, '--profile', 'local', '-o', file])
    expect(saved.exitCode, saved.stderr).toBe(0)
    expect(saved.stderr).toContain('Saved the PDF')
    const text = pdfFileText(file)
    // The invoice's number as its title, the service's id under it.
    expect(text).toContain(`Facture ${number}`)
    expect(text).toContain(`Identifiant du service : ${id}`)
    expect(text).toContain('Échéance : 31/12/2026')
    expect(text).toMatch(/Reste à payer\s+1 500 FCFA/)
  })
})
