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
 * - The staging directory of a first call that was killed (`<id>.t<thread>.<pid>.tmp`, its pid no longer
 *   running) is removed by the next unpack; that of a call still unpacking is left to it.
 * - Checked before it is run: a file changed since it was unpacked (edited, replaced, added,
 *   removed) is not run; the copy is repaired (repair), or else unpacked again whole. The last file
 *   an unpack writes is a seal
 *   (`.svc-sealed`): a file or directory whose status changed after it (its ctime, which any write,
 *   chmod or `touch` sets to now, and which no user can set back) differs from what the build
 *   packed. svc's own code (bin/, dist/, the worker threads' files among them: ~300 files) is
 *   checked at each start; the ~4,600 files of node_modules (~35 ms to check them all: too many
 *   for every start) as they load, whatever loads them, in every thread (guard): a CommonJS file
 *   by require, an ES module's package with the packages it depends on before the import() that
 *   loads it, and the same in each worker thread, which starts with the check installed.
 * - A copy found changed while other threads or calls run from it: repaired file by file (each
 *   written aside and renamed), or, when a repair is not proved, a fresh copy swapped in with two
 *   renames; a file looked for in that moment is looked for again.
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

/**
 * The archive unpacked as `dir` (under `parent`); `replace`: in place of the copy there now, which
 * other threads and calls may be running from. Written under a staging name of this thread's
 * (`<id>.t<thread>.<pid>.tmp`), then renamed into place: a reader never meets half a copy, and
 * one that is replaced is gone only between two renames (guard waits that moment out).
 */
