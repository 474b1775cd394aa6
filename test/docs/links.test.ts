/**
 * The README and docs/ stand alone in a clone: every relative link and every repository path they
 * name exists, and they carry nothing of the machine or the history they were written on
 * (a machine's folder, a commit hash, labels such as "part 2" or "this round").
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** README.md and every Markdown page under docs/. */
export function docFiles(): string[] {
  const files = [join(ROOT, 'README.md')]
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, {withFileTypes: true})) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.md')) files.push(path)
    }
  }
  walk(join(ROOT, 'docs'))
  return files
}

/** Markdown links and images whose target is a relative path: `[text](target)`. */
export function relativeLinks(markdown: string): string[] {
  const targets: string[] = []
  for (const match of markdown.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue
    targets.push(target.split('#')[0])
  }
  return targets
}

/** The top-level folders and files of the repository a path in the docs may start with. */
const REPO_ROOTS = ['src', 'test', 'bench', 'docs', 'examples', 'schemas', 'scripts', 'bin', '.ci']

/**
 * Repository paths written in code spans (`src/lib/io/table.ts`): those that start with one of the
 * repository's folders and hold no placeholder (`<topic>`, `…`, `*`, `{a,b}`, `NAME`).
 */
export function repositoryPaths(markdown: string): string[] {
  const paths: string[] = []
  for (const match of markdown.matchAll(/`([^`\n]+)`/g)) {
    for (const word of match[1].split(/[\s,;()'"]+/)) {
      const path = word.replace(/[.:]+$/, '').replace(/^\.\//, '')
      const top = path.split('/')[0]
      if (!path.includes('/') || !REPO_ROOTS.includes(top)) continue
      if (/[<>…*{}$]|\.\.\.|[A-Z]{3,}/.test(path)) continue
      paths.push(path)
    }
  }
  return paths
}

/** What a user doc must not carry: the machine it was written on, a commit, the history. */
export const HISTORY = [
  {what: 'a machine path', pattern: /(?<![\w.])\/(?:work|root|home\/[a-z]+)\/(?!\S*\.\.\.)/},
  // Hex of 7 to 40 characters with digits and letters, standing alone (not a UUID's part, not a
  // number with a unit such as `100000000d`).
  {what: 'a commit hash', pattern: /(?<![\w-])(?=[0-9a-f]*\d)(?![0-9]+[a-f](?![\w-]))(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])/},
  {what: 'a history label', pattern: /\b(?:part [1-9]|this round|last round|previous round|turn [1-9]|this session)\b/i},
]

describe('the README and docs/', () => {
  const files = docFiles()

  it('finds the pages', () => {
    expect(files.length).toBeGreaterThan(3)
  })

  for (const file of files) {
    const name = relative(ROOT, file)
    const text = readFileSync(file, 'utf8')

    it(`${name}: every relative link points at a file of the repository`, () => {
      const dead = relativeLinks(text).filter((target) => {
        const path = resolve(dirname(file), decodeURIComponent(target))
        return !path.startsWith(ROOT) || !existsSync(path)
      })
      expect(dead).toEqual([])
    })

    it(`${name}: every repository path it names exists`, () => {
      const missing = repositoryPaths(text).filter((path) => !existsSync(join(ROOT, path)))
      expect([...new Set(missing)]).toEqual([])
    })

    it(`${name}: names no machine path, commit hash or history label`, () => {
      const found: string[] = []
      text.split('\n').forEach((line, index) => {
        for (const {what, pattern} of HISTORY) {
          const hit = pattern.exec(line)
          if (hit) found.push(`line ${index + 1}: ${what} (${hit[0]})`)
        }
      })
      expect(found).toEqual([])
    })
  }
})

describe('the checks themselves', () => {
  it('see a dead link, a missing path and each kind of history', () => {
    expect(relativeLinks('[spec](../shared/spec/x.md) [web](https://a.b) [top](#x)')).toEqual(['../shared/spec/x.md'])
    expect(repositoryPaths('see `src/lib/nope.ts` and `src/<room>/x.ts` and `npm test`')).toEqual(['src/lib/nope.ts'])
    const hits = (line: string) => HISTORY.filter(({pattern}) => pattern.test(line)).map(({what}) => what)
    expect(hits('`--compare /work/base`')).toEqual(['a machine path'])
    expect(hits('against b34bee1 then')).toEqual(['a commit hash'])
    expect(hits('invoices (part 2)')).toEqual(['a history label'])
    expect(hits('no slower than before this round')).toEqual(['a history label'])
    expect(hits('`svc sandbox serve --data /tmp/shop.sqlite`, amounts 12500, evt_test_abc123def')).toEqual([])
    expect(hits('Idempotency-Key 1fe4d664-b4fb-49dc-a0b1-78b3c0235cb2, `clock advance 100000000d`')).toEqual([])
  })
})

/** The comments of a source file (`//` lines and `/* … *\/` blocks), as text. */
export function comments(source: string): string[] {
  const found: string[] = []
  for (const match of source.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)) found.push(match[0])
  return found
}

/**
 * The Markdown files a text cites by name (`docs/service.md`, `sandbox.md`, `README.md`): with a
 * folder, that path from the repository's root; alone, a page of docs/ or a README.
 */
export function citedPages(text: string): string[] {
  return [...text.matchAll(/(?<![\w/.-])((?:[\w.-]+\/)*[\w-]+\.md)\b/g)].map((match) => match[1])
}

function pageExists(page: string): boolean {
  if (page.includes('/')) return existsSync(join(ROOT, page))
  return existsSync(join(ROOT, 'docs', page)) || page === 'README.md'
}

/** Every source file of src/, test/, bin/ and scripts/ (TypeScript and JavaScript). */
function sourceFiles(): string[] {
  return ['src', 'test', 'bin', 'scripts'].flatMap((dir) =>
    (readdirSync(join(ROOT, dir), {recursive: true}) as string[])
      .filter((name) => /\.(ts|cjs|mjs|js)$/.test(name) && !name.includes('node_modules'))
      .map((name) => join(ROOT, dir, name)),
  )
}

describe('comments in src/, test/, bin/ and scripts/', () => {
  const files = sourceFiles()

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(300)
  })

  it('cite only pages of the repository (what a design note said is written in docs/)', () => {
    const missing = files.flatMap((file) =>
      comments(readFileSync(file, 'utf8'))
        .flatMap(citedPages)
        .filter((page) => !pageExists(page))
        .map((page) => `${relative(ROOT, file)}: ${page}`),
    )
    expect([...new Set(missing)]).toEqual([])
  })

  it('the check sees a cited page that is not in the repository', () => {
    expect(comments('// see cli.md, Output\n/** docs/service.md, "Limits" */').flatMap(citedPages)).toEqual(['cli.md', 'docs/service.md'])
    expect(pageExists('cli.md')).toBe(false)
    expect(pageExists('service.md')).toBe(true)
    expect(pageExists('docs/service.md')).toBe(true)
    expect(comments("const url = 'http://x' + '//not a comment'")).toEqual([])
  })
})
