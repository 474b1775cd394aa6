/**
 * `svc mcp` as an MCP client sees it: the SDK's own Client talking to the command over its stdin
 * and stdout, against the local sandbox over real HTTP. What is asserted is what the assistant gets
 * (tools, results, tool errors) and what the service then holds. The command runs in-process
 * (`runInProcess` with a stdin stream the client writes to, its stdout read as it comes: the same
 * newline-delimited JSON-RPC the SDK's stdio transport carries), except in the first test, where
 * it is the built CLI (`bin/run.cjs mcp`, `npm test` builds first) started as a child over stdio,
 * stdout the protocol and nothing else; the protocol under bad input is
 * test/commands/mcp-protocol.test.ts.
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {ReadBuffer, serializeMessage} from '@modelcontextprotocol/sdk/shared/stdio.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'
import {PassThrough} from 'node:stream'
import {afterEach, describe, expect, onTestFinished, vi} from 'vitest'

import {skippingClock, testClock, type TestClock} from '../helpers/clock.js'
import {BIN, baseEnv} from '../helpers/cli.js'
import {test} from '../helpers/fixtures.js'
import {startFaultProxy, type FaultProxy} from '../helpers/fault-proxy.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

let proxy: FaultProxy | undefined
afterEach(async () => {
  await proxy?.close()
  proxy = undefined
})

interface McpSession {
  client: Client
  /** What the server wrote on stderr so far. */
  stderr(): string
  /** Transport errors the client saw: unreadable lines on stdout among them. */
  errors: Error[]
  close(): Promise<void>
}

const WRITE_TOOLS = ['payments_create', 'invoices_create', 'invoices_publish', 'invoices_send', 'invoices_cancel']
const READ_TOOLS = [
  'payments_get',
  'payments_list',
  'payments_wait',
  'invoices_get',
  'invoices_list',
  'invoices_pdf',
  'reports_receivables',
  'reports_collections',
  'sandbox_test_numbers',
]

/** In-process by default, on the run's clock when given; 'child': the built CLI. */
type StartMcp = (args?: string[], env?: Record<string, string>, how?: 'child' | {clock: TestClock}) => Promise<McpSession>

/**
 * `svc mcp` run in-process with this test's config dir, and the SDK's client connected to it: the
 * client's messages written to the command's stdin, one JSON line each, and the lines it writes
 * on stdout read back with the SDK's own reader, as its stdio transport does with a child.
 */
async function startMcpInProcess(configDir: string, args: string[], env: Record<string, string>, clock?: TestClock): Promise<McpSession> {
  const toServer = new PassThrough()
  const lines = new ReadBuffer()
  let stderr = ''
  const errors: Error[] = []
  const transport: Transport = {
    start: async () => {},
    send: async (message) => void toServer.write(serializeMessage(message)),
    close: async () => {
      // stdin's end is the end of the session: the command answers what is in flight and returns.
      toServer.end()
      await run
      transport.onclose?.()
    },
  }
  const run = runInProcess(['mcp', ...args], {
    configDir,
    env,
    clock,
    stdin: toServer,
    onOutput(stream, text) {
      if (stream === 'stderr') return void (stderr += text)
      lines.append(Buffer.from(text))
      for (let message: JSONRPCMessage | null; (message = readMessage()) !== null; ) transport.onmessage?.(message)
    },
  })
  const readMessage = () => {
    try {
      return lines.readMessage()
    } catch (error) {
      // Not a protocol message (e.g. a stray log line on stdout): as the stdio transport reports it.
      transport.onerror?.(error as Error)
      return readMessage()
    }
  }
  const client = new Client({name: 'svc-test', version: '1.0.0'})
  client.onerror = (error) => errors.push(error)
  await client.connect(transport)
  return {client, stderr: () => stderr, errors, close: () => client.close()}
}

/** `svc mcp` started as a child with this test's config dir and the SDK's client connected to it. */
async function startMcpChild(configDir: string, args: string[], env: Record<string, string>): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: {...baseEnv(configDir), ...env},
    stderr: 'pipe',
  })
  let stderr = ''
  const errors: Error[] = []
  const serverErr = transport.stderr as import('node:stream').Readable | null
  serverErr?.setEncoding('utf8')
  serverErr?.on('data', (chunk: string) => (stderr += chunk))
  const client = new Client({name: 'svc-test', version: '1.0.0'})
  // Anything on stdout that is not a protocol message is reported here (e.g. a stray log line).
  client.onerror = (error) => errors.push(error)
  await client.connect(transport)
  return {client, stderr: () => stderr, errors, close: () => client.close()}
}

