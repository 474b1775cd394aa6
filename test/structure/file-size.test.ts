/**
 * One file, one job: no TypeScript file under src/ (message catalogues aside, `i18n/` folders)
 * passes 500 lines (docs/architecture.md, "One job per file"). A file that grows past it is split along its jobs, as
 * store-sqlite*.ts and src/lib/mcp/*-tools.ts were. The inspector's page script
 * (src/sandbox/inspector/assets/app.js) is browser code that imports nothing, served as one file.
 */
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const LIMIT = 500

function sources(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'i18n' ? [] : sources(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

describe('no file under src/ passes 500 lines', () => {
  const files = sources(join(ROOT, 'src'))

  it('reads the sources', () => {
    expect(files.length).toBeGreaterThan(100)
  })

  it(`every source file (catalogues aside) has at most ${LIMIT} lines`, () => {
    const long = files
      .map((file) => ({file: relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length - 1}))
      .filter(({lines}) => lines > LIMIT)
    expect(long).toEqual([])
  })
})
