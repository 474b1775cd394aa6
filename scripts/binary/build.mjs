#!/usr/bin/env node
// `npm run build:binary`: svc as one executable (Node's single executable applications, SEA),
// built offline from the Node that runs this script, for this machine's platform and arch.
//
// What goes in: the install npm would make (bin/, dist/, package.json, oclif.manifest.json and
// the production dependency closure of package.json, found by Node's own resolution) as one
// compressed archive, an SEA asset; and scripts/binary/main.cjs as the SEA's entry. On its first
// call a binary unpacks its archive into a directory of its own under the cache directory
// (`~/.cache/svc/binary/<archive hash>/`) and from then on runs bin/run.cjs from there, as an
// npm install runs it. Why unpack rather than serve the files from memory: oclif reads its
// manifest, package.json and commands from disk; pdfkit reads its font metrics from disk; a
// worker thread starts from a file; a native module (`.node`) can only be loaded from a file; and
// ES-module-only packages go through Node's ESM loader, which reads files. Unpacked, every one
// of those works unchanged, a new dependency is carried without touching this script, and V8's
// code cache (bin/compile-cache.cjs) keeps working. docs/startup.md has the figures.
//
// The SEA's own code cache (useCodeCache, on by default) covers main.cjs only. --snapshot builds a
// start-up snapshot instead (scripts/binary/snapshot.cjs: oclif and our base command evaluated at
// build time); measured on this 2-core machine it starts no faster (its heap costs ~7 ms to
// deserialize at every call, where the code cache restores the same code for less), so it is kept
// as an option to measure again on a newer Node, not the default.
//
//   node scripts/binary/build.mjs [--no-build] [--no-code-cache | --snapshot] [--out dist-bin/svc] [--launcher FILE]
import {execFileSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join, relative, resolve, sep} from 'node:path'
import {fileURLToPath} from 'node:url'
import {gzipSync} from 'node:zlib'
import {init as initImportLexer, parse as parseImports} from 'es-module-lexer'

import {binaryStamp} from './stamp.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const started = Date.now()
const options = {build: true, codeCache: true, snapshot: false, out: join(root, 'dist-bin/svc'), launcher: join(root, 'scripts/binary/main.cjs')}
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i]
  if (arg === '--no-build') options.build = false
  else if (arg === '--code-cache') options.codeCache = true
  else if (arg === '--no-code-cache') options.codeCache = false
  else if (arg === '--snapshot') options.snapshot = true
  else if (arg === '--no-snapshot') options.snapshot = false
  else if (arg === '--out') options.out = resolve(process.argv[++i])
  // Another entry than scripts/binary/main.cjs: an earlier one, for bench/startup/binary-check.mjs.
  else if (arg === '--launcher') options.launcher = resolve(process.argv[++i])
  else {
    process.stderr.write(`unknown option ${arg}\nusage: node scripts/binary/build.mjs [--no-build] [--no-code-cache | --snapshot] [--out FILE] [--launcher FILE]\n`)
    process.exit(2)
  }
}

const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 20 || (major === 20 && minor < 12)) {
  process.stderr.write(`Node ${process.version} cannot build the binary: SEA assets need Node 20.12 or later.\n`)
  process.exit(1)
}

if (options.build) execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], {cwd: root, stdio: 'inherit'})
for (const file of ['dist/main.js', 'dist/command-ids.json', 'oclif.manifest.json']) {
  if (!existsSync(join(root, file))) throw new Error(`${file} is missing: run npm run build first`)
}

// 1. The files an npm install holds.
const files = new Map() // archive path → absolute path
function addTree(dir, as) {
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const path = join(dir, entry.name)
    const name = `${as}/${entry.name}`
    if (entry.isDirectory()) {
      // A package's own node_modules are added as packages in their own right (dependencyClosure).
      if (entry.name === 'node_modules' || entry.name === '.bin') continue
      addTree(path, name)
    } else if (entry.isFile() && !droppable(name)) files.set(name, path)
    else if (entry.isSymbolicLink() && statSync(path).isFile() && !droppable(name)) files.set(name, realpathSync(path))
  }
}
/**
 * What no code reads at run time: documentation, type declarations, source maps, and a native
 * module's C/C++ sources and object files (better-sqlite3 ships SQLite's ~9 MB of C; only its
 * build/Release/*.node is loaded).
 */
