/**
 * Which profile a run uses is written once: `namedProfile` and `selectedProfileName` of
 * src/lib/config/resolve.ts (`--profile`, then `SVC_PROFILE`, then the current profile). No other
 * source reads SVC_PROFILE, so the order cannot drift between the key, the base URL and the
 * language a profile gives.
 */
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

const sources = (readdirSync(join(ROOT, 'src'), {recursive: true}) as string[])
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({file: relative(ROOT, join(ROOT, 'src', name)).split('\\').join('/'), text: readFileSync(join(ROOT, 'src', name), 'utf8')}))

/** The code of a file without its comments. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
}

describe('profile precedence', () => {
  it('is read in one place: src/lib/config/resolve.ts', () => {
    const readers = sources.filter((f) => /\bSVC_PROFILE\b/.test(code(f.text))).map((f) => f.file)
    expect(readers).toEqual(['src/lib/config/resolve.ts'])
    const resolve = code(sources.find((f) => f.file === 'src/lib/config/resolve.ts')!.text)
    expect(resolve.match(/\bSVC_PROFILE\b/g)).toHaveLength(1)
  })
})
