// Build: one esbuild entry per command (and dist/main.js for bin/run.cjs, dist/help.js for oclif's
// help class), ESM with code splitting, every npm package left external except @oclif/core and
// undici; the local sandbox's library entry on its own; every output file then rewritten as
// CommonJS (toCommonJs); then oclif's manifest (start-up never scans dist/commands) and
// dist/command-ids.json (what bin/run.cjs reads). docs/startup.md has the figures;
// test/startup/structure.test.ts guards what each call loads.
//
// Start-up, in the order it matters:
// - CommonJS output, compiled through V8's code cache after the first call (bin/compile-cache.cjs),
//   and no ESM loader on the hot path ("CommonJS output" below).
// - One core chunk: @oclif/core (bundled, not ~160 CommonJS files) and our base command's whole
//   module graph in one file that every command shares ("one core chunk" below).
// - Our imports of '@oclif/core' go to scripts/oclif-core.js: only what src/ uses, from oclif's
//   subpaths (its index evaluates help, ux, a semver-based Node check...).
// - What oclif requires at load but uses off the hot path loads on first use: its dependencies
//   from node_modules (LAZY_CORE_DEPENDENCIES), its own modules and built-ins within the bundle
//   (LAZY_IN_CORE); a few source patches make that possible (BUNDLE_PATCHES, each checked).
// - Node built-ins through process.getBuiltinModule, not ESM facades; minified whitespace.
// The plugins (help, not-found, autocomplete) keep their own @oclif/core from node_modules, as
// plugins on another core version do; they load only for the commands they serve.
import {init as initImportLexer, parse as parseImports} from 'es-module-lexer'
import {build} from 'esbuild'
import {execFileSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, isAbsolute, join, relative, sep} from 'node:path'
import {fileURLToPath} from 'node:url'

import {BUNDLE_PATCHES} from './build/patches/index.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const src = join(root, 'src')

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

const coreEntry = join(root, 'scripts/oclif-core.js')

const IN_NODE_MODULES = `${'/'}node_modules${'/'}`
const IN_OCLIF_CORE = `${'/'}node_modules/@oclif/core/`

/**
 * Dependencies of @oclif/core that it requires at the top of a module but uses only off the hot
 * path: command discovery without a manifest (tinyglobby), matching plugin names (minimatch),
 * help templates (ejs), reading a plugin's package.json (lilconfig), its own spinner
 * (cli-spinners). They stay in node_modules and load through a proxy on first use.
 */
const LAZY_CORE_DEPENDENCIES = new Set(['tinyglobby', 'minimatch', 'ejs', 'lilconfig', 'cli-spinners'])
const requireFromCore = createRequire(join(root, 'node_modules/@oclif/core/package.json'))

function lazyModule(name) {
  // `__importDefault(require(name))` asks for __esModule at require time: answer it without loading.
  const esModule = Boolean(requireFromCore(name).__esModule)
  return `// ${name}, loaded from node_modules on first use (scripts/build.mjs, LAZY_CORE_DEPENDENCIES).
${lazyExports(`require('node:module').createRequire(require.resolve('@oclif/core/package.json'))(${JSON.stringify(name)})`, esModule)}`
}

/**
 * Modules that @oclif/core requires at the top of a file but uses only off the hot path: help
 * (to show help, and by the error handler for some errors), debug (only with DEBUG set: see
 * NO_DEBUG), line wrapping (for errors), colours (ansis, supports-color: oclif colours only its
 * own help, errors and spinner; supports-color also loads tty and net), JSON colouring, stdin
 * reading for flags (readline), performance marks (off unless asked for), child_process (only on
 * Windows to find the shell). Still bundled; each loads on first use instead of at start-up.
 * Keyed by the requiring file under @oclif/core/lib/.
 */
