/**
 * Writers of the config file in plain node processes, lighter than a whole `svc` process (~30 ms of
 * CPU to start instead of ~100): the profile functions of src/lib/config/profiles.ts, the very code
 * `svc login` (saveProfile) and `svc profiles use` (useProfile) write with, lock and durable write
 * included, bundled once per file by esbuild (as the build does) and run by `node`. For the tests of
 * the config under concurrent processes (test/commands/config-integrity.test.ts): many writers at
 * once, across processes and within each, next to a few whole `svc` processes.
 *
 *   const writers = await configWriters()
 *   await writers.save(dir, 'p', 15)   // one process: saveProfile of p0…p14, all at once
 *   await writers.use(dir, 'b', 20)    // one process: useProfile(b), 20 times in a row
 *   writers.cleanup()
 */
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {build} from 'esbuild'

const PROFILES = fileURLToPath(new URL('../../src/lib/config/profiles.ts', import.meta.url))
const CLOCK = fileURLToPath(new URL('../../src/contract/clock.ts', import.meta.url))

/**
 * The child's program: `node writer.cjs DIR save PREFIX COUNT KEY BASE_URL` or `DIR use NAME COUNT`.
 * On the machine's clock, as a `svc` process's run is. CommonJS, as the build's output is: Node
 * starts it ~6 ms of CPU sooner than an ES module (no ESM loader), a tenth of such a process.
 */
const ENTRY = `
import {saveProfile, useProfile} from ${JSON.stringify(PROFILES)}
import {systemClock as clock} from ${JSON.stringify(CLOCK)}
const [dir, op, name, count, key, baseUrl] = process.argv.slice(2)
const n = Number(count)
async function main() {
  if (op === 'save') {
    // All at once: the writers of one process meet on the lock as those of different processes do.
    await Promise.all(Array.from({length: n}, (_, i) => saveProfile(dir, name + i, {api_key: key, base_url: baseUrl}, {makeCurrent: 'always', clock})))
  } else if (op === 'use') {
    for (let i = 0; i < n; i++) await useProfile(dir, name, clock)
  } else throw new Error('unknown op ' + op)
}
main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
`

export interface WriterResult {
  exitCode: number | null
  stderr: string
}

export interface ConfigWriters {
  /** One process: saveProfile(dir, `${prefix}${i}`) for i < count, all at once (what `svc login` writes). */
  save(dir: string, prefix: string, count: number, key: string, baseUrl: string): Promise<WriterResult>
  /** One process: useProfile(dir, name), `count` times in a row (what `svc profiles use` writes). */
  use(dir: string, name: string, count: number): Promise<WriterResult>
  cleanup(): void
}

export async function configWriters(): Promise<ConfigWriters> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-config-writers-'))
  const program = join(dir, 'writer.cjs')
  await build({stdin: {contents: ENTRY, loader: 'ts', resolveDir: dir, sourcefile: 'writer.ts'}, bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: program, logLevel: 'silent'})
  const run = (args: string[]) =>
    new Promise<WriterResult>((resolve, reject) => {
      const child = spawn(process.execPath, [program, ...args], {stdio: ['ignore', 'ignore', 'pipe'], env: {PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8'}})
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
      child.on('error', reject)
      child.on('close', (exitCode) => resolve({exitCode, stderr}))
    })
  return {
    save: (configDir, prefix, count, key, baseUrl) => run([configDir, 'save', prefix, String(count), key, baseUrl]),
    use: (configDir, name, count) => run([configDir, 'use', name, String(count)]),
    cleanup: () => rmSync(dir, {recursive: true, force: true}),
  }
}