// The file's sandbox (settling after 200 ms), a config dir per test, and the MCP servers the test
// starts (against the file's sandbox unless told), closed after it.
const it = test.extend<{startMcp: StartMcp}>({
  startMcp: async ({sandbox, temp}, use) => {
    const sessions: McpSession[] = []
    try {
      await use(async (args = [], env = sandbox.env(), how) => {
        const session = how === 'child' ? await startMcpChild(temp.dir, args, env) : await startMcpInProcess(temp.dir, args, env, how?.clock)
        sessions.push(session)
        return session
      })
    } finally {
      for (const session of sessions) await session.close()
    }
  },
})

type ToolResult = {isError?: boolean; content: Array<{type: string; text?: string; resource?: any}>; structuredContent?: any}

async function call(session: McpSession, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await session.client.callTool({name, arguments: args})) as ToolResult
}

async function payments(sandbox: TestSandbox, key = sandbox.sb.keys.sandbox): Promise<any[]> {
  return (await sandbox.get('/v1/payments?limit=100', key)).data
}

async function invoices(sandbox: TestSandbox, key = sandbox.sb.keys.sandbox): Promise<any[]> {
  const all: any[] = []
  for (let page = 1; ; page++) {
    const body = await sandbox.get(`/v1/invoices?page=${page}&page_size=100`, key)
    const items = body.data ?? body.items ?? body.invoices
    all.push(...items)
    if (items.length < 100) return all
  }
}

const phone = (n: number) => `23767${String(n).padStart(7, '0')}`

describe('svc mcp: the tools an assistant sees', () => {
  it('lists the fourteen tools, each with a closed JSON Schema and truthful annotations; logs on stderr only', async ({startMcp, sandbox}) => {
    const session = await startMcp([], sandbox.env(), 'child')
    const {tools} = await session.client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([...WRITE_TOOLS, ...READ_TOOLS].sort())
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]))
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object')
      expect((tool.inputSchema as any).additionalProperties, tool.name).toBe(false)
      expect(tool.description!.length, tool.name).toBeGreaterThan(40)
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(READ_TOOLS.includes(tool.name))
    }
    // What --help says: whole XAF, the accepted phone forms, the item shape.
    const create = byName.payments_create!.inputSchema as any
    expect(create.required).toEqual(['amount', 'phone'])
    expect(create.properties.amount.description).toMatch(/Whole XAF.*Never decimals/)
    expect(create.properties.phone.description).toContain('+237 6 70 00 00 01')
    expect(create.properties.operator.enum).toEqual(['MTN', 'ORANGE'])
    const item = (byName.invoices_create!.inputSchema as any).properties.items.items
    expect(Object.keys(item.properties)).toEqual(['name', 'description', 'price', 'quantity'])
    expect(item.additionalProperties).toBe(false)
    // Money moved twice is two payments; cancel cannot be undone; publish and cancel repeat safely.
    expect(byName.payments_create!.annotations).toMatchObject({readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: true})
    expect(byName.invoices_send!.annotations).toMatchObject({idempotentHint: false, openWorldHint: true})
    expect(byName.invoices_cancel!.annotations).toMatchObject({destructiveHint: true, idempotentHint: true})
    expect(byName.invoices_publish!.annotations).toMatchObject({destructiveHint: false, idempotentHint: true})
    expect(session.stderr()).toMatch(/serving 14 tools on stdio with SANDBOX key svc_sk_test_…\w{4}\./)
    expect(session.stderr()).not.toContain(sandbox.sb.keys.sandbox)
    await call(session, 'payments_create', {amount: 100, phone: '670000001'})
    await call(session, 'payments_create', {amount: 1.5, phone: '670000001'})
    expect(session.errors).toEqual([])
  })

  it('sandbox_test_numbers gives the table and a summary', async ({startMcp, sandbox}) => {
    const session = await startMcp()
    const result = await call(session, 'sandbox_test_numbers')
    expect(result.isError).toBeFalsy()
    expect(result.content[0]!.text).toMatch(/^10 sandbox test numbers/)
    expect(result.structuredContent.test_numbers).toContainEqual({phone: '237670000099', operator: 'MTN', outcome: 'FAILED'})
  })
})

