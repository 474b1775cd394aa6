/**
 * The inspector's page script (src/sandbox/inspector/assets/*.ts, browser code) reaches the sandbox
 * only through the admin contract (src/contract/sandbox-admin-routes.ts): its one fetch helper
 * (assets/admin.ts, `api`) takes a route the contract names, with that route's parameters, query
 * and body. Checked twice: the compiler, with the page's own DOM tsconfig (a route outside the
 * contract fails to compile), and a reading of the sources (a path written as a string, a fetch or
 * an EventSource outside the helper, an import from elsewhere).
 */
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'
import {ADMIN_ROUTES} from '../../src/contract/sandbox-admin-routes.js'
import {createProgram, readTsconfig, typeErrors, type TypeError} from '../helpers/type-check.js'
import {importsOf} from './import-graph.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ASSETS = join(ROOT, 'src/sandbox/inspector/assets')
const sources = readdirSync(ASSETS)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => relative(ROOT, join(ASSETS, name)))

/** Type errors of the page script, with `probe` as one more file of it (the compiler API, in memory). */
function pageTypeErrors(probe: string): TypeError[] {
  const config = readTsconfig(join(ASSETS, 'tsconfig.json'))
  const probeFile = join(ASSETS, 'route-probe.ts')
  const program = createProgram([...config.fileNames, probeFile], config.options, {[probeFile]: probe})
  return typeErrors(program, ROOT)
}

/**
 * What a page-script source does outside the contract: a string naming an admin path that is not
 * a route of the contract ('METHOD /_admin/…'), a path built in a template, a fetch or an
 * EventSource anywhere but the helper.
 */
export function outsideTheContract(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const routes = new Set<string>(ADMIN_ROUTES)
  const found: string[] = []
  const where = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const value = node.text
      if (/\/_(admin|inspector)\b/.test(value) && !(ts.isStringLiteralLike(node) && routes.has(value))) found.push(`${where(node)} ${JSON.stringify(value)}`)
    }
    // A request: fetch() only in the helper, an EventSource only of a URL the helper makes (app.ts's live updates).
    const called = ts.isCallExpression(node) || ts.isNewExpression(node) ? node.expression : undefined
    const name = called && (ts.isIdentifier(called) ? called.text : ts.isPropertyAccessExpression(called) ? called.name.text : '')
    if (name && ['fetch', 'sendBeacon', 'XMLHttpRequest', 'WebSocket', 'EventSource'].includes(name)) {
      const helper = file.endsWith('/admin.ts') ? name === 'fetch' : file.endsWith('/app.ts') && name === 'EventSource'
      const url = ts.isNewExpression(node) || ts.isCallExpression(node) ? node.arguments?.[0] : undefined
      const throughHelper = name !== 'EventSource' || (url && ts.isCallExpression(url) && ts.isIdentifier(url.expression) && url.expression.text === 'adminUrl')
      if (!helper || !throughHelper) found.push(`${where(node)} ${name}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('the inspector’s page script calls only routes the admin contract names', () => {
  it('finds the page script', () => {
    expect(sources.length).toBeGreaterThan(5)
    expect(sources).toContain('src/sandbox/inspector/assets/admin.ts')
  })

  it('compiles with its DOM tsconfig, and a route outside the contract does not', () => {
    // One program, the page script and a probe written here (a module: it cannot change the types
    // of another file): the page script compiles clean, each bad call of the probe does not.
    const all = pageTypeErrors(`import {adminUrl, api} from './admin.js'
export async function probe() {
  await api('GET /_admin/requests', {query: {limit: 5}})
  await api('GET /_admin/request')
  await api('POST /_admin/requests/{requestId}/replay')
  await api('PUT /_admin/fees', {body: {mode: 'percent'}})
  await api('GET /_admin/requests', {query: {limt: 5}})
  new EventSource(adminUrl('GET /_admin/inspector/change'))
}
`)
    const probe = 'src/sandbox/inspector/assets/route-probe.ts'
    expect(all.filter((e) => e.file !== probe)).toEqual([])
    const errors = all.filter((e) => e.file === probe)
    // One error on each line after the control (0-based lines 3 to 7), and none elsewhere.
    expect(errors.map((e) => `${e.file}:${e.line}`)).toEqual([3, 4, 5, 6, 7].map((line) => `src/sandbox/inspector/assets/route-probe.ts:${line}`))
    expect(errors[2].message).toMatch(/'value' is missing/)
    expect(errors[3].message).toMatch(/'limt' does not exist/)
  }, 120_000)

  it('writes no admin path outside a route of the contract, and fetches only through the helper', () => {
    const found = sources.flatMap((file) => outsideTheContract(file, readFileSync(join(ROOT, file), 'utf8')))
    expect(found).toEqual([])
    // The reading sees what it must refuse (a control on code written here).
    const bad = outsideTheContract(
      'src/sandbox/inspector/assets/bad.ts',
      "const a = fetch('/_admin/requests')\nconst b = api(`GET /_admin/requests/${id}`)\nconst c = api('GET /_admin/nope')\nconst d = api('GET /_admin/requests')\n",
    )
    expect(bad).toEqual([
      'src/sandbox/inspector/assets/bad.ts:1 fetch',
      'src/sandbox/inspector/assets/bad.ts:1 "/_admin/requests"',
      'src/sandbox/inspector/assets/bad.ts:2 "GET /_admin/requests/"',
      'src/sandbox/inspector/assets/bad.ts:3 "GET /_admin/nope"',
    ])
  })

  it('imports only itself and the admin contract (no package, nothing of Node)', () => {
    const allowed = new Set(['src/contract/sandbox-admin-routes.ts', 'src/contract/sandbox-inspector.ts'])
    const imports = sources.flatMap((file) => importsOf(file)).filter((edge) => !edge.local || !(edge.to.startsWith('src/sandbox/inspector/assets/') || allowed.has(edge.to)))
    expect(imports.map((edge) => `${edge.from} → ${edge.to}`)).toEqual([])
  })
})
