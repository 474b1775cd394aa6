/**
 * What a newcomer tripped on, along the same paper trail: remind's lines (dry run and real run on
 * the same stream, aligned), report collections piped and in French and over two months, the two
 * lists paging with the same flags, errors without escapes or API words, a 404 on a path, the
 * guided form's key hints in French, and prose wrapped at word boundaries.
 */
import {describe, expect} from 'vitest'

import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import type {TestSandbox} from '../helpers/sandbox.js'

const it = withSandbox({settleAfterMs: 0})
const ENTER = '\r'

async function published(sb: TestSandbox, customer: string, email: string): Promise<string> {
  const headers = {'x-api-key': sb.sb.keys.sandbox, 'content-type': 'application/json'}
  const body = {customer_name: customer, customer_email: email, due_date: '2026-01-31', items: [{name: 'Pain', price: 1500, quantity: 2}]}
  const {id} = (await (await fetch(`${sb.sb.url}/v1/invoices`, {method: 'POST', headers, body: JSON.stringify(body)})).json()) as {id: string}
  await fetch(`${sb.sb.url}/v1/invoices/${id}/publish`, {method: 'POST', headers, body: '{}'})
  return id
}

/** Where each line's invoice id starts, and where what follows the customer's name starts. */
function columns(lines: string[], customers: string[]): {id: number[]; after: number[]} {
  return {
    id: lines.map((line) => line.indexOf('inv_test_')),
    after: lines.map((line) => {
      const name = customers.find((c) => line.includes(c))!
      const end = line.indexOf(name) + name.length
      return end + /^\s*/.exec(line.slice(end))![0].length
    }),
  }
}

