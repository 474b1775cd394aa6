/**
 * The README's commands are real: every `svc …` line in its shell blocks names a command and flags
 * that exist (the manifest `--help` is rendered from), and the quick start's walkthrough runs end
 * to end on this clone, with no key and no network.
 *
 * The quick start's first line is `npm ci && npm run walkthrough`: the suite itself runs after the
 * `npm ci` of the same clone (CI runs exactly the README's test line, checked below), so the test
 * runs the part after it. Running `npm ci` from inside the suite would remove the node_modules the
 * suite is running from.
 */
import {spawn} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'

import {TIME_WARP} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

interface ManifestCommand {
  flags: Record<string, {char?: string; type: 'boolean' | 'option'}>
}
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, ManifestCommand>}

/** The shell blocks of a Markdown text, continuation lines joined, comments dropped. */
export function shellLines(markdown: string): string[] {
  const lines: string[] = []
  for (const block of markdown.matchAll(/^```(?:sh|bash|shell|console)\n([\s\S]*?)^```/gm)) {
    const joined = block[1].replace(/\\\n\s*/g, ' ')
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/^\$ /, '')
      if (line.trim() !== '') lines.push(line)
    }
  }
  return lines
}

/** Shell words, with quotes removed; stops at an unquoted `#` (a comment). */
export function shellWords(line: string): string[] {
  const words: string[] = []
  let word: string | undefined
  let quote: string | undefined
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined
      else word = (word ?? '') + char
    } else if (char === '"' || char === "'") {
      quote = char
      word ??= ''
    } else if (char === '#' && word === undefined) {
      break
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else {
      word = (word ?? '') + char
    }
  }
  if (word !== undefined) words.push(word)
  return words
}

/** Each `svc …` invocation of a line: the words after `svc`, up to `&&`, `|`, `;` or `)`. */
export function svcInvocations(line: string): string[][] {
  const invocations: string[][] = []
  let current: string[] | undefined
  for (const word of shellWords(line)) {
    if (['&&', '||', '|', ';', ')'].includes(word) || word.endsWith(')')) {
      if (current) invocations.push(current)
      current = undefined
    } else if (word === 'svc' || word === '$(svc') {
      if (current) invocations.push(current)
      current = []
    } else if (current) {
      current.push(word)
    }
  }
  if (current) invocations.push(current)
  return invocations
}

/** The global flags that take a value (they may come before the command's words). */
const GLOBAL_OPTIONS = new Set(['--profile', '--api-key', '--base-url', '--lang', '--jq'])

/** What is wrong with one invocation, or undefined: the command and each flag must exist. */
export function checkInvocation(words: string[]): string | undefined {
  const positional: string[] = []
  const flags: string[] = []
  for (let i = 0; i < words.length; i++) {
    const word = words[i]
    // After `--`: another program's command line (`svc sandbox exec -- npm test`).
    if (word === '--') break
    if (word.startsWith('-') && word !== '-') {
      flags.push(word)
      if (GLOBAL_OPTIONS.has(word) && positional.length === 0) i++
    } else {
      positional.push(word)
    }
  }
  let id: string | undefined
  for (let n = positional.length; n > 0 && !id; n--) {
    const candidate = positional.slice(0, n).join(':')
    if (MANIFEST.commands[candidate]) id = candidate
  }
  if (!id) return `no command in "svc ${words.join(' ')}"`
  const command = MANIFEST.commands[id]
  for (const flag of flags) {
    if (flag.startsWith('--')) {
      const name = flag.slice(2).split('=')[0]
      const negated = name.startsWith('no-') ? name.slice(3) : undefined
      if (!command.flags[name] && !(negated && command.flags[negated])) return `"svc ${id.replaceAll(':', ' ')}" has no flag --${name}`
    } else {
      const char = flag.slice(1, 2)
      if (!Object.values(command.flags).some((f) => f.char === char)) return `"svc ${id.replaceAll(':', ' ')}" has no flag -${char}`
    }
  }
  return undefined
}

describe("the README's svc commands", () => {
  const invocations = shellLines(README).flatMap(svcInvocations)

  it('finds them', () => {
    expect(invocations.length).toBeGreaterThan(20)
  })

  it('each names a command and flags that exist', () => {
    const problems = invocations.map(checkInvocation).filter((p) => p !== undefined)
    expect(problems).toEqual([])
  })

  it('the check itself sees a missing command and a missing flag', () => {
    expect(checkInvocation(['pay', 'list', '--status', 'FAILED'])).toBeUndefined()
    expect(checkInvocation(['--profile', 'local', 'pay', 'create', '--amount', '5000'])).toBeUndefined()
    expect(checkInvocation(['pay', 'lists'])).toMatch(/no command/)
    expect(checkInvocation(['sandbox', 'exec', '--fixtures', 'f.json', '--', 'npm', 'test', '--watch'])).toBeUndefined()
    expect(checkInvocation(['pay', 'list', '--statuses', 'FAILED'])).toMatch(/no flag --statuses/)
    expect(svcInvocations('svc a --b "c d" && svc e # svc f')).toEqual([['a', '--b', 'c d'], ['e']])
  })
})

describe('installing svc, as the docs say it', () => {
  // svc is not published to a registry: a documented `npm install svc-momo-cli@…` (or `npx
  // svc-momo-cli`) fails at its first step. Every install in the README and docs/ names the packed
  // tarball or the clone.
  const pages = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f))]

  it('never installs svc from a registry', () => {
    const fromRegistry = pages.flatMap((page) =>
      readFileSync(page, 'utf8')
        .split('\n')
        .filter((line) => /\b(?:npm (?:install|i)|npx)\b[^\n#]*\bsvc-momo-cli(?!-[\d.]+\.tgz)/.test(line))
        .map((line) => `${page.slice(ROOT.length)}: ${line.trim()}`),
    )
    expect(fromRegistry).toEqual([])
  })
})

describe("the README's quick start", () => {
  const block = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? ''
  const commands = block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean)

  it('is two command lines, the second the one CI runs', () => {
    expect(commands).toHaveLength(2)
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toContain(`\n${commands[1]}\n`)
  })

  it('runs the walkthrough end to end: no key, no network, exit 0', async () => {
    expect(commands[0]).toMatch(/^npm ci && /)
    const rest = commands[0].replace(/^npm ci && /, '')
    const configDir = tempConfigDir()
    // The tour waits for its payments to settle (a second each, its default) and polls them: its
    // time, and npm's, run 4 times faster (test/helpers/child-time-warp.mjs, from the start; its
    // patience of 30 s is then 7.5 s of real time).
    const warp = {NODE_OPTIONS: `--import=${TIME_WARP.preload}`, SVC_TEST_TIME_WARP: '4', SVC_TEST_TIME_WARP_FROM_START: '1'}
    const result = await new Promise<{code: number | null; out: string; err: string}>((resolve, reject) => {
      const child = spawn('sh', ['-c', rest], {
        cwd: ROOT,
        // No key, no profile, no proxy: what a fresh clone's user has.
        env: {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: configDir.dir, SVC_CONFIG_DIR: configDir.dir, LANG: 'C.UTF-8', CI: '1', ...warp},
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      let err = ''
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
      child.on('error', reject)
      child.on('close', (code) => resolve({code, out, err}))
    })
    configDir.cleanup()
    expect(result.err).not.toMatch(/did not behave as the spec says/)
    expect(result.code, result.err).toBe(0)
    expect(result.out).toMatch(/SUCCESS/)
    expect(result.out).toMatch(/FAILED/)
  }, 120_000)
})
