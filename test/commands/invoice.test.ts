import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {pdfFileText} from '../helpers/documents.js'
import {ANSI} from '../helpers/cli.js'
import {skippingClock} from '../helpers/clock.js'
import {startFaultProxy} from '../helpers/fault-proxy.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox} from '../helpers/sandbox.js'
import {allInvoices, PNG} from './invoice-helpers.js'

// The file's sandbox (payments settle at once), a config dir (test/helpers/fixtures.ts) and a work
// dir per test; the commands run in-process.
const it = withSandbox({settleAfterMs: 0}).extend<{work: string}>({
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const work = mkdtempSync(join(tmpdir(), 'svc-invoice-'))
    try {
      await use(work)
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  },
})

const BASE = ['invoice', 'create', '--customer-name', 'Awa Bakery', '--due-date', '2026-12-31']

// Many CLI runs per test: generous time on a loaded two-core machine.
describe('svc invoice, against the local sandbox', {timeout: 90_000}, () => {
  it('create: total on stderr before sending, the invoice on stdout; --json is the service object', async ({sandbox: sb, temp}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const r = await svc([...BASE, '--item', 'Bread:500:3', '--item', 'Cable 2:1 HDMI:1 500:2', '--discount', '10', '--email', 'awa@example.com', '--phone', '+237 6 70 00 00 01', '--notes', 'Merci', '--external-reference', 'AWA-1'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/Total: 4 050 XAF \(subtotal 4 500 XAF, discount 10% = −450 XAF\)/)
    expect(r.stdout).toMatch(/Status\s+DRAFT/)
    expect(r.stdout).toMatch(/Cable 2:1 HDMI: 2 × 1 500 XAF/)
    expect(r.stdout + r.stderr).not.toMatch(ANSI)
    const id = /ID\s+(inv_test_\w+)/.exec(r.stdout)![1]!

    const json = await svc([...BASE, '--item', 'Cake:2500:1', '--json'])
    expect(json.exitCode).toBe(0)
    const invoice = JSON.parse(json.stdout)
    expect(invoice).toMatchObject({status: 'DRAFT', total_amount: 2500, customer_name: 'Awa Bakery'})
    expect(invoice.checkout_url).toContain('type=sandbox')

    const got = JSON.parse((await svc(['invoice', 'get', id, '--json'])).stdout)
    expect(got).toMatchObject({id, total_amount: 4050, discount_percent: 10, customer_phone: '+237670000001', external_reference: 'AWA-1'})
    expect(got.items).toEqual([
      {name: 'Bread', price: 500, quantity: 3},
      {name: 'Cable 2:1 HDMI', price: 1500, quantity: 2},
    ])
    const human = await svc(['invoice', 'get', id])
    expect(human.stdout).toMatch(/Total\s+4 050 XAF/)
  })

  it('create --from-file, with flags on top; the same --idempotency-key twice makes one invoice', async ({sandbox: sb, temp, work}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const file = join(work, 'invoice.json')
    writeFileSync(file, JSON.stringify({customer_name: 'From File', due_date: '2026-10-01', items: [{name: 'Tea', price: 300, quantity: 2, description: 'green'}]}))
    const key = `test-key-${Date.now()}`
    const first = await svc(['invoice', 'create', '--from-file', file, '--notes', 'extra', '--idempotency-key', key, '--json'])
    expect(first.exitCode, first.stdout).toBe(0)
    const a = JSON.parse(first.stdout)
    expect(a).toMatchObject({customer_name: 'From File', total_amount: 600, notes: 'extra'})
    const second = await svc(['invoice', 'create', '--from-file', file, '--notes', 'extra', '--idempotency-key', key])
    expect(second.exitCode).toBe(0)
    expect(second.stderr).toMatch(/replayed/)
    expect(second.stdout).toContain(a.id)
    expect((await allInvoices(sb)).filter((i) => i.customer_name === 'From File')).toHaveLength(1)
  })

  it('refuses bad input before any request (exit 2, nothing created)', async ({temp, work}) => {
    const fresh = await startTestSandbox({settleAfterMs: 0})
    try {
      const svc = fresh.cli(temp.dir, 'sandbox', runInProcess)
      const png = join(work, 'logo.png')
      writeFileSync(png, PNG)
      const fake = join(work, 'fake.png')
      writeFileSync(fake, 'not a png at all')
      const big = join(work, 'big.png')
      writeFileSync(big, Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]))
      const cases: [string[], RegExp][] = [
        [[...BASE], /Missing --item \(no prompt when not interactive\)/],
        [[...BASE, '--item', 'Bread:50:1'], /under 100 XAF/],
        [[...BASE, '--item', 'Bread:500:1', '--discount', '100'], /under 100 XAF/],
        [[...BASE, '--item', 'Bread:500:1', '--discount', '101'], /--discount/],
        [[...BASE, '--item', 'Bread:50.5:3'], /--item/],
        [[...BASE, '--item', 'Bread:500:1.5'], /--item/],
        [['invoice', 'create', '--due-date', '2026-12-31', '--item', 'A:500:1'], /--customer-name/],
        [[...BASE.slice(0, 4), '--due-date', '2026-02-30', '--item', 'A:500:1'], /--due-date/],
        [[...BASE, '--item', 'A:500:1', '--channel', 'EMAIL'], /--publish/],
        [[...BASE, '--item', 'A:500:1', '--cover', 'https://cdn.example.com/logo.png'], /storage host/],
        [[...BASE, '--item', 'A:500:1', '--cover', fake], /not image\/png/],
        [[...BASE, '--item', 'A:500:1', '--cover', big], /5\.0 MB/],
        [[...BASE, '--item', 'A:500:1', '--cover', join(work, 'missing.png')], /No file .*missing\.png/],
        [[...BASE, '--item', 'A:500:1', '--phone', '12345'], /--phone/],
        [['invoice', 'list', '--page-size', '500'], /--page-size/],
        [['files', 'upload', fake], /not image\/png/],
        [['invoice', 'import', join(work, 'nope.csv')], /ENOENT/],
      ]
      for (const [args, message] of cases) {
        const r = await svc(args)
        expect(r.exitCode, `${args.join(' ')}\n${r.stderr}`).toBe(2)
        expect(r.stderr, args.join(' ')).toMatch(message)
        expect(r.stdout, args.join(' ')).toBe('')
      }
      const json = await svc([...BASE, '--item', 'Bread:50:1', '--json'])
      expect(json.exitCode).toBe(2)
      expect(JSON.parse(json.stdout).error).toMatchObject({code: 'invalid_input', field: 'total'})
      // The sandbox saw no create and no upload.
      expect(await allInvoices(fresh)).toEqual([])
      expect(png).toBeTruthy()
    } finally {
      await fresh.close()
    }
  })

  it('publish, send, cancel, list (human and --json); a LIVE key is refused without --yes before any request', async ({sandbox: sb, temp}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const created = JSON.parse((await svc([...BASE, '--item', 'Bread:500:3', '--email', 'awa@example.com', '--json'])).stdout)
    const pub = await svc(['invoice', 'publish', created.id, '--json'])
    expect(pub.exitCode, pub.stdout).toBe(0)
    expect(JSON.parse(pub.stdout)).toMatchObject({id: created.id, status: 'UNPAID', published: true})
    const pubHuman = await svc(['invoice', 'publish', created.id, '--channel', 'EMAIL', '--to-email', 'boss@example.com'])
    expect(pubHuman.exitCode).toBe(0)
    expect(pubHuman.stdout).toMatch(/Status\s+UNPAID/)

    const send = await svc(['invoice', 'send', created.id, '--json'])
    expect(send.exitCode, send.stdout).toBe(0)
    expect(JSON.parse(send.stdout)).toMatchObject({invoice_id: created.id, channel: 'EMAIL', recipient: 'awa@example.com'})
    const sendHuman = await svc(['invoice', 'send', created.id, '--channel', 'WHATSAPP', '--to-phone', '690000001'])
    expect(sendHuman.exitCode, sendHuman.stderr).toBe(0)
    expect(sendHuman.stdout).toMatch(/sent by WHATSAPP to \+?237690000001/)
    const noPhone = await svc(['invoice', 'send', created.id, '--channel', 'WHATSAPP'])
    expect(noPhone.exitCode).toBe(2)

    const list = await svc(['invoice', 'list', '--status', 'UNPAID'])
    expect(list.exitCode).toBe(0)
    expect(list.stdout).toMatch(/ID\s+NUMBER\s+STATUS\s+CUSTOMER\s+TOTAL\s+DUE DATE\s+PAID/)
    expect(list.stdout).toMatch(new RegExp(`${created.id}\\s+${created.external_reference}\\s+UNPAID\\s+Awa Bakery\\s+1 500 XAF\\s+2026-12-31\\s+0 XAF`))
    const listJson = JSON.parse((await svc(['invoice', 'list', '--all', '--json'])).stdout)
    expect(Array.isArray(listJson)).toBe(true)
    expect(listJson.map((i: {id: string}) => i.id)).toContain(created.id)

    const cancel = await svc(['invoice', 'cancel', created.id])
    expect(cancel.exitCode).toBe(0)
    expect(cancel.stdout).toMatch(/Status\s+CANCELLED/)
    const again = await svc(['invoice', 'cancel', created.id, '--json'])
    expect(JSON.parse(again.stdout).status).toBe('CANCELLED')
    const sendCancelled = await svc(['invoice', 'send', created.id, '--json'])
    expect(sendCancelled.exitCode).toBe(5)
    expect(JSON.parse(sendCancelled.stdout).error.status).toBe(409)
    expect((await svc(['invoice', 'get', 'inv_test_doesnotexist'])).exitCode).toBe(4)

    // LIVE: the draft exists (create is not guarded), but publish with a channel, send and cancel are refused.
    const live = sb.cli(temp.dir, 'live', runInProcess)
    const liveDraft = JSON.parse((await live([...BASE, '--item', 'Bread:500:3', '--email', 'awa@example.com', '--json'])).stdout)
    for (const args of [
      ['invoice', 'publish', liveDraft.id, '--channel', 'EMAIL'],
      ['invoice', 'send', liveDraft.id],
      ['invoice', 'cancel', liveDraft.id],
      [...BASE, '--item', 'Bread:500:3', '--email', 'a@example.com', '--publish', '--channel', 'EMAIL'],
    ]) {
      const r = await live(args)
      expect(r.exitCode, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(/--yes/)
    }
    const liveAll = await allInvoices(sb, 'live')
    expect(liveAll).toHaveLength(1)
    expect(liveAll[0]).toMatchObject({id: liveDraft.id, status: 'DRAFT'})
    const quiet = await live(['invoice', 'publish', liveDraft.id, '--json'])
    expect(JSON.parse(quiet.stdout).status).toBe('UNPAID')
    const yes = await live(['invoice', 'cancel', liveDraft.id, '--yes', '--json'])
    expect(JSON.parse(yes.stdout).status).toBe('CANCELLED')
  })

  it('create --publish --channel in one go; --cover FILE is uploaded; files upload prints the file_url', async ({sandbox: sb, temp, work}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const png = join(work, 'logo.png')
    writeFileSync(png, PNG)
    const r = await svc([...BASE, '--item', 'Bread:500:3', '--email', 'awa@example.com', '--cover', png, '--publish', '--channel', 'EMAIL', '--json'])
    expect(r.exitCode, r.stdout).toBe(0)
    const invoice = JSON.parse(r.stdout)
    expect(invoice).toMatchObject({status: 'UNPAID', published: true})
    expect(invoice.cover_image_url).toMatch(new RegExp(`^${sb.sb.url}/storage/`))
    const cover = await fetch(invoice.cover_image_url)
    expect(Buffer.from(await cover.arrayBuffer()).equals(PNG)).toBe(true)

    const up = await svc(['files', 'upload', png])
    expect(up.exitCode, up.stderr).toBe(0)
    const fileUrl = up.stdout.trim()
    expect(fileUrl).toMatch(new RegExp(`^${sb.sb.url}/storage/.*logo\\.png$`))
    const upJson = JSON.parse((await svc(['files', 'upload', png, '--json'])).stdout)
    expect(upJson).toMatchObject({content_type: 'image/png', size: PNG.length})
    const withUrl = await svc([...BASE, '--item', 'Bread:500:3', '--cover', fileUrl, '--json'])
    expect(withUrl.exitCode, withUrl.stdout).toBe(0)
    expect(JSON.parse(withUrl.stdout).cover_image_url).toBe(fileUrl)
  })

  it('pdf: saved as INVOICE_ID.pdf and readable by pdftotext; -o - writes it to stdout; a DRAFT is exit 5 with nothing written', async ({sandbox: sb, temp, work}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const draft = JSON.parse((await svc([...BASE, '--item', 'Bread:500:3', '--item', 'Gâteau:2500:1', '--json'])).stdout)
    const refused = await runIn(work, () => svc(['invoice', 'pdf', draft.id]))
    expect(refused.exitCode).toBe(5)
    expect(existsSync(join(work, `${draft.id}.pdf`))).toBe(false)
    await svc(['invoice', 'publish', draft.id])
    const saved = await runIn(work, () => svc(['invoice', 'pdf', draft.id]))
    expect(saved.exitCode, saved.stderr).toBe(0)
    const file = join(work, `${draft.id}.pdf`)
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-')
    const text = pdfFileText(file, {layout: false})
    expect(text).toContain(draft.id)
    expect(text).toContain('Awa Bakery')
    expect(text).toMatch(/4\s?000/)
    const out = join(work, 'copy.pdf')
    const json = await svc(['invoice', 'pdf', draft.id, '-o', out, '--json'])
    expect(JSON.parse(json.stdout)).toMatchObject({invoice_id: draft.id, file: out})
    const stdout = await svc(['invoice', 'pdf', draft.id, '-o', '-'])
    expect(stdout.exitCode).toBe(0)
    expect(stdout.stdout.startsWith('%PDF-')).toBe(true)
  })

  it('open: not interactive, prints checkout_url exactly as returned (type=sandbox kept)', async ({sandbox: sb, temp}) => {
    const svc = sb.cli(temp.dir, 'sandbox', runInProcess)
    const draft = JSON.parse((await svc([...BASE, '--item', 'Bread:500:3', '--json'])).stdout)
    await svc(['invoice', 'publish', draft.id])
    const r = await svc(['invoice', 'open', draft.id])
    expect(r.exitCode).toBe(0)
    expect(r.stdout.trim()).toBe(draft.checkout_url)
    expect(r.stdout).toContain('type=sandbox')
    const page = await fetch(r.stdout.trim())
    expect(page.status).toBe(200)
    const json = JSON.parse((await svc(['invoice', 'open', draft.id, '--json'])).stdout)
    expect(json).toMatchObject({id: draft.id, checkout_url: draft.checkout_url, opened: false})
  })

  it('a connection reset after the create reached the service: the retry with the same key leaves exactly one invoice', async ({temp}) => {
    // The retry's backoff (up to half a second) is timed on a clock that jumps through it.
    const fresh = await startTestSandbox({settleAfterMs: 0, clock: skippingClock()})
    const proxy = await startFaultProxy(fresh.sb.url, [{method: 'POST', path: /^\/v1\/invoices$/, fault: {kind: 'rst-after-answer'}}])
    try {
      const r = await fresh.cli(temp.dir, 'sandbox', runInProcess)([...BASE, '--item', 'Bread:500:3', '--json', '--verbose'], {env: {SVC_BASE_URL: proxy.url}})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(proxy.injected()).toBe(1)
      const keys = [...r.stderr.matchAll(/^> Idempotency-Key: (\S+)$/gm)].map((m) => m[1])
      expect(keys.length).toBeGreaterThanOrEqual(2)
      expect(new Set(keys).size).toBe(1)
      expect(r.stderr).toMatch(/attempt 2\/5/)
      expect(r.stderr).toMatch(/replayed/)
      const invoices = await allInvoices(fresh)
      expect(invoices).toHaveLength(1)
      expect(JSON.parse(r.stdout).id).toBe(invoices[0]!.id)
    } finally {
      await proxy.close()
      await fresh.close()
    }
  })
})

async function runIn<T>(dir: string, run: () => Promise<T>): Promise<T> {
  // The command writes its default output file in the working directory: this test's work dir.
  const previous = process.cwd()
  process.chdir(dir)
  try {
    return await run()
  } finally {
    process.chdir(previous)
  }
}