const LAZY_IN_CORE = {
  'errors/handle.js': ['../help/index'],
  'flags.js': ['./help'],
  'main.js': ['./help'],
  'parser/index.js': ['./help'],
  'logger.js': ['debug'],
  'ux/theme.js': ['ansis'],
  'ux/action/spinner.js': ['ansis'],
  'ux/supports-color.js': ['supports-color'],
  'ux/index.js': ['./colorize-json'],
  'errors/errors/cli.js': ['wrap-ansi'],
  'errors/errors/pretty-print.js': ['wrap-ansi'],
  'parser/parse.js': ['node:readline'],
  'performance.js': ['node:perf_hooks'],
  'util/os.js': ['node:child_process'],
  // fs/promises loads readline and the stream modules (~1 ms): only flag checks (file and
  // directory flags) and TypeScript sources ask for it; readJson reads synchronously (BUNDLE_PATCHES).
  'util/fs.js': ['node:fs/promises'],
  'util/read-tsconfig.js': ['node:fs/promises'],
  'config/ts-path.js': ['node:fs/promises'],
}
const LAZY_REQUESTS = new Set(Object.values(LAZY_IN_CORE).flat())

function lazyBundledModule({importer, request}) {
  const esModule = Boolean(createRequire(importer)(request).__esModule)
  return `// ${request}, required by ${relative(root, importer)}: loaded on first use (scripts/build.mjs, LAZY_IN_CORE).
${lazyExports(`require(${JSON.stringify(request)})`, esModule)}`
}

/** A CommonJS module whose exports are `load`'s result, evaluated on first use. */
function lazyExports(load, esModule) {
  return `let real
const load = () => (real ??= ${load})
module.exports = new Proxy(function () {}, {
  get: (_, key) => (key === '__esModule' ? ${esModule} : load()[key]),
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(load(), key)
    return descriptor && {...descriptor, configurable: true}
  },
  apply: (_, self, args) => Reflect.apply(load(), self, args),
  construct: (_, args) => Reflect.construct(load(), args),
})
`
}

/**
 * undici (the API client's HTTP layer, loaded on the first request) is ~100 CommonJS files; bundled
 * into its own lazy chunk it loads in about two thirds of the time. Our `import('undici')` goes
 * through a small ESM module that re-exports its names, as Node's own CommonJS import would.
 */
function undiciModule() {
  const path = createRequire(join(root, 'package.json')).resolve('undici')
  const names = Object.keys(createRequire(join(root, 'package.json'))('undici')).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default')
  return `import undici from ${JSON.stringify(path)}\nexport default undici\nexport const {${names.join(', ')}} = undici\n`
}

