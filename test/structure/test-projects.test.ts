/**
 * The two vitest projects (test/projects.ts, vitest.config.ts): every entry of the process list
 * names test files that exist (a renamed file would otherwise fall silently into neither list's
 * intent), and the two projects together hold every test file once.
 */
import {readdirSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'

import {PROCESS_TESTS} from '../projects.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const files = (readdirSync(join(ROOT, 'test'), {recursive: true}) as string[])
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => relative(ROOT, join(ROOT, 'test', name)).split('\\').join('/'))

/** A glob of the list (`**` and `*` only) as a regular expression. */
function pattern(glob: string): RegExp {
  const source = glob
    .split('**/')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('(?:[^/]+/)*')
  return new RegExp(`^${source}$`)
}

describe('the test projects', () => {
  it('every entry of the process list names a test file that exists', () => {
    expect(PROCESS_TESTS.filter((glob) => !files.some((file) => pattern(glob).test(file)))).toEqual([])
  })

  it('leaves most files to the fast project', () => {
    const process = files.filter((file) => PROCESS_TESTS.some((glob) => pattern(glob).test(file)))
    expect(process.length).toBeGreaterThan(15)
    expect(files.length - process.length).toBeGreaterThan(150)
  })
})
