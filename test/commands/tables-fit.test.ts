/**
 * Tables that fit (docs/conventions.md, "Tables"), as a person sees them: every table command run
 * in a terminal of 80 and of 120 columns (stdout a TTY of that width, stderr set aside), against a
 * seeded local sandbox. No line is wider than the terminal, no rule between rows, ids and amounts
 * are whole; piped, nothing is cut unless COLUMNS is set; --wide shows every value. What a terminal
 * shows is the command's, not the process's: the runs are in-process with terminal streams
 * (`runInProcess(args, {terminal})`), as is the set-up; a real pseudo-terminal around the built CLI
 * checks that the width is read from the terminal itself (`--wide` and COLUMNS below).
 */
import {spawn} from '@lydell/node-pty'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {displayWidth} from '../../src/lib/io/table.js'
import {EventLog} from '../../src/lib/webhooks/event-log.js'
import {BIN, baseEnv} from '../helpers/cli.js'
import {skippingClock, type TestClock} from '../helpers/clock.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {stripAnsi} from '../helpers/pty.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

let h: TestSandbox
let temp: ReturnType<typeof tempConfigDir>
const LONG_NAME = 'Boulangerie Awa et Fils, Marché Central de Douala, Akwa Nord'
const ids: {payment: string; invoice: string} = {payment: '', invoice: ''}

const env = () => ({...h.env(), SVC_RATE_LIMIT: '0', SVC_SANDBOX_URL: h.sb.url, SVC_SANDBOX_ADMIN_TOKEN: h.sb.adminToken, SVC_PROFILE: 'dev'})

/** What the shell writes after the CLI has exited, with its exit code: the end of the output. */
const END = /\n?\u0000svc-exit:(\d+)\u0000/

/**
 * stdout of the CLI in a pseudo-terminal `cols` wide (stderr to /dev/null: spinners and notes are
 * not tables). The pty may report the exit before the last of the output: the shell that runs the
 * CLI writes a line after it, with its exit code, and the output ends there (the terminal keeps
 * their order): no wait for quiet, unless that line never comes.
 */
function inTerminal(args: string[], cols: number, extra: Record<string, string> = {}): Promise<{screen: string; exitCode: number}> {
  const environment: Record<string, string> = {...baseEnv(temp.dir), TERM: 'xterm-256color', ...env(), ...extra}
  return new Promise((resolve) => {
    const script = '"$0" "$@" 2>/dev/null; code=$?; printf \'\\n\\000svc-exit:%d\\000\' "$code"; exit "$code"'
    const pty = spawn('/bin/sh', ['-c', script, process.execPath, BIN, ...args], {cols, rows: 40, env: environment, name: 'xterm-256color'})
    let output = ''
    let last = Date.now()
    const done = (screen: string, exitCode: number) => resolve({screen: stripAnsi(screen).replaceAll('\r', ''), exitCode})
    pty.onData((data) => {
      output += data
      last = Date.now()
      const end = END.exec(output)
      if (end) done(output.slice(0, end.index), Number(end[1]))
    })
    // Should the end line be lost with the terminal (the shell gone before its last write was
    // read), the output so far once it has been quiet a second after the exit.
    pty.onExit(({exitCode}) => {
      const settle = setInterval(() => {
        if (END.test(output)) return clearInterval(settle)
        if (Date.now() - last < 1000) return
        clearInterval(settle)
        done(output, exitCode)
      }, 100)
    })
  })
}

/** stdout of the command run in-process on a terminal `cols` wide (stderr set aside, as above), on `clock` when given. */
async function onScreen(args: string[], cols: number, extra: Record<string, string> = {}, clock?: TestClock): Promise<{screen: string; exitCode: number}> {
  const r = await runInProcess(args, {configDir: temp.dir, env: {TERM: 'xterm-256color', ...env(), ...extra}, terminal: {columns: cols}, clock})
  return {screen: stripAnsi(r.stdout).replaceAll('\r', ''), exitCode: r.exitCode ?? -1}
}