/** Bare imports from our sources stay external, except @oclif/core, which is bundled with its dependencies. */
const bundleOclifCore = {
  name: 'bundle-oclif-core',
  setup(b) {
    // Node built-ins imported by our ESM sources: through process.getBuiltinModule, as a CommonJS
    // module, not Node's ESM facade of each built-in, which reads every export on load; for
    // node:fs that runs its lazy getters (streams, fs.promises): ~3 ms at every start-up.
    b.onResolve({filter: /^node:/}, (args) => {
      if (args.kind !== 'import-statement' || args.importer.includes(IN_NODE_MODULES)) return undefined
      return {path: args.path, namespace: 'node-builtin'}
    })
    b.onLoad({filter: /.*/, namespace: 'node-builtin'}, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)})`,
      loader: 'js',
    }))
    b.onLoad({filter: /.*/, namespace: 'bundled-undici'}, () => ({contents: undiciModule(), loader: 'js', resolveDir: root}))
    b.onLoad({filter: /.*/, namespace: 'lazy-core-dependency'}, (args) => ({contents: lazyModule(args.path), loader: 'js'}))
    b.onResolve({filter: /./}, (args) => {
      if (!LAZY_REQUESTS.has(args.path) || args.namespace !== 'file') return undefined
      const inCore = args.importer.split(sep).join('/').split(IN_OCLIF_CORE + 'lib/')[1]
      if (!LAZY_IN_CORE[inCore]?.includes(args.path)) return undefined
      return {path: `${args.importer}?lazy=${args.path}`, namespace: 'lazy-in-core', pluginData: {importer: args.importer, request: args.path}}
    })
    b.onLoad({filter: /.*/, namespace: 'lazy-in-core'}, (args) => ({
      contents: lazyBundledModule(args.pluginData),
      loader: 'js',
      resolveDir: dirname(args.pluginData.importer),
    }))
    b.onLoad({filter: /[\\/]node_modules[\\/].*\.js$/}, (args) => {
      const patch = BUNDLE_PATCHES[args.path.split(sep).join('/').split(IN_NODE_MODULES).at(-1)]
      if (!patch) return undefined
      let code = readFileSync(args.path, 'utf8')
      for (const [find, replace] of patch.replace) {
        if (code.split(find).length !== 2) throw new Error(`${args.path}: "${find}" not found once (scripts/build/patches/)`)
        code = code.replace(find, replace)
      }
      return {contents: code + patch.append, loader: 'js'}
    })
    b.onResolve({filter: /^[^./]/}, (args) => {
      if (args.path.startsWith('node:') || args.namespace === 'bundled-undici' || isAbsolute(args.path)) return undefined
      const importer = args.importer.split(sep).join('/')
      if (LAZY_CORE_DEPENDENCIES.has(args.path) && importer.includes(IN_OCLIF_CORE)) {
        return {path: args.path, namespace: 'lazy-core-dependency'}
      }
      if (args.path === 'typescript' || args.path.startsWith('typescript/')) return {path: args.path, external: true}
      if (args.path === '@oclif/core' && !importer.includes(IN_NODE_MODULES)) return {path: coreEntry}
      if (args.path.startsWith('@oclif/core/')) return undefined
      if (args.path === 'undici' && !importer.includes(IN_NODE_MODULES)) return {path: 'undici', namespace: 'bundled-undici'}
      if (importer.includes(IN_NODE_MODULES)) return undefined
      return {path: args.path, external: true}
    })
  },
}

/**
 * One core chunk. esbuild's code splitting puts each module in a chunk keyed by the set of entry
 * points that reach it, and every dynamic import() is an entry point too. Our base command's graph
 * (src/lib/command.ts: context, config, i18n, io, errors; and @oclif/core through it) is reached by
 * every command, but some of its modules also by a lazily imported module (the API client, the
 * French catalogue...), and so it came out as ~14 small chunks, each costing a command's start-up
 * an ESM resolve, read and compile (~1 ms each). So every other module of ours imports the base
 * command's module too (appended; it is loaded before any of them in practice, by bin/run.cjs →
 * dist/main.js): then every entry point reaches the whole core graph and it is one chunk.
 */
const BASE_COMMAND = join(src, 'lib/command.ts')

/** The files of the base command's static module graph (ours and @oclif/core's). */
async function coreModules() {
  const {metafile} = await build({
    entryPoints: [BASE_COMMAND],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [bundleOclifCore],
    logLevel: 'warning',
  })
  // The bundle holds what import() reaches too: keep what static imports and require() reach.
  const reached = new Set()
  const visit = (input) => {
    if (reached.has(input) || !metafile.inputs[input]) return
    reached.add(input)
    for (const i of metafile.inputs[input].imports) if (i.kind !== 'dynamic-import') visit(i.path)
  }
  visit(relative(root, BASE_COMMAND).split(sep).join('/'))
  return new Set([...reached].map((input) => join(root, input)))
}

function oneCoreChunk(core) {
  const importCore = `\nimport ${JSON.stringify(BASE_COMMAND)}\n`
  return {
    name: 'one-core-chunk',
    setup(b) {
      // undici's chunk too, or esbuild's CommonJS helpers (shared with @oclif/core) are a chunk apart.
      b.onLoad({filter: /.*/, namespace: 'bundled-undici'}, () => ({contents: undiciModule() + importCore, loader: 'js', resolveDir: root}))
      b.onLoad({filter: /\.ts$/}, (args) => {
        if (core.has(args.path) || !args.path.startsWith(src + sep)) return undefined
        return {contents: readFileSync(args.path, 'utf8') + importCore, loader: 'ts'}
      })
      // import() of a core module (it is loaded already, so this only picks a name), or oclif's
      // import('wsl-utils') (see MAYBE_WSL), would make an entry point of its own that does not
      // reach the base command: import it through a module that does.
      b.onResolve({filter: /^(\.|wsl-utils$)/}, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === 'one-core-chunk') return undefined
        const resolved = await b.resolve(args.path, {kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'one-core-chunk'})
        if (resolved.errors.length > 0 || !(core.has(resolved.path) || args.path === 'wsl-utils')) return undefined
        return {path: resolved.path, namespace: 'core-import'}
      })
      b.onLoad({filter: /.*/, namespace: 'core-import'}, (args) => {
        const hasDefault = /^export default /m.test(readFileSync(args.path, 'utf8'))
        const path = JSON.stringify(args.path)
        return {
          contents: `export * from ${path}\n${hasDefault ? `export {default} from ${path}\n` : ''}${importCore}`,
          loader: 'js',
          resolveDir: src,
        }
      })
    },
  }
}

// Smaller files parse faster at every start-up; identifiers stay, so stack traces stay readable.
// SVC_BUILD_READABLE=1 keeps whitespace and syntax as written (for profiling the build).
const MINIFY = {minifyWhitespace: !process.env.SVC_BUILD_READABLE, minifySyntax: !process.env.SVC_BUILD_READABLE}
// The one use of import.meta in src/ (the sandbox's document worker finds its entry file): every
// output file becomes CommonJS (toCommonJs), where the file's directory is __dirname.
const IMPORT_META = {define: {'import.meta.dirname': '__dirname'}}

const commandEntries = walk(join(src, 'commands')).filter((f) => f.endsWith('.ts'))
// What oclif loads besides the commands: bin/run.cjs's entry, the help class and the not-found hook (package.json).
const libEntries = ['main.ts', 'help.ts', 'hooks/not-found.ts'].map((f) => join(src, f))

// Built in a directory of its own, then renamed to dist/: a test run or a benchmark reading dist/
// while this runs sees the old build or the new one, never half of one.
const out = join(root, `.dist-build-${process.pid}`)
// What a failed or interrupted build left.
for (const name of readdirSync(root)) if (/^\.dist-(build|old)-\d+$/.test(name)) rmSync(join(root, name), {recursive: true, force: true})
await build({
  entryPoints: {
    ...Object.fromEntries([...commandEntries, ...libEntries].map((f) => [relative(src, f).replace(/\.ts$/, ''), f])),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [oneCoreChunk(await coreModules()), bundleOclifCore],
  chunkNames: 'chunks/[name]-[hash]',
  ...MINIFY,
  ...IMPORT_META,
  sourcemap: false,
  logLevel: 'warning',
})
// The local sandbox as a library for other processes (tests, benchmarks), in one file of its own:
// in the build above it would share its i18n modules with the commands and split the core chunk.
// The CLI's own `sandbox serve` runs the copy in the chunks above. The sandbox's document worker
// (PDFs, image checks: a worker thread) has its entry beside it, which both copies find; --jq's
// worker thread (dist/jq-worker.js) is built here too, a file of its own that imports no chunk.
await build({
  entryPoints: {
    'sandbox/index': join(src, 'sandbox/index.ts'),
    'sandbox/render-worker': join(src, 'sandbox/invoices/render-worker.ts'),
    // --jq's worker thread (src/lib/io/jq-run.ts finds it one level up from the CLI's chunks).
    'jq-worker': join(src, 'lib/io/jq-worker.ts'),
  },
  ...IMPORT_META,
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [bundleOclifCore],
  sourcemap: false,
  logLevel: 'warning',
})
// The invoice PDF's fonts (DejaVu Sans, src/sandbox/invoices/fonts/LICENSE.txt) beside the sandbox's
// entries, where pdf.ts looks for them (fontsDir): dist/sandbox/fonts.
cpSync(join(src, 'sandbox/invoices/fonts'), join(out, 'sandbox/fonts'), {recursive: true})
// The web inspector's page (HTML, CSS, one script), files the sandbox serves as they are: beside
// the sandbox's library entry (dist/sandbox/inspector/), where both copies of the sandbox find them
// (src/sandbox/inspector/index.ts, assetDir). The one-file binary carries dist/ whole.
const inspectorAssets = join(src, 'sandbox/inspector/assets')
mkdirSync(join(out, 'sandbox/inspector'), {recursive: true})
for (const name of readdirSync(inspectorAssets).filter((n) => /\.(html|css|js)$/.test(n))) writeFileSync(join(out, 'sandbox/inspector', name), readFileSync(join(inspectorAssets, name)))
// The API reference page (src/sandbox/reference/index.ts): its own files, and Swagger UI's two
// (swagger-ui-dist, a dev dependency: what runs is this copy, never node_modules), beside them.
const referenceAssets = join(src, 'sandbox/reference/assets')
const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
mkdirSync(join(out, 'sandbox/reference'), {recursive: true})
for (const name of readdirSync(referenceAssets).filter((n) => /\.(html|css|js)$/.test(n))) writeFileSync(join(out, 'sandbox/reference', name), readFileSync(join(referenceAssets, name)))
for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE', 'NOTICE']) writeFileSync(join(out, 'sandbox/reference', name), readFileSync(join(swaggerUi, name)))
// CommonJS output. esbuild splits code only in ESM, so the builds above are ESM; each file is then
// rewritten as CommonJS (same names, same chunks: a `require` per import, exports as live
// getters), and dist/package.json marks dist/ as CommonJS. Why: a call that stays in CommonJS
// never starts Node's ESM loader (~9 ms at every start-up), and V8's code cache, which skips
// compiling the core chunk at every call, exists in Node 20 only for scripts, not ES modules
// (bin/compile-cache.cjs). import() of one of our files becomes a require; import() of a package
// (chalk, ora, the prompts, conf: ESM only) stays an import().
const DYNAMIC_IMPORT = join(out, 'dynamic-import.js')
await initImportLexer
const distFiles = walk(out).filter((f) => f.endsWith('.js') && !f.startsWith(join(out, 'sandbox/inspector')) && !f.startsWith(join(out, 'sandbox/reference')))
await Promise.all(distFiles.map((file) => toCommonJs(file)))
writeFileSync(DYNAMIC_IMPORT, `'use strict'\n// import() for dist/ (scripts/build.mjs, throughDynamicImport).\nmodule.exports = (specifier) => import(specifier)\n`)
distFiles.push(DYNAMIC_IMPORT)
// The build id keys the compile cache (bin/compile-cache.cjs): a hash of everything in dist/.
const buildId = createHash('sha256')
for (const file of distFiles.sort()) buildId.update(relative(out, file)).update(readFileSync(file))
writeFileSync(join(out, 'package.json'), `${JSON.stringify({type: 'commonjs', svcBuild: buildId.digest('hex').slice(0, 16)})}\n`)
const previous = join(root, `.dist-old-${process.pid}`)
if (existsSync(join(root, 'dist'))) renameSync(join(root, 'dist'), previous)
renameSync(out, join(root, 'dist'))
rmSync(previous, {recursive: true, force: true})

