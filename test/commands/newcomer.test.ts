/**
 * What a newcomer trips on (issue 19), one describe per numbered point of the issue, each run as a
 * user would: the built CLI against the local sandbox over HTTP, or on a pseudo-terminal.
 */
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import type {ChildProcess} from 'node:child_process'

import {runCli} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {it, type CommandFixtures, type TempConfigDir} from '../helpers/fixtures.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import {markRunningSandbox, startTestSandbox} from '../helpers/sandbox.js'

const configFile = (temp: TempConfigDir) => join(temp.dir, 'config.json')

describe('1. login and the service address', () => {
  it('not interactive, with no address configured: says so before any request (exit 2), nothing saved', async ({sandbox, temp}) => {
    const r = await runInProcess(['login', '--api-key-stdin'], {configDir: temp.dir, input: sandbox.sb.keys.sandbox})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/--base-url/)
    expect(r.stderr).toMatch(/SVC_BASE_URL/)
    expect(r.stderr).not.toMatch(/could not connect|ENOTFOUND|api\.svc\.example\/v1/)
    expect(existsSync(configFile(temp))).toBe(false)
  })

  it('any command with a key but no address says which flag or variable to set (exit 2)', async ({sandbox, temp}) => {
    const r = await runInProcess(['pay', 'list'], {configDir: temp.dir, env: {SVC_API_KEY: sandbox.sb.keys.sandbox}})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/--base-url/)
    expect(r.stderr).not.toMatch(/ENOTFOUND/)
  })

  it('a base URL ending in /v1 is read as the service root (no /v1/v1/…)', async ({sandbox, temp}) => {
    const r = await runInProcess(['pay', 'list', '--json', '--base-url', `${sandbox.sb.url}/v1/`], {
      configDir: temp.dir,
      env: {SVC_API_KEY: sandbox.sb.keys.sandbox},
    })
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true)
  })

  it('interactive: asks for the address (no usable default), then the key; saves both', async ({sandbox, temp}) => {
    const key = sandbox.sb.keys.sandbox
    const session = runInPty(['login'], {configDir: temp.dir})
    await session.waitFor('Profile name')
    session.type('\r')
    await session.waitFor('Service address')
    session.type('not a url\r')
    await session.waitFor(/http:\/\/ or https:\/\//)
    session.type('\u0015')
    session.type(`${sandbox.sb.url}\r`)
    await session.waitFor('API key')
    session.type(`${key}\r`)
    const {exitCode} = await session.exit
    expect(exitCode, stripAnsi(session.output())).toBe(0)
    const saved = JSON.parse(readFileSync(configFile(temp), 'utf8'))
    expect(saved.profiles.default).toMatchObject({api_key: key, base_url: sandbox.sb.url})
  })

  it('interactive, re-login to a profile that has an address: offers it as the default', async ({sandbox, temp}) => {
    const key = sandbox.sb.keys.sandbox
    const first = await runInProcess(['login', '--api-key-stdin', '--profile', 'shop', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: key})
    expect(first.exitCode).toBe(0)
    const session = runInPty(['login', '--profile', 'shop'], {configDir: temp.dir})
    await session.waitFor('Service address')
    expect(stripAnsi(session.output())).toContain(sandbox.sb.url)
    session.type('\r')
    await session.waitFor('API key')
    session.type(`${key}\r`)
    const {exitCode} = await session.exit
    expect(exitCode, stripAnsi(session.output())).toBe(0)
  })
})