describe('the newcomer\'s paper trail', {timeout: 90_000}, () => {
  it('invoice remind: the per-invoice lines on stdout in a dry run and a real one, aligned alike', async ({sandbox, temp}) => {
    const customers = ['Awa', 'Boulangerie Émilie et Fils']
    for (const [i, name] of customers.entries()) await published(sandbox, name, `client${i}@example.cm`)
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    const dry = await svc(['invoice', 'remind', '--overdue', '--channel', 'EMAIL', '--dry-run'])
    expect(dry.exitCode, dry.stderr).toBe(0)
    const real = await svc(['invoice', 'remind', '--overdue', '--channel', 'EMAIL'])
    expect(real.exitCode, real.stderr).toBe(0)
    const dryLines = dry.stdout.trim().split('\n')
    const realLines = real.stdout.trim().split('\n')
    expect(dryLines).toHaveLength(2)
    expect(realLines).toHaveLength(2)
    expect(real.stderr).not.toMatch(/inv_test_/)
    const a = columns(dryLines, customers)
    const b = columns(realLines, customers)
    // One column for the ids and one for what follows the names, in both runs.
    expect(new Set([...a.id, ...b.id]).size, `${dry.stdout}\n${real.stdout}`).toBe(1)
    expect(new Set([...a.after, ...b.after]).size, `${dry.stdout}\n${real.stdout}`).toBe(1)
  })

  it('report collections: piped, no sparkline; every label in French; past 31 days, by week', async ({sandbox, temp}) => {
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    await svc(['pay', 'create', '--amount', '5000', '--phone', '670000001'])
    const piped = await svc(['report', 'collections', '--by', 'operator'])
    expect(piped.exitCode, piped.stderr).toBe(0)
    expect(piped.stdout).not.toMatch(/[▁▂▃▄▅▆▇]/)
    const french = await svc(['report', 'collections', '--by', 'operator', '--lang', 'fr'])
    expect(french.stdout).not.toMatch(/^other\b/m)
    expect(french.stdout).toMatch(/^autre\b/m)
    const long = await svc(['report', 'collections', '--since', '60d'])
    expect(long.exitCode, long.stderr).toBe(0)
    expect(long.stdout).toMatch(/^WEEK OF\b/m)
    const rows = long.stdout.split('\n').filter((line) => /^\d{4}-\d{2}-\d{2}\s/.test(line))
    expect(rows.length).toBeGreaterThanOrEqual(8)
    expect(rows.length).toBeLessThanOrEqual(10)
  })

  it('pay list and invoice list page with the same flags', async ({sandbox, temp}) => {
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    await svc(['pay', 'create', '--amount', '5000', '--phone', '670000001'])
    await svc(['pay', 'create', '--amount', '6000', '--phone', '670000001'])
    await svc(['pay', 'create', '--amount', '7000', '--phone', '670000001'])
    for (const name of ['Page One', 'Page Two', 'Page Three']) await published(sandbox, name, 'page@example.cm')
    for (const list of ['pay', 'invoice']) {
      for (const flags of [['--limit', '1'], ['--page-size', '1'], ['--page', '2', '--page-size', '1'], ['--limit', '1', '--offset', '1']]) {
        const r = await svc([list, 'list', ...flags, '--json'])
        expect(r.exitCode, `${list} list ${flags.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0)
        expect(JSON.parse(r.stdout)).toHaveLength(1)
      }
      const second = JSON.parse((await svc([list, 'list', '--page', '2', '--page-size', '1', '--json'])).stdout)
      const offset = JSON.parse((await svc([list, 'list', '--offset', '1', '--limit', '1', '--json'])).stdout)
      expect(second[0].id).toBe(offset[0].id)
      // An offset inside a page: the rest of that page and the start of the next.
      const all = JSON.parse((await svc([list, 'list', '--all', '--json'])).stdout) as Array<{id: string}>
      expect(all.length).toBeGreaterThanOrEqual(3)
      const across = JSON.parse((await svc([list, 'list', '--offset', '1', '--limit', '2', '--json'])).stdout) as Array<{id: string}>
      expect(across.map((i) => i.id)).toEqual(all.slice(1, 3).map((i) => i.id))
    }
  })

  it('errors: no escape such as \\u0009; a 404 on a path says the path is unknown', async ({sandbox, temp}) => {
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    const tab = await svc(['pay', 'create', '--amount', '5\t000', '--phone', '670000001'])
    expect(tab.exitCode).toBe(2)
    expect(tab.stderr).not.toMatch(/\\u00/)
    expect(tab.stderr).toContain('5␉000')
    const path = await svc(['api', '/v1/nope'])
    expect(path.exitCode).toBe(4)
    expect(path.stderr).not.toMatch(/check the id/i)
    expect(path.stderr).toMatch(/svc openapi --operations/)
    const id = await svc(['api', '/v1/invoices/inv_test_nope'])
    expect(id.stderr).toMatch(/check the id/i)
    // The service names its fields (customer_email, override_email); a person typed flags.
    const draft = JSON.parse((await svc(['invoice', 'create', '--customer-name', 'Sans Mail', '--due-date', '2099-01-31', '--item', 'Pain:500:1', '--json'])).stdout)
    for (const args of [['publish', draft.id, '--channel', 'EMAIL'], ['publish', draft.id, '--channel', 'WHATSAPP']]) {
      const r = await svc(['invoice', ...args])
      expect(r.exitCode).toBe(2)
      expect(r.stderr).not.toMatch(/customer_email|customer_phone|override_email|override_phone/)
      expect(r.stderr).toMatch(/--to-email|--to-phone/)
    }
  })

  it('the guided form\'s key hints follow the language', async ({sandbox, temp}) => {
    const s = runInPty(['invoice', 'create', '--due-date', '2099-06-30', '--lang', 'fr'], {configDir: temp.dir, env: {...sandbox.env(), SVC_RATE_LIMIT: '0'}})
    try {
      await s.waitFor('Nom du client')
      s.type(`Boulangerie Awa${ENTER}`)
      await s.waitFor('E-mail du client')
      s.type(`awa@example.cm${ENTER}`)
      await s.waitFor('Téléphone du client')
      s.type(ENTER)
      await s.waitFor('Article 1 : nom')
      s.type(`Pain${ENTER}`)
      await s.waitFor('Prix unitaire de Pain')
      s.type(`500${ENTER}`)
      await s.waitFor('Quantité de Pain')
      s.type(`4${ENTER}`)
      await s.waitFor('1 article, total provisoire 2 000 FCFA')
      s.type(ENTER)
      await s.waitFor('Remise en pourcentage')
      s.type(ENTER)
      await s.waitFor('Créer cette facture ?')
      s.type(`o${ENTER}`)
      await s.waitFor('La publier maintenant')
      s.type(`o${ENTER}`)
      await s.waitFor('L’envoyer au client ?')
      await s.waitFor('valider')
      const screen = stripAnsi(s.output())
      expect(screen).not.toMatch(/navigate|select\b/)
      s.type(ENTER)
      expect((await s.exit).exitCode).toBe(0)
    } finally {
      s.kill()
    }
  })

  it('prose wraps at word boundaries to the terminal\'s width', async ({sandbox, temp}) => {
    // A long error at 60 columns: every line within the width, no word cut in two.
    const s = runInPty(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-01-01', '--item', 'Pain:500:1', '--phone', '12'], {configDir: temp.dir, cols: 60, env: {...sandbox.env(), SVC_RATE_LIMIT: '0'}})
    expect((await s.exit).exitCode).toBe(2)
    const lines = stripAnsi(s.output()).replaceAll('\r', '').split('\n').filter((line) => line !== '')
    expect(lines.length).toBeGreaterThan(2)
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60)
    const text = lines.join(' ')
    expect(text).toContain('Cameroon number of 9 digits')
    expect(text).toContain('237670000001')
  })
})