async function toCommonJs(file) {
  const code = readFileSync(file, 'utf8')
  // CommonJS has no import.meta; no source of ours uses it, and a new use must be looked at.
  if (code.includes('import.meta')) throw new Error(`${relative(root, file)}: import.meta has no CommonJS equivalent (scripts/build.mjs, toCommonJs)`)
  const result = await build({
    stdin: {contents: code, sourcefile: file, resolveDir: dirname(file), loader: 'js'},
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    ...MINIFY,
    logLevel: 'warning',
    plugins: [
      {
        name: 'imports-stay-imports',
        setup(b) {
          // Every import stays a file apart (each is a chunk or a package); import() of our own
          // chunk or of a built-in goes through a one-line module that requires it, which esbuild
          // loads with require.
          b.onResolve({filter: /.*/}, (args) => {
            const ours = args.path.startsWith('.') || args.path.startsWith('node:')
            if (args.kind === 'dynamic-import' && ours) return {path: args.path, namespace: 'require-chunk'}
            return {path: args.path, external: true}
          })
          b.onLoad({filter: /.*/, namespace: 'require-chunk'}, (args) => ({
            contents: `module.exports = require(${JSON.stringify(args.path)})`,
            loader: 'js',
          }))
        },
      },
    ],
  })
  writeFileSync(file, throughDynamicImport(file, result.outputFiles[0].text))
}

