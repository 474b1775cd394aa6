/**
 * The fault matrix: every fault of FAULTS against every command family of FAMILIES, through the
 * fault proxy (test/helpers/fault-proxy.ts) in front of an in-process sandbox: one per family, shared by its cases, or
 * a fresh one per case when the case's clock is the sandbox's too (see `shared`). Counts stay exact: a
 * case counts only what bears its own name (`Run.tag`) or its own fixture. Each case
 * asserts the exit code of README.md ("Exit codes"), a message fit for a person, and the sandbox's state after
 * (nothing created twice; a write that was lost is either found or reported as unknown).
 *
 * Bounded run time: SVC_MAX_RETRIES=1, watch --timeout 2s, and SVC_TIMEOUT of 1 s (2 s for a
 * payment's creation, see below) in the cases whose fault is a slow answer (the deadline is what
 * they test). The other cases keep a deadline of 10 s: a PDF rendered or an image checked on a
 * busy machine may take more than a second, and that is not the fault under test.
 *
 * Time is a test clock (test/helpers/clock.ts), not waited out: a run's waits between attempts
 * (a backoff, a Retry-After) are jumped through (a skipping clock); a slow answer is held by the
 * proxy until the client gives up, and the proxy, once it holds it, moves the client's clock to
 * its deadline (SVC_TIMEOUT). The watch's clock is the sandbox's too (see `shared`).
 *
 * A payment's creation is never retried and has no wait to jump: its clock is pinned, shared with
 * the sandbox, and moved only by the test. After a lost answer `pay create` takes a payment for
 * its own only when the service made it after the latest moment the request can have left, by
 * the service's clock, which its `Date` header gives to the second (src/lib/payments/flows.ts);
 * so here the request reaches the service ARRIVAL_LAG_MS after it left (the proxy moves the clock
 * when it comes), and a payment the request made is told from one made before it.
 * test/hardening/pay-create-ambiguous.test.ts has the payments made within that second.
 */
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {acquireDocumentWorker} from '../../src/sandbox/invoices/document-worker.js'
import type {CliResult} from '../helpers/cli.js'
import {skippingClock, testClock} from '../helpers/clock.js'
import {runInProcess} from '../helpers/in-process.js'
import {refusedUrl, startFaultProxy, type Fault, type FaultRule} from '../helpers/fault-proxy.js'
import {allInvoices, allPayments, direct, freshSandbox, makeInvoice, makePayment, unreadable, type TestSandbox} from './fixtures.js'

/** What the server saw, and what kind of failure the client meets. */
type Effect = 'network' | 'timeout' | '5xx' | '429' | 'bad-2xx' | 'ok' | 'transient'

export interface FaultCase {
  id: string
  /** Refused connection: no proxy, a closed port. */
  refused?: true
  fault?: Fault
  /** Matching requests it serves (default: all of them, i.e. every retry too). */
  times?: number
  /** The request reached the sandbox (it acted). */
  reached: boolean
  effect: Effect
}

const ALL = 20
/** SVC_TIMEOUT of the cases whose fault is a slow answer. */
const TIMEOUT_MS = 1000
/** A payment's creation: how long after it left its request reaches the service (more than a second). */
const ARRIVAL_LAG_MS = 1200
/** A payment's creation: SVC_TIMEOUT of the slow answers, past the arrival's lag. */
const PAYMENT_TIMEOUT_MS = 2000
const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>503 Service Temporarily Unavailable</title><style>body{color:red}</style></head>' +
  '<body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>'
const PORTAL_PAGE = '<html><head><title>Wi-Fi login</title></head><body><form action="/login"><input name="user"></form></body></html>'

