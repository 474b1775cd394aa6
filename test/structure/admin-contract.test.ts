/**
 * The admin surface is one contract (src/contract/sandbox-admin-routes.ts) shared by the sandbox,
 * which registers its `/_admin` routes through it (src/sandbox/admin/route.ts), and the CLI's
 * stand-ins, which call them through it (src/lib/sandbox-admin/admin.ts): a route renamed, or a request
 * or an answer changed, on one side only fails the type check.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'
import {ADMIN_ROUTES} from '../../src/contract/sandbox-admin-routes.js'
import type {AdminClient} from '../../src/lib/sandbox-admin/admin.js'
import {addAdminRoute} from '../../src/sandbox/admin/route.js'
import type {Router} from '../../src/sandbox/router.js'
import {startTestSandbox} from '../helpers/sandbox.js'
import {createProgram, typeErrors, type TypeError} from '../helpers/type-check.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

describe('the sandbox serves exactly the routes of the admin contract', () => {
  it('every /_admin route it registers is in the contract, and every route of the contract is registered', async () => {
    let router: Router | undefined
    const sandbox = await startTestSandbox({domains: [(ctx) => void (router = ctx.router)]})
    try {
      const served = router!
        .routes()
        .filter((route) => route.path === '/_admin' || route.path.startsWith('/_admin/'))
        .map((route) => `${route.method} ${route.path}`)
      expect(served.length).toBeGreaterThan(50)
      expect([...served].sort()).toEqual([...ADMIN_ROUTES].sort())
    } finally {
      await sandbox.close()
    }
  })
})

/**
 * Type errors of probe files compiled together with the repository's tsconfig (the compiler API, in
 * memory, one program): the same check `tsc --noEmit` makes, on a route that is not in the contract.
 * Each probe is a module of its own (one cannot change another's types); its errors are its own.
 */
function typeErrorsOf(probes: Record<string, string>): Record<string, TypeError[]> {
  const config = ts.parseJsonConfigFileContent(JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')), ts.sys, ROOT)
  const files = Object.fromEntries(Object.entries(probes).map(([name, text]) => [join(ROOT, `test/structure/${name}.ts`), text]))
  const program = createProgram(Object.keys(files), config.options, files, true)
  return Object.fromEntries(Object.keys(probes).map((name) => [name, typeErrors(program, ROOT, program.getSourceFile(join(ROOT, `test/structure/${name}.ts`))!)]))
}

const PROBE_HEAD = `
import type {AdminClient} from '../../src/lib/sandbox-admin/admin.js'
import {addAdminRoute} from '../../src/sandbox/admin/route.js'
import type {Router} from '../../src/sandbox/router.js'
declare const admin: AdminClient
declare const router: Router
export async function probe() {
`

describe('a route or a request that is not the contract\'s fails the type check', () => {
  it('on both sides (the compiler, on a probe file)', () => {
    const {'admin-contract-control': errors, 'admin-contract-mismatch': mismatched} = typeErrorsOf({
      'admin-contract-control': `${PROBE_HEAD}
  const keys = await admin.call('GET /_admin/keys', {query: {environment: 'SANDBOX'}})
  keys.data.map((key) => key.id)
  addAdminRoute(router, 'GET /_admin/clock', {handler: () => ({status: 200, body: {now: '', now_ms: 0, offset_ms: 0, pending_tasks: 0}})})
}`,
      'admin-contract-mismatch': `${PROBE_HEAD}
  await admin.call('GET /_admin/key')
  await admin.call('POST /_admin/keys', {body: {env: 'SANDBOX'}})
  await admin.call('POST /_admin/keys/{keyId}/revoke')
  addAdminRoute(router, 'GET /_admin/clocks', {handler: () => ({status: 200})})
  addAdminRoute(router, 'GET /_admin/clock', {handler: () => ({status: 200, body: {now: 1}})})
}`,
    })
    // The control: the same calls along the contract compile.
    expect(errors).toEqual([])

    // One error on each of the five lines (0-based: the probe's head takes lines 0 to 7).
    expect(mismatched.map((error) => error.line)).toEqual([8, 9, 10, 11, 12])
    expect(mismatched[1].message).toMatch(/'env' does not exist/)
    expect(mismatched[3].message).toMatch(/"GET \/_admin\/clocks"/)
    expect(mismatched[4].message).toMatch(/number' is not assignable to type 'string'/)
  }, 60_000)
})

/** The same mismatches, checked by `tsc --noEmit` itself: each line below must fail to compile. Never called. */
export async function mismatchesTscRefuses(admin: AdminClient, router: Router): Promise<void> {
  // @ts-expect-error a path the contract does not have
  await admin.call('GET /_admin/key')
  // @ts-expect-error a body field the route does not take
  await admin.call('POST /_admin/keys', {body: {env: 'SANDBOX'}})
  // @ts-expect-error a route with a parameter called without it
  await admin.call('POST /_admin/keys/{keyId}/revoke')
  // @ts-expect-error the sandbox registering a route the contract does not have
  addAdminRoute(router, 'GET /_admin/clocks', {handler: () => ({status: 200})})
  // @ts-expect-error the sandbox answering what the contract does not say
  addAdminRoute(router, 'GET /_admin/clock', {handler: () => ({status: 200, body: {now: 1}})})
}

describe('the stand-ins reach the admin surface only through the contract', () => {
  it('the admin client has no call by free-form path', () => {
    const source = readFileSync(join(ROOT, 'src/lib/sandbox-admin/admin.ts'), 'utf8')
    const client = source.slice(source.indexOf('export interface AdminClient'), source.indexOf('}', source.indexOf('export interface AdminClient')))
    expect(client).toMatch(/call<R extends AdminRoute>\(route: R/)
    expect(client).not.toMatch(/path: string/)
  })
})
