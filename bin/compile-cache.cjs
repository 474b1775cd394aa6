/**
 * V8's code cache for dist/: after the first call, the files a call loads (the core chunk with
 * oclif, the command) are not compiled again. It saves ~15 ms a call (README, "Start-up").
 * Node 22 has this built in (`module.enableCompileCache()`); Node 20 offers V8's cache only for
 * scripts (`vm.Script` `cachedData`), which is why dist/ is CommonJS (scripts/build.mjs).
 *
 * - Where: `$SVC_CACHE_DIR`, else the platform's cache directory, as oclif places its own
 *   (`$XDG_CACHE_HOME/svc` or `~/.cache/svc`; `~/Library/Caches/svc`; `%LOCALAPPDATA%\svc`), in
 *   `compile-cache/<build id>-<node version>-<arch>/`. The build id is a hash of dist/'s contents
 *   (dist/package.json, written by the build), so a cache never meets code it was not made from:
 *   V8 itself checks only the source's length. Directories and files are the user's alone (0700,
 *   0600): V8 trusts what it reads back. Root (`sudo svc`, keeping the user's HOME) creates none
 *   inside a directory that is not root's (rootMayWrite).
 * - When: a file loaded without a usable cache is compiled as usual and its cache written when the
 *   process exits, so it holds what the call compiled on the way (the functions it ran), written
 *   to a temporary name and renamed into place (concurrent calls never read half a file). Help
 *   runs other parts of the core chunk than a command does, so each kind of call keeps its own
 *   cache of a file (`…@run.v8`, `…@help.v8`). A new build's directory replaces older ones,
 *   keeping the three most recent (two installs of svc, say a global and a project one, do not
 *   evict each other).
 * - Never in the way: any failure (read-only home, a full disk, a rejected cache) means compiling
 *   as Node would, silently. `SVC_DISABLE_COMPILE_CACHE=1` turns it off.
 * - Only dist/'s files: packages from node_modules load as Node loads them.
 */
'use strict'
// The CommonJS Module class, without require('node:module'), which also loads the ESM loader's modules.
const Module = module.constructor
const {join, dirname, sep} = require('node:path')
const fs = require('node:fs')

const mainModule = require.main

/** Directories of other builds (or Node versions) kept beside the current one. */
const KEEP = 3

/**
 * @param dist the directory whose files are cached
 * @param kind which kind of call this is ('run', 'help'): V8 caches the functions a call compiled,
 *   and calls of one kind share most of them, so each kind has its own cache of each file
 */
exports.install = function install(dist, kind = 'run') {
  if (process.env.SVC_DISABLE_COMPILE_CACHE === '1') return
  const vm = require('node:vm')
  let build
  try {
    build = JSON.parse(fs.readFileSync(join(dist, 'package.json'), 'utf8')).svcBuild
  } catch {
    return
  }
  if (typeof build !== 'string' || !/^[0-9a-f]{8,64}$/.test(build)) return
  const base = cacheDir()
  if (!base) return
  const parent = join(base, 'compile-cache')
  const dir = join(parent, `${build}-${process.version}-${process.arch}`)
  if (!trusted(dir) || !rootMayWrite(dir)) return
  const prefix = dist.endsWith(sep) ? dist : dist + sep
  // In Node 20 a script restored from V8's cache loses the callback its import() needs, so the
  // build sends every import() in dist/ through this one file, which Node compiles itself.
  const dynamicImport = join(dist, 'dynamic-import.js')
  const toWrite = []
  const compile = Module.prototype._compile

  Module.prototype._compile = function (content, filename) {
    // Anything else as Node would (all its arguments: newer Nodes pass a format too).
    if (!filename.startsWith(prefix) || filename === dynamicImport) return Reflect.apply(compile, this, arguments)
    const file = join(dir, `${filename.slice(prefix.length).split(sep).join('__')}@${kind}.v8`)
    let cachedData
    try {
      cachedData = fs.readFileSync(file)
    } catch {
      // none yet
    }
    const wrapper = Module.wrapper[0]
    const script = new vm.Script(wrapper + content + Module.wrapper[1], {
      filename,
      // Positions on the first line as in the file itself, not shifted by the wrapper.
      columnOffset: -wrapper.length,
      cachedData,
    })
    if (cachedData === undefined || script.cachedDataRejected) toWrite.push({file, script})
    const module = this
    const require = (id) => module.require(id)
    require.resolve = (request, options) => Module._resolveFilename(request, module, false, options)
    require.resolve.paths = (request) => Module._resolveLookupPaths(request, module)
    require.main = mainModule
    require.extensions = Module._extensions
    require.cache = Module._cache
    const fn = script.runInThisContext({displayErrors: true})
    return fn.call(module.exports, module.exports, require, module, filename, dirname(filename))
  }

  process.once('exit', () => {
    if (toWrite.length === 0) return
    try {
      const fresh = !fs.existsSync(dir)
      fs.mkdirSync(dir, {recursive: true, mode: 0o700})
      for (const {file, script} of toWrite) {
        const temporary = `${file}.${process.pid}.tmp`
        fs.writeFileSync(temporary, script.createCachedData(), {mode: 0o600})
        fs.renameSync(temporary, file)
      }
      if (fresh) prune(parent, dir)
    } catch {
      // A cache is optional: the next call compiles again.
    }
  })
}

/**
 * A cache directory that someone else could write to is not read: V8 runs what it finds there.
 * It is ours when it does not exist yet (it is created 0700) or belongs to this user, writable by
 * no one else. (Windows: no uid; the profile directory is the user's.)
 */
function trusted(dir) {
  let stat
  try {
    stat = fs.statSync(dir)
  } catch {
    return true
  }
  if (typeof process.getuid !== 'function') return true
  return stat.isDirectory() && stat.uid === process.getuid() && (stat.mode & 0o022) === 0
}

/**
 * `sudo svc …` often keeps the user's HOME (macOS does): root must not create a cache directory
 * inside a directory that is not root's, or the user's own calls find a directory they cannot
 * write to (theirs and oclif's cache alike). So root uses a cache only below a directory of its
 * own: the nearest one that exists on the way up from `dir`.
 */
function rootMayWrite(dir, uid = process.getuid?.()) {
  if (uid !== 0) return true
  for (let at = dir; ; at = dirname(at)) {
    try {
      return fs.statSync(at).uid === 0
    } catch {
      if (dirname(at) === at) return false
    }
  }
}
exports.rootMayWrite = rootMayWrite

/** Removes the directories of other builds beyond the KEEP most recently written. */
function prune(parent, current) {
  const others = fs
    .readdirSync(parent, {withFileTypes: true})
    .filter((entry) => entry.isDirectory() && join(parent, entry.name) !== current)
    .map((entry) => ({path: join(parent, entry.name), time: fs.statSync(join(parent, entry.name)).mtimeMs}))
    .sort((a, b) => b.time - a.time)
  for (const old of others.slice(KEEP - 1)) fs.rmSync(old.path, {recursive: true, force: true})
}

/** oclif's cache directory for the `svc` dirname (its Config.cacheDir), without loading oclif. */
function cacheDir() {
  const {env} = process
  if (env.SVC_CACHE_DIR) return env.SVC_CACHE_DIR
  const home = env.HOME || env.USERPROFILE || require('node:os').homedir()
  if (process.platform === 'darwin' && !env.XDG_CACHE_HOME) return home && join(home, 'Library', 'Caches', 'svc')
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' && env.LOCALAPPDATA) || (home && join(home, '.cache'))
  return base ? join(base, 'svc') : undefined
}
