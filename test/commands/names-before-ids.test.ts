/**
 * Names before ids, as a shop owner reads `invoice list` in an 80-column terminal: customer names
 * whole (at least 20 characters), ids shortened to a prefix the invoice commands take back, the
 * columns left out named with `--wide`; a legend only for what the table shows; `--customer`
 * folding accents and case and matching the reference.
 */
import {describe, expect} from 'vitest'

import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import type {TestSandbox} from '../helpers/sandbox.js'

const it = withSandbox({settleAfterMs: 0})

async function invoice(sb: TestSandbox, customer: string, extra: Record<string, unknown> = {}): Promise<string> {
  const headers = {'x-api-key': sb.sb.keys.sandbox, 'content-type': 'application/json'}
  const body = {customer_name: customer, due_date: '2027-01-31', items: [{name: 'Pain', price: 1250, quantity: 1000}], ...extra}
  const created = await fetch(`${sb.sb.url}/v1/invoices`, {method: 'POST', headers, body: JSON.stringify(body)})
  const {id} = (await created.json()) as {id: string}
  await fetch(`${sb.sb.url}/v1/invoices/${id}/publish`, {method: 'POST', headers, body: '{}'})
  return id
}

/** What a person sees: the command in a pseudo-terminal `cols` wide, stdout and stderr together. */
async function screen(sandbox: TestSandbox, configDir: string, args: string[], cols = 80): Promise<{text: string; exitCode: number}> {
  const pty = runInPty(args, {configDir, cols, env: {...sandbox.env(), SVC_RATE_LIMIT: '0'}})
  const {exitCode} = await pty.exit
  // What stays on the screen: a line rewritten in place (a spinner) keeps its last writing.
  // eslint-disable-next-line no-control-regex
  const lines = stripAnsi(pty.output().replace(/\u001b\[(?:\d*G|[0-2]?K)/g, '\r')).split('\n').map((line) => line.split('\r').filter((part) => part !== '').pop() ?? '')
  return {text: lines.join('\n'), exitCode}
}

describe('names before ids', {timeout: 90_000}, () => {
  it('--customer folds accents and case, and matches the reference', async ({sandbox, temp}) => {
    await invoice(sandbox, 'Boulangerie Émilie')
    await invoice(sandbox, 'Boulangerie Awa')
    await invoice(sandbox, 'Chez Paul', {external_reference: 'FAC-2026-0042'})
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    const names = async (needle: string) => {
      const r = await svc(['invoice', 'list', '--customer', needle, '--json'])
      expect(r.exitCode, r.stderr).toBe(0)
      return (JSON.parse(r.stdout) as Array<{customer_name: string}>).map((i) => i.customer_name)
    }
    expect(await names('Emilie')).toEqual(['Boulangerie Émilie'])
    expect(await names('BOULANGERIE EMILIE')).toEqual(['Boulangerie Émilie'])
    expect(await names('émilie')).toEqual(['Boulangerie Émilie'])
    expect(await names('fac-2026-0042')).toEqual(['Chez Paul'])
  })

  it('at 80 columns: names whole, ids shortened to a prefix `invoice get` takes, the columns left out named with --wide', async ({sandbox, temp}) => {
    const emilie = await invoice(sandbox, 'Boulangerie Émilie')
    await invoice(sandbox, 'Boulangerie Awa', {external_reference: 'FAC-2026-0107'})
    const {text, exitCode} = await screen(sandbox, temp.dir, ['invoice', 'list', '--customer', 'boulangerie'])
    expect(exitCode, text).toBe(0)
    expect(text).toContain('Boulangerie Émilie')
    expect(text).toContain('Boulangerie Awa')
    expect(text).not.toContain('Boulangerie …')
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80)
    // A column was left out: the table says which, and how to see it.
    expect(text).toMatch(/not shown[^\n]*PAID[^\n]*--wide/i)
    const row = text.split('\n').find((line) => line.includes('Boulangerie Émilie'))!
    const shown = /inv_test_\w+…/.exec(row)?.[0]
    expect(shown, row).toBeDefined()
    // The shortened id, pasted as shown: the invoice of that row.
    const got = await sandbox.cli(temp.dir, 'sandbox', runInProcess)(['invoice', 'get', shown!, '--json'])
    expect(got.exitCode, got.stderr).toBe(0)
    expect(JSON.parse(got.stdout)).toMatchObject({customer_name: 'Boulangerie Émilie'})
    expect(JSON.parse(got.stdout).id.startsWith(shown!.slice(0, -1))).toBe(true)
    expect(emilie).toMatch(/^inv_test_/)
  })

  it('an ambiguous prefix is refused with its candidates; one that matches nothing is not found', async ({sandbox, temp}) => {
    await invoice(sandbox, 'Ambiguous One')
    await invoice(sandbox, 'Ambiguous Two')
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    const ambiguous = await svc(['invoice', 'get', 'inv_test_…'])
    expect(ambiguous.exitCode).toBe(2)
    expect(ambiguous.stderr).toMatch(/several invoices/i)
    expect(ambiguous.stderr.match(/inv_test_\w{24}/g)!.length).toBeGreaterThanOrEqual(2)
    const none = await svc(['invoice', 'get', 'inv_test_zzzzzzzz…'])
    expect(none.exitCode).toBe(4)
    expect(none.stderr).toMatch(/inv_test_zzzzzzzz/)
  })

  it('pay list: a failure code is explained only when its column is shown', async ({sandbox, temp}) => {
    const svc = sandbox.cli(temp.dir, 'sandbox', runInProcess)
    expect((await svc(['pay', 'create', '--amount', '1250000', '--phone', '670000099'])).exitCode).not.toBe(2)
    const narrow = await screen(sandbox, temp.dir, ['pay', 'list'], 80)
    expect(narrow.exitCode, narrow.text).toBe(0)
    const wide = await screen(sandbox, temp.dir, ['pay', 'list', '--wide'], 80)
    expect(wide.text).toMatch(/FAILURE/)
    expect(wide.text).toMatch(/INSUFFICIENT_FUNDS|PAYER_NOT_FOUND|CUSTOMER_DECLINED|EXPIRED|PROVIDER_ERROR/)
    const code = /(INSUFFICIENT_FUNDS|PAYER_NOT_FOUND|CUSTOMER_DECLINED|EXPIRED|PROVIDER_ERROR)/.exec(wide.text)![1]!
    const header = narrow.text.split('\n').find((line) => /^ID\s+STATUS/.test(line))!
    if (header.includes('FAILURE')) return expect.unreachable('the failure column fits at 80 columns: this test needs a narrower table')
    // Left out: not explained, and said to be left out.
    expect(narrow.text).not.toContain(`${code}:`)
    expect(narrow.text).toMatch(/not shown[^\n]*FAILURE[^\n]*--wide/i)
  })
})
