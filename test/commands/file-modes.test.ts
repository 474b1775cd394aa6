/**
 * Files the CLI writes with customers' data (names, emails, phones) are 0600 (issue 18): the
 * import results file (CSV, JSON lines, JSON), a PDF, and the webhooks event log.
 */
import {mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sandbox: TestSandbox
let dir: string
beforeAll(async () => {
  sandbox = await startTestSandbox()
  dir = mkdtempSync(join(tmpdir(), 'svc-modes-'))
})
afterAll(async () => {
  await sandbox.close()
  rmSync(dir, {recursive: true, force: true})
})

const mode = (path: string) => statSync(path).mode & 0o777
const cli = (args: string[]) => runCli(args, {configDir: join(dir, 'config'), env: {...sandbox.env(), SVC_RATE_LIMIT: '0'}})

describe('files with customer data: 0600', () => {
  for (const format of ['csv', 'jsonl', 'json']) {
    it(`invoice import results file (${format}), also when it already existed 0644`, async () => {
      const source = join(dir, `rows-${format}.csv`)
      writeFileSync(source, `customer_name,customer_email,due_date,items\r\nAwa ${format},awa@example.com,2099-12-31,Bread:500:3\r\n`)
      const results = join(dir, `results.${format}`)
      writeFileSync(results, 'old', {mode: 0o644})
      const r = await cli(['invoice', 'import', source, '--results', results])
      expect(r.exitCode, r.stderr).toBe(0)
      expect(mode(results)).toBe(0o600)
    })
  }

  it('invoice pdf', async () => {
    const created = await cli(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-12-31', '--item', 'Bread:500:3', '--publish', '--json'])
    expect(created.exitCode, created.stderr).toBe(0)
    const id = JSON.parse(created.stdout).id
    const target = join(dir, 'out.pdf')
    const r = await cli(['invoice', 'pdf', id, '-o', target])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(mode(target)).toBe(0o600)
  })
})
