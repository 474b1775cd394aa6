/**
 * The description as linters see it: Redocly's `recommended` rules and Spectral's `spectral:oas`
 * on the sandbox's `/v1/openapi.json` (rate limit on, as `svc sandbox serve` runs), both pinned in
 * package.json and run offline from node_modules: no error and no warning. With the rate limit off
 * (`--rate-limit 0`) the one warning left is explained in docs/openapi.md. A document with known
 * faults is linted too, so this test can fail.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runTool} from '../helpers/node-tool.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sandbox: TestSandbox
let dir: string
let document: Record<string, any>

interface Finding {
  tool: string
  rule: string
  severity: string
  where: string
  message: string
}

async function redocly(file: string): Promise<Finding[]> {
  const r = await runTool('redocly', ['lint', file, '--format', 'json', '--config', join(dir, 'redocly.yaml')], {cwd: dir})
  const json = r.stdout.slice(r.stdout.indexOf('{'))
  const report = JSON.parse(json) as {problems: Array<{ruleId: string; severity: string; message: string; location: Array<{pointer: string}>}>}
  return report.problems.map((p) => ({tool: 'redocly', rule: p.ruleId, severity: p.severity, where: p.location[0]?.pointer ?? '', message: p.message}))
}

async function spectral(file: string): Promise<Finding[]> {
  const r = await runTool('spectral', ['lint', file, '--ruleset', join(dir, 'spectral.yaml'), '--format', 'json', '--quiet'], {cwd: dir})
  const json = r.stdout.slice(r.stdout.indexOf('['))
  const results = JSON.parse(json) as Array<{code: string; severity: number; message: string; path: string[]}>
  const severities = ['error', 'warn', 'info', 'hint']
  return results.map((p) => ({tool: 'spectral', rule: p.code, severity: severities[p.severity], where: p.path.join('.'), message: p.message}))
}

beforeAll(async () => {
  sandbox = await startTestSandbox({rateLimit: 100})
  dir = mkdtempSync(join(tmpdir(), 'svc-openapi-lint-'))
  writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n')
  writeFileSync(join(dir, 'spectral.yaml'), 'extends: ["spectral:oas"]\n')
  document = (await (await fetch(`${sandbox.sb.url}/v1/openapi.json`)).json()) as Record<string, any>
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document, null, 2))
})

afterAll(async () => {
  await sandbox?.close()
  if (dir) rmSync(dir, {recursive: true, force: true})
})

describe('/v1/openapi.json under third-party linters', () => {
  it("Redocly recommended: 0 errors, 0 warnings", async () => {
    expect(await redocly('openapi.json')).toEqual([])
  }, 60_000)

  it('Spectral spectral:oas: 0 errors, 0 warnings', async () => {
    expect(await spectral('openapi.json')).toEqual([])
  }, 60_000)

  it('with the rate limit off: only the warning docs/openapi.md explains (GET /v1/openapi.json then has no 4XX answer)', async () => {
    const unlimited = await startTestSandbox({rateLimit: 0})
    try {
      writeFileSync(join(dir, 'unlimited.json'), await (await fetch(`${unlimited.sb.url}/v1/openapi.json`)).text())
    } finally {
      await unlimited.close()
    }
    const found = [...(await redocly('unlimited.json')), ...(await spectral('unlimited.json'))]
    expect(found.map(({tool, rule, where}) => `${tool} ${rule} ${where}`)).toEqual(['redocly operation-4xx-response #/paths/~1v1~1openapi.json/get/responses'])
  }, 90_000)

  it('control: both report an example that breaks its schema (so the checks above can fail)', async () => {
    const broken = structuredClone(document)
    broken.paths['/v1/payments'].post.requestBody.content['application/json'].example = {amount: 'five thousand'}
    delete broken.paths['/v1/payments'].post.requestBody.content['application/json'].examples
    writeFileSync(join(dir, 'broken.json'), JSON.stringify(broken, null, 2))
    expect((await redocly('broken.json')).map((f) => f.rule)).toContain('no-invalid-media-type-examples')
    expect((await spectral('broken.json')).map((f) => f.rule)).toContain('oas3-valid-media-example')
  }, 60_000)
})