function unpack(parent, dir, replace = false) {
  fs.mkdirSync(parent, {recursive: true, mode: 0o700})
  if (typeof process.getuid === 'function') {
    const stat = fs.statSync(parent)
    if (stat.uid !== process.getuid() || (stat.mode & 0o022) !== 0) throw new Error(`${parent} is not ours alone`)
  }
  const {raw, entries} = archive()
  const tag = `t${require('node:worker_threads').threadId}.${process.pid}.tmp`
  const staging = `${dir}.${tag}`
  removeAbandoned(parent)
  fs.rmSync(staging, {recursive: true, force: true})
  fs.mkdirSync(staging, {mode: 0o700})
  const made = new Set()
  for (const {path, mode, at, size} of entries) {
    const target = join(staging, path)
    const folder = target.slice(0, target.lastIndexOf('/'))
    if (!made.has(folder)) {
      fs.mkdirSync(folder, {recursive: true, mode: 0o700})
      made.add(folder)
    }
    fs.writeFileSync(target, raw.subarray(at, at + size), {mode})
  }
  // Last: every file and directory above changed status before it (intact). It names the build
  // (repair trusts a copy sealed by this one only).
  fs.writeFileSync(join(staging, SEAL), ARCHIVE_ID, {mode: 0o600})
  // A name removeAbandoned knows (`.<pid>.tmp`), unlike the staging name unpack uses.
  const aside = `${dir}-old.${tag}`
  if (replace) {
    fs.rmSync(aside, {recursive: true, force: true})
    try {
      fs.renameSync(dir, aside)
    } catch (error) {
      // Already moved by another call replacing it at the same moment.
      if (error.code !== 'ENOENT') throw error
    }
  }
  try {
    fs.renameSync(staging, dir)
  } catch (error) {
    // Another call got there first: use its directory.
    fs.rmSync(staging, {recursive: true, force: true})
    if (!isOurs(dir)) throw error
    return dir
  } finally {
    if (replace) fs.rmSync(aside, {recursive: true, force: true})
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

/** `dir` repaired (repair), or else unpacked again in its place. */
function renew(dir) {
  let repaired = false
  try {
    repaired = repair(dir)
  } catch {
    // Not proved right (moved away by another call's unpack, not writable): unpacked again.
  }
  return repaired ? dir : unpack(dirname(dir), dir, true)
}

/** The packed files: the archive's bytes and its index (path, mode, and where its bytes are: at, size). */
function archive() {
  const raw = require('node:zlib').gunzipSync(Buffer.from(require('node:sea').getAsset('app')))
  const indexLength = raw.readUInt32LE(0)
  const entries = JSON.parse(raw.subarray(4, 4 + indexLength).toString('utf8'))
  let at = 4 + indexLength
  for (const entry of entries) {
    entry.at = at
    at += entry.size
  }
  return {raw, entries}
}

/**
 * The copy `dir`, found changed, made whole again in place: only the files that differ from what
 * the build packed are rewritten, each written aside and renamed over its path (a reader has the
 * old file or the new one, never half of one); a file or directory the build did not pack is
 * removed, one missing is written; then a new seal. False (nothing proved: the caller unpacks the
 * whole copy again) when the seal is not this build's (missing, an older svc's), a directory is
 * not ours alone, or something changed while it ran that it cannot tell right.
 * - Every file and directory is looked at (not only the check's scope): the new seal vouches for
 *   all that changed status before it. Those that changed after the old seal are compared with the
 *   packed bytes (a `touch` rewrites nothing).
 * - Before the walk, the file system's time (a probe's ctime): after the new seal, whatever
 *   changed status since that time (written by this repair, by another call repairing at the same
 *   moment, or by someone else) must hold the packed bytes, or the repair is not proved.
 * - Its files are written in `<id>.repair.t<thread>.<pid>.tmp` beside the copy (removeAbandoned
 *   removes it if the call is killed).
 */
function repair(dir) {
  let sealed
  try {
    if (fs.readFileSync(join(dir, SEAL), 'utf8') !== ARCHIVE_ID) return false
    sealed = fs.lstatSync(join(dir, SEAL)).mtimeMs
  } catch {
    return false
  }
  const {raw, entries} = archive()
  const files = new Map(entries.map((entry) => [entry.path, entry]))
  const folders = new Set()
  for (const path of files.keys()) for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) folders.add(path.slice(0, at))
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
  const ours = (stat) => (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0
  // A regular file of ours with the packed bytes and no mode bit the build did not give it.
  const right = (path, stat, {mode, at, size}) => {
    if (!stat.isFile() || !ours(stat) || (stat.mode & 0o777 & ~mode) !== 0 || stat.size !== size) return false
    try {
      return fs.readFileSync(path).equals(raw.subarray(at, at + size))
    } catch {
      return false
    }
  }
  const top = fs.lstatSync(dir)
  if (!top.isDirectory() || !ours(top)) return false
  const work = `${dir}.repair.t${require('node:worker_threads').threadId}.${process.pid}.tmp`
  fs.rmSync(work, {recursive: true, force: true})
  fs.mkdirSync(work, {mode: 0o700})
  try {
    fs.writeFileSync(join(work, 'probe'), '')
    const start = fs.lstatSync(join(work, 'probe')).ctimeMs
    let written = 0
    const write = (path, {mode, at, size}) => {
      const aside = join(work, String(written++))
      fs.writeFileSync(aside, raw.subarray(at, at + size), {mode})
      fs.mkdirSync(dirname(join(dir, path)), {recursive: true, mode: 0o700})
      fs.renameSync(aside, join(dir, path))
    }
    // Every entry under `dir` (a path relative to it: its stat); false when a directory is not ours.
    const walk = (visit) => {
      const seen = new Set()
      const into = (rel) => {
        for (const entry of fs.readdirSync(rel ? join(dir, rel) : dir)) {
          const path = rel ? `${rel}/${entry}` : entry
          if (path === SEAL) continue
          let stat
          try {
            stat = fs.lstatSync(join(dir, path))
          } catch (error) {
            // Removed since the listing (another call repairing at once): as if missing.
            if (error.code === 'ENOENT') continue
            throw error
          }
          seen.add(path)
          if (stat.isDirectory() && folders.has(path)) {
            if (!ours(stat)) return false
            if (!into(path)) return false
          } else if (visit(path, stat) === false) return false
        }
        return true
      }
      return into('') ? seen : undefined
    }
    // 1. What changed since the old seal made right: rewritten, removed, or written if missing.
    const seen = walk((path, stat) => {
      const packed = files.get(path)
      if (!packed || !stat.isFile()) {
        fs.rmSync(join(dir, path), {recursive: true, force: true})
        if (packed) write(path, packed)
      } else if (stat.ctimeMs > sealed && !right(join(dir, path), stat, packed)) write(path, packed)
    })
    if (!seen) return false
    for (const [path, packed] of files) if (!seen.has(path)) write(path, packed)
    // 2. The new seal, named for this build.
    fs.writeFileSync(join(work, 'seal'), ARCHIVE_ID, {mode: 0o600})
    fs.renameSync(join(work, 'seal'), join(dir, SEAL))
    // 3. Proved: all that changed status since the walk began (or in the same tick) holds the packed bytes.
    const now = walk((path, stat) => {
      const packed = files.get(path)
      return packed !== undefined && stat.isFile() && (stat.ctimeMs < start || right(join(dir, path), stat, packed))
    })
    return now !== undefined && entries.every(({path}) => now.has(path))
  } finally {
    fs.rmSync(work, {recursive: true, force: true})
  }
}

/**
 * Checks each file of the unpacked copy as it loads, in every thread, whatever loads it; one that
 * changed since the unpack: the copy is repaired (or unpacked again) first (the file then loads
 * as packed).
 * - A CommonJS file (a `.js`, `.json` or native `.node` file) under node_modules: before require
 *   runs it (Module._extensions).
 * - An ES module: Node 20's ESM loader reads files out of reach, so its package (every file of it)
 *   and the packages it depends on are checked before the import() that loads it. svc's own
 *   import()s go through dist/dynamic-import.js; a dependency's import() calls this check first
 *   (the build rewrites `import(x)` in node_modules as `import(check(x, caller))`:
 *   scripts/binary/build.mjs, checkedImports).
 * - A worker thread: started with this same check installed in it (`node:worker_threads`' Worker
 *   starts a boot that calls guard, then the worker's own file or code).
 */
function guard(app) {
  const Module = require('node:module')
  const {fileURLToPath} = require('node:url')
  const modules = join(app, 'node_modules') + sep
  const gateway = join(app, 'dist', 'dynamic-import.js')
  const checked = new Set()
  let sealed = sealOf(app)
  // Whether isIntact() holds; if not, and no other thread or call has unpacked the directory again
  // since (its seal is the one seen), it is unpacked again.
  const ensure = (isIntact) => {
    if (sealed !== undefined && isIntact()) return
    const now = sealOf(app)
    if (now !== sealed) {
      sealed = now
      checked.clear()
      if (sealed !== undefined && isIntact()) return
    }
    renew(app)
    sealed = sealOf(app)
    checked.clear()
  }
  const checkPackage = (dir) => {
    if (checked.has(dir)) return
    ensure(() => treeIntact(dir, sealed, 'node_modules'))
    checked.add(dir)
    let manifest
    try {
      manifest = JSON.parse(fs.readFileSync(join(dir, 'package.json'), 'utf8'))
    } catch {
      return
    }
    for (const name of Object.keys({...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies})) {
      const found = packageDir(app, dir, name)
      if (found) checkPackage(found)
    }
  }
  // import(specifier) from the file `caller` (a path or a file: URL).
  const checkImport = (specifier, caller) => {
    checkWorkers()
    if (typeof specifier !== 'string' && !(specifier instanceof URL)) return
    specifier = String(specifier)
    if (/^(node:|data:)/.test(specifier)) return
    const from = String(caller).startsWith('file:') ? fileURLToPath(String(caller)) : String(caller)
    let target
    if (specifier.startsWith('file:')) target = fileURLToPath(specifier)
    else if (specifier.startsWith('/')) target = specifier
    else if (specifier.startsWith('.')) target = join(dirname(from), specifier)
    else {
      const parts = specifier.split('/')
      const found = packageDir(app, dirname(from), specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0])
      if (found) checkPackage(found)
      return
    }
    if (!target.startsWith(app + sep)) return
    const owner = packageRoot(app, target)
    if (owner) checkPackage(owner)
    else ensure(() => !changed(target, sealed))
  }
  globalThis[Symbol.for('svc.checkImport')] = (specifier, caller) => {
    checkImport(specifier, caller)
    return specifier
  }
  // While another thread or call puts a fresh copy in place (renew), the directory is gone for a
  // moment (between two renames): a file not found then is looked for again once it is back.
  const waitingOut = (run) => {
    try {
      return run()
    } catch (error) {
      if (fs.existsSync(app)) throw error
      const pause = new Int32Array(new SharedArrayBuffer(4))
      for (let waited = 0; waited < 5000 && !fs.existsSync(app); waited += 2) Atomics.wait(pause, 0, 0, 2)
      return run()
    }
  }
  const resolveFilename = Module._resolveFilename
  Module._resolveFilename = function () {
    return waitingOut(() => Reflect.apply(resolveFilename, this, arguments))
  }
  for (const extension of ['.js', '.json', '.node']) {
    const load = Module._extensions[extension]
    Module._extensions[extension] = function (module, filename) {
      if (filename.startsWith(modules)) ensure(() => !changed(filename, sealed))
      const result = waitingOut(() => Reflect.apply(load, this, arguments))
      if (filename === gateway && typeof module.exports === 'function') {
        const importIt = module.exports
        module.exports = (specifier) => {
          checkImport(specifier, gateway)
          return importIt(specifier)
        }
      }
      return result
    }
  }
  // Worker wrapped when node:worker_threads is first asked for (loading it costs ~1.5 ms, which a
  // call that starts no worker does not pay), or before any ES module is imported (an ES module's
  // import of it goes through no require).
  let workersChecked = false
  const checkWorkers = () => {
    if (workersChecked) return
    workersChecked = true
    const threads = require('node:worker_threads')
    const Base = threads.Worker
    threads.Worker = class Worker extends Base {
      constructor(entry, options) {
        super(...checkedWorker(app, entry, options))
      }
    }
  }
  const isWorkers = (request) => request === 'node:worker_threads' || request === 'worker_threads'
  const loadModule = Module._load
  Module._load = function (request) {
    if (isWorkers(request)) checkWorkers()
    return Reflect.apply(loadModule, this, arguments)
  }
  // dist/ asks for built-ins this way (scripts/build.mjs), which goes through no require.
  const getBuiltinModule = process.getBuiltinModule
  if (typeof getBuiltinModule === 'function') {
    process.getBuiltinModule = function (id) {
      if (isWorkers(id)) checkWorkers()
      return Reflect.apply(getBuiltinModule, this, arguments)
    }
  }
}

/**
 * A worker's entry and options, with guard installed in it first: the worker runs, as code (eval),
 * the source of guard and the functions it calls, then its own code or file.
 */
function checkedWorker(app, entry, options) {
  const functions = [guard, checkedWorker, packageRoot, packageDir, sealOf, changed, treeIntact, renew, archive, repair, unpack, isOurs, removeAbandoned, running, prune]
  const boot =
    `;(function () { 'use strict'; const fs = require('node:fs'); const {dirname, join, sep} = require('node:path'); const KEEP = ${KEEP}; const SEAL = ${JSON.stringify(SEAL)}; const ARCHIVE_ID = ${JSON.stringify(ARCHIVE_ID)}; ` +
    `${functions.map(String).join('\n')}\nguard(${JSON.stringify(app)}) })();`
  if (options?.eval) {
    // The code's 'use strict' stays its first statement (a directive anywhere else is none).
    const code = String(entry)
    const directive = /^\s*(['"])use strict\1;?/.exec(code)?.[0] ?? ''
    return [`${directive}${boot}${code.slice(directive.length)}`, options]
  }
  const file = entry instanceof URL || String(entry).startsWith('file:') ? require('node:url').fileURLToPath(entry) : require('node:path').resolve(String(entry))
  return [`${boot}process.argv[1] = ${JSON.stringify(file)}; require('node:module').runMain(${JSON.stringify(file)})`, {...options, eval: true}]
}

/** The directory of the package `file` belongs to (under node_modules), or undefined (svc's own). */
function packageRoot(app, file) {
  const path = file.slice(app.length + 1)
  const at = path.lastIndexOf('node_modules/')
  if (at === -1) return undefined
  const parts = path.slice(at + 'node_modules/'.length).split('/')
  return join(app, path.slice(0, at), 'node_modules', ...parts.slice(0, parts[0].startsWith('@') ? 2 : 1))
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