/**
 * The widest line of the tables on a screen: the lines with columns (two spaces or more between
 * words). Prose (a report's headline, a footnote) is the terminal's to wrap, as for any text.
 */
const widest = (screen: string) => Math.max(0, ...screen.split('\n').filter((line) => /\S {2,}\S/.test(line)).map(displayWidth))

beforeAll(async () => {
  temp = tempConfigDir()
  mkdirSync(temp.dir, {recursive: true, mode: 0o700})
  h = await startTestSandbox({settleAfterMs: 0})
  // A profile, so that `profiles list` and the event log's scope have something to show.
  writeFileSync(join(temp.dir, 'config.json'), JSON.stringify({current: 'dev', profiles: {dev: {api_key: h.sb.keys.sandbox, base_url: h.sb.url}}}), {mode: 0o600})
  const cli = (args: string[]) => runInProcess(args, {configDir: temp.dir, env: env()})
  for (const phone of ['670000001', '690000099', '650000001']) {
    const paid = await cli(['pay', 'create', '--amount', '1250000', '--phone', phone, '--json'])
    expect(paid.exitCode, paid.stderr).toBe(0)
    ids.payment = JSON.parse(paid.stdout).id
  }
  const made = await cli(['invoice', 'create', '--customer-name', LONG_NAME, '--due-date', '2026-01-15', '--item', 'Pain de campagne:500:3', '--email', 'awa@example.com', '--publish', '--channel', 'EMAIL', '--json'])
  expect(made.exitCode, made.stderr).toBe(0)
  ids.invoice = JSON.parse(made.stdout).id
  // A scripted number and a webhook endpoint with a long address, for the sandbox's own lists.
  await h.admin('PUT', '/numbers/237670112233', {operator: 'MTN', outcome: 'FAILED', failure_code: 'INSUFFICIENT_FUNDS'})
  await h.admin('POST', '/webhook-endpoints', {url: 'https://hooks.boulangerie-awa.example/api/v2/payments/webhooks/svc?tenant=douala-akwa-nord', environment: 'SANDBOX'})
  // The local event log of profile dev, as `webhooks listen` writes it.
  const log = await EventLog.open({dir: join(temp.dir, 'webhooks', 'dev')})
  const id = 'evt_0VbzlxrcegeGs47f8z2QogYL'
  log.appendEvent({id, type: 'payment.success', received_at: new Date().toISOString(), source: 'inbound', payload: {}})
  log.appendAttempt({event_id: id, at: new Date().toISOString(), url: 'http://localhost:3000/webhooks/a/very/long/path/for/the/app', attempt: 1, ok: false, status: 500, error: 'Internal Server Error: the handler threw while reading the body of the request', latency_ms: 12})
  await log.close()
}, 60_000)

afterAll(async () => {
  await h?.close()
  temp?.cleanup()
})

/** Each table command, with what must show whole at any width. */
const COMMANDS: Array<{args: string[]; whole: () => string[]}> = [
  {args: ['pay', 'list'], whole: () => [ids.payment, '1 250 000 XAF']},
  // Names before ids: the invoice id may be shortened to a prefix the invoice commands take back.
  {args: ['invoice', 'list'], whole: () => [ids.invoice.slice(0, 13), '1 500 XAF']},
  {args: ['report', 'receivables'], whole: () => ['1 500 XAF']},
  {args: ['report', 'collections', '--by', 'operator'], whole: () => ['ORANGE', ' XAF']},
  {args: ['report', 'collections'], whole: () => [' XAF']},
  {args: ['sandbox', 'numbers'], whole: () => ['237670000001']},
  {args: ['openapi', '--operations'], whole: () => ['/v1/invoices/{invoiceId}/publish']},
  {args: ['profiles', 'list'], whole: () => ['dev']},
  {args: ['sandbox', 'keys', 'list'], whole: () => ['svc_sk_test_…']},
  {args: ['sandbox', 'balance'], whole: () => ['SANDBOX', ' XAF']},
  {args: ['sandbox', 'outbox'], whole: () => [ids.invoice]},
  {args: ['sandbox', 'inventory', 'list'], whole: () => []},
  {args: ['sandbox', 'numbers', 'list'], whole: () => ['237670112233', '237650000099']},
  {args: ['sandbox', 'webhooks', 'list'], whole: () => ['whsec_']},
  {args: ['sandbox', 'clock', 'show'], whole: () => []},
  {args: ['webhooks', 'events'], whole: () => ['evt_0VbzlxrcegeGs47f8z2QogYL']},
]