export const FAULTS: FaultCase[] = [
  {id: 'connection refused', refused: true, reached: false, effect: 'network'},
  {id: 'reset before the request is forwarded', fault: {kind: 'reset-before-forward'}, reached: false, effect: 'network'},
  {id: 'reset mid-body (after the server acted)', fault: {kind: 'truncate', bytes: 5}, reached: true, effect: 'network'},
  {id: 'slow headers (held past SVC_TIMEOUT)', fault: {kind: 'delay-after-forward'}, reached: true, effect: 'timeout'},
  {id: 'slow body (half, then held past SVC_TIMEOUT)', fault: {kind: 'slow-body'}, reached: true, effect: 'timeout'},
  {id: '500 with a JSON error body', fault: {kind: 'status', status: 500, body: '{"message":"Internal error","code":"server_error"}'}, reached: false, effect: '5xx'},
  {id: '502 with no body', fault: {kind: 'status', status: 502, body: ''}, reached: false, effect: '5xx'},
  {id: '503 HTML error page', fault: {kind: 'status', status: 503, body: HTML_PAGE, contentType: 'text/html'}, reached: false, effect: '5xx'},
  {id: '504 with no body', fault: {kind: 'status', status: 504, body: '', contentType: 'text/plain'}, reached: false, effect: '5xx'},
  {id: '503 HTML after the server acted', fault: {kind: 'status-after-forward', status: 503, body: HTML_PAGE, contentType: 'text/html'}, reached: true, effect: '5xx'},
  {id: '2xx with truncated JSON (after the server acted)', fault: {kind: 'truncate-body-framed', bytes: 12}, reached: true, effect: 'bad-2xx'},
  {id: '200 HTML page (captive portal: wrong content type)', fault: {kind: 'status', status: 200, body: PORTAL_PAGE, contentType: 'text/html'}, reached: false, effect: 'bad-2xx'},
  {id: '429 with Retry-After: 1', fault: {kind: 'status', status: 429, body: '{"message":"Too many requests","code":"rate_limited"}', headers: {'retry-after': '1'}}, reached: false, effect: '429'},
  {id: '429 without Retry-After or body', fault: {kind: 'status', status: 429, body: ''}, reached: false, effect: '429'},
  {id: 'JSON labelled text/plain (wrong content type)', fault: {kind: 'content-type-after-forward', contentType: 'text/plain; charset=latin1'}, times: 1, reached: true, effect: 'ok'},
  {id: 'one 503, then the service recovers', fault: {kind: 'status', status: 503, body: '{"message":"Try again","code":"unavailable"}'}, times: 1, reached: false, effect: 'transient'},
]

/** How a family's requests may be repeated (retry.ts), which decides the expected outcome. */
type Kind = 'read' | 'idempotent-write' | 'payment-create' | 'watch' | 'import'

export interface Run {
  sb: TestSandbox
  dir: string
  fixture: any
  /** This case's own mark (its fault's number): what it creates bears it, so a shared sandbox's counts stay its own. */
  tag: string
}

export interface Family {
  name: string
  kind: Kind
  target: {method: string; path: RegExp}
  setup?: (sb: TestSandbox, dir: string, tag: string) => Promise<any>
  /** An identical payment was made a moment before (within the second the request leaves in). */
  priorIdentical?: true
  args: (run: Run) => string[]
  /** Checks of the sandbox (and files) after the run. */
  check?: (run: Run, fault: FaultCase, result: CliResult) => Promise<void>
}