function droppable(name) {
  return (
    /\.(d\.[cm]?ts|map|md|markdown|c|cc|cpp|h|hh|hpp|o|a|gyp|gypi|mk)$/i.test(name) ||
    /\/(CHANGELOG|HISTORY|AUTHORS)[^/]*$/i.test(name) ||
    name.includes('/obj.target/')
  )
}
for (const file of ['bin/run.cjs', 'bin/compile-cache.cjs', 'oclif.manifest.json']) files.set(file, join(root, file))
addTree(join(root, 'dist'), 'dist')
// The package.json npm would install (without devDependencies or scripts, which mean nothing here).
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const installedPjson = {...pjson, scripts: undefined, devDependencies: undefined}

const modules = realpathSync(join(root, 'node_modules'))
const packages = dependencyClosure()
for (const dir of packages) addTree(dir, `node_modules/${relative(modules, dir).split(sep).join('/')}`)

/**
 * Every package reachable from package.json's dependencies (and optionalDependencies that are
 * installed), each resolved as Node resolves it from the package that asks: nested copies are
 * kept at their nested path, so the unpacked tree resolves as node_modules does.
 */
function dependencyClosure() {
  const found = new Set()
  const visit = (dir, manifest) => {
    const wants = [
      ...Object.keys(manifest.dependencies ?? {}).map((name) => [name, false]),
      ...Object.keys(manifest.optionalDependencies ?? {}).map((name) => [name, true]),
    ]
    for (const [name, optional] of wants) {
      const at = packageDir(dir, name)
      if (!at) {
        if (optional) continue
        throw new Error(`${name} (a dependency of ${relative(root, dir) || 'svc'}) is not installed: run npm ci`)
      }
      if (found.has(at)) continue
      if (!at.startsWith(modules + sep)) throw new Error(`${name} resolves outside node_modules (${at}): the binary carries node_modules only`)
      found.add(at)
      visit(at, JSON.parse(readFileSync(join(at, 'package.json'), 'utf8')))
    }
  }
  visit(root, pjson)
  return [...found].sort()
}

/** The directory Node's resolution finds `name` in, asked from `dir` (package.json need not be exported). */
function packageDir(dir, name) {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate)
    if (dirname(at) === at) return undefined
  }
}

// 2. One archive: a JSON index (path, mode, size) and the files' bytes, gzip-compressed.
const entries = []
const bodies = []
await initImportLexer
let rewritten = 0
for (const [name, path] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
  const body = checkedImports(name, path, readFileSync(path))
  entries.push({path: name, mode: lstatSync(path).mode & 0o111 ? 0o755 : 0o644, size: body.length})
  bodies.push(body)
}
{
  const body = Buffer.from(`${JSON.stringify(installedPjson, null, 2)}\n`)
  entries.push({path: 'package.json', mode: 0o644, size: body.length})
  bodies.push(body)
}

/**
 * A dependency's import() calls, each made to call the binary's check first (scripts/binary/main.cjs,
 * guard): `import(x)` becomes `import((globalThis[Symbol.for('svc.checkImport')] || String)(x, caller))`,
 * the caller being the file (`__filename` in CommonJS, `import.meta.url` in an ES module). Node 20's
 * ESM loader reads the files it imports out of reach of any check at run time: this is where the
 * package an import() loads is checked before it is read. Outside the binary (no check installed)
 * the call is import(String(x)), as import() itself converts it. es-module-lexer finds the calls
 * (not the word in a string or comment); a file it cannot read that has `import(` in it stops the build.
 */
function checkedImports(name, path, body) {
  if (!name.startsWith('node_modules/') || !/\.[cm]?js$/.test(name) || !body.includes('import(')) return body
  const code = body.toString('utf8')
  let calls
  try {
    calls = parseImports(code)[0].filter((i) => i.d > -1)
  } catch (error) {
    throw new Error(`${name}: cannot find its import() calls (${error.message}): the binary could not check what they load`)
  }
  if (calls.length === 0) return body
  const caller = moduleType(path) === 'module' ? 'import.meta.url' : '__filename'
  let out = ''
  let at = 0
  for (const call of calls) {
    out += `${code.slice(at, call.s)}(globalThis[Symbol.for('svc.checkImport')] || String)(${code.slice(call.s, call.e)}, ${caller})`
    at = call.e
  }
  rewritten++
  return Buffer.from(out + code.slice(at))
}

/** 'module' or 'commonjs': how Node reads the file at `path` (its extension, else the nearest package.json's type). */
function moduleType(path) {
  if (path.endsWith('.mjs')) return 'module'
  if (path.endsWith('.cjs')) return 'commonjs'
  for (let dir = dirname(path); dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type === 'module' ? 'module' : 'commonjs'
  }
  return 'commonjs'
}

