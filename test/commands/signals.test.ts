/**
 * Signals on a real terminal (issue 18): each long-running command run on a pseudo-terminal
 * (through `sh -c`, so that the terminal's mode can be read after it exits), stopped with Ctrl-C
 * (the ^C key, as a person does) or SIGTERM (as a service manager or `timeout` does). Ctrl-C
 * exits 130, SIGTERM 143 (README.md, "Exit codes"), both as cleanly: the spinner erased, the terminal's mode
 * restored (isig, icanon, echo), and what the command owes: watch prints the payment id and
 * `svc pay watch ID` to resume; listen prints what is pending and removes its endpoint from the
 * sandbox; import writes its results file; serve stops serving.
 */
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {spawn, type IPty} from '@lydell/node-pty'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'

import {BIN, baseEnv} from '../helpers/cli.js'
import {stripAnsi} from '../helpers/pty.js'
import {markRunningSandbox, startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sandbox: TestSandbox
let dir: string
beforeAll(async () => {
  sandbox = await startTestSandbox({settleAfterMs: 100})
  dir = mkdtempSync(join(tmpdir(), 'svc-signals-'))
})
afterAll(async () => {
  await sandbox.close()
  rmSync(dir, {recursive: true, force: true})
})

interface Session {
  pty: IPty
  screen(): string
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>
  /** Resolves with the CLI's exit status and the terminal's mode after it (from `stty -a`). */
  done: Promise<{exit: number; stty: string; screen: string}>
}

/** `sh -c 'svc ARGS; echo EXIT=$?; stty -a'` on a pseudo-terminal; the CLI's pid in `pid.txt`. */
function onTerminal(args: string[], env: Record<string, string>, name: string): Session {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  const pidFile = join(dir, `${name}.pid`)
  // The inner sh execs the CLI, so the pid it writes is the CLI's own: SIGTERM goes to it alone.
  // The outer shell outlives a ^C (a trap, which its children do not inherit) to report, and
  // stays after its last line until the test has read it (a line the test types once it sees
  // STTY-DONE): node-pty can drop what a process wrote just before exiting.
  const script = `trap : INT TERM; sh -c "echo \\$\\$ > '${pidFile}'; exec ${quoted}"; echo "EXIT=$?"; stty -a; echo STTY-DONE; read seen`
  const fullEnv = {...baseEnv(join(dir, `config-${name}`)), TERM: 'xterm-256color', ...env}
  delete (fullEnv as Record<string, string | undefined>).CI
  const pty = spawn('/bin/sh', ['-c', script], {cols: 120, rows: 40, env: fullEnv, name: 'xterm-256color'})
  let output = ''
  pty.onData((d) => (output += d))
  const exited = new Promise<void>((resolve) => pty.onExit(() => resolve()))
  return {
    pty,
    screen: () => stripAnsi(output),
    async waitFor(pattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      while (!pattern.test(stripAnsi(output))) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; screen:\n${stripAnsi(output)}`)
        await new Promise((r) => setTimeout(r, 50))
      }
    },
    // The script's last line (STTY-DONE) read, the shell is let go (the line it waits for); a
    // shell that ended without it (node-pty may report the exit before the last output has been
    // read) is given at most 10 s more for it (a busy machine).
    done: (async () => {
      let ended: number | undefined
      void exited.then(() => (ended = Date.now()))
      while (!output.includes('STTY-DONE') && (ended === undefined || Date.now() < ended + 10_000)) await new Promise((r) => setTimeout(r, 25))
      if (ended === undefined) pty.write('\n')
      await exited
      const text = stripAnsi(output)
      const exit = Number(/EXIT=(\d+)/.exec(text)?.[1] ?? -1)
      return {exit, stty: text.slice(text.indexOf('EXIT=')), screen: text}
    })(),
  }
}

async function terminate(name: string): Promise<void> {
  const pidFile = join(dir, `${name}.pid`)
  // The whole pid, never a half-written file (0 would signal this test's own process group).
  const pid = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0)
  while (!(pid() > 1 && readFileSync(pidFile, 'utf8').endsWith('\n'))) await new Promise((r) => setTimeout(r, 20))
  process.kill(pid(), 'SIGTERM')
}

/** The terminal is as a shell expects it: signals, line editing and echo on. */
function expectSaneTerminal(stty: string): void {
  expect(stty).toMatch(/(^|\s)isig(\s|$)/m)
  expect(stty).toMatch(/(^|\s)icanon(\s|$)/m)
  expect(stty).toMatch(/(^|\s)echo(\s|$)/m)
}

async function pendingLivePayment(): Promise<string> {
  const response = await fetch(`${sandbox.sb.url}/v1/payments`, {
    method: 'POST',
    headers: {'x-api-key': sandbox.sb.keys.live, 'content-type': 'application/json'},
    body: JSON.stringify({amount: 1500, phone_number: '237670000001', operator: 'MTN', payment_method: 'mobile_money'}),
  })
  return ((await response.json()) as {id: string}).id
}

const STOPS: Array<['Ctrl-C' | 'SIGTERM', number]> = [
  ['Ctrl-C', 130],
  ['SIGTERM', 143],
]

describe.concurrent('a prompt: stopped on a terminal', () => {
  it('Ctrl-C at pay create\'s amount prompt → exit 130, nothing sent, the terminal restored', async () => {
    const before = ((await sandbox.get('/v1/payments?limit=100')) as {data: unknown[]}).data.length
    const session = onTerminal(['pay', 'create'], sandbox.env(), 'prompt')
    await session.waitFor(/Amount in XAF/)
    session.pty.write('\x03')
    const {exit, stty, screen} = await session.done
    expect(exit, screen).toBe(130)
    expectSaneTerminal(stty)
    expect(((await sandbox.get('/v1/payments?limit=100')) as {data: unknown[]}).data.length).toBe(before)
  })
})

describe.concurrent('pay watch (a spinner): stopped on a terminal', () => {
  for (const [how, code] of STOPS) {
    it(`${how} → exit ${code}, the payment id and the command to resume, the terminal restored`, async () => {
      const id = await pendingLivePayment()
      const name = `watch-${code}`
      const session = onTerminal(['pay', 'watch', id, '--interval', '250ms'], sandbox.env('live'), name)
      await session.waitFor(new RegExp(`Payment ${id}: PENDING`))
      if (how === 'Ctrl-C') session.pty.write('\x03')
      else await terminate(name)
      const {exit, stty, screen} = await session.done
      expect(exit, screen).toBe(code)
      expect(screen).toContain(`svc pay watch ${id}`)
      expectSaneTerminal(stty)
    })
  }

  it('pay create --watch: Ctrl-C during the spinner stops it, with the new payment id to resume', async () => {
    const session = onTerminal(['pay', 'create', '--amount', '1500', '--phone', '670000001', '--watch', '--interval', '250ms', '--yes'], sandbox.env('live'), 'create-watch')
    await session.waitFor(/Payment svcpay_\w+: PENDING/)
    session.pty.write('\x03')
    const {exit, stty, screen} = await session.done
    expect(exit, screen).toBe(130)
    expect(screen).toMatch(/svc pay watch svcpay_\w+/)
    expectSaneTerminal(stty)
  })
})

// One after the other: each counts the sandbox's endpoints.
describe('webhooks listen: stopped on a terminal', () => {
  let app: Server
  let appUrl: string
  beforeAll(async () => {
    app = createServer((_req, res) => res.writeHead(500).end())
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r))
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`
  })
  afterAll(() => new Promise<void>((r) => app.close(() => r())))

  for (const [how, code] of STOPS) {
    it(`${how} → exit ${code}, the pending summary, its endpoint removed from the sandbox`, async () => {
      const name = `listen-${code}`
      // What `svc sandbox serve` leaves in the config dir: listen registers itself as an endpoint.
      const configDir = join(dir, `config-${name}`)
      mkdirSync(configDir, {recursive: true, mode: 0o700})
      markRunningSandbox(configDir, sandbox.sb)
      const endpoints = async () => ((await sandbox.admin('GET', '/webhook-endpoints?environment=SANDBOX')) as {data: unknown[]}).data.length
      const before = await endpoints()
      const session = onTerminal(['webhooks', 'listen', '--forward-to', appUrl], sandbox.env(), name)
      await session.waitFor(/Press Ctrl-C to stop/)
      expect(session.screen()).toMatch(/registered|endpoint/i)
      expect(await endpoints()).toBe(before + 1)
      if (how === 'Ctrl-C') session.pty.write('\x03')
      else await terminate(name)
      const {exit, stty, screen} = await session.done
      expect(exit, screen).toBe(code)
      expect(screen).toMatch(/pending|Nothing pending|No event/i)
      expectSaneTerminal(stty)
      expect(await endpoints(), 'its endpoint removed').toBe(before)
    })
  }
})