/** The exit code the README gives this fault for this family of commands. */
export function expectedExit(family: Family, fault: FaultCase): number {
  const {kind} = family
  const {effect, reached} = fault
  if (effect === 'ok') return 0
  if (kind === 'import') {
    if (effect === 'transient') return 0
    // The service gone (unreachable, a timeout, a 5xx after the retries): the import stops at once,
    // exit 7, resumable (docs/import.md). A row the service refused or answered unreadably: exit 1,
    // listed in the results file.
    if (effect === 'network' || effect === 'timeout' || effect === '5xx') return 7
    return 1
  }
  if (kind === 'watch') {
    // Watch rides out network errors, 5xx and 429 until --timeout; ending without a successful read
    // in its last interval is "status unknown" (exit 7), never "still PENDING" (8, a status it did
    // not read). An unreadable answer stops it (7).
    if (effect === 'transient') return 0
    return 7
  }
  if (kind === 'payment-create') {
    // Never retried. A lost answer after the server acted is found in the list (exit as created),
    // unless an identical payment made a moment before may be it as well (unknown: exit 7).
    if (effect === '429') return 6
    if (reached && !family.priorIdentical) return 0
    return 7
  }
  if (effect === 'transient') return 0
  if (effect === '429') return 6
  return 7
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

async function oneOrNone(list: any[], what: string, exit: number | null, reached: boolean, effect: Effect): Promise<void> {
  expect(list.length, `${what}: never twice`).toBeLessThanOrEqual(1)
  if (exit === 0 || reached) expect(list.length, `${what}: created once`).toBe(1)
  if (!reached && effect !== 'transient' && effect !== 'ok') expect(list.length, `${what}: the service never saw it`).toBe(0)
}

export const FAMILIES: Family[] = [
  {
    name: 'pay create',
    kind: 'payment-create',
    target: {method: 'POST', path: /^\/v1\/payments$/},
    args: () => ['pay', 'create', '--amount', '4321', '--phone', '670000001'],
    async check({sb}, fault, r) {
      const payments = (await allPayments(sb)).filter((p) => p.amount === 4321)
      await oneOrNone(payments, 'payment', r.exitCode, fault.reached, fault.effect)
      if (r.exitCode === 0 && fault.reached && fault.effect !== 'ok') expect(r.stderr).toMatch(/Warning/)
      if (r.exitCode === 7) expect(r.stderr).toMatch(fault.refused ? /nothing was sent/ : /svc pay list|unknown/i)
    },
  },
  {
    // The same amount and number paid a moment before: a lost answer must never be taken for it.
    name: 'pay create after an identical payment',
    kind: 'payment-create',
    target: {method: 'POST', path: /^\/v1\/payments$/},
    // Made at the moment the request leaves (the clock is pinned): it may be the request's own.
    setup: (sb) => makePayment(sb, '237670000001', 4321),
    priorIdentical: true,
    args: () => ['pay', 'create', '--amount', '4321', '--phone', '670000001'],
    async check({sb, fixture}, fault, r) {
      const payments = (await allPayments(sb)).filter((p) => p.amount === 4321)
      const ours = payments.filter((p) => p.id !== fixture.id)
      await oneOrNone(ours, 'payment', r.exitCode, fault.reached, fault.effect)
      // Never a false success: the earlier payment is never shown as the one just made. After a
      // lost answer it is listed among those that may be (exit 7), never found.
      expect(r.stdout).not.toContain(fixture.id)
      expect(r.stderr).not.toMatch(new RegExp(`found payment ${fixture.id}|${fixture.id} created`))
      if (r.exitCode === 0) expect(r.stdout).toContain(ours[0]!.id)
      if (r.exitCode === 7) expect(r.stderr).toMatch(fault.refused ? /nothing was sent/ : /svc pay (list|status)/)
      if (r.exitCode === 7 && !fault.refused) expect(r.stderr).toContain(fixture.id)
    },
  },
  {
    name: 'pay status',
    kind: 'read',
    target: {method: 'GET', path: /^\/v1\/payments\/[^/]+\/status$/},
    setup: (sb) => makePayment(sb),
    args: ({fixture}) => ['pay', 'status', fixture.id],
  },
  {
    name: 'pay list',
    kind: 'read',
    target: {method: 'GET', path: /^\/v1\/payments$/},
    setup: (sb) => makePayment(sb),
    args: () => ['pay', 'list', '--limit', '5'],
  },
  {
    name: 'pay watch',
    kind: 'watch',
    target: {method: 'GET', path: /^\/v1\/payments\/[^/]+\/status$/},
    setup: (sb) => makePayment(sb, '237670000001'),
    args: ({fixture}) => ['pay', 'watch', fixture.id, '--interval', '250ms', '--timeout', '2s'],
  },
  {
    name: 'invoice create',
    kind: 'idempotent-write',
    target: {method: 'POST', path: /^\/v1\/invoices$/},
    args: ({tag}) => ['invoice', 'create', '--customer-name', `Awa Bakery ${tag}`, '--due-date', '2099-12-31', '--item', 'Bread:500:3'],
    async check({sb, tag}, fault, r) {
      const invoices = (await allInvoices(sb)).filter((i) => i.customer_name === `Awa Bakery ${tag}`)
      await oneOrNone(invoices, 'invoice', r.exitCode, fault.reached, fault.effect)
    },
  },
  {
    name: 'invoice get',
    kind: 'read',
    target: {method: 'GET', path: /^\/v1\/invoices\/[^/]+$/},
    setup: (sb) => makeInvoice(sb),
    args: ({fixture}) => ['invoice', 'get', fixture.id],
  },
  {
    name: 'invoice list',
    kind: 'read',
    target: {method: 'GET', path: /^\/v1\/invoices$/},
    setup: (sb) => makeInvoice(sb),
    args: () => ['invoice', 'list'],
  },
  {
    name: 'invoice publish',
    kind: 'idempotent-write',
    target: {method: 'POST', path: /^\/v1\/invoices\/[^/]+\/publish$/},
    setup: (sb) => makeInvoice(sb),
    args: ({fixture}) => ['invoice', 'publish', fixture.id],
    async check({sb, fixture}, fault, r) {
      const after = (await direct(sb, 'GET', `/v1/invoices/${fixture.id}`)).data
      if (r.exitCode === 0 || fault.reached) expect(after.status).toBe('UNPAID')
      else expect(after.status).toBe('DRAFT')
    },
  },
  {
    name: 'invoice cancel',
    kind: 'idempotent-write',
    target: {method: 'POST', path: /^\/v1\/invoices\/[^/]+\/cancel$/},
    setup: (sb) => makeInvoice(sb, {publish: true}),
    args: ({fixture}) => ['invoice', 'cancel', fixture.id],
    async check({sb, fixture}, fault, r) {
      const after = (await direct(sb, 'GET', `/v1/invoices/${fixture.id}`)).data
      if (r.exitCode === 0 || fault.reached) expect(after.status).toBe('CANCELLED')
      else expect(after.status).toBe('UNPAID')
    },
  },
  {
    name: 'invoice pdf',
    kind: 'read',
    target: {method: 'GET', path: /^\/v1\/invoices\/[^/]+\/pdf$/},
    setup: (sb) => makeInvoice(sb, {publish: true}),
    args: ({fixture, dir}) => ['invoice', 'pdf', fixture.id, '-o', join(dir, 'out.pdf')],
    async check({dir}, _fault, r) {
      const file = join(dir, 'out.pdf')
      if (r.exitCode === 0) expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-')
      else expect(existsSync(file), 'no half-written PDF').toBe(false)
    },
  },
  {
    name: 'invoice import',
    kind: 'import',
    target: {method: 'POST', path: /^\/v1\/invoices$/},
    async setup(_sb, dir, tag) {
      const file = join(dir, 'rows.csv')
      writeFileSync(file, `customer_name,due_date,items\r\nRow One ${tag},2099-12-31,Bread:500:3\r\nRow Two ${tag},2099-12-31,Cake:2500:1\r\n`)
      return {file}
    },
    args: ({fixture}) => ['invoice', 'import', fixture.file, '--concurrency', '1'],
    async check({sb, fixture, dir, tag}, fault, r) {
      const names = [`Row One ${tag}`, `Row Two ${tag}`]
      const rows = async () => (await allInvoices(sb)).filter((i) => names.includes(i.customer_name))
      const first = await rows()
      for (const name of names) expect(first.filter((i) => i.customer_name === name).length, name).toBeLessThanOrEqual(1)
      expect(existsSync(`${fixture.file}.results.csv`) || existsSync(fixture.file.replace(/\.csv$/, '.results.csv')), 'a results file').toBe(true)
      if (r.exitCode !== 0) expect(r.stderr).toMatch(/results|again|re-?run|resume/i)
      // Nothing lost, nothing twice: the same file again, without faults, ends with each row once.
      const again = await runInProcess(['invoice', 'import', fixture.file, '--concurrency', '1'], {
        configDir: join(dir, 'config'),
        env: {...sb.env(), SVC_RATE_LIMIT: '0'},
      })
      expect(again.exitCode, again.stderr).toBe(0)
      const second = await rows()
      expect(second.map((i) => i.customer_name).sort()).toEqual(names)
      if (fault.reached) expect(second.length).toBe(2)
    },
  },
  {
    name: 'files upload',
    kind: 'idempotent-write',
    target: {method: 'POST', path: /^\/v1\/files\/upload-url$/},
    async setup(_sb, dir) {
      const file = join(dir, 'logo.png')
      writeFileSync(file, PNG)
      return {file}
    },
    args: ({fixture}) => ['files', 'upload', fixture.file],
    async check(_run, _fault, r) {
      if (r.exitCode === 0) expect(r.stdout).toMatch(/^https?:\/\/\S+/)
    },
  },
  {
    name: 'webhooks trigger',
    kind: 'payment-create',
    target: {method: 'POST', path: /^\/v1\/payments$/},
    args: () => ['webhooks', 'trigger', 'payment.success'],
    async check({sb}, fault, r) {
      await oneOrNone(await allPayments(sb), 'payment', r.exitCode, fault.reached, fault.effect)
    },
  },
  {
    name: 'api GET /v1/payments',
    kind: 'read',
    target: {method: 'GET', path: /^\/v1\/payments$/},
    args: () => ['api', 'GET', '/v1/payments', '-F', 'limit=2'],
  },
  {
    name: 'login',
    kind: 'read',
    target: {method: 'GET', path: /^\/v1\/payments$/},
    args: () => ['login', '--api-key-stdin', '--profile', 'work'],
    async check({dir}, _fault, r) {
      const config = join(dir, 'config', 'config.json')
      const saved = existsSync(config) ? JSON.parse(readFileSync(config, 'utf8')).profiles?.work : undefined
      if (r.exitCode === 0) expect(saved?.api_key).toBeTruthy()
      else expect(saved, 'a key the service did not accept is not saved').toBeUndefined()
    },
  },
  {
    name: 'report collections',
    kind: 'read',
    target: {method: 'GET', path: /^\/v1\/payments$/},
    setup: (sb) => makePayment(sb),
    args: () => ['report', 'collections', '--since', '2d'],
  },
  {
    name: 'report receivables',
    kind: 'read',
    target: {method: 'GET', path: /^\/v1\/invoices$/},
    setup: (sb) => makeInvoice(sb, {publish: true}),
    args: () => ['report', 'receivables'],
  },
]

/**
 * Whether a family's clock is the sandbox's too: the watch polls a payment the sandbox settles on
 * its time (the watch's waits, jumped, move the sandbox on as well), and a payment whose answer was
 * lost is looked for by comparing the client's clock with the service's.
 */
function shared(kind: Kind): boolean {
  return kind === 'watch' || kind === 'payment-create'
}

/**
 * One case. `familySandbox`: the family's sandbox, shared by its cases (one whose clock is not the
 * case's); without it, or when the case's clock is the sandbox's, a fresh sandbox of its own,
 * closed after it.
 */
export async function runCase(family: Family, fault: FaultCase, familySandbox?: () => Promise<TestSandbox>): Promise<{result: CliResult; expected: number}> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fault-'))
  const creating = family.kind === 'payment-create'
  const clock = creating ? testClock('2026-11-28T10:00:00.300Z') : skippingClock()
  const own = shared(family.kind) || !familySandbox
  const sb = own ? await freshSandbox(shared(family.kind) ? clock : undefined) : await familySandbox()
  const tag = String(FAULTS.indexOf(fault) + 1)
  const timeoutMs = creating ? PAYMENT_TIMEOUT_MS : TIMEOUT_MS
  let proxy: Awaited<ReturnType<typeof startFaultProxy>> | undefined
  try {
    const fixture = await family.setup?.(sb, dir, tag)
    const held = fault.effect === 'timeout' ? {onHeld: () => clock.advance(timeoutMs, {deadlines: true})} : {}
    const arrival = creating ? {onArrived: () => void clock.advance(ARRIVAL_LAG_MS)} : {}
    const rules: FaultRule[] = fault.fault ? [{...family.target, fault: {...fault.fault, ...held}, times: fault.times ?? ALL, ...arrival}] : []
    proxy = fault.refused ? undefined : await startFaultProxy(sb.sb.url, rules)
    const baseUrl = proxy ? proxy.url : await refusedUrl()
    const run: Run = {sb, dir, fixture, tag}
    const isLogin = family.name === 'login'
    const result = await runInProcess(family.args(run), {
      configDir: join(dir, 'config'),
      env: {
        SVC_BASE_URL: baseUrl,
        SVC_API_KEY: isLogin ? undefined : sb.sb.keys.sandbox,
        SVC_TIMEOUT: fault.effect === 'timeout' ? `${timeoutMs}ms` : '10s',
        SVC_MAX_RETRIES: '1',
        SVC_RATE_LIMIT: '0',
      },
      input: isLogin ? sb.sb.keys.sandbox : undefined,
      clock,
    })
    const expected = expectedExit(family, fault)
    const context = `${family.name} × ${fault.id}\nstdout: ${result.stdout.slice(0, 400)}\nstderr: ${result.stderr.slice(0, 600)}`
    expect(result.exitCode, context).toBe(expected)
    if (result.exitCode !== 0) expect(unreadable(result.stderr), context).toEqual([])
    // The key never appears whole, whatever went wrong.
    expect(result.stdout + result.stderr, context).not.toContain(sb.sb.keys.sandbox)
    if (fault.fault && fault.effect !== 'ok' && fault.effect !== 'transient') {
      expect(proxy!.pending().length === 0 || (proxy!.pending()[0]!.times ?? 0) < ALL, `${context}\nthe fault was never hit`).toBe(true)
    }
    await family.check?.(run, fault, result)
    return {result, expected}
  } finally {
    await proxy?.close()
    if (own) await sb.close()
    rmSync(dir, {recursive: true, force: true})
  }
}

