/**
 * The docs' recipes run as written. Every shell block of README.md that a CI job would run, and
 * every `run:` step (and shell block) of docs/ci.md, is run by bash the way a CI runner runs a step
 * (`bash --noprofile --norc -eo pipefail`), against a sandbox, with the built `svc` on PATH. A new
 * block is picked up by itself; a README block that is not for CI (it installs svc, serves in the
 * foreground, logs in to the real service, or listens until stopped) says so on the line before it:
 * `<!-- not a CI recipe: why -->`.
 *
 * docs/ci.md's job is followed step by step: the job's env (SVC_BASE_URL, SVC_SANDBOX_URL,
 * SVC_SANDBOX_ADMIN_TOKEN) points at the sandbox, a step's `>> "$GITHUB_ENV"` reaches the steps after
 * it, `uses:` steps are the runner's, and `npm` is the app's own (its install and tests: a stand-in
 * that records the call and succeeds).
 */
import {spawn} from 'node:child_process'
import {chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {BIN, baseEnv} from '../helpers/cli.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SKIP = /<!--\s*not a CI recipe:\s*(.+?)\s*-->\s*$/

interface Block {
  /** Where it is: file and line. */
  where: string
  script: string
}

/** The shell blocks of a Markdown file, each with its line; `skipped` those marked not for CI. */
export function shellBlocks(file: string): {run: Block[]; skipped: Array<Block & {why: string}>} {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
  const run: Block[] = []
  const skipped: Array<Block & {why: string}> = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(sh|bash|shell)\s*$/.exec(lines[i]!)
    if (!open) continue
    const indent = open[1]!.length
    const body: string[] = []
    let j = i + 1
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++) body.push(lines[j]!.slice(indent))
    const block = {where: `${file}:${i + 1}`, script: body.join('\n')}
    const why = SKIP.exec(lines[i - 1] ?? '')?.[1]
    if (why) skipped.push({...block, why})
    else run.push(block)
    i = j
  }
  return {run, skipped}
}

