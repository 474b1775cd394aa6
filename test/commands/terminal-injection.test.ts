/**
 * Text from the service never reaches a terminal with its control characters (issue 18): escape
 * sequences in a customer name, an item name and notes (window title, screen clear, colours, a C1
 * CSI, a bell) come out of every human output escaped and visible; `--json` carries them intact.
 * Piped output in-process; the terminal in-process too (`terminal`: TTY streams of its width, what
 * the terminal receives).
 */
import {describe, expect} from 'vitest'

import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {invoiceDomainOf} from '../../src/sandbox/invoices/index.js'

const TITLE = '\u001b]0;pwned\u0007'
const CLEAR = '\u001b[2J\u001b[H'
const RED = '\u001b[31m'
const C1 = '\u009b31m'
const NAME = `Awa${TITLE}${CLEAR} Bakery${RED}`
const ITEM = `Bread${C1}${RED}`
const NOTES = `Thanks${CLEAR}\u202eevil\u200bzero\u2066width`

// The file's sandbox holding one published invoice whose text carries the hostile sequences
// (file scope: made once), and a config dir per test.
const it = test.extend<{invoiceId: string}>({
  invoiceId: [
    async ({sandbox}, use) => {
      const headers = {'x-api-key': sandbox.sb.keys.sandbox, 'content-type': 'application/json'}
      const created = await fetch(`${sandbox.sb.url}/v1/invoices`, {
        method: 'POST',
        headers: {...headers, 'idempotency-key': crypto.randomUUID()},
        body: JSON.stringify({customer_name: 'Awa Bakery', due_date: '2099-12-31', notes: 'Thanks', items: [{name: 'Bread', price: 500, quantity: 3}]}),
      })
      const invoice: any = await created.json()
      expect(created.status, JSON.stringify(invoice)).toBe(201)
      const invoiceId = invoice.id as string
      expect((await fetch(`${sandbox.sb.url}/v1/invoices/${invoiceId}/publish`, {method: 'POST', headers, body: '{}'})).status).toBe(200)
      // The sandbox refuses control characters at the API (docs/service.md, "Limits"), so the
      // hostile text is written into its store, as a service that lets them through would answer it.
      invoiceDomainOf(sandbox.sb.context)
        .invoices.collection('SANDBOX')
        .update(invoiceId, (stored) => {
          stored.customer_name = NAME
          stored.notes = NOTES
          stored.items[0]!.name = ITEM
        })
      await use(invoiceId)
    },
    {scope: 'file'},
  ],
})

const commands = (invoiceId: string): string[][] => [['invoice', 'list'], ['invoice', 'get', invoiceId], ['report', 'receivables']]
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u200b\u2066]/

describe('human output: 0 control characters from the service', () => {
  it('invoice list, invoice get, report receivables (not a terminal)', async ({invoiceId, sandbox, temp}) => {
    for (const args of commands(invoiceId)) {
      const r = await runInProcess(args, {configDir: temp.dir, env: sandbox.env()})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(r.stdout + r.stderr, args.join(' ')).not.toMatch(CONTROL)
      // Shown escaped, so the person sees that something odd is there.
      expect(r.stdout, args.join(' ')).toContain('Awa\\u001b]0;pwned\\u0007')
    }
    const get = await runInProcess(['invoice', 'get', invoiceId], {configDir: temp.dir, env: sandbox.env()})
    expect(get.stdout).toContain('Bread\\u009b31m\\u001b[31m')
    expect(get.stdout).toContain('Thanks\\u001b[2J\\u001b[H\\u202eevil\\u200bzero\\u2066width')
  })

  it('on a terminal, with colour: only our own colour codes, never the service’s sequences', async ({invoiceId, sandbox, temp}) => {
    for (const args of commands(invoiceId)) {
      const r = await runInProcess(args, {configDir: temp.dir, env: {TERM: 'xterm-256color', ...sandbox.env()}, terminal: {columns: 120}})
      const screen = r.screen!
      expect(r.exitCode, screen).toBe(0)
      // A terminal's run: our own colour codes are there (so this is the coloured path).
      // eslint-disable-next-line no-control-regex
      expect(screen, args.join(' ')).toMatch(/\u001b\[[0-9;]*m/)
      expect(screen).not.toContain(TITLE)
      expect(screen).not.toContain('\u001b[2J')
      expect(screen).not.toContain('\u009b')
      expect(screen).not.toContain('\u0007')
      expect(screen).toContain('\\u001b]0;pwned\\u0007')
    }
  })

  it('--json is untouched: the service’s text, control characters and all', async ({invoiceId, sandbox, temp}) => {
    const get = await runInProcess(['invoice', 'get', invoiceId, '--json'], {configDir: temp.dir, env: sandbox.env()})
    const invoice = JSON.parse(get.stdout)
    expect(invoice.customer_name).toBe(NAME)
    expect(invoice.items[0].name).toBe(ITEM)
    expect(invoice.notes).toBe(NOTES)
    const list = await runInProcess(['invoice', 'list', '--json'], {configDir: temp.dir, env: sandbox.env()})
    expect(JSON.parse(list.stdout)[0].customer_name).toBe(NAME)
  })
})
