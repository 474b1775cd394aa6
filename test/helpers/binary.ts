/**
 * The single executable for the tests that run it (test/binary/): built by
 * scripts/binary/build.mjs once, then reused for as long as it carries the current dist/ and
 * launcher (the stamp `<binary>.build` the build writes: dist/'s build id and a hash of
 * scripts/binary/).
 */
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {expect} from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The stamp a binary built now would carry (scripts/binary/build.mjs, binaryStamp). */
function currentStamp(): string {
  const launcher = createHash('sha256')
  for (const name of readdirSync(join(root, 'scripts/binary')).sort()) launcher.update(name).update(readFileSync(join(root, 'scripts/binary', name)))
  return `${JSON.parse(readFileSync(join(root, 'dist/package.json'), 'utf8')).svcBuild} ${launcher.digest('hex').slice(0, 16)}`
}

/** The binary at `out` (under the repository), built with `options` first when missing or stale. */
export function builtBinary(out: string, options: string[] = []): string {
  const stamp = `${out}.build`
  if (!existsSync(out) || !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== currentStamp()) {
    const r = spawnSync(process.execPath, [join(root, 'scripts/binary/build.mjs'), '--no-build', ...options, '--out', relative(root, out)], {
      cwd: root,
      encoding: 'utf8',
      timeout: 170_000,
    })
    expect(r.status, r.stderr).toBe(0)
  }
  return out
}