describe.concurrent('invoice import and sandbox serve: stopped on a terminal', () => {
  for (const [how, code] of STOPS) {
    it(`invoice import: ${how} → exit ${code}, the results file written`, async () => {
      const name = `import-${code}`
      const file = join(dir, `${name}.csv`)
      const rows = Array.from({length: 200}, (_, i) => `Row ${name} ${i},2099-12-31,Bread:500:3`).join('\r\n')
      writeFileSync(file, `customer_name,due_date,items\r\n${rows}\r\n`)
      // Paced to 120 a minute: the import is still running when it is stopped.
      const session = onTerminal(['invoice', 'import', file, '--rate', '120', '--concurrency', '1'], sandbox.env(), name)
      await session.waitFor(/\[#*-+\]|Row|rows/)
      // Stopped once it has created a row (its results file has something to say), not after a
      // fixed time: the sandbox holds an invoice of this import.
      const created = async () => ((await sandbox.get('/v1/invoices?page_size=100')) as {data: Array<{customer_name: string}>}).data
      await vi.waitFor(async () => expect((await created()).some((invoice) => invoice.customer_name.startsWith(`Row ${name} `))).toBe(true), {timeout: 30_000, interval: 100})
      if (how === 'Ctrl-C') session.pty.write('\x03')
      else await terminate(name)
      const {exit, stty, screen} = await session.done
      expect(exit, screen).toBe(code)
      expect(screen).toMatch(/Interrupted after \d+ of 200 rows/)
      expect(readFileSync(file.replace(/\.csv$/, '.results.csv'), 'utf8')).toMatch(/created/)
      expectSaneTerminal(stty)
    })

    it(`sandbox serve: ${how} → exit ${code}, stops serving`, async () => {
      const name = `serve-${code}`
      const session = onTerminal(['sandbox', 'serve', '--port', '0'], {}, name)
      await session.waitFor(/http:\/\/127\.0\.0\.1:(\d+)/)
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(session.screen())![1]!
      expect((await fetch(`${url}/v1/openapi.json`)).status).toBe(200)
      if (how === 'Ctrl-C') session.pty.write('\x03')
      else await terminate(name)
      const {exit, stty, screen} = await session.done
      expect(exit, screen).toBe(code)
      await expect(fetch(`${url}/v1/openapi.json`)).rejects.toThrow()
      expectSaneTerminal(stty)
    })
  }
})
