/**
 * The single executable's entry (scripts/binary/build.mjs). It carries svc as an npm install
 * would lay it out, in one gzip archive (the SEA asset `app`). The first call unpacks it into
 * `<cache>/binary/<archive id>/` (the cache directory bin/compile-cache.cjs and oclif use); every
 * call then runs bin/run.cjs from there, as `node bin/run.cjs` would. An SEA's own `require`
 * loads built-ins only: the unpacked files load through a require made for them.
 *
 * - The directory is the user's alone (0700, files 0644 as in node_modules), and one that someone
 *   else could write to is never run from (trusted): svc would run what it finds there. Without
 *   a usable cache directory (a read-only home), a private directory under the temp directory.
 * - Unpacked under a temporary name and renamed into place: two first calls at once, or one
 *   interrupted, never leave a half directory that a later call would run.
 * - A new binary (another archive id) unpacks beside the old ones; the two most recent stay.
 * - The staging directory of a first call that was killed (`<id>.<pid>.tmp`, its pid no longer
 *   running) is removed by the next unpack; that of a call still unpacking is left to it.
 * - Checked before it is run: a file changed since it was unpacked (edited, replaced, added) is
 *   not run; the directory is unpacked again. The last file an unpack writes is a seal
 *   (`.svc-sealed`): a file or directory whose status changed after it (its ctime, which any write,
 *   chmod or `touch` sets to now, and which no user can set back) differs from what the build
 *   packed. svc's own code (bin/, dist/, the worker threads' files among them: ~300 files) is
 *   checked at each start; a dependency under node_modules (~4,600 files, too many to check at
 *   every start) as it is loaded: a CommonJS file by require, an ES module package and the
 *   packages it depends on before dist/dynamic-import.js imports it.
 */
'use strict'
const fs = require('node:fs')
const {dirname, join, sep} = require('node:path')

const ARCHIVE_ID = '__SVC_ARCHIVE_ID__'
const KEEP = 2
const SEAL = '.svc-sealed'

// @run-start (a snapshot build, snapshot.cjs, runs this from its deserialize main function instead)
let app
try {
  app = appDir()
} catch (error) {
  // Before svc's own files (its message catalogue among them) exist: English only.
  process.stderr.write(`svc: cannot unpack its files (set SVC_CACHE_DIR to a writable directory): ${error.message}\n`)
  process.exit(1)
}
// process.argv is [binary, binary, ...arguments] in a single executable, as [node, script, ...]
// would be: bin/run.cjs reads argv from index 2 either way.
guard(app)
require('node:module').createRequire(join(app, 'package.json'))('./bin/run.cjs')
// @run-end

function appDir() {
  const bases = [cacheBase(), join(require('node:os').tmpdir(), `svc-${process.getuid?.() ?? 'user'}`)].filter(Boolean)
  for (const base of bases) {
    const dir = join(base, 'binary', ARCHIVE_ID)
    if (isOurs(dir)) {
      if (intact(dir)) return dir
      try {
        return renew(dir)
      } catch {
        // Not writable here any more: try the next place.
        continue
      }
    }
    try {
      if (!fs.existsSync(dir)) return unpack(join(base, 'binary'), dir)
    } catch {
      // Not writable here: try the next place.
    }
  }
  // Nowhere of our own (both places taken by someone else): a fresh private directory.
  const fresh = fs.mkdtempSync(join(require('node:os').tmpdir(), 'svc-binary-'))
  process.once('exit', () => fs.rmSync(fresh, {recursive: true, force: true}))
  return unpack(fresh, join(fresh, 'app'))
}

/** A directory that exists, is this user's and writable by no one else (Windows: no uid). */
function isOurs(dir) {
  let stat
  try {
    stat = fs.statSync(dir)
  } catch {
    return false
  }
  if (!stat.isDirectory()) return false
  if (typeof process.getuid !== 'function') return true
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0
}

function unpack(parent, dir) {
  fs.mkdirSync(parent, {recursive: true, mode: 0o700})
  if (typeof process.getuid === 'function') {
    const stat = fs.statSync(parent)
    if (stat.uid !== process.getuid() || (stat.mode & 0o022) !== 0) throw new Error(`${parent} is not ours alone`)
  }
  const raw = require('node:zlib').gunzipSync(Buffer.from(require('node:sea').getAsset('app')))
  const indexLength = raw.readUInt32LE(0)
  const entries = JSON.parse(raw.subarray(4, 4 + indexLength).toString('utf8'))
  const staging = `${dir}.${process.pid}.tmp`
  removeAbandoned(parent)
  fs.rmSync(staging, {recursive: true, force: true})
  fs.mkdirSync(staging, {mode: 0o700})
  const made = new Set()
  let at = 4 + indexLength
  for (const {path, mode, size} of entries) {
    const target = join(staging, path)
    const folder = target.slice(0, target.lastIndexOf('/'))
    if (!made.has(folder)) {
      fs.mkdirSync(folder, {recursive: true, mode: 0o700})
      made.add(folder)
    }
    fs.writeFileSync(target, raw.subarray(at, at + size), {mode})
    at += size
  }
  // Last: every file and directory above changed status before it (intact).
  fs.writeFileSync(join(staging, SEAL), '', {mode: 0o600})
  try {
    fs.renameSync(staging, dir)
  } catch (error) {
    // Another first call got there first: use its directory.
    fs.rmSync(staging, {recursive: true, force: true})
    if (!isOurs(dir)) throw error
    return dir
  }
  prune(parent, dir)
  return dir
}

/** When the unpack of `dir` was sealed (ms), or undefined when it has no seal (unpacked by an older svc). */
function sealOf(dir) {
  try {
    return fs.statSync(join(dir, SEAL)).mtimeMs
  } catch {
    return undefined
  }
}