describe('7. confirmations in French', () => {
  const livePayments = async ({sandbox}: CommandFixtures) => (await sandbox.get('/v1/payments?limit=1', sandbox.sb.keys.live)).total as number
  /** A LIVE `pay create` in French on a terminal, waiting at its confirmation. */
  const confirmOnTerminal = async ({sandbox, temp}: CommandFixtures) => {
    const session = runInPty(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--lang', 'fr'], {configDir: temp.dir, env: sandbox.env('live')})
    await session.waitFor('(o/N)')
    return session
  }

  it('shows (o/N) and reads « o » as oui: the LIVE payment is made', async ({sandbox, temp}) => {
    const before = await livePayments({sandbox, temp})
    const session = await confirmOnTerminal({sandbox, temp})
    session.type('o\r')
    const {exitCode} = await session.exit
    expect(exitCode, stripAnsi(session.output())).toBe(0)
    expect(await livePayments({sandbox, temp})).toBe(before + 1)
  })

  it('« non » declines and anything else asks again', async ({sandbox, temp}) => {
    const before = await livePayments({sandbox, temp})
    const session = await confirmOnTerminal({sandbox, temp})
    session.type('peut-être\r')
    await session.waitFor('Répondez o (oui) ou n (non).')
    session.type('\u0015non\r')
    const {exitCode} = await session.exit
    expect(exitCode).toBe(2)
    expect(await livePayments({sandbox, temp})).toBe(before)
  })
})

describe('9. enumerated values in any case', () => {
  it('pay list --status failed and invoice list --status=past_due are accepted; an unknown value still lists the accepted ones (exit 2)', async ({sandbox, temp}) => {
    const env = sandbox.env()
    const failed = await runInProcess(['pay', 'list', '--status', 'failed', '--json'], {configDir: temp.dir, env})
    expect(failed.stderr).toBe('')
    expect(failed.exitCode).toBe(0)
    const pastDue = await runInProcess(['invoice', 'list', '--status=past_due', '--json'], {configDir: temp.dir, env})
    expect(pastDue.exitCode).toBe(0)
    const wrong = await runInProcess(['pay', 'list', '--status', 'nope'], {configDir: temp.dir, env})
    expect(wrong.exitCode).toBe(2)
    expect(wrong.stderr).toMatch(/PENDING, SUCCESS, FAILED, UNSPECIFIED/)
  })

  it('reads in-process: flags, short flags, = forms and arguments', async () => {
    const {canonicalOptionValues} = await import('../../src/lib/option-case.js')
    const flags = {status: {type: 'option', options: ['PAST_DUE', 'PAID']}, operator: {type: 'option', char: 'o', options: ['MTN', 'ORANGE']}, profile: {type: 'option'}, json: {type: 'boolean'}}
    const args = {event: {options: ['payment.success', 'payment.failed']}}
    expect(canonicalOptionValues(['--status', 'past_due', '-o', 'mtn', '--profile', 'PAID', '--json', 'PAYMENT.SUCCESS'], flags, args)).toEqual([
      '--status',
      'PAST_DUE',
      '-o',
      'MTN',
      '--profile',
      'PAID',
      '--json',
      'payment.success',
    ])
    expect(canonicalOptionValues(['--status=paid', '--', '--status', 'paid'], flags, args)).toEqual(['--status=PAID', '--', '--status', 'paid'])
  })
})

describe('8. a malformed key says what is wrong with it', () => {
  it('too short, stray characters, or another prefix: three different sentences, exit 2', async ({sandbox, temp}) => {
    const run = (key: string) => runInProcess(['login', '--api-key-stdin', '--base-url', sandbox.sb.url], {configDir: temp.dir, input: key})
    const short = await run('svc_sk_test_bogus')
    expect(short.exitCode).toBe(2)
    expect(short.stderr).toMatch(/too short/)
    expect(short.stderr).not.toMatch(/keys start with/)
    const spaced = await run('svc_sk_test_abcd efgh ijkl')
    expect(spaced.exitCode).toBe(2)
    expect(spaced.stderr).toMatch(/characters a key never has/)
    const other = await run('sk_test_abcdefghijkl')
    expect(other.exitCode).toBe(2)
    expect(other.stderr).toMatch(/keys start with svc_sk_test_/)
    const env = await runInProcess(['pay', 'list'], {configDir: temp.dir, env: {SVC_API_KEY: 'svc_sk_live_x', SVC_BASE_URL: sandbox.sb.url}})
    expect(env.exitCode).toBe(2)
    expect(env.stderr).toMatch(/too short/)
  })
})

describe('11. sandbox serve on a busy port', () => {
  it('names the port and how to pick another, exit 2', async ({sandbox, temp}) => {
    const port = new URL(sandbox.sb.url).port
    const r = await runInProcess(['sandbox', 'serve', '--port', port], {configDir: temp.dir})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`)
    expect(r.stderr).toMatch(/--port 0/)
    expect(r.stderr).not.toMatch(/Unexpected error|EADDRINUSE/)
  })
})

describe('12. a due date in the past', () => {
  it('is allowed, with a warning on stderr', async ({sandbox, temp}) => {
    const r = await runInProcess(
      ['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2020-01-31', '--item', 'Bread:500:3', '--json'],
      {configDir: temp.dir, env: sandbox.env()},
    )
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toMatch(/Warning: The due date 2020-01-31 is already past/)
    expect(JSON.parse(r.stdout).due_date).toBe('2020-01-31')
    const fine = await runInProcess(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--json'], {
      configDir: temp.dir,
      env: sandbox.env(),
    })
    expect(fine.stderr).not.toMatch(/already past/)
  })
})

describe('3. reports and the walkthrough go by the service clock', () => {
  it('after the sandbox clock moves on 40 days: receivables age the invoices, collections find the payments, the walkthrough passes', async ({sandbox, temp}) => {
    const local = await startTestSandbox()
    try {
      const env = local.env()
      for (let i = 0; i < 3; i++) {
        const r = await runInProcess(['invoice', 'create', '--customer-name', `Shop ${i}`, '--due-date', new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10), '--item', 'Bread:500:3', '--publish', '--json'], {configDir: temp.dir, env})
        expect(r.exitCode, r.stderr).toBe(0)
      }
      await local.admin('POST', '/clock/advance', {ms: 40 * 86_400_000})
      for (let i = 0; i < 4; i++) {
        const r = await runInProcess(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--json'], {configDir: temp.dir, env})
        expect(r.exitCode, r.stderr).toBe(0)
      }
      const receivables = await runInProcess(['report', 'receivables', '--json'], {configDir: temp.dir, env})
      expect(receivables.exitCode, receivables.stderr).toBe(0)
      const report = JSON.parse(receivables.stdout)
      const serviceDay = new Date(Date.now() + 40 * 86_400_000)
      expect(Math.abs(new Date(report.as_of).getTime() - serviceDay.getTime())).toBeLessThan(2 * 86_400_000)
      expect(JSON.stringify(report.buckets ?? report)).toMatch(/"count":3/)
      const collections = await runInProcess(['report', 'collections', '--json'], {configDir: temp.dir, env})
      expect(collections.exitCode, collections.stderr).toBe(0)
      expect(JSON.parse(collections.stdout).totals.count).toBe(4)
      const walk = await runInProcess(['sandbox', 'walkthrough', '--lang', 'fr'], {configDir: temp.dir, env, timeoutMs: 60_000})
      expect(walk.stderr + walk.stdout).toMatch(/attendu À PAYER, obtenu À PAYER/)
      expect(walk.exitCode, walk.stdout + walk.stderr).toBe(0)
    } finally {
      await local.close()
    }
  })
})

describe('5. messages in the vocabulary the person used', () => {
  it('publish with no address names --to-email; an import row names its column; a 404 names the object', async ({sandbox, temp}) => {
    const env = sandbox.env()
    const created = await runInProcess(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--json'], {configDir: temp.dir, env})
    const id = JSON.parse(created.stdout).id as string
    const publish = await runInProcess(['invoice', 'publish', id, '--channel', 'EMAIL'], {configDir: temp.dir, env})
    expect(publish.exitCode).toBe(2)
    expect(publish.stderr).toMatch(/--to-email/)

    const file = join(temp.dir, 'rows.csv')
    writeFileSync(file, 'customer_name,due_date,items\n,2099-01-31,Bread:500:3\n')
    const imported = await runInProcess(['invoice', 'import', file, '--lang', 'fr'], {configDir: temp.dir, env})
    expect(imported.exitCode).toBe(2)
    expect(imported.stderr).toMatch(/customer_name/)
    expect(imported.stderr).not.toMatch(/--customer-name/)

    const missing = await runInProcess(['invoice', 'get', 'inv_test_doesnotexist0000000000'], {configDir: temp.dir, env})
    expect(missing.exitCode).toBe(4)
    expect(missing.stderr).toMatch(/No invoice with id/)
    expect(missing.stderr).not.toMatch(/invoiceId/)
  })
})

describe('10. a --json list that stops at a page says so on stderr', () => {
  it('pay list --limit 1 --json: one payment on stdout, the next offset on stderr; --all: no hint', async ({sandbox, temp}) => {
    const env = sandbox.env()
    for (let i = 0; i < 2; i++) await runInProcess(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--json'], {configDir: temp.dir, env})
    const page = await runInProcess(['pay', 'list', '--limit', '1', '--json'], {configDir: temp.dir, env})
    expect(page.exitCode).toBe(0)
    expect(JSON.parse(page.stdout)).toHaveLength(1)
    expect(page.stderr).toMatch(/--offset 1 or --all/)
    const all = await runInProcess(['pay', 'list', '--all', '--json'], {configDir: temp.dir, env})
    expect(all.stderr).toBe('')
    for (let i = 0; i < 2; i++) {
      await runInProcess(['invoice', 'create', '--customer-name', `Page ${i}`, '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--json'], {configDir: temp.dir, env})
    }
    const invoices = await runInProcess(['invoice', 'list', '--page-size', '1', '--json'], {configDir: temp.dir, env})
    expect(invoices.stderr).toMatch(/--page 2 or --all/)
  })
})

describe('13. the PDF link field is read from the service description', () => {
  it('a service whose PDF operation answers {"url": …} (and says so in its OpenAPI): invoice pdf works', async ({sandbox, temp}) => {
    const {createServer} = await import('node:http')
    // The local sandbox, with its PDF answer and its description speaking of `url` instead of `pdf_url`.
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const upstream = await fetch(`${sandbox.sb.url}${req.url}`, {
        method: req.method,
        headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      })
      let body = Buffer.from(await upstream.arrayBuffer())
      if (req.url === '/v1/openapi.json' || /^\/v1\/invoices\/[^/]+\/pdf$/.test(req.url ?? '')) body = Buffer.from(body.toString('utf8').split('"pdf_url"').join('"url"'))
      res.writeHead(upstream.status, {'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream', 'content-length': body.length})
      res.end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const base = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`
      const env = {SVC_API_KEY: sandbox.sb.keys.sandbox, SVC_BASE_URL: base}
      const created = await runInProcess(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--publish', '--json'], {configDir: temp.dir, env})
      expect(created.exitCode, created.stderr).toBe(0)
      const id = JSON.parse(created.stdout).id as string
      const out = join(temp.dir, 'inv.pdf')
      const pdf = await runInProcess(['invoice', 'pdf', id, '-o', out], {configDir: temp.dir, env})
      expect(pdf.exitCode, pdf.stderr).toBe(0)
      expect(readFileSync(out).subarray(0, 5).toString('latin1')).toBe('%PDF-')
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('14. polish', () => {
  it('a cancelled invoice shows no amount still due', async ({sandbox, temp}) => {
    const env = sandbox.env()
    const created = await runInProcess(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--publish', '--json'], {configDir: temp.dir, env})
    const id = JSON.parse(created.stdout).id as string
    const before = await runInProcess(['invoice', 'get', id], {configDir: temp.dir, env})
    expect(before.stdout).toMatch(/Amount due/)
    expect((await runInProcess(['invoice', 'cancel', id], {configDir: temp.dir, env})).exitCode).toBe(0)
    const after = await runInProcess(['invoice', 'get', id], {configDir: temp.dir, env})
    expect(after.stdout).toMatch(/CANCELLED/)
    expect(after.stdout).not.toMatch(/Amount due/)
  })

  it('long durations read in days; the French table says "secret de signature du webhook"', async () => {
    const {formatDuration} = await import('../../src/lib/webhooks/format.js')
    expect(formatDuration(26511 * 3_600_000 + 32 * 60_000)).toBe('1104 days 15 h')
    expect(formatDuration(90 * 60_000)).toBe('1 h 30 min')
    const {fr} = await import('../../src/lib/i18n/fr/index.js')
    expect(fr['core.table.secret']).toBe('SECRET DE SIGNATURE DU WEBHOOK')
  })

  it('the import results file is batch.results.csv; an old-style batch.csv.results.csv is still the journal', async ({sandbox, temp}) => {
    const env = sandbox.env()
    mkdirSync(temp.dir, {recursive: true})
    const file = join(temp.dir, 'batch.csv')
    writeFileSync(file, 'customer_name,due_date,items,external_reference\r\n"Ada",2099-01-31,"Bread:500:2",P14-1\r\n')
    const r = await runInProcess(['invoice', 'import', file], {configDir: temp.dir, env})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(existsSync(join(temp.dir, 'batch.results.csv'))).toBe(true)
    expect(existsSync(`${file}.results.csv`)).toBe(false)
    expect(r.stderr).toContain(join(temp.dir, 'batch.results.csv'))
    // A file not ending in .csv: .results.csv appended.
    const lines = join(temp.dir, 'batch.jsonl')
    writeFileSync(lines, `${JSON.stringify({customer_name: 'Bea', due_date: '2099-01-31', items: [{name: 'Bread', price: 500, quantity: 2}]})}\n`)
    expect((await runInProcess(['invoice', 'import', lines], {configDir: temp.dir, env})).exitCode).toBe(0)
    expect(existsSync(join(temp.dir, 'batch.jsonl.results.csv'))).toBe(true)
    // An import from before the rename: its journal keeps being used.
    const old = join(temp.dir, 'old.csv')
    writeFileSync(old, 'customer_name,due_date,items,external_reference\r\n"Cy",2099-01-31,"Bread:500:2",P14-3\r\n')
    expect((await runInProcess(['invoice', 'import', old, '--results', `${old}.results.csv`], {configDir: temp.dir, env})).exitCode).toBe(0)
    const again = await runInProcess(['invoice', 'import', old], {configDir: temp.dir, env})
    expect(again.exitCode, again.stderr).toBe(0)
    // The old journal is read: its row is done, so it is skipped without a request.
    expect(again.stderr).toMatch(/1 already created by an earlier run \(1 of them skipped: done according to the results file\)/)
    expect(again.stderr).toContain(`${old}.results.csv`)
    expect(existsSync(join(temp.dir, 'old.results.csv'))).toBe(false)
  })

  it('a re-run import counts as published only what this run published', async ({sandbox, temp}) => {
    const env = sandbox.env()
    mkdirSync(temp.dir, {recursive: true})
    const file = join(temp.dir, 'pub.csv')
    let text = 'customer_name,due_date,items,external_reference\r\n'
    for (let i = 1; i <= 3; i++) text += `"Pub ${i}",2099-01-31,"Bread:500:2",P14-PUB-${i}\r\n`
    writeFileSync(file, text)
    const first = await runInProcess(['invoice', 'import', file, '--publish'], {configDir: temp.dir, env})
    expect(first.exitCode, first.stderr).toBe(0)
    expect(first.stderr).toMatch(/3 created, 0 already created by an earlier run, 3 published, /)
    // A plain re-run skips the rows its results file records as done: nothing counted as published.
    const again = await runInProcess(['invoice', 'import', file, '--publish'], {configDir: temp.dir, env})
    expect(again.exitCode, again.stderr).toBe(0)
    expect(again.stderr).toMatch(/0 created, 3 already created by an earlier run \(3 of them skipped: done according to the results file\), 0 published, 0 already published, /)
    // --recheck asks the service: all three exist and are published already, none by this run.
    const rechecked = await runInProcess(['invoice', 'import', file, '--publish', '--recheck'], {configDir: temp.dir, env})
    expect(rechecked.exitCode, rechecked.stderr).toBe(0)
    expect(rechecked.stderr).toMatch(/0 created, 3 already created by an earlier run, 0 published, 3 already published, /)
    const json = await runInProcess(['invoice', 'import', file, '--publish', '--recheck', '--json'], {configDir: temp.dir, env})
    expect(JSON.parse(json.stdout).summary).toMatchObject({published: 0, already_published: 3})
  })

  it('webhooks listen lines read as a table: time, type, id, status and latency in fixed columns', async () => {
    const {formatForwardReport, formatReceivedReport} = await import('../../src/lib/webhooks/format.js')
    const at = new Date(2025, 5, 1, 14, 3, 9)
    const lines = [
      formatForwardReport({at, eventId: 'evt_0123456789abcdef01234567', type: 'payment.success', url: 'http://localhost:3000/', attempt: 1, ok: true, status: 200, latencyMs: 1.234}),
      formatForwardReport({at, eventId: 'evt_1', type: 'payment.failed', url: 'http://localhost:3000/', attempt: 1, ok: true, status: 200, latencyMs: 1234.5}),
      formatForwardReport({at, eventId: 'evt_22', type: 'payment.failed', url: 'http://localhost:3000/', attempt: 2, ok: false, status: 503, latencyMs: 12, retryInMs: 2000}),
      formatReceivedReport({at, eventId: 'evt_333', webhookId: 'evt_333', type: 'payment.success', source: 'inbound', outcome: 'duplicate'})!,
    ]
    const statusColumn = lines.map((line) => line.indexOf('[')).slice(0, 3)
    expect(new Set(statusColumn).size, lines.join('\n')).toBe(1)
    // The id column ends where the status column starts, also on lines without a status.
    expect(lines[3]!.indexOf('evt_333') + 'evt_333'.length).toBeLessThan(statusColumn[0]!)
    expect(lines[3]!.slice(statusColumn[0]! - 2, statusColumn[0]!)).toBe('  ')
    expect(lines[3]![statusColumn[0]!]).not.toBe(' ')
    // Latencies right-aligned: " ms" ends at the same place.
    const msEnd = lines.slice(0, 3).map((line) => line.indexOf(' ms') + 3)
    expect(new Set(msEnd).size, lines.join('\n')).toBe(1)
  })

  it('webhooks trigger hints at `webhooks listen` only when no listener is registered with the local sandbox', async ({sandbox, temp}) => {
    const env = {...sandbox.env(), SVC_RATE_LIMIT: '0'}
    markRunningSandbox(temp.dir, sandbox.sb)
    const before = await runInProcess(['webhooks', 'trigger', 'payment.success'], {configDir: temp.dir, env})
    expect(before.exitCode, before.stderr).toBe(0)
    expect(before.stderr).toMatch(/Receive it locally with: svc webhooks listen/)

    // The listener is a second process, running while `trigger` runs, stopped with Ctrl-C.
    let child!: ChildProcess
    let err = ''
    let ready!: () => void
    const started = new Promise<void>((resolve) => (ready = resolve))
    const listening = runCli(['webhooks', 'listen', '--forward-to', 'http://127.0.0.1:9/'], {
      configDir: temp.dir,
      env,
      timeoutMs: 30_000,
      onSpawn(spawned) {
        child = spawned
        spawned.stderr!.on('data', (d: string) => {
          err += d
          if (/Press Ctrl-C to stop/.test(err)) ready()
        })
      },
    })
    try {
      // Waits for the line itself (or the listener's end, which fails the test with what it said).
      await Promise.race([started, listening.then((r) => Promise.reject(new Error(`listen ended (${r.exitCode}): ${r.stderr}`)))])
      expect(err).toMatch(/Press Ctrl-C to stop/)
      const during = await runInProcess(['webhooks', 'trigger', 'payment.success'], {configDir: temp.dir, env})
      expect(during.exitCode, during.stderr).toBe(0)
      expect(during.stderr).not.toMatch(/svc webhooks listen/)
    } finally {
      child.kill('SIGINT')
      await listening
    }
    const after = await runInProcess(['webhooks', 'trigger', 'payment.success'], {configDir: temp.dir, env})
    expect(after.stderr).toMatch(/Receive it locally with: svc webhooks listen/)
  }, 60_000)

  it('sandbox approve, keys create and clock advance render as detail views: catalogue labels, amounts in XAF, dates by locale', async ({sandbox, temp}) => {
    const env = {...sandbox.env(), SVC_RATE_LIMIT: '0'}
    markLocal({sandbox, temp})
    const created = await fetch(`${sandbox.sb.url}/v1/payments`, {
      method: 'POST',
      headers: {'x-api-key': sandbox.sb.keys.live, 'content-type': 'application/json'},
      body: JSON.stringify({amount: 12500, phone_number: '670000001', operator: 'MTN', payment_method: 'mobile_money'}),
    })
    expect(created.status).toBe(201)
    const paymentId = ((await created.json()) as {id: string}).id
    const approved = await runInProcess(['sandbox', 'approve', paymentId], {configDir: temp.dir, env})
    expect(approved.exitCode, approved.stderr).toBe(0)
    expect(approved.stdout).toMatch(/^AMOUNT +12\s500\sXAF$/mu)
    expect(approved.stdout).toMatch(/^STATUS +SUCCESS$/m)
    expect(approved.stdout).not.toMatch(/^amount /m)
    expect(approved.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/)

    const key = await runInProcess(['sandbox', 'keys', 'create', '--scopes', 'payments:read'], {configDir: temp.dir, env})
    expect(key.exitCode, key.stderr).toBe(0)
    expect(key.stdout).toMatch(/^ENVIRONMENT +SANDBOX$/m)
    expect(key.stdout).toMatch(/^SECRET +svc_sk_test_/m)
    expect(key.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/)
    const keyJson = await runInProcess(['sandbox', 'keys', 'create', '--json'], {configDir: temp.dir, env})
    expect(Object.keys(JSON.parse(keyJson.stdout))).toContain('created_at')

    const clock = await runInProcess(['sandbox', 'clock', 'advance', '1m', '--lang', 'fr'], {configDir: temp.dir, env})
    expect(clock.exitCode, clock.stderr).toBe(0)
    expect(clock.stdout).not.toMatch(/^now /m)
    expect(clock.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/)
    const clockJson = await runInProcess(['sandbox', 'clock', 'advance', '1m', '--json'], {configDir: temp.dir, env})
    expect(JSON.parse(clockJson.stdout)).toHaveProperty('now_ms')
  })
})

/** What `svc sandbox serve` leaves behind: the shared sandbox is "the local sandbox" of this config. */
function markLocal({sandbox, temp}: CommandFixtures): void {
  markRunningSandbox(temp.dir, sandbox.sb)
}

describe('2. statuses in French human output', () => {
  it('invoice list and pay status --lang fr translate the status; English and --json keep the service value', async ({sandbox, temp}) => {
    const env = sandbox.env()
    const created = await runInProcess(['invoice', 'create', '--customer-name', 'Awa FR', '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--publish', '--json'], {configDir: temp.dir, env})
    const id = JSON.parse(created.stdout).id as string
    const fr = await runInProcess(['invoice', 'get', id, '--lang', 'fr'], {configDir: temp.dir, env})
    expect(fr.stdout).toMatch(/À PAYER/)
    expect(fr.stdout).not.toMatch(/UNPAID/)
    const en = await runInProcess(['invoice', 'get', id], {configDir: temp.dir, env})
    expect(en.stdout).toMatch(/UNPAID/)
    const json = await runInProcess(['invoice', 'get', id, '--json', '--lang', 'fr'], {configDir: temp.dir, env})
    expect(JSON.parse(json.stdout).status).toBe('UNPAID')
    const pay = await runInProcess(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--lang', 'fr'], {configDir: temp.dir, env})
    expect(pay.stdout).toMatch(/EN ATTENTE/)
  })
})

describe('14. polish, after the trial on a clean clone', () => {
  it('a missing file says so in words, not ENOENT', async ({sandbox, temp}) => {
    const r = await runInProcess(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2099-01-31', '--item', 'Bread:500:3', '--cover', 'nofile.png'], {
      configDir: temp.dir,
      env: sandbox.env(),
    })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/No file nofile\.png/)
    expect(r.stderr).not.toMatch(/ENOENT/)
  })
})
