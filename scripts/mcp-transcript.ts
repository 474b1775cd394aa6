// The transcript in docs/mcp.md: a real session of the MCP SDK's own Client with the built
// `svc mcp` (bin/run.cjs, after `npm run build`) against a local sandbox started here, every
// JSON-RPC message recorded as it crossed stdio. Prints Markdown on stdout.
//   npm run build && npx tsx scripts/mcp-transcript.ts > /tmp/transcript.md
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'

import {startSandbox} from '../src/sandbox/index.js'

const bin = fileURLToPath(new URL('../bin/run.cjs', import.meta.url))
const configDir = mkdtempSync(join(tmpdir(), 'svc-mcp-transcript-'))
const sandbox = await startSandbox({port: 0, rateLimit: 0, settleAfterMs: 500, seed: 42})

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, 'mcp'],
  env: {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: configDir, LANG: 'C.UTF-8', SVC_CONFIG_DIR: configDir, SVC_API_KEY: sandbox.keys.sandbox, SVC_BASE_URL: sandbox.url},
  stderr: 'pipe',
})
let stderr = ''
;(transport.stderr as NodeJS.ReadableStream | null)?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))

const out: string[] = []
/** Each message as it went over the wire (one JSON document per line), pretty-printed here. */
function record(direction: '→' | '←', message: JSONRPCMessage, abridge?: (m: any) => unknown): void {
  out.push(`${direction} ${JSON.stringify(abridge ? abridge(message) : message, null, 2)}`)
}
let abridgeNext: ((m: any) => unknown) | undefined
const send = transport.send.bind(transport)
transport.send = async (message) => {
  record('→', message)
  return send(message)
}

// Incoming messages: the client sets its handler just before it starts the transport.
const start = transport.start.bind(transport)
transport.start = async () => {
  const handle = transport.onmessage!
  transport.onmessage = (message) => {
    record('←', message, abridgeNext)
    abridgeNext = undefined
    handle(message)
  }
  return start()
}
const client = new Client({name: 'transcript', version: '1.0.0'})

/** One titled step: the messages it exchanged, in a code block. */
async function step<T>(title: string, run: () => Promise<T>): Promise<T> {
  out.push(`### ${title}\n`, '```json')
  const result = await run()
  out.push('```\n')
  return result
}

await step('Initialisation', () => client.connect(transport))
await step('The tools (abridged here: the first in full, then every other name)', () => {
  abridgeNext = (m) => ({...m, result: {tools: [m.result.tools[0], ...m.result.tools.slice(1).map((t: {name: string}) => `… ${t.name}`)]}})
  return client.listTools()
})
await step('A decimal amount: refused, nothing sent', () =>
  client.callTool({name: 'payments_create', arguments: {amount: '12.500', phone: '+237 6 90 00 00 01'}}),
)
const created = (await step('A payment to a sandbox test number', () =>
  client.callTool({name: 'payments_create', arguments: {amount: '12 500', phone: '+237 6 90 00 00 01'}}),
)) as unknown as {structuredContent: {payment: {id: string}}}
await step('Waiting for it', () => client.callTool({name: 'payments_wait', arguments: {id: created.structuredContent.payment.id, interval: '500ms'}}))
await step('An invoice, published at once', () =>
  client.callTool({
    name: 'invoices_create',
    arguments: {
      customer_name: 'Awa Bakery',
      due_date: '2026-12-31',
      items: [
        {name: 'Bread', price: 500, quantity: 3},
        {name: 'Cake', price: '2 500'},
      ],
      discount_percent: 10,
      publish: true,
    },
  }),
)

await client.close()
await sandbox.close()
rmSync(configDir, {recursive: true, force: true})

process.stdout.write(`${out.join('\n')}\n\nThe server's stderr:\n\n\`\`\`text\n${stderr.replaceAll(sandbox.keys.sandbox, '«key»')}\`\`\`\n`)
