/**
 * Each room says what it owns: every folder under src/lib/ and src/sandbox/ opens with a README.md,
 * or an index.ts whose first lines are a comment saying what the folder owns and may import
 * (docs/architecture.md, "One job per file"; a folder opens with a paragraph).
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function folders(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true})
    .filter((entry) => entry.isDirectory() && entry.name !== 'en' && entry.name !== 'fr')
    .flatMap((entry) => [join(dir, entry.name), ...folders(join(dir, entry.name))])
}

/** The folder's opening paragraph, or undefined. */
export function openingParagraph(folder: string): string | undefined {
  const readme = join(folder, 'README.md')
  if (existsSync(readme)) return readFileSync(readme, 'utf8')
  const index = join(folder, 'index.ts')
  if (existsSync(index)) {
    const text = readFileSync(index, 'utf8')
    if (text.startsWith('/**')) return text.slice(0, text.indexOf('*/'))
  }
  return undefined
}

describe('every room opens with a paragraph', () => {
  const rooms = [join(ROOT, 'src/sandbox'), ...folders(join(ROOT, 'src/lib')), ...folders(join(ROOT, 'src/sandbox'))]

  it('finds the rooms', () => {
    expect(rooms.length).toBeGreaterThan(15)
  })

  it('each says what it owns and what it may import', () => {
    const silent = rooms.filter((folder) => {
      const paragraph = openingParagraph(folder)
      return paragraph === undefined || !/import/i.test(paragraph)
    })
    expect(silent.map((folder) => relative(ROOT, folder))).toEqual([])
  })
})
