#!/usr/bin/env node
/**
 * The launcher. Start-up is paid on every call (shell loops, CI), so this file keeps it small
 * (README, "Start-up"; bench/startup/run.mjs measures it):
 * - It is CommonJS (.cjs), as is dist/ (dist/package.json, scripts/build.mjs): a call that stays in
 *   CommonJS never starts Node's ESM loader (~9 ms). Packages that are ES modules only (chalk,
 *   ora, the prompts, conf) are still reached by import(), where a command needs them.
 * - `svc --version` is answered here, before oclif loads.
 * - dist/ is compiled through V8's code cache (bin/compile-cache.cjs): after the first call, the
 *   core chunk and the command are not compiled again (~15 ms a call).
 * - oclif comes from dist/main.js: @oclif/core and our base command's module graph bundled into one
 *   chunk shared with the commands (scripts/build.mjs), not ~160 CommonJS files and a dozen chunks.
 * - When argv names one of our own commands (dist/command-ids.json, from the manifest), oclif loads
 *   with the root plugin only: the plugins (help, not-found, autocomplete) have no hooks or
 *   commands that such a call could reach, so reading their package.json and manifests is
 *   skipped; and the root plugin reads the manifest of that command (dist/manifests/), ~2 KB
 *   rather than the whole ~190 KB. Everything else (`svc`, `svc help`, a topic,
 *   `svc autocomplete`, an unknown command) goes through oclif's full load.
 * - No stdio stream is made until something needs one (watchStdio, src/lib/io/process-streams.ts).
 */
'use strict'
const {readFileSync, writeSync} = require('node:fs')
const {join} = require('node:path')

const root = join(__dirname, '..')
const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === 'version')) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const line = `${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`
  // Straight to fd 1: process.stdout would build a stream first (~2 ms), for one short line.
  try {
    writeSync(1, line)
  } catch (error) {
    if (error.code !== 'EPIPE') process.stdout.write(line)
  }
} else {
  watchStdio()
  const argv = globalFlagsLast(args)
  const id = ownCommandId(argv)
  const own = id !== undefined
  // oclif reads that command's manifest (and its subcommands'), not all of them (scripts/build.mjs).
  if (own) globalThis[Symbol.for('svc.manifest')] = join(root, 'dist/manifests', `${id.split(':').join('__')}.json`)
  // Help (and the calls that go through the plugins) runs other code of the core chunk than a
  // command does: each kind keeps a cache of what it compiles.
  require('./compile-cache.cjs').install(join(root, 'dist'), own && !argv.includes('--help') ? 'run' : 'help')
  // --jq: jq's WebAssembly (~2.8 MB) starts compiling now, on V8's background threads, while oclif
  // loads; src/lib/io/jq-main.ts requires the same module (Node's cache) and awaits it. jq-web
  // binds console.error as it loads (its "Aborted()" when jq runs out of memory): bound to a
  // stand-in that jq-main.ts silences while a filter runs (loadJqWeb there does the same).
  if (own && !argv.includes('--help') && argv.some((arg) => arg === '--jq' || arg.startsWith('--jq='))) {
    const error = console.error
    console.error = function (...args) {
      if (!globalThis[Symbol.for('svc.jq.quiet')]) return Reflect.apply(error, this, args)
    }
    require('jq-web').catch(() => undefined)
    console.error = error
  }
  const {flush, handle, run} = require('../dist/main.js')
  run(argv, own ? rootOnly(root) : root)
    .then(() => flush())
    .catch(async (error) => handle(error))
}

/**
 * Node makes process.stdin, stdout and stderr on first use, 1–2.5 ms each; most calls print a few
 * lines and never read stdin. Which ones exist yet is kept here, where the process starts, so that
 * src/lib/io/process-streams.ts can write a line to a descriptor no stream holds (and oclif's flush
 * skip a stdout never made).
 */
function watchStdio() {
  const unmade = new Set()
  for (const name of ['stdin', 'stdout', 'stderr']) {
    const own = Object.getOwnPropertyDescriptor(process, name)
    if (!own || typeof own.get !== 'function' || !own.configurable) continue
    unmade.add(name)
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: own.enumerable,
      get() {
        unmade.delete(name)
        Object.defineProperty(process, name, own)
        return process[name]
      },
    })
  }
  process[Symbol.for('svc.stdio.unmade')] = unmade
}

/**
 * `svc --profile local pay list` (as the README writes it) → `svc pay list --profile local`: oclif
 * wants the command id first, so leading global flags move behind it.
 */
function globalFlagsLast(argv) {
  const withValue = new Set(['--profile', '--api-key', '--base-url', '--lang', '--jq'])
  const booleans = new Set(['--json', '--color', '--no-color', '--yes', '-y', '--verbose', '--wide'])
  const leading = []
  let i = 0
  while (i < argv.length) {
    const arg = argv[i]
    const name = arg.split('=')[0]
    if (withValue.has(name)) {
      const takesNext = !arg.includes('=') && i + 1 < argv.length
      leading.push(...argv.slice(i, takesNext ? i + 2 : i + 1))
      i += takesNext ? 2 : 1
    } else if (booleans.has(arg)) {
      leading.push(arg)
      i += 1
    } else break
  }
  if (leading.length === 0 || i >= argv.length) return argv
  // Keep `--` and everything after it in place; put the moved flags before it.
  const rest = argv.slice(i)
  const dashdash = rest.indexOf('--')
  return dashdash === -1 ? [...rest, ...leading] : [...rest.slice(0, dashdash), ...leading, ...rest.slice(dashdash)]
}

/**
 * The command id oclif will derive from argv (its collateSpacedCmdIDFromArgs, topic separator
 * ' '), when that id is one of our commands; undefined otherwise (or without a build's index).
 * dist/command-ids.json (scripts/build.mjs, from the manifest): id → 1 when the command takes
 * arguments (or is not strict), else 0.
 */
function ownCommandId(argv) {
  let commands
  try {
    commands = JSON.parse(readFileSync(join(root, 'dist/command-ids.json'), 'utf8'))
  } catch {
    return undefined
  }
  const own = (id) => Object.hasOwn(commands, id)
  if (argv.length === 0) return undefined
  if (argv.length === 1) return own(argv[0]) ? argv[0] : undefined
  const usable = new Set()
  for (const id of Object.keys(commands)) {
    const parts = id.split(':')
    for (let n = 1; n <= parts.length; n++) usable.add(parts.slice(0, n).join(':'))
  }
  const final = []
  const idOf = (next) => [...final, next].filter(Boolean).join(':')
  const hasArgs = () => own(idOf()) && commands[idOf()] === 1
  for (const arg of argv) {
    if (usable.has(idOf(arg))) final.push(arg)
    else if (arg.includes('=') || arg.startsWith('-') || hasArgs()) break
    else final.push(arg)
  }
  const id = idOf()
  return own(id) ? id : undefined
}

/** oclif's load options for the root plugin alone (no core, user or dev plugins). */
function rootOnly(dir) {
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  return {root: dir, pjson: {...pjson, oclif: {...pjson.oclif, plugins: []}}, userPlugins: false, devPlugins: false}
}
