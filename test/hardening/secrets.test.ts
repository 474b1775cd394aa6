/**
 * Secret hygiene, measured: a canary key minted in the sandbox (so requests succeed) and a canary
 * webhook endpoint secret run through every command family, with --verbose traces, --json, errors
 * (404, 409, 401 with a revoked canary, a 500 whose body echoes the key) and the files commands
 * write (results, PDFs, event logs, caches in the config dir). The canaries must never appear
 * whole anywhere except config.json, sandboxes.json and, for a key no profile holds (SVC_API_KEY),
 * its webhook scope's secrets.json (0600, where keys are meant to be).
 */
import {existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, onTestFinished} from 'vitest'

import {runCli, type CliResult} from '../helpers/cli.js'
import {skippingClock} from '../helpers/clock.js'
import {startFaultProxy} from '../helpers/fault-proxy.js'
import {runInProcess} from '../helpers/in-process.js'
import {generateSecret} from '../../src/contract/signature.js'
import {freshSandbox, it, makeInvoice, type TestSandbox} from './fixtures.js'

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

let sb: TestSandbox
let dir: string
let canary: string
let revoked: string
const endpointSecret = generateSecret()
const outputs: Array<{args: string[]; result: CliResult}> = []
// The sandbox and the in-process runs on one clock that jumps through the runs' waits (a watch's
// interval, a retry's backoff, the trigger's wait for its event), firing the sandbox's settlements
// on the way: no real wait.
const clock = skippingClock()

/** The test's sandbox and directory (fixtures), the canary keys minted in it, and the logo to upload. */
async function setUp(fresh: TestSandbox, tmp: string): Promise<void> {
  sb = fresh
  dir = tmp
  canary = (await sb.admin('POST', '/keys', {environment: 'sandbox'})).secret
  const other = await sb.admin('POST', '/keys', {environment: 'sandbox'})
  await sb.admin('POST', `/keys/${other.id}/revoke`)
  revoked = other.secret
  expect(canary).toMatch(/^svc_sk_test_/)
  writeFileSync(join(dir, 'logo.png'), PNG)
}

const configDir = () => join(dir, 'config')

/**
 * One command, in-process (what is checked is its output and the files it writes); `spawn` runs it
 * as a child, for a global flag before the command (oclif's own parsing, which the in-process
 * runner does not do).
 */
async function run(args: string[], options: {env?: Record<string, string | undefined>; input?: string; code?: number; spawn?: boolean} = {}): Promise<CliResult> {
  const result = await (options.spawn ? runCli : runInProcess)(args, {
    configDir: configDir(),
    env: {SVC_API_KEY: canary, SVC_BASE_URL: sb.sb.url, SVC_RATE_LIMIT: '0', ...options.env},
    input: options.input,
    clock: options.spawn ? undefined : clock,
  })
  outputs.push({args, result})
  if (options.code !== undefined) expect(result.exitCode, `svc ${args.join(' ')}\n${result.stderr}`).toBe(options.code)
  return result
}