/** The `run:` steps of a GitHub Actions-style job in a Markdown file's yaml blocks, in order. */
export function runSteps(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
  const steps: Block[] = []
  let inYaml = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (/^```ya?ml\s*$/.test(line)) inYaml = true
    else if (inYaml && /^```\s*$/.test(line)) inYaml = false
    if (!inYaml) continue
    const step = /^(\s*)(?:- )?run: ?(.*)$/.exec(line)
    if (!step) continue
    if (step[2] !== '|') {
      steps.push({where: `${file}:${i + 1}`, script: step[2]!})
      continue
    }
    // A block scalar: the lines indented deeper than the `run:` key, up to the next key or the fence.
    const body: string[] = []
    let indent = -1
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j]!
      const depth = next.length - next.trimStart().length
      if (/^\s*```/.test(next) || (next.trim() !== '' && depth <= step[1]!.length)) break
      if (indent === -1 && next.trim() !== '') indent = depth
      body.push(next.trim() === '' ? '' : next.slice(indent))
    }
    steps.push({where: `${file}:${i + 1}`, script: body.join('\n').trimEnd()})
  }
  return steps
}

interface Outcome {
  code: number | null
  stdout: string
  stderr: string
}

/** Run `script` as a CI runner runs a step. */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d))
    child.stderr.on('data', (d: Buffer) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stdout, stderr}))
  })
}

describe('the docs recipes, run as written against a sandbox', () => {
  // Each document's recipes get a sandbox of their own, as a job gets its service container.
  const sandboxes: TestSandbox[] = []
  const fresh = async () => {
    const started = await startTestSandbox({rateLimit: 0})
    sandboxes.push(started)
    return started
  }
  let dir: string
  let tools: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-recipes-'))
    // `svc` is this clone's build; `npm` is the app's, a stand-in that records what it was asked.
    tools = join(dir, 'bin')
    mkdirSync(tools)
    writeFileSync(join(tools, 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
    writeFileSync(join(tools, 'npm'), `#!/bin/sh\necho "npm $*" >> "${join(dir, 'npm.log')}"\n`)
    chmodSync(join(tools, 'svc'), 0o755)
    chmodSync(join(tools, 'npm'), 0o755)
  })
  afterAll(async () => {
    for (const started of sandboxes) await started.close()
    if (dir) rmSync(dir, {recursive: true, force: true})
  })

  const env = (configDir: string): Record<string, string> => {
    const base = baseEnv(configDir)
    return {...base, PATH: `${tools}:${base.PATH}`, CI: 'true', COLUMNS: '120', SVC_RATE_LIMIT: '0'}
  }

  it("docs/ci.md's job: every run step passes in order, and the key it exports works for the steps after it", {timeout: 180_000}, async () => {
    const {sb} = await fresh()
    const steps = [...runSteps('docs/ci.md'), ...shellBlocks('docs/ci.md').run]
    expect(steps.length).toBeGreaterThanOrEqual(5)
    // The job's checkout: the app, with its own fixtures file, and svc's repository in .svc.
    const job = join(dir, 'job')
    mkdirSync(join(job, '.svc'), {recursive: true})
    mkdirSync(join(job, 'test/fixtures'), {recursive: true})
    copyFileSync(join(ROOT, 'examples/fixtures/shop-week.json'), join(job, 'test/fixtures/shop-week.json'))
    const githubEnv = join(dir, 'github-env')
    writeFileSync(githubEnv, '')
    const jobEnv = {...env(join(dir, 'ci-config')), SVC_BASE_URL: sb.url, SVC_SANDBOX_URL: sb.url, SVC_SANDBOX_ADMIN_TOKEN: sb.adminToken, GITHUB_ENV: githubEnv}
    for (const step of steps) {
      // What earlier steps wrote to $GITHUB_ENV is in the environment of the later ones.
      const exported = Object.fromEntries(
        readFileSync(githubEnv, 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      )
      const outcome = await bash(step.script, job, {...jobEnv, ...exported})
      expect(outcome.code, `${step.where}\n${step.script}\n${outcome.stderr}${outcome.stdout}`).toBe(0)
    }
    // The key the job exported is a whole secret the service takes.
    const key = /^SVC_API_KEY=(.*)$/m.exec(readFileSync(githubEnv, 'utf8'))?.[1] ?? ''
    expect((await fetch(`${sb.url}/v1/payments`, {headers: {'x-api-key': key}})).status).toBe(200)
    expect(JSON.parse(readFileSync(join(job, 'seeded.json'), 'utf8'))).toBeTruthy()
  })

  it("the quick start's npm ci reports nothing: scarf's postinstall, the only analytics ping, is off by the project's own setting", {timeout: 120_000}, async () => {
    // Which dependencies run anything at install: scarf is the only one that reports.
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {packages: Record<string, {hasInstallScript?: boolean}>}
    const scripts = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript).map(([name]) => name.replace(/^.*node_modules\//, ''))
    expect(scripts.sort()).toEqual(['@scarf/scarf', 'better-sqlite3', 'esbuild'])
    // Scarf's postinstall stops before any request when the project being installed (INIT_CWD's
    // package.json) says scarfSettings.enabled: false; running it here is no test (it gives `npm ls`
    // 3 s, which a busy machine does not meet), so: the setting, and the very check that reads it.
    const project = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {scarfSettings?: {enabled?: boolean}}
    expect(project.scarfSettings).toEqual({enabled: false})
    const report = readFileSync(join(ROOT, 'node_modules/@scarf/scarf/report.js'), 'utf8')
    expect(report).toContain('rootPackage.scarfSettings.enabled === false')
    expect(report).toMatch(/if \(userHasOptedOut\(rootPackage\)\) \{\s*return reject\(new Error\('User has opted out'\)\)/)
  })

  it('the README: every shell block a CI job would run passes as written; the others say why they are not for CI', {timeout: 180_000}, async () => {
    const {sb} = await fresh()
    const {run, skipped} = shellBlocks('README.md')
    expect(run.length).toBeGreaterThanOrEqual(2)
    for (const block of skipped) expect(block.why.length, block.where).toBeGreaterThan(10)
    const readmeEnv = {...env(join(dir, 'readme-config')), SVC_BASE_URL: sb.url, SVC_API_KEY: sb.keys.sandbox, SVC_SANDBOX_URL: sb.url, SVC_SANDBOX_ADMIN_TOKEN: sb.adminToken}
    for (const block of run) {
      const outcome = await bash(block.script, ROOT, readmeEnv)
      expect(outcome.code, `${block.where}\n${block.script}\n${outcome.stderr}${outcome.stdout}`).toBe(0)
    }
  })
})
