/**
 * What an app developer does with the description: generate types from the sandbox's
 * `/v1/openapi.json` with openapi-typescript's defaults, type-check a merchant's program written
 * with openapi-fetch under `tsc --strict` (examples/openapi-client: collect, poll, list with
 * filters and pages, an invoice from draft to cancelled, a 400 and a 404, and a webhook handler
 * typed from the `webhooks` section), then run it against the sandbox. Tools pinned in
 * package.json, run offline from node_modules; openapi-typescript and the compiler through their
 * APIs in this process (what their CLIs call), the program in a process of its own.
 */
import {copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import openapiTS, {astToString, COMMENT_HEADER} from 'openapi-typescript'
import ts from 'typescript'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {freePort} from '../helpers/fault-proxy.js'
import {NODE_MODULES, runTool} from '../helpers/node-tool.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {createProgram, formatHost, readTsconfig} from '../helpers/type-check.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/openapi-client/', import.meta.url))
const FILES = ['merchant-flow.ts', 'webhook-handler.ts', 'tsconfig.json']

/**
 * What `npx openapi-typescript URL -o api.ts` writes, in this process (the CLI is a start-up around
 * these calls: its comment header, then openapiTS's types with every option at its default,
 * printed by astToString).
 */
async function generate(url: string): Promise<string> {
  return `${COMMENT_HEADER}${astToString(await openapiTS(new URL(url)))}`
}

/**
 * What `tsc -p DIR` does with a tsconfig, in this process (the compiler's API: the same checks and
 * the same JavaScript, without a Node start-up): its messages as tsc prints them, and whether it
 * wrote the JavaScript.
 */
function compile(tsconfig: string): {errors: string; emitted: boolean} {
  const config = readTsconfig(tsconfig)
  const program = createProgram(config.fileNames, config.options, {}, true)
  const diagnostics = [...ts.getPreEmitDiagnostics(program)]
  const emit = program.emit()
  diagnostics.push(...emit.diagnostics)
  return {errors: ts.formatDiagnostics(diagnostics, formatHost(dirname(tsconfig))), emitted: !emit.emitSkipped}
}

let sandbox: TestSandbox
let dir: string

beforeAll(async () => {
  // The rate limit on (the published document then describes RateLimit-* and 429), high enough for the flow's polling.
  sandbox = await startTestSandbox({settleAfterMs: 200, rateLimit: 1000})
  dir = mkdtempSync(join(tmpdir(), 'svc-generated-client-'))
  for (const file of FILES) copyFileSync(join(EXAMPLE, file), join(dir, file))
  symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({type: 'module', private: true}))
})

afterAll(async () => {
  await sandbox?.close()
  if (dir) rmSync(dir, {recursive: true, force: true})
})

describe('a client generated from /v1/openapi.json (openapi-typescript defaults + openapi-fetch)', () => {
  it('generates, compiles under tsc --strict, and runs a merchant flow against the sandbox', async () => {
    writeFileSync(join(dir, 'api.ts'), await generate(`${sandbox.sb.url}/v1/openapi.json`))

    const compiled = compile(join(dir, 'tsconfig.json'))
    expect(compiled.errors).toBe('')
    expect(compiled.emitted).toBe(true)
    // The events are in the types too (OpenAPI 3.1 `webhooks`), not an empty record.
    expect(readFileSync(join(dir, 'api.ts'), 'utf8')).toMatch(/^export interface webhooks \{$/m)

    const port = await freePort()
    // Registered as in the dashboard; the program gets the endpoint's secret.
    const endpoint = await sandbox.admin('POST', '/webhook-endpoints', {url: `http://127.0.0.1:${port}/webhooks`})
    expect(endpoint.secret).toMatch(/^whsec_/)
    const run = await runTool(process.execPath, [join(dir, 'dist/merchant-flow.js')], {
      cwd: dir,
      env: {SVC_BASE_URL: sandbox.sb.url, SVC_API_KEY: sandbox.sb.keys.sandbox, SVC_WEBHOOK_PORT: String(port), SVC_WEBHOOK_SECRET: endpoint.secret},
      timeoutMs: 90_000,
    })
    expect(run.code, run.stderr).toBe(0)
    const summary = JSON.parse(run.stdout)

    const [paid, declined] = summary.payments
    expect(paid).toMatchObject({status: 'SUCCESS', failure_code: null})
    expect(declined).toMatchObject({status: 'FAILED', failure_code: 'CUSTOMER_DECLINED'})
    expect(summary.listed_success).toContain(paid.id)
    expect(summary.listed_success).not.toContain(declined.id)
    expect(summary.invoice).toMatchObject({statuses: ['DRAFT', 'UNPAID', 'CANCELLED'], replayed: 'true', delivered_to: 'awa@example.com'})
    expect(summary.cancelled_invoices).toEqual([summary.invoice.id])
    expect(summary.errors).toEqual([
      {status: 400, code: 'validation_error', fields: ['amount']},
      {status: 404, code: 'not_found'},
    ])
    expect(summary.events).toEqual([
      `${paid.id} SUCCESS: 5000 XAF from 237670000001`,
      `${declined.id} FAILED: CUSTOMER_DECLINED`,
    ])

    // What the server holds agrees with what the program saw.
    const invoice = await sandbox.get(`/v1/invoices/${summary.invoice.id}`)
    expect(invoice).toMatchObject({status: 'CANCELLED', total_amount: 3600, discount_amount: 400})
    const invoices = await sandbox.get('/v1/invoices?page_size=100')
    expect(invoices.data.filter((i: {customer_name: string}) => i.customer_name === 'Awa Bakery')).toHaveLength(1)
    expect((await sandbox.get(`/v1/payments/${declined.id}/status`)).status).toBe('FAILED')
  }, 240_000)
})
