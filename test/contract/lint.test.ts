/**
 * The description as linters see it: Redocly's `recommended` rules and Spectral's `spectral:oas`
 * on the sandbox's `/v1/openapi.json` (rate limit on, as `svc sandbox serve` runs), both pinned in
 * package.json and run offline from node_modules: no error and no warning. With the rate limit off
 * (`--rate-limit 0`) the one warning left is explained in docs/openapi.md. A document with known
 * faults is linted too, so this test can fail. Each tool lints the three documents in one run (its
 * start-up, its rulesets, ~0.5 s of CPU for Redocly and ~1 s for Spectral, paid once), and the tests
 * read what it found in each.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {basename, join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runTool} from '../helpers/node-tool.js'
import {startTestSandbox} from '../helpers/sandbox.js'

let dir: string
let document: Record<string, any>
/** What each tool found, by file linted. */
let findings: Record<'redocly' | 'spectral', Record<string, Finding[]>>

interface Finding {
  tool: string
  rule: string
  severity: string
  where: string
  message: string
}

/** The documents linted: each tool lints them all in one run (a run's start-up is most of its cost). */
const FILES = ['openapi.json', 'unlimited.json', 'broken.json']

/** The JSON values one after the other in `text` (Redocly writes one report per file, back to back). */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = []
  let depth = 0
  let start = -1
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i
    } else if ((c === '}' || c === ']') && --depth === 0) values.push(JSON.parse(text.slice(start, i + 1)))
  }
  return values
}

async function redocly(files: string[]): Promise<Record<string, Finding[]>> {
  const r = await runTool('redocly', ['lint', ...files, '--format', 'json', '--config', join(dir, 'redocly.yaml')], {cwd: dir})
  const reports = jsonValues(r.stdout.slice(r.stdout.indexOf('{'))) as Array<{problems: Array<{ruleId: string; severity: string; message: string; location: Array<{pointer: string; source: {ref: string}}>}>}>
  // One report per file, in the order given; each problem also names its file.
  expect(reports, r.stderr).toHaveLength(files.length)
  return Object.fromEntries(
    files.map((file, i) => [
      file,
      reports[i]!.problems.map((p) => {
        expect(p.location[0]?.source.ref).toBe(file)
        return {tool: 'redocly', rule: p.ruleId, severity: p.severity, where: p.location[0]?.pointer ?? '', message: p.message}
      }),
    ]),
  )
}

async function spectral(files: string[]): Promise<Record<string, Finding[]>> {
  const r = await runTool('spectral', ['lint', ...files, '--ruleset', join(dir, 'spectral.yaml'), '--format', 'json', '--quiet'], {cwd: dir})
  const json = r.stdout.slice(r.stdout.indexOf('['))
  const results = JSON.parse(json) as Array<{code: string; severity: number; message: string; path: string[]; source: string}>
  const severities = ['error', 'warn', 'info', 'hint']
  const byFile: Record<string, Finding[]> = Object.fromEntries(files.map((file) => [file, []]))
  for (const p of results) {
    const file = basename(p.source)
    expect(files, p.source).toContain(file)
    byFile[file]!.push({tool: 'spectral', rule: p.code, severity: severities[p.severity]!, where: p.path.join('.'), message: p.message})
  }
  return byFile
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-openapi-lint-'))
  writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n')
  writeFileSync(join(dir, 'spectral.yaml'), 'extends: ["spectral:oas"]\n')
  // As `svc sandbox serve` runs (rate limit on), and with the rate limit off (`--rate-limit 0`).
  for (const [rateLimit, file] of [[100, 'openapi.json'], [0, 'unlimited.json']] as const) {
    const sandbox = await startTestSandbox({rateLimit})
    try {
      const text = await (await fetch(`${sandbox.sb.url}/v1/openapi.json`)).text()
      if (rateLimit > 0) document = JSON.parse(text) as Record<string, any>
      writeFileSync(join(dir, file), rateLimit > 0 ? JSON.stringify(document, null, 2) : text)
    } finally {
      await sandbox.close()
    }
  }
  // The control: an example that breaks its schema.
  const broken = structuredClone(document)
  broken.paths['/v1/payments'].post.requestBody.content['application/json'].example = {amount: 'five thousand'}
  delete broken.paths['/v1/payments'].post.requestBody.content['application/json'].examples
  writeFileSync(join(dir, 'broken.json'), JSON.stringify(broken, null, 2))
  const [byRedocly, bySpectral] = await Promise.all([redocly(FILES), spectral(FILES)])
  findings = {redocly: byRedocly, spectral: bySpectral}
}, 120_000)

afterAll(() => {
  if (dir) rmSync(dir, {recursive: true, force: true})
})

describe('/v1/openapi.json under third-party linters', () => {
  it('Redocly recommended: 0 errors, 0 warnings', () => {
    expect(findings.redocly['openapi.json']).toEqual([])
  })

  it('Spectral spectral:oas: 0 errors, 0 warnings', () => {
    expect(findings.spectral['openapi.json']).toEqual([])
  })

  it('with the rate limit off: only the warning docs/openapi.md explains (GET /v1/openapi.json then has no 4XX answer)', () => {
    const found = [...findings.redocly['unlimited.json']!, ...findings.spectral['unlimited.json']!]
    expect(found.map(({tool, rule, where}) => `${tool} ${rule} ${where}`)).toEqual(['redocly operation-4xx-response #/paths/~1v1~1openapi.json/get/responses'])
  })

  it('control: both report an example that breaks its schema (so the checks above can fail)', () => {
    expect(findings.redocly['broken.json']!.map((f) => f.rule)).toContain('no-invalid-media-type-examples')
    expect(findings.spectral['broken.json']!.map((f) => f.rule)).toContain('oas3-valid-media-example')
  })
})