/** Whether a file or directory changed status after `sealed` (or is gone). */
function changed(path, sealed) {
  try {
    return fs.statSync(path).ctimeMs > sealed
  } catch {
    return true
  }
}

/** Whether every file and directory under `dir` is as unpacked; `skip`: a directory name not looked into. */
function treeIntact(dir, sealed, skip) {
  if (changed(dir, sealed)) return false
  let entries
  try {
    entries = fs.readdirSync(dir, {withFileTypes: true})
  } catch {
    return false
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== skip && !treeIntact(path, sealed, skip)) return false
    } else if (changed(path, sealed)) return false
  }
  return true
}

/** svc's own files as unpacked (its dependencies are checked as they load: guard). */
function intact(dir) {
  const sealed = sealOf(dir)
  if (sealed === undefined) return false
  for (const file of ['package.json', 'oclif.manifest.json']) if (changed(join(dir, file), sealed)) return false
  return treeIntact(join(dir, 'bin'), sealed) && treeIntact(join(dir, 'dist'), sealed)
}

/** `dir` unpacked again in its place (the old one moved aside, then removed). */
function renew(dir) {
  // A name removeAbandoned knows (`.<pid>.tmp`), unlike the staging name unpack uses.
  const aside = `${dir}-old.${process.pid}.tmp`
  fs.rmSync(aside, {recursive: true, force: true})
  try {
    fs.renameSync(dir, aside)
  } catch (error) {
    // Already moved by another call renewing it at the same moment.
    if (error.code !== 'ENOENT') throw error
  }
  const parent = dirname(dir)
  try {
    return unpack(parent, dir)
  } finally {
    fs.rmSync(aside, {recursive: true, force: true})
  }
}

/**
 * Checks a dependency as it loads: a CommonJS file under node_modules before require runs it,
 * and an ES module package with every package it depends on before dist/dynamic-import.js
 * imports it. One that changed since the unpack: the directory is unpacked again first (the file
 * then loads from the fresh copy).
 */
function guard(app) {
  const Module = require('node:module')
  const modules = join(app, 'node_modules') + sep
  const gateway = join(app, 'dist', 'dynamic-import.js')
  const checked = new Set()
  let sealed = sealOf(app)
  const renewIf = (isChanged) => {
    if (!isChanged) return
    renew(app)
    sealed = sealOf(app)
    checked.clear()
  }
  const checkPackage = (dir) => {
    if (checked.has(dir)) return
    renewIf(sealed === undefined || !treeIntact(dir, sealed, 'node_modules'))
    checked.add(dir)
    let manifest
    try {
      manifest = JSON.parse(fs.readFileSync(join(dir, 'package.json'), 'utf8'))
    } catch {
      return
    }
    for (const name of Object.keys({...manifest.dependencies, ...manifest.optionalDependencies})) {
      const found = packageDir(app, dir, name)
      if (found) checkPackage(found)
    }
  }
  const checkSpecifier = (specifier) => {
    if (typeof specifier !== 'string' || /^(node:|file:|data:|\.|\/)/.test(specifier)) return
    const parts = specifier.split('/')
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
    const found = packageDir(app, join(app, 'dist'), name)
    if (found) checkPackage(found)
  }
  for (const extension of ['.js', '.json', '.node']) {
    const load = Module._extensions[extension]
    Module._extensions[extension] = function (module, filename) {
      if (filename.startsWith(modules)) renewIf(sealed === undefined || changed(filename, sealed))
      const result = Reflect.apply(load, this, arguments)
      if (filename === gateway && typeof module.exports === 'function') {
        const importIt = module.exports
        module.exports = (specifier) => {
          checkSpecifier(specifier)
          return importIt(specifier)
        }
      }
      return result
    }
  }
}

/** Where `name` resolves from `from`, as Node looks for it (up the node_modules of the app), or undefined. */
function packageDir(app, from, name) {
  for (let dir = from; dir.startsWith(app); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (fs.existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) break
  }
  return undefined
}

/** Staging directories of unpacks whose process no longer runs (killed mid-unpack). */
function removeAbandoned(parent) {
  let names
  try {
    names = fs.readdirSync(parent)
  } catch {
    return
  }
  for (const name of names) {
    const found = /\.(\d+)\.tmp$/.exec(name)
    if (!found || running(Number(found[1]))) continue
    try {
      fs.rmSync(join(parent, name), {recursive: true, force: true})
    } catch {
      // Left for a later call: only disk space.
    }
  }
}

function running(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

function prune(parent, current) {
  try {
    const others = fs
      .readdirSync(parent, {withFileTypes: true})
      .filter((entry) => entry.isDirectory() && !entry.name.endsWith('.tmp') && join(parent, entry.name) !== current)
      .map((entry) => ({path: join(parent, entry.name), time: fs.statSync(join(parent, entry.name)).mtimeMs}))
      .sort((a, b) => b.time - a.time)
    for (const old of others.slice(KEEP - 1)) fs.rmSync(old.path, {recursive: true, force: true})
  } catch {
    // Old versions stay: only disk space.
  }
}

/** The cache directory bin/compile-cache.cjs (and oclif) use for the `svc` dirname. */
function cacheBase() {
  const {env} = process
  if (env.SVC_CACHE_DIR) return env.SVC_CACHE_DIR
  const home = env.HOME || env.USERPROFILE || require('node:os').homedir()
  if (process.platform === 'darwin' && !env.XDG_CACHE_HOME) return home && join(home, 'Library', 'Caches', 'svc')
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' && env.LOCALAPPDATA) || (home && join(home, '.cache'))
  return base ? join(base, 'svc') : undefined
}