function filesUnder(root: string): string[] {
  if (!existsSync(root)) return []
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('secrets never appear whole', () => {
  it('a canary key through every command family, with --verbose, --json and error paths', async ({dir: tmp}) => {
    const fresh = await freshSandbox(clock)
    onTestFinished(() => fresh.close())
    await setUp(fresh, tmp)
    const v = '--verbose'
    const created = JSON.parse((await run(['pay', 'create', '--amount', '2500', '--phone', '670000001', '--json', v], {code: 0})).stdout)
    await run(['pay', 'status', created.id, v], {code: 0})
    await run(['pay', 'watch', created.id, '--interval', '250ms', v], {code: 0})
    await run(['pay', 'list', '--limit', '3', '--json', v], {code: 0})
    await run(['pay', 'status', 'svcpay_test_missing', v, '--json'], {code: 4})
    const invoice = JSON.parse((await run(['invoice', 'create', '--customer-name', 'Canary', '--due-date', '2099-12-31', '--item', 'Bread:500:3', '--email', 'c@example.com', '--cover', join(dir, 'logo.png'), '--json', v], {code: 0})).stdout)
    await run(['invoice', 'get', invoice.id, v], {code: 0})
    await run(['invoice', 'pdf', invoice.id, '-o', join(dir, 'draft.pdf'), v], {code: 5})
    await run(['invoice', 'publish', invoice.id, '--channel', 'EMAIL', v], {code: 0})
    await run(['invoice', 'send', invoice.id, v], {code: 0})
    await run(['invoice', 'pdf', invoice.id, '-o', join(dir, 'invoice.pdf'), v], {code: 0})
    await run(['invoice', 'cancel', invoice.id, v], {code: 0})
    await run(['invoice', 'list', '--json', v], {code: 0})
    writeFileSync(join(dir, 'rows.csv'), 'customer_name,due_date,items\nRow,2099-12-31,Tea:300:2\nBad,nope,Tea:300:2\n')
    await run(['invoice', 'import', join(dir, 'rows.csv'), '--skip-invalid', v], {code: 0})
    await run(['invoice', 'import', join(dir, 'rows.csv'), '--skip-invalid', '--results', join(dir, 'results.jsonl'), '--json', v], {code: 0})
    await run(['files', 'upload', join(dir, 'logo.png'), v], {code: 0})
    await run(['api', 'GET', '/v1/payments', '-i', '-F', 'limit=1', v], {code: 0})
    await run(['openapi', '--operations', v], {code: 0})
    await run(['report', 'collections', '--csv', v], {code: 0})
    await run(['report', 'receivables', '--json', v], {code: 0})
    await run(['webhooks', 'trigger', 'payment.success', v], {code: 0})
    // The key as a flag, and from a profile saved by login.
    await run(['--api-key', canary, 'pay', 'list', v], {code: 0, env: {SVC_API_KEY: undefined}, spawn: true})
    await run(['login', '--api-key-stdin', '--profile', 'canary', '--base-url', sb.sb.url, v], {code: 0, env: {SVC_API_KEY: undefined}, input: `${canary}\n`})
    await run(['profiles', 'list', '--json'], {code: 0, env: {SVC_API_KEY: undefined}})
    await run(['profiles', 'show', 'canary'], {code: 0, env: {SVC_API_KEY: undefined}})
    await run(['--profile', 'canary', 'pay', 'list', v], {code: 0, env: {SVC_API_KEY: undefined}, spawn: true})
    // A revoked canary: the 401 must not echo it.
    await run(['pay', 'list', v], {code: 3, env: {SVC_API_KEY: revoked}})
    await run(['pay', 'list', '--json', v], {code: 3, env: {SVC_API_KEY: revoked}})
    await run(['login', '--api-key-stdin', '--profile', 'revoked', '--base-url', sb.sb.url, v], {code: 3, env: {SVC_API_KEY: undefined}, input: revoked})
    // The webhook endpoint secret, given on stdin.
    await run(['webhooks', 'listen', '--endpoint-secret-stdin', v], {code: 0, input: `${endpointSecret}\n`})
    await run(['webhooks', 'listen', '--endpoint-secret-stdin', '--json'], {code: 0, input: endpointSecret})

    // A server that echoes the key in its error body (and a header), answered through a proxy.
    const proxy = await startFaultProxy(sb.sb.url, [
      {method: 'GET', path: /^\/v1\/payments$/, times: 10, fault: {kind: 'status', status: 500, body: JSON.stringify({message: `internal error for key ${canary}`, code: 'server_error', errors: [{field: 'x-api-key', message: `bad ${canary}`}]}), headers: {'x-echo-key': canary}}},
    ])
    try {
      await run(['pay', 'list', v], {code: 7, env: {SVC_BASE_URL: proxy.url, SVC_MAX_RETRIES: '1', SVC_TIMEOUT: '2s'}})
      await run(['pay', 'list', '--json', v], {code: 7, env: {SVC_BASE_URL: proxy.url, SVC_MAX_RETRIES: '0'}})
      await run(['api', 'GET', '/v1/payments', '-i', v], {code: 7, env: {SVC_BASE_URL: proxy.url, SVC_MAX_RETRIES: '0'}})
    } finally {
      await proxy.close()
    }

    // Every captured stream: no canary whole; the masked form is what shows.
    for (const {args, result} of outputs) {
      for (const secret of [canary, revoked, endpointSecret]) {
        expect(result.stdout, `stdout of svc ${args.join(' ')}`).not.toContain(secret)
        expect(result.stderr, `stderr of svc ${args.join(' ')}`).not.toContain(secret)
      }
    }
    const verbose = outputs.filter((o) => o.args.includes('--verbose') && o.result.exitCode === 0).map((o) => o.result.stderr).join('\n')
    expect(verbose).toContain(`svc_sk_test_…${canary.slice(-4)}`)

    // Every file written (results, PDFs, caches, event logs), but the files meant for keys (0600).
    const forKeys = /\/config\/((config|sandboxes)\.json|webhooks\/[^/]+\/secrets\.json)$/
    for (const path of filesUnder(dir).filter((p) => forKeys.test(p))) expect(statSync(path).mode & 0o777, path).toBe(0o600)
    const written = [...filesUnder(dir)].filter((path) => !forKeys.test(path))
    expect(written.length).toBeGreaterThan(5)
    for (const path of written) {
      const content = readFileSync(path).toString('latin1')
      for (const secret of [canary, revoked, endpointSecret]) expect(content, path).not.toContain(secret)
    }
    // The keys that are saved are in a 0600 file.
    const config = join(configDir(), 'config.json')
    expect(readFileSync(config, 'utf8')).toContain(canary)
    expect(statSync(config).mode & 0o777).toBe(0o600)
  }, 150_000)
})