/**
 * What still calls import() (a package that is an ES module only, a URL oclif builds) calls
 * dist/dynamic-import.js instead: in Node 20, a script V8 restores from its code cache has lost
 * the callback import() needs (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING; bin/compile-cache.cjs), and
 * that one file is always compiled by Node itself. es-module-lexer finds the calls (not the word
 * in a string or comment).
 */
function throughDynamicImport(file, code) {
  const [imports] = parseImports(code)
  const calls = imports.filter((i) => i.d > -1)
  if (calls.length === 0) return code
  let out = ''
  let at = 0
  for (const call of calls) {
    // __svcImport passes the specifier only: import attributes (a second argument) would be lost.
    if (code.slice(call.ss, call.ss + 7) !== 'import(' || call.a > -1) throw new Error(`${relative(root, file)}: unexpected import() at ${call.ss}`)
    out += `${code.slice(at, call.ss)}__svcImport`
    at = call.ss + 'import'.length
  }
  let path = relative(dirname(file), DYNAMIC_IMPORT).split(sep).join('/')
  if (!path.startsWith('.')) path = `./${path}`
  return `var __svcImport=(specifier)=>require(${JSON.stringify(path)})(specifier);\n${out}${code.slice(at)}`
}

rmSync(join(root, 'oclif.manifest.json'), {force: true})
execFileSync(process.execPath, [join(root, 'node_modules/oclif/bin/run.js'), 'manifest'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
})

