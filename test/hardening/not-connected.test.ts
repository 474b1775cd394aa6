/**
 * A connection that could not be made: nothing left this machine, so the CLI says exactly that
 * (exit 7), at once: no retry (the --verbose trace shows each attempt) and, for `pay create`, no
 * "outcome unknown" and no look for a payment that cannot exist.
 */
import {join} from 'node:path'

import {describe, expect} from 'vitest'

import {runInProcess} from '../helpers/in-process.js'
import {refusedUrl} from '../helpers/fault-proxy.js'
import {it} from './fixtures.js'

const KEY = 'svc_sk_test_refusedrefusedrefused0001'

async function refused(dir: string, args: string[], baseUrl: string) {
  return runInProcess([...args, '--verbose'], {configDir: join(dir, 'config'), env: {SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY, SVC_RATE_LIMIT: '0'}})
}

describe('connection refused or unknown host: "nothing was sent", exit 7, no retry', () => {
  const cases: Array<[string, string[]]> = [
    ['pay create', ['pay', 'create', '--amount', '5000', '--phone', '670000001']],
    ['invoice create (a write that is normally retried)', ['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-12-31', '--item', 'Bread:500:3']],
    ['pay list (a read)', ['pay', 'list']],
  ]
  for (const [name, args] of cases) {
    it(`${name}: refused`, async ({dir}) => {
      const r = await refused(dir, args, await refusedUrl())
      expect(r.exitCode, r.stderr).toBe(7)
      expect(r.stderr).toMatch(/Could not connect to http:\/\/127\.0\.0\.1:\d+\/v1\/\S+ \(ECONNREFUSED\): nothing was sent\./)
      expect(r.stderr).not.toMatch(/outcome (is|may be) unknown/i)
      expect(r.stderr).not.toMatch(/\* retry/)
      // One attempt at the command's own request (discovery of the operations aside).
      expect(r.stderr.match(/^> (GET|POST) \S+\/v1\/(payments|invoices)\b/gm)).toHaveLength(1)
    })
  }

  it('pay create: an unknown host (DNS failure)', async ({dir}) => {
    const r = await refused(dir, cases[0]![1], 'http://svc-no-such-host.invalid')
    expect(r.exitCode, r.stderr).toBe(7)
    expect(r.stderr).toMatch(/Could not connect to http:\/\/svc-no-such-host\.invalid\/v1\/payments\S* \((ENOTFOUND|EAI_AGAIN)\): nothing was sent\./)
    expect(r.stderr).not.toMatch(/\* retry/)
  })

  it('in French too', async ({dir}) => {
    const r = await runInProcess(['pay', 'list', '--lang', 'fr'], {configDir: join(dir, 'config'), env: {SVC_BASE_URL: await refusedUrl(), SVC_API_KEY: KEY}})
    expect(r.exitCode).toBe(7)
    expect(r.stderr).toMatch(/rien n'a été envoyé/)
  })
})
