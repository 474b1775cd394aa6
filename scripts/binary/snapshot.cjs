/**
 * The single executable's entry when built with a start-up snapshot (scripts/binary/build.mjs
 * --snapshot). The build prepends `const PRELOAD = {...}`: dist/main.js and the core chunk (oclif
 * and our base command), each as the function Node would wrap it in. They are evaluated here, while
 * the snapshot is built, so a call starts with them already in the heap instead of reading,
 * compiling and running them. At run time (the deserialize main function) the app directory is
 * found or unpacked as in main.cjs, its files checked as they load as in main.cjs (guard), the preloaded modules are entered in Node's module cache
 * under their unpacked file names (so that commands loaded from disk share the very same oclif
 * and base command), and bin/run.cjs runs from disk.
 *
 * A snapshot's `require` loads built-ins only: a preloaded module's require of another of our
 * files or of a package goes, at run time, through a require made for its unpacked file name.
 */
'use strict'
/* global PRELOAD, APP_DIR, GUARD */
const v8 = require('node:v8')
const posix = require('node:path').posix

const builtinRequire = require
let app
const preloaded = new Map()
const realRequires = new Map()

function realRequire(rel) {
  let r = realRequires.get(rel)
  if (!r) {
    if (app === undefined) throw new Error(`${rel}: a file required while the snapshot was built`)
    r = require("node:module").createRequire(`${app}/${rel}`)
    realRequires.set(rel, r)
  }
  return r
}

function requireFor(rel) {
  const dir = posix.dirname(rel)
  const requireIt = (id) => {
    if (id.startsWith('./') || id.startsWith('../')) {
      const target = posix.join(dir, id)
      if (preloaded.has(target)) return preloaded.get(target).exports
      if (PRELOAD[target] && app === undefined) return load(target)
    }
    // A built-in, or else a package from the unpacked node_modules (node:module's isBuiltin is not
    // asked: node:module is not one a snapshot may load while it is built).
    if (!id.startsWith('.')) {
      try {
        return builtinRequire(id)
      } catch {
        // not a built-in
      }
    }
    return realRequire(rel)(id)
  }
  requireIt.resolve = (id, options) => realRequire(rel).resolve(id, options)
  Object.defineProperty(requireIt, 'main', {get: () => require.main})
  Object.defineProperty(requireIt, 'cache', {get: () => require('node:module')._cache})
  return requireIt
}

function load(rel) {
  const module = {exports: {}, id: rel, loaded: false}
  preloaded.set(rel, module)
  PRELOAD[rel].call(module.exports, module.exports, requireFor(rel), module, `/snapshot/${rel}`, `/snapshot/${posix.dirname(rel)}`)
  module.loaded = true
  return module.exports
}

load('dist/main.js')

v8.startupSnapshot.setDeserializeMainFunction(() => {
  // main.cjs's appDir(), shared source (the build inlines it below as APP_DIR).
  app = APP_DIR()
  // Every file loaded from here on is checked as main.cjs checks it (guard).
  GUARD(app)
  const Module = require('node:module')
  const {join, dirname} = require('node:path')
  for (const [rel, m] of preloaded) {
    const filename = join(app, rel)
    const real = new Module(filename, null)
    real.filename = filename
    real.paths = Module._nodeModulePaths(dirname(filename))
    real.exports = m.exports
    real.loaded = true
    Module._cache[filename] = real
  }
  Module.createRequire(join(app, "package.json"))("./bin/run.cjs")
})
