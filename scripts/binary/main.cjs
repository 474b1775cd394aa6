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
 */
'use strict'
const fs = require('node:fs')
const {join} = require('node:path')

const ARCHIVE_ID = '__SVC_ARCHIVE_ID__'
const KEEP = 2

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
require('node:module').createRequire(join(app, 'package.json'))('./bin/run.cjs')
// @run-end

function appDir() {
  const bases = [cacheBase(), join(require('node:os').tmpdir(), `svc-${process.getuid?.() ?? 'user'}`)].filter(Boolean)
  for (const base of bases) {
    const dir = join(base, 'binary', ARCHIVE_ID)
    if (isOurs(dir)) return dir
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