/**
 * One describe per family, every fault concurrently (they wait on timers more than on the CPU): the
 * CLI runs in-process (what is checked is the exit code, the messages and the sandbox's state, not
 * the process), each run with its own streams, environment and language, so runs may overlap. A
 * family's cases share one sandbox, started by the first and closed after the last, unless their
 * clock is the sandbox's (each then starts its own: a sandbox's start, its OpenAPI document and
 * its journal cost more CPU than most runs do). The file holds the document worker for its whole
 * run: without a holder the worker would end with each sandbox and boot again (seconds of CPU
 * through tsx) for the next PDF or image, which is what made the matrix miss its deadlines on a
 * busy machine.
 */
export function faultSuite(names: string[]): void {
  let held: ReturnType<typeof acquireDocumentWorker> | undefined
  beforeAll(() => {
    held = acquireDocumentWorker({warm: true})
  })
  afterAll(async () => {
    await held?.release()
  })
  for (const family of FAMILIES.filter((f) => names.includes(f.name))) {
    describe.concurrent(`${family.name} under faults`, () => {
      let sandbox: Promise<TestSandbox> | undefined
      afterAll(async () => {
        await (await sandbox)?.close()
      })
      for (const fault of FAULTS) {
        it(`${fault.id} → exit ${expectedExit(family, fault)}`, async () => {
          await runCase(family, fault, () => (sandbox ??= freshSandbox()))
        })
      }
    })
  }
}