const index = Buffer.from(JSON.stringify(entries))
const header = Buffer.alloc(4)
header.writeUInt32LE(index.length)
const raw = Buffer.concat([header, index, ...bodies])
const archiveId = createHash('sha256').update(raw).digest('hex').slice(0, 16)
// zlib's default level: level 9 takes about 2.5 times the CPU (~2 s against ~0.8 s here, the
// largest part of a build but postject's) for an archive ~0.1 MB smaller (of ~13 MB); unpacking
// costs the same.
const archive = gzipSync(raw)

// 3. The SEA: blob (entry script, its code cache, the archive), injected into a copy of node.
const work = join(dirname(options.out), `.work-${process.pid}`)
rmSync(work, {recursive: true, force: true})
mkdirSync(work, {recursive: true})
writeFileSync(join(work, 'app.gz'), archive)
const main = readFileSync(options.launcher, 'utf8').replace("'__SVC_ARCHIVE_ID__'", JSON.stringify(archiveId))
if (!main.includes(JSON.stringify(archiveId))) throw new Error('scripts/binary/main.cjs lost its __SVC_ARCHIVE_ID__ placeholder')
writeFileSync(join(work, 'main.cjs'), options.snapshot ? snapshotEntry(main) : main)
writeFileSync(
  join(work, 'sea-config.json'),
  JSON.stringify({
    main: join(work, 'main.cjs'),
    output: join(work, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    ...(options.snapshot ? {useSnapshot: true} : {useCodeCache: options.codeCache}),
    assets: {app: join(work, 'app.gz')},
  }),
)
execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], {cwd: work, stdio: ['ignore', 'ignore', 'inherit']})

/**
 * The snapshot's entry (scripts/binary/snapshot.cjs): main.cjs's functions without its run, and
 * dist/main.js with the core chunk it requires, each wrapped as Node wraps a CommonJS module.
 */
function snapshotEntry(mainSource) {
  const functions = mainSource.replace(/\/\/ @run-start[^]*\/\/ @run-end\n/, '')
  if (functions === mainSource) throw new Error('scripts/binary/main.cjs lost its @run-start/@run-end markers')
  const preload = ['dist/main.js']
  const mainCode = readFileSync(join(root, 'dist/main.js'), 'utf8')
  // The chunks dist/main.js requires at its top (the core chunk), not those it imports lazily.
  for (const m of mainCode.matchAll(/require\("\.\/(chunks\/[^"]+)"\)/g)) preload.push(`dist/${m[1]}`)
  const wrapped = preload.map((rel) => `${JSON.stringify(rel)}: function (exports, require, module, __filename, __dirname) {\n${readFileSync(join(root, rel), 'utf8')}\n}`)
  return `${functions}\nconst APP_DIR = appDir\nconst GUARD = guard\nconst PRELOAD = {\n${wrapped.join(',\n')}\n}\n${readFileSync(join(root, 'scripts/binary/snapshot.cjs'), 'utf8').replace("'use strict'", '')}`
}

const out = options.out
mkdirSync(dirname(out), {recursive: true})
const staged = `${out}.${process.pid}.tmp`
copyFileSync(process.execPath, staged)
chmodSync(staged, 0o755)
// Debian's node carries its debug symbols and its symbol table (~12 MB): a binary for users needs
// neither (a native module, better-sqlite3's, links against the dynamic symbols, which strip keeps),
// and postject, which reads and writes the whole file, takes about a third less CPU on the smaller one.
try {
  execFileSync('strip', ['--strip-all', staged], {stdio: 'ignore'})
} catch {
  // No strip (or not this format): the binary is only larger.
}
const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js')
execFileSync(
  process.execPath,
  [postject, staged, 'NODE_SEA_BLOB', join(work, 'sea.blob'), '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'],
  // postject (LIEF) warns about every ELF note section it does not know: shown only if it fails.
  {stdio: ['ignore', 'ignore', 'pipe']},
)
// Renamed into place: a test or a benchmark running the binary never meets half of one.
execFileSync('mv', ['-f', staged, out])
// What it carries (scripts/binary/stamp.mjs; test/helpers/binary.ts builds it again when that has changed since).
writeFileSync(`${out}.build`, `${binaryStamp(root)}\n`)
rmSync(work, {recursive: true, force: true})


const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`
process.stdout.write(
  `${relative(process.cwd(), out)}: ${mb(statSync(out).size)} (archive ${mb(archive.length)} of ${entries.length} files, ` +
    `${packages.length} packages, ${rewritten} files' import() checked; id ${archiveId}; ${options.snapshot ? 'start-up snapshot' : `code cache ${options.codeCache ? 'on' : 'off'}`}) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
)