describe('svc mcp: payments', () => {
  it('creates a payment to a test number and waits for it: SUCCESS, on the server too', async ({startMcp}) => {
    // A sandbox of its own whose time the test holds: the payment stays PENDING until the wait has
    // told its progress once, then settles (on a busy machine, 200 ms of real time could pass
    // before the first poll, which would then find it settled and tell nothing while it waits).
    // The clock stands still (a flowing one would settle it after 200 ms of real time, whatever
    // the wait had told), and the run shares it: its interval passes when the test moves it too.
    const clock = testClock(Date.now())
    const sandbox = await startTestSandbox({clock})
    onTestFinished(() => sandbox.close())
    const session = await startMcp([], sandbox.env(), {clock})
    const created = await call(session, 'payments_create', {amount: '5 000', phone: '+237 6 70 00 00 01'})
    expect(created.isError).toBeFalsy()
    const payment = created.structuredContent.payment
    expect(payment).toMatchObject({status: 'PENDING', amount: 5000, phone_number: '237670000001', environment: 'SANDBOX'})
    expect(created.structuredContent.recovered).toBe(false)
    expect(created.content[0]!.text).toBe(
      `Payment "${payment.id}" created: 5 000 XAF requested from "237670000001" (MTN); PENDING until the customer approves on their phone. Follow it with payments_wait.`,
    )
    expect(JSON.parse(created.content[1]!.text!).payment.id).toBe(payment.id)

    const progress: string[] = []
    const waiting = session.client.callTool({name: 'payments_wait', arguments: {id: payment.id, interval: '250ms', timeout: '20s'}}, undefined, {
      onprogress: (p) => progress.push(p.message ?? ''),
    }) as Promise<ToolResult>
    await vi.waitFor(() => expect(progress).toContain(`Payment ${payment.id}: PENDING…`), {timeout: 20_000})
    // Its 200 ms pass, then the wait's interval: the next read finds it settled.
    clock.advance(250)
    const waited = await waiting
    expect(waited.isError).toBeFalsy()
    expect(waited.structuredContent).toMatchObject({final: true, payment: {id: payment.id, status: 'SUCCESS'}})
    expect(waited.content[0]!.text).toBe(`Payment "${payment.id}" succeeded: 5 000 XAF collected from "237670000001".`)
    // Progress while it waits (the SDK's client handles a notification a tick after a response
    // read with it, so the last one may come after the result and be dropped: not asserted).
    for (const message of progress) expect(message).toMatch(new RegExp(`^Payment ${payment.id}: (PENDING|SUCCESS)…$`))
    expect((await payments(sandbox)).filter((p) => p.id === payment.id)).toMatchObject([{status: 'SUCCESS', amount: 5000}])
  })

  it('a failing test number settles FAILED with its failure code (a result, not a tool error)', async ({startMcp}) => {
    // A sandbox of its own and the run on a clock that jumps through the run's waits (its
    // interval), firing the settlement on the way: the wait takes no real time.
    const clock = skippingClock()
    const sandbox = await startTestSandbox({clock})
    onTestFinished(() => sandbox.close())
    const session = await startMcp([], sandbox.env(), {clock})
    const created = await call(session, 'payments_create', {amount: 1200, phone: '670000099'})
    const id = created.structuredContent.payment.id
    const waited = await call(session, 'payments_wait', {id, interval: '250ms'})
    expect(waited.isError).toBeFalsy()
    expect(waited.structuredContent.payment.status).toBe('FAILED')
    expect(waited.content[0]!.text).toMatch(new RegExp(`^Payment "${id}" FAILED \\(\\w+\\): 1 200 XAF from "237670000099" was not collected\\.$`))
  })

  it('a wait that times out says the payment is still PENDING (call again), not an error', async ({startMcp}) => {
    const slow = await startTestSandbox({settleAfterMs: 60_000})
    try {
      // The run's clock skips its waits: the one second of the wait passes at once (the sandbox's
      // payment stays PENDING for a minute of real time).
      const session = await startMcp([], slow.env(), {clock: skippingClock()})
      const created = await call(session, 'payments_create', {amount: 700, phone: phone(2002)})
      const waited = await call(session, 'payments_wait', {id: created.structuredContent.payment.id, interval: '250ms', timeout: '1s'})
      expect(waited.isError).toBeFalsy()
      expect(waited.structuredContent).toMatchObject({final: false, payment: {status: 'PENDING'}})
      expect(waited.content[0]!.text).toMatch(/is still PENDING after waiting 1s; call payments_wait again/)
      await session.close()
    } finally {
      await slow.close()
    }
  })

  it('a wait the client cancels stops polling the service', async ({startMcp}) => {
    const slow = await startTestSandbox({settleAfterMs: 60_000})
    const counting = await startFaultProxy(slow.sb.url, [])
    try {
      // The run's clock stands still: the wait reads the status once, then waits for an interval
      // that passes only when the test moves the clock (no read can come on its own).
      const clock = testClock(Date.now())
      const session = await startMcp([], {...slow.env(), SVC_BASE_URL: counting.url}, {clock})
      const created = await call(session, 'payments_create', {amount: 700, phone: phone(2003)})
      const id = created.structuredContent.payment.id
      const abort = new AbortController()
      const waiting = session.client.callTool({name: 'payments_wait', arguments: {id, interval: '250ms', timeout: '30s'}}, undefined, {
        signal: abort.signal,
      })
      const polls = () => counting.seen.filter((line) => line.endsWith('/status')).length
      const intervals = () => clock.waiting('wait').filter((ms) => ms === 250).length
      // Cancelled once it is polling (a status read reached the service) and waits for its next
      // read, not after a fixed time.
      await vi.waitFor(
        () => {
          expect(polls()).toBe(1)
          expect(intervals()).toBe(1)
        },
        {timeout: 30_000, interval: 20},
      )
      const waitsSet = clock.timersSet('wait')
      abort.abort()
      await expect(waiting).rejects.toThrow()
      // The cancel reaches the watch: it drops the wait for its next read.
      await vi.waitFor(() => expect(intervals()).toBe(0), {timeout: 10_000, interval: 20})
      // Over the next second (four intervals) no further read comes, nor another wait for one;
      // a call that reads the service through the same server, answered, comes after any read the
      // cancelled wait could still have started.
      clock.advance(1000)
      expect((await call(session, 'payments_list', {limit: 1})).isError).toBeFalsy()
      expect(counting.seen.at(-1)).toBe('GET /v1/payments')
      expect(polls()).toBe(1)
      expect(clock.timersSet('wait')).toBe(waitsSet)
      // The cancelled call is not waited for at the end of the session (it gets no answer): the
      // server stops as soon as its input ends.
      await session.close()
      expect(session.stderr()).not.toMatch(/in flight/)
      expect(session.stderr()).toMatch(/the client closed the connection; stopping/)
    } finally {
      await counting.close()
      await slow.close()
    }
  })

  it('tool refusals name the tool\'s arguments, never a CLI flag (an assistant has no --flag to fix)', async ({startMcp}) => {
    const session = await startMcp()
    const cases: Array<[tool: string, args: Record<string, unknown>, argument: string]> = [
      ['payments_create', {amount: 50.5, phone: phone(3001)}, 'amount'],
      ['payments_create', {amount: 0, phone: phone(3001)}, 'amount'],
      ['payments_create', {amount: 500, phone: '0670000001'}, 'phone'],
      ['payments_create', {amount: 500, phone: phone(3001), operator: 'AIRTEL'}, 'operator'],
      ['payments_list', {limit: 1000}, 'limit'],
      ['payments_wait', {id: 'svcpay_test_x', timeout: 'forever'}, 'timeout'],
      ['invoices_create', {customer_name: 'Awa', due_date: '31/12/2026', items: [{name: 'Bread', price: 500}]}, 'due_date'],
      ['invoices_create', {customer_name: 'Awa', due_date: '2099-12-31', items: [{name: 'Bread', price: 500}], discount_percent: 150}, 'discount_percent'],
      ['invoices_create', {customer_name: 'Awa', due_date: '2099-12-31', items: [{name: 'Bread', price: 50}]}, 'items'],
      ['invoices_create', {customer_name: 'Awa', due_date: '2099-12-31', items: [{name: 'Bread', price: 500}], customer_email: 'nope'}, 'customer_email'],
      ['invoices_create', {customer_name: 'Awa', due_date: '2099-12-31', items: [{name: 'Bread', price: 500}], channel: 'EMAIL'}, 'channel'],
      ['invoices_publish', {id: 'inv_test_x', to_email: 'awa@example.com'}, 'channel'],
      ['invoices_send', {id: 'inv_test_x', channel: 'SMS'}, 'channel'],
      ['invoices_send', {id: 'inv_test_x', channel: 'EMAIL', to_phone: '670000001'}, 'to_phone'],
    ]
    for (const [tool, args, argument] of cases) {
      const result = await call(session, tool, args)
      const text = result.content[0]!.text
      expect(result.isError, `${tool} ${JSON.stringify(args)}: ${text}`).toBe(true)
      expect(text, tool).toContain(`"${argument}"`)
      expect(text, tool).not.toMatch(/(^|[\s"«(])--[a-z]/)
      expect(JSON.stringify(result.structuredContent.error), tool).not.toMatch(/--[a-z]/)
    }
  })

  it('a protocol error carries its code once: the client adds "MCP error -32602:", the message does not', async ({startMcp}) => {
    const session = await startMcp(['--read-only'])
    for (const name of ['payments_create', 'no_such_tool']) {
      const error = await session.client.callTool({name, arguments: {}}).then(
        () => undefined,
        (e: Error) => e,
      )
      expect(error?.message).toMatch(/^MCP error -32602: /)
      expect(error?.message.match(/MCP error/g)).toHaveLength(1)
    }
  })

  it('a bad amount is a tool error naming the argument with the CLI\'s sentence, and nothing is created', async ({startMcp, sandbox}) => {
    const session = await startMcp()
    const before = (await payments(sandbox)).length
    for (const amount of [50.5, '50.5', '5,00', 0, -5, '1e3', 'five thousand']) {
      const result = await call(session, 'payments_create', {amount, phone: phone(3001)})
      expect(result.isError, String(amount)).toBe(true)
      expect(result.structuredContent.error).toMatchObject({code: 'invalid_input', field: 'amount'})
      expect(result.content[0]!.text).toMatch(/^Invalid argument "amount" \(nothing was sent\): Invalid amount/)
    }
    const decimal = await call(session, 'payments_create', {amount: 50.5, phone: phone(3001)})
    expect(decimal.content[0]!.text).toContain('XAF has no decimals')
    const badPhone = await call(session, 'payments_create', {amount: 500, phone: '0670000001'})
    expect(badPhone.structuredContent.error.field).toBe('phone')
    expect(badPhone.content[0]!.text).toContain('237670000001, +237 6 70 00 00 01')
    const nexttel = await call(session, 'payments_create', {amount: 500, phone: '660000001'})
    expect(nexttel.content[0]!.text).toMatch(/Nexttel/)
    const extra = await call(session, 'payments_create', {amount: 500, phone: phone(3001), currency: 'EUR'})
    expect(extra.structuredContent.error.field).toBe('currency')
    expect(extra.content[0]!.text).toBe('Unknown argument "currency"; payments_create takes: amount, phone, operator.')
    expect((await payments(sandbox)).length).toBe(before)
    expect(session.stderr()).toMatch(/tool payments_create: invalid_input/)
  })

  it('a connection reset after the service acted: the payment made within the second the request left is listed, never claimed, never sent twice', async ({startMcp}) => {
    // The service's clock is read to the second (its Date header): a payment made within the second
    // the request left may be an earlier, identical one, so it is not called the one just made.
    // The sandbox and the run stand still at the same time, so the payment falls in that second.
    const clock = testClock('2026-11-28T10:00:00.000Z')
    const sandbox = await startTestSandbox({clock})
    onTestFinished(() => sandbox.close())
    proxy = await startFaultProxy(sandbox.sb.url, [{method: 'POST', path: /^\/v1\/payments$/, fault: {kind: 'reset-after-forward'}}])
    const session = await startMcp([], {...sandbox.env(), SVC_BASE_URL: proxy.url}, {clock})
    const result = await call(session, 'payments_create', {amount: 2222, phone: phone(4001)})
    const onServer = (await payments(sandbox)).filter((p) => p.phone_number === phone(4001))
    expect(onServer).toHaveLength(1)
    expect(result.isError).toBe(true)
    expect(result.structuredContent.error.code).toBe('outcome_unknown')
    expect(result.content[0]!.text).toContain(onServer[0].id)
    expect(result.content[0]!.text).toMatch(/cannot tell whether this request made it/)
    expect(result.content[0]!.text).toMatch(/Do not call payments_create again/)
    expect(proxy.seen.filter((s) => s === 'POST /v1/payments')).toHaveLength(1)
  })

  it('an unknown outcome (502, nothing found) is a tool error that says so and how to check; sent once, nothing created', async ({startMcp, sandbox}) => {
    proxy = await startFaultProxy(sandbox.sb.url, [{method: 'POST', path: /^\/v1\/payments$/, fault: {kind: 'status', status: 502, body: 'Bad Gateway', contentType: 'text/plain'}}])
    const session = await startMcp([], {...sandbox.env(), SVC_BASE_URL: proxy.url})
    const result = await call(session, 'payments_create', {amount: 5555, phone: phone(4002)})
    expect(result.isError).toBe(true)
    expect(result.structuredContent.error.code).toBe('outcome_unknown')
    expect(result.content[0]!.text).toMatch(/outcome is unknown/)
    expect(result.content[0]!.text).toMatch(/Do not call payments_create again/)
    expect(result.structuredContent.error.hint).toMatch(/look for 5 555 XAF to 237670004002 with payments_list/)
    expect(proxy.seen.filter((s) => s === 'POST /v1/payments')).toHaveLength(1)
    expect((await payments(sandbox)).filter((p) => p.phone_number === phone(4002))).toHaveLength(0)
  })
})

describe('svc mcp: invoices', () => {
  const draft = {
    customer_name: 'Awa Bakery',
    due_date: '2026-12-31',
    items: [
      {name: 'Bread', price: '1 500', quantity: 3},
      {name: 'Cable 2:1 HDMI', price: 2500},
    ],
    discount_percent: 10,
    customer_email: 'awa@example.com',
  }

  it('creates a DRAFT with an Idempotency-Key it returns; the same key again returns it, not a second one', async ({startMcp, sandbox}) => {
    const session = await startMcp()
    const before = (await invoices(sandbox)).length
    const created = await call(session, 'invoices_create', draft)
    expect(created.isError, created.content[0]!.text).toBeFalsy()
    const {invoice, idempotency_key: key, replayed} = created.structuredContent
    expect(replayed).toBe(false)
    expect(key).toMatch(/^[0-9a-f-]{36}$/)
    expect(invoice).toMatchObject({status: 'DRAFT', subtotal_amount: 7000, discount_amount: 700, total_amount: 6300})
    // The profile's next number, as `svc invoice create` gives it.
    expect(invoice.external_reference).toMatch(/^FAC-\d{4}-\d{4}$/)
    expect(invoice.items).toEqual([
      {name: 'Bread', price: 1500, quantity: 3},
      {name: 'Cable 2:1 HDMI', price: 2500, quantity: 1},
    ])
    expect(created.content[0]!.text).toBe(
      `Invoice "${invoice.id}" created (DRAFT) for "Awa Bakery", total 6 300 XAF, Idempotency-Key ${key}: invisible to the customer until published.`,
    )
    const again = await call(session, 'invoices_create', {...draft, idempotency_key: key})
    expect(again.structuredContent).toMatchObject({replayed: true, idempotency_key: key, invoice: {id: invoice.id, external_reference: invoice.external_reference}})
    expect(again.content[0]!.text).toMatch(/already existed for Idempotency-Key .* nothing new was created/)
    expect((await invoices(sandbox)).length).toBe(before + 1)
  })

  it('publishes it: UNPAID, payable at its checkout URL; publish: true on create does both', async ({startMcp, sandbox}) => {
    const session = await startMcp()
    const id = (await call(session, 'invoices_create', draft)).structuredContent.invoice.id
    const published = await call(session, 'invoices_publish', {id})
    expect(published.isError).toBeFalsy()
    expect(published.structuredContent.invoice).toMatchObject({id, status: 'UNPAID'})
    expect(published.content[0]!.text).toMatch(new RegExp(`^Invoice "${id}" published \\(UNPAID\\): payable at "http://127\\.0\\.0\\.1:\\d+/`))
    expect((await sandbox.get(`/v1/invoices/${id}`)).status).toBe('UNPAID')
    const both = await call(session, 'invoices_create', {...draft, publish: true, channel: 'email'})
    expect(both.structuredContent.invoice.status).toBe('UNPAID')
    const outbox = await sandbox.admin('GET', `/outbox?invoice_id=${both.structuredContent.invoice.id}`)
    expect(outbox.data).toMatchObject([{channel: 'EMAIL'}])
    const got = await call(session, 'invoices_get', {id})
    expect(got.content[0]!.text).toBe(`Invoice "${id}": UNPAID, "Awa Bakery", total 6 300 XAF, 6 300 XAF due by 2026-12-31.`)
  })

  it("service text with control characters: escaped in the summary a person reads, kept as is in the object", async ({startMcp, sandbox}) => {
    // The CLI refuses such a name locally, so the service's answer is where one can come from.
    const name = 'Awa \u001b]0;pwned\u0007\u001b[2J Bakery'
    const invoice = {id: 'inv_test_crafted', status: 'UNPAID', customer_name: name, due_date: '2026-12-31', items: [{name: 'Bread', price: 500, quantity: 1}], total_amount: 500, amount_due: 500}
    const crafted = await startFaultProxy(sandbox.sb.url, [{method: 'GET', path: /^\/v1\/invoices\/inv_test_crafted$/, fault: {kind: 'status', status: 200, body: JSON.stringify(invoice)}}])
    proxy = crafted
    const session = await startMcp([], {...sandbox.env(), SVC_BASE_URL: crafted.url})
    const got = await call(session, 'invoices_get', {id: 'inv_test_crafted'})
    expect(got.isError, got.content[0]!.text).toBeFalsy()
    expect(got.content[0]!.text).toBe('Invoice "inv_test_crafted": UNPAID, "Awa \\u001b]0;pwned\\u0007\\u001b[2J Bakery", total 500 XAF, 500 XAF due by 2026-12-31.')
    expect(got.structuredContent.summary).toBe(got.content[0]!.text)
    expect(got.structuredContent.invoice.customer_name).toBe(name)
    const local = await call(session, 'invoices_create', {...draft, customer_name: name})
    expect(local.structuredContent.error).toMatchObject({field: 'customer_name'})
    expect(local.content[0]!.text).toMatch(/control character/)
  })

  it('bad drafts are tool errors naming the argument; nothing is created', async ({startMcp, sandbox}) => {
    const session = await startMcp()
    const before = (await invoices(sandbox)).length
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{...draft, items: [{name: 'Bread', price: 1500.5}]}, 'items', /item number 1 \("Bread"\): the price must be a whole number of XAF from 0 to [\d ]+; got 1500\.5/],
      [{...draft, items: [{name: 'Bread', price: 50, quantity: 0}]}, 'items', /item number 1 \("Bread"\): the quantity must be a whole number from 1 to 1 000 000; got 0/],
      [{...draft, items: [{name: 'Bread', price: 50}], discount_percent: 0}, 'items', /after discount is 50 XAF: the service refuses invoices under 100 XAF/],
      [{...draft, items: []}, 'items', /needs at least one line item/],
      [{...draft, items: [{name: 'Bread', price: 500, qty: 2}]}, 'items', /^Invalid argument "items" \(nothing was sent\): Unknown argument "qty"; items\[1\] takes: name, description, price, quantity\.$/],
      [{...draft, items: [{name: 'Bread', price: true}]}, 'items', /the price must be a whole number of XAF from 0 to [\d ]+; got true/],
      [{...draft, items: [{name: 'Bread', price: '1.500'}]}, 'items', /the price must be a whole number of XAF from 0 to [\d ]+; got "?1\.500/],
      [{...draft, items: ['Bread:500:3']}, 'items', /item 1 must be an object \{name, description\?, price, quantity\?\}/],
      [{...draft, discount_percent: '10 XAF'}, 'discount_percent', /percentage from 0 to 100/],
      [{...draft, due_date: '2026-02-30'}, 'due_date', /2026-02 has 28 days/],
      [{...draft, customer_email: 'awa@'}, 'customer_email', /email address/],
      [{...draft, customer_phone: '12345'}, 'customer_phone', /Cameroon number/],
      [{...draft, customer_name: '  '}, 'customer_name', /customer name/],
      [{...draft, channel: 'EMAIL'}, 'channel', /add publish/],
      [{...draft, publish: true, channel: 'SMS'}, 'channel', /use EMAIL or WHATSAPP/],
    ]
    for (const [args, field, message] of cases) {
      const result = await call(session, 'invoices_create', args)
      expect(result.isError, JSON.stringify(args)).toBe(true)
      expect(result.structuredContent.error.field, JSON.stringify(args)).toBe(field)
      expect(result.content[0]!.text).toMatch(message)
    }
    expect((await invoices(sandbox)).length).toBe(before)
  })

  it('lists, sends, cancels and fetches the PDF', async ({startMcp, sandbox}) => {
    const session = await startMcp()
    const id = (await call(session, 'invoices_create', {...draft, publish: true})).structuredContent.invoice.id
    const listed = await call(session, 'invoices_list', {status: 'UNPAID', page_size: 100})
    expect(listed.structuredContent.invoices.map((i: any) => i.id)).toContain(id)
    expect((await call(session, 'invoices_list', {page_size: 500})).structuredContent.error).toMatchObject({field: 'page_size'})
    const sent = await call(session, 'invoices_send', {id, channel: 'EMAIL'})
    expect(sent.content[0]!.text).toBe(`Invoice "${id}" sent by EMAIL to "awa@example.com".`)
    const pdf = await call(session, 'invoices_pdf', {id})
    const attachment = pdf.content.find((c) => c.type === 'resource')!
    expect(attachment.resource.mimeType).toBe('application/pdf')
    expect(Buffer.from(attachment.resource.blob, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(pdf.structuredContent.bytes).toBe(Buffer.from(attachment.resource.blob, 'base64').length)
    const cancelled = await call(session, 'invoices_cancel', {id})
    expect(cancelled.content[0]!.text).toBe(`Invoice "${id}" is CANCELLED.`)
    expect((await sandbox.get(`/v1/invoices/${id}`)).status).toBe('CANCELLED')
  })
})

describe('svc mcp: reports', () => {
  it('receivables and collections give the report objects and a summary', async ({startMcp}) => {
    const session = await startMcp()
    const receivables = await call(session, 'reports_receivables', {as_of: '2026-12-31'})
    expect(receivables.isError).toBeFalsy()
    expect(receivables.structuredContent.report).toMatchObject({report: 'receivables', as_of: '2026-12-31', currency: 'XAF'})
    expect(receivables.content[0]!.text).toMatch(/^Receivables as of 2026-12-31: \d+ open invoices?, [\d ]+ XAF still due/)
    const collections = await call(session, 'reports_collections', {since: '1d', by: 'operator'})
    expect(collections.structuredContent.report).toMatchObject({report: 'collections', by: 'operator'})
    expect(collections.content[0]!.text).toMatch(/^Payments from .* collected, success rate/)
    const bad = await call(session, 'reports_collections', {since: 'yesterday'})
    expect(bad.structuredContent.error.field).toBe('since')
  })
})

describe('svc mcp: safety', () => {
  it('a LIVE key: money and customer messages refused without --allow-live-writes; nothing sent; reads and drafts allowed', async ({startMcp, sandbox}) => {
    const live = sandbox.sb.keys.live
    const session = await startMcp([], sandbox.env('live'))
    expect(session.stderr()).toMatch(/LIVE key: tools that move money or tell customers are refused/)
    const before = (await payments(sandbox, live)).length
    const refused = await call(session, 'payments_create', {amount: 5000, phone: '670000001'})
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent.error.code).toBe('live_writes_refused')
    expect(refused.content[0]!.text).toMatch(
      /^Refused: this would collect 5 000 XAF from 237670000001 with a LIVE key \(svc_sk_live_…\w{4}\), and this MCP server was started without --allow-live-writes\. Nothing was sent\.$/,
    )
    expect(JSON.stringify(refused)).not.toContain(live)
    expect((await payments(sandbox, live)).length).toBe(before)
    // A draft tells nobody: allowed. Delivering it is not.
    const created = await call(session, 'invoices_create', {customer_name: 'Live Co', due_date: '2026-12-31', items: [{name: 'Thing', price: 1000}]})
    expect(created.isError).toBeFalsy()
    const id = created.structuredContent.invoice.id
    expect((await call(session, 'invoices_publish', {id, channel: 'WHATSAPP', to_phone: '670000001'})).structuredContent.error.code).toBe('live_writes_refused')
    expect((await call(session, 'invoices_send', {id})).structuredContent.error.code).toBe('live_writes_refused')
    expect((await call(session, 'invoices_cancel', {id})).structuredContent.error.code).toBe('live_writes_refused')
    expect((await sandbox.get(`/v1/invoices/${id}`, live)).status).toBe('DRAFT')
    expect((await sandbox.admin('GET', `/outbox?environment=LIVE&invoice_id=${id}`)).data).toEqual([])
    expect((await call(session, 'payments_list', {limit: 5})).isError).toBeFalsy()
  })

  it('a LIVE key with --allow-live-writes: the payment is sent', async ({startMcp, sandbox}) => {
    const live = sandbox.sb.keys.live
    const session = await startMcp(['--allow-live-writes'], sandbox.env('live'))
    expect(session.stderr()).toMatch(/LIVE key with --allow-live-writes/)
    const result = await call(session, 'payments_create', {amount: 4321, phone: '670000001'})
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent.payment).toMatchObject({environment: 'LIVE', status: 'PENDING', amount: 4321})
    expect((await payments(sandbox, live)).map((p) => p.id)).toContain(result.structuredContent.payment.id)
  })

  it('--read-only offers no write tool, and calling one is refused', async ({startMcp, sandbox}) => {
    const session = await startMcp(['--read-only'])
    const {tools} = await session.client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([...READ_TOOLS].sort())
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true)
    const before = (await payments(sandbox)).length
    await expect(session.client.callTool({name: 'payments_create', arguments: {amount: 5000, phone: '670000001'}})).rejects.toThrow(
      /Tool "payments_create" is not offered: this server was started with --read-only/,
    )
    expect((await payments(sandbox)).length).toBe(before)
  })

  it('the profile and key come from the usual precedence: --api-key of svc mcp over SVC_API_KEY', async ({startMcp, sandbox}) => {
    const session = await startMcp(['--api-key', sandbox.sb.keys.live], sandbox.env('sandbox'))
    expect(session.stderr()).toMatch(/with LIVE key svc_sk_live_…/)
    const none = await startMcp([], {SVC_BASE_URL: sandbox.sb.url})
    expect(none.stderr()).toMatch(/without an API key/)
    const result = await call(none, 'payments_list')
    expect(result.isError).toBe(true)
    expect(result.structuredContent.error.code).toBe('no_api_key')
  })

  it('speaks French when asked: summaries and errors from the catalogue; the objects are the same', async ({startMcp, sandbox}) => {
    const session = await startMcp([], {...sandbox.env(), SVC_LANG: 'fr'})
    const bad = await call(session, 'payments_create', {amount: 50.5, phone: '670000001'})
    expect(bad.content[0]!.text).toMatch(/^Argument « amount » invalide \(rien n’a été envoyé\)/)
    const numbers = await call(session, 'sandbox_test_numbers')
    expect(numbers.content[0]!.text).toMatch(/^10 numéros de test/)
  })
})
