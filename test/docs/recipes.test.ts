/**
 * The docs' recipes run as written. Every shell block of README.md that a CI job would run, and
 * every job of docs/ci.md (each yaml block's `run:` steps in order; its shell blocks are
 * test/docs/ci-recipes.test.ts's, which runs each against an app of its own), is run
 * by bash the way a CI runner runs a step (`bash --noprofile --norc -eo pipefail`), with the built
 * `svc` on PATH, in a checkout of an app (its own test/fixtures/shop-week.json, svc's examples/ and
 * svc's repository in .svc). A new block is picked up by itself; a README block that is not for CI
 * (it installs svc, serves in the foreground, logs in to the real service, or listens until stopped)
 * says so on the line before it: `<!-- not a CI recipe: why -->`.
 *
 * Each recipe runs on its own: a job's `>> "$GITHUB_ENV"` reaches its later steps; a job with a
 * service container (`services:`) and the README's blocks get a sandbox of their own through the
 * job's env (SVC_BASE_URL, SVC_API_KEY, SVC_SANDBOX_URL, SVC_SANDBOX_ADMIN_TOKEN); the other recipes
 * start their own (`sandbox exec`, `serve --detach`). `uses:` steps are the runner's, and `npm` is the
 * app's own (its install and tests: a stand-in that records the call and succeeds). One liberty: a
 * fixed `--port 8787` runs as `--port 0`, since on a shared machine 8787 may be taken.
 */
import {spawn} from 'node:child_process'
import {chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
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

/** A GitHub Actions-style job of a Markdown file (one yaml block): its `run:` steps in order. */
export interface Job {
  where: string
  steps: Block[]
  /** It runs the sandbox as a service container (`services:`): the job's env points at one. */
  serviceContainer: boolean
}

/** The jobs of a Markdown file's yaml blocks. */
export function jobs(file: string): Job[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
  const out: Job[] = []
  let job: Job | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (/^```ya?ml\s*$/.test(line)) {
      job = {where: `${file}:${i + 1}`, steps: [], serviceContainer: false}
      out.push(job)
      continue
    }
    if (job && /^```\s*$/.test(line)) job = undefined
    if (!job) continue
    if (/^\s*services:/.test(line)) job.serviceContainer = true
    const steps = job.steps
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
  return out
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

  /** A checkout of an app: its fixtures, svc's examples beside them, svc's repository in .svc. */
  const checkout = (name: string) => {
    const job = mkdtempSync(join(dir, `${name}-`))
    mkdirSync(join(job, '.svc'), {recursive: true})
    mkdirSync(join(job, 'test/fixtures'), {recursive: true})
    copyFileSync(join(ROOT, 'examples/fixtures/shop-week.json'), join(job, 'test/fixtures/shop-week.json'))
    symlinkSync(join(ROOT, 'examples'), join(job, 'examples'))
    return job
  }

  /** Run a recipe's steps in order in a fresh checkout, $GITHUB_ENV carried; the env it ended with. */
  const runRecipe = async (name: string, steps: Block[], given: Record<string, string>) => {
    const job = checkout(name)
    const githubEnv = join(job, '.github-env')
    writeFileSync(githubEnv, '')
    const jobEnv = {...env(join(job, '.svc-config')), ...given, GITHUB_ENV: githubEnv}
    const exported = () =>
      Object.fromEntries(
        readFileSync(githubEnv, 'utf8')
          .split('\n')
          .filter((l) => /^\w+=/.test(l))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1).replace(/^'(.*)'$/, '$1')]),
      )
    for (const step of steps) {
      const script = step.script.replace(/--port 8787\b/g, '--port 0')
      const outcome = await bash(script, job, {...jobEnv, ...exported()})
      expect(outcome.code, `${step.where}\n${step.script}\n${outcome.stderr}${outcome.stdout}`).toBe(0)
    }
    // Whatever a recipe left running in the background, stopped (a job's runner would end it).
    await bash('svc sandbox stop --all >/dev/null 2>&1 || true', job, jobEnv)
    return {job, exported: exported()}
  }

  const sandboxEnv = (sb: TestSandbox['sb']) => ({SVC_BASE_URL: sb.url, SVC_API_KEY: sb.keys.sandbox, SVC_SANDBOX_URL: sb.url, SVC_SANDBOX_ADMIN_TOKEN: sb.adminToken})

  it("docs/ci.md: every job passes as written, and the service-container job's exported key works", {timeout: 300_000}, async () => {
    const found = jobs('docs/ci.md')
    expect(found.length).toBeGreaterThanOrEqual(2)
    expect(found.some((job) => job.serviceContainer)).toBe(true)
    let n = 0
    for (const job of found) {
      if (!job.serviceContainer) {
        await runRecipe(`ci-job-${n++}`, job.steps, {})
        continue
      }
      // The service container: a sandbox of the job's own, reached through the job's env (no key: the job makes one).
      const {sb} = await fresh()
      const {SVC_API_KEY: _none, ...env} = sandboxEnv(sb)
      const {job: dirOfJob, exported} = await runRecipe(`ci-job-${n++}`, job.steps, env)
      // The key the job exported is a whole secret the service takes.
      expect((await fetch(`${sb.url}/v1/payments`, {headers: {'x-api-key': exported.SVC_API_KEY ?? ''}})).status).toBe(200)
      expect(JSON.parse(readFileSync(join(dirOfJob, 'seeded.json'), 'utf8'))).toBeTruthy()
    }
  })

  it('the README: every shell block a CI job would run passes as written; the others say why they are not for CI', {timeout: 300_000}, async () => {
    const {run, skipped} = shellBlocks('README.md')
    expect(run.length).toBeGreaterThanOrEqual(2)
    for (const block of skipped) expect(block.why.length, block.where).toBeGreaterThan(10)
    let n = 0
    for (const block of run) await runRecipe(`readme-${n++}`, [block], sandboxEnv((await fresh()).sb))
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
})
