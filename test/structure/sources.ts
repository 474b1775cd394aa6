/**
 * What the structure tests read: the TypeScript sources of a folder, and a file's code without its
 * comments (a comment may name what the code must not do).
 */
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Every `.ts` file under `dir` (from the repository's root), with its path and text. */
export function sources(dir: string): {file: string; text: string}[] {
  return (readdirSync(join(ROOT, dir), {recursive: true}) as string[])
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({file: relative(ROOT, join(ROOT, dir, name)).split('\\').join('/'), text: readFileSync(join(ROOT, dir, name), 'utf8')}))
}

/** The code of a file without its comments. */
export function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
}
