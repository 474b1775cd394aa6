/**
 * Publishing with a channel needs the address it delivers to: checked locally (flags and import
 * rows), exit 2 before anything is sent, --dry-run included. When the create succeeds and its
 * publish fails, the message gives the exact command that finishes the job, delivery included.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {startFaultProxy} from '../helpers/fault-proxy.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import type {TestSandbox} from '../helpers/sandbox.js'
import {allInvoices} from './invoice-helpers.js'

// The file's sandbox (payments settle at once), a config dir and a work dir per test, and the CLI
// in-process on them (the checks and messages are the command's, not the process's).
const it = withSandbox({settleAfterMs: 0}).extend<{work: string; svc: ReturnType<TestSandbox['cli']>}>({
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const work = mkdtempSync(join(tmpdir(), 'svc-channel-'))
    try {
      await use(work)
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  },
  svc: async ({sandbox, temp}, use) => use(sandbox.cli(temp.dir, 'sandbox', runInProcess)),
})

const BASE = ['invoice', 'create', '--customer-name', 'Channel Check', '--due-date', '2026-12-31', '--item', 'Bread:500:3', '--publish']

describe('publish with a channel: the address is checked locally', () => {
  it('EMAIL without --email and WHATSAPP without --phone: exit 2, nothing sent, --dry-run too', async ({sandbox, svc}) => {
    for (const dry of [['--dry-run'], []]) {
      const email = await svc([...BASE, '--channel', 'EMAIL', ...dry])
      expect(email.exitCode, email.stderr).toBe(2)
      expect(email.stderr).toMatch(/--email/)
      const phone = await svc([...BASE, '--channel', 'WHATSAPP', ...dry, '--lang', 'fr'])
      expect(phone.exitCode, phone.stderr).toBe(2)
      expect(phone.stderr).toMatch(/--phone manquant/)
    }
    expect(await allInvoices(sandbox)).toEqual([])
    const ok = await svc([...BASE, '--channel', 'EMAIL', '--email', 'awa@example.com', '--dry-run'])
    expect(ok.exitCode, ok.stderr).toBe(0)
  })

  it('import rows: --publish --channel EMAIL with a row without customer_email is refused before anything is sent', async ({sandbox, work, svc}) => {
    const file = join(work, 'rows.csv')
    writeFileSync(file, 'customer_name,due_date,items,customer_email,customer_phone\nWith Mail,2026-12-31,Bread:500:3,a@example.com,\nNo Mail,2026-12-31,Bread:500:3,,670000001\n')
    for (const dry of [['--dry-run'], []]) {
      const r = await svc(['invoice', 'import', file, '--publish', '--channel', 'EMAIL', ...dry])
      expect(r.exitCode, r.stderr).toBe(2)
      expect(r.stderr).toMatch(/line 3: customer_email is needed to deliver by EMAIL/)
    }
    const phone = await svc(['invoice', 'import', file, '--publish', '--channel', 'WHATSAPP', '--dry-run'])
    expect(phone.exitCode).toBe(2)
    expect(phone.stderr).toMatch(/line 2: customer_phone is needed/)
    expect((await allInvoices(sandbox)).filter((i) => String(i.customer_name).endsWith('Mail'))).toEqual([])
  })

  it('a create whose publish fails gives the exact command that finishes the job, delivery included', async ({sandbox, svc}) => {
    const proxy = await startFaultProxy(sandbox.sb.url, [{method: 'POST', path: /\/publish$/, fault: {kind: 'status', status: 503, body: '{"message":"busy"}'}, times: Infinity}])
    try {
        const r = await svc(['invoice', 'create', '--customer-name', 'Finish Me', '--due-date', '2026-12-31', '--item', 'Bread:500:3', '--email', 'finish@example.com', '--publish', '--channel', 'EMAIL'], {
        env: {SVC_BASE_URL: proxy.url, SVC_MAX_RETRIES: '0'},
      })
      expect(r.exitCode).toBe(7)
      const command = /`(svc invoice publish inv_\S+ --channel EMAIL)`/.exec(r.stderr)?.[1]
      expect(command, r.stderr).toBeDefined()
      // That command, run as given, finishes the job: published and delivered.
      const finish = await svc(command!.split(' ').slice(1))
      expect(finish.exitCode, finish.stderr).toBe(0)
      expect(finish.stderr).toMatch(/EMAIL/)
      const invoice = (await allInvoices(sandbox)).find((i) => i.customer_name === 'Finish Me')!
      expect(invoice.status).toBe('UNPAID')
    } finally {
      await proxy.close()
    }
  })
})