// bin/run.cjs decides from argv whether a call names one of our commands before oclif loads; it
// reads this index (~2 KB) rather than the manifest (~190 KB, which oclif then reads again).
// Per id: whether the command takes arguments (or any argv), where a command id must end.
const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'))
// oclif parses the manifest on every call that reaches it: without its indentation it is a third smaller.
writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify(manifest))
const {commands} = manifest
const index = Object.fromEntries(
  Object.entries(commands).map(([id, c]) => [id, c.strict === false || Object.keys(c.args ?? {}).length > 0 ? 1 : 0]),
)
writeFileSync(join(root, 'dist/command-ids.json'), JSON.stringify(index))

// A call that names one of our commands (bin/run.cjs) has oclif read a manifest of that command and
// the commands under it (what its help lists) instead of all ~70: ~2 KB to parse and set up
// instead of ~190 KB (BUNDLE_PATCHES, config/plugin.js). Every other call reads the whole one.
mkdirSync(join(root, 'dist/manifests'))
for (const id of Object.keys(commands)) {
  const own = Object.fromEntries(Object.entries(commands).filter(([other]) => other === id || other.startsWith(`${id}:`)))
  writeFileSync(join(root, 'dist/manifests', `${id.split(':').join('__')}.json`), JSON.stringify({...manifest, commands: own}))
}
