// Build: one esbuild entry per command (and per public library entry), ESM with code splitting,
// every npm package left external; then oclif's manifest, so start-up never scans dist/commands.
import {build} from 'esbuild'
import {execFileSync} from 'node:child_process'
import {readdirSync, rmSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'

const root = new URL('..', import.meta.url).pathname
const src = join(root, 'src')

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

const commandEntries = walk(join(src, 'commands')).filter((f) => f.endsWith('.ts'))
// Library entries that other processes import directly (tests, benchmarks, the sandbox host).
const libEntries = ['lib/sandbox/index.ts', 'lib/index.ts']
  .map((f) => join(src, f))
  .filter((f) => {
    try {
      return statSync(f).isFile()
    } catch {
      return false
    }
  })

rmSync(join(root, 'dist'), {recursive: true, force: true})
await build({
  entryPoints: Object.fromEntries(
    [...commandEntries, ...libEntries].map((f) => [relative(src, f).replace(/\.ts$/, ''), f]),
  ),
  outdir: join(root, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: false,
  logLevel: 'warning',
})
rmSync(join(root, 'oclif.manifest.json'), {force: true})
execFileSync(process.execPath, [join(root, 'node_modules/oclif/bin/run.js'), 'manifest'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
})