describe.each([80, 120])('in a terminal %i columns wide', (cols) => {
  for (const {args, whole} of COMMANDS) {
    it(`svc ${args.join(' ')} fits`, async () => {
      const {screen, exitCode} = await onScreen(args, cols)
      expect(exitCode, screen).toBe(0)
      expect(widest(screen), screen).toBeLessThanOrEqual(cols)
      expect(screen).not.toMatch(/[┌├└│─]/)
      for (const text of whole()) expect(screen, screen).toContain(text)
    }, 30_000)
  }

  it('svc sandbox walkthrough fits, its ids whole', async () => {
    // Its own sandbox, on a clock that jumps through the run's waits (the settlements): no real wait.
    const {screen, exitCode} = await onScreen(['sandbox', 'walkthrough'], cols, {SVC_PROFILE: '', SVC_API_KEY: '', SVC_BASE_URL: ''}, skippingClock())
    expect(exitCode, screen).toBe(0)
    expect(widest(screen), screen).toBeLessThanOrEqual(cols)
    expect(screen).toMatch(/svcpay_test_\w{24}/)
    expect(screen).toMatch(/inv_test_\w{24}/)
  }, 60_000)
})

describe('what is never cut', () => {
  it('at 80 columns the invoice id is shortened to a prefix, then the customer cut with … (never below 24 columns), the total whole; --wide shows it all', async () => {
    const fitted = await inTerminal(['invoice', 'list'], 80)
    expect(fitted.screen).toContain(`${ids.invoice.slice(0, 13)}`)
    expect(fitted.screen).toContain(LONG_NAME.slice(0, 23))
    expect(fitted.screen).toMatch(/Boulanger[^\n]*…/)
    expect(fitted.screen).not.toContain(LONG_NAME)
    const wide = await inTerminal(['invoice', 'list', '--wide'], 80)
    expect(wide.screen).toContain(LONG_NAME)
  }, 30_000)

  it('piped, nothing is cut; with COLUMNS set, the table fits it', async () => {
    const piped = await runInProcess(['invoice', 'list'], {configDir: temp.dir, env: env()})
    expect(piped.stdout).toContain(LONG_NAME)
    const narrow = await runInProcess(['invoice', 'list'], {configDir: temp.dir, env: {...env(), COLUMNS: '60'}})
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(60)
    expect(narrow.stdout).toContain(ids.invoice.slice(0, 13))
    expect(narrow.stdout).not.toContain(LONG_NAME)
  }, 30_000)

  it('COLUMNS wins over the terminal width', async () => {
    const {screen} = await inTerminal(['pay', 'list'], 120, {COLUMNS: '70'})
    expect(widest(screen)).toBeLessThanOrEqual(70)
    expect(screen).toContain(ids.payment)
  }, 30_000)
})

describe.each([80, 120])('svc fixtures run, in a terminal %i columns wide', (cols) => {
  it('fits, its ids whole', async () => {
    // The file's steps make the same invoices each run (idempotency keys from the file): from empty data.
    await h.admin('POST', '/reset', {all: false})
    const {screen, exitCode} = await onScreen(['fixtures', 'run', 'examples/fixtures/shop-week.json'], cols)
    expect(exitCode, screen).toBe(0)
    expect(widest(screen), screen).toBeLessThanOrEqual(cols)
    expect(screen).toMatch(/inv_test_\w{24}/)
    expect(screen).toMatch(/svcpay_test_\w{24}/)
  }, 30_000)
})
