// Build: one esbuild entry per command (and per public library entry), ESM with code splitting,
// every npm package left external except @oclif/core; then oclif's manifest, so start-up never
// scans dist/commands.
//
// @oclif/core (with its own dependencies) is bundled into a shared chunk: as ~160 CommonJS files it
// is the largest start-up cost (resolving, reading and wrapping each file); as one chunk it loads
// in about a third of the time. Our imports of '@oclif/core' go to scripts/oclif-core.js (its
// index's exports, from its subpaths, without the index's semver-based Node check). bin/run.js
// and the commands share that one copy (dist/oclif-core.js). The plugins (help, not-found,
// autocomplete) keep their own @oclif/core from node_modules, as plugins on another core version
// do; they load only for the commands they serve.
import {build} from 'esbuild'
import {execFileSync} from 'node:child_process'
import {readFileSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {isAbsolute, join, relative, sep} from 'node:path'
import {fileURLToPath} from 'node:url'

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
let real
const load = () => (real ??= require('node:module').createRequire(require.resolve('@oclif/core/package.json'))(${JSON.stringify(name)}))
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
 * @oclif/core sorts each plugin's commands with localeCompare, and that first call costs every
 * start-up ~8 ms of ICU collator set-up. For ids made of a-z, 0-9, '-' and ':' (ours and the
 * plugins') ICU's root order is plain character order with punctuation ('-' then ':') before
 * digits before letters; compareIds gives exactly that, and asks localeCompare for anything else.
 */
const CORE_SORT = '.sort((a, b) => a.id.localeCompare(b.id))'
const COMPARE_IDS = `
const __svcIdRank = (c) => (c === 45 ? 1 : c === 58 ? 2 : c >= 48 && c <= 57 ? c - 38 : c >= 97 && c <= 122 ? c - 77 : -1);
function __svcCompareIds(a, b) {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = __svcIdRank(a.charCodeAt(i));
    const y = __svcIdRank(b.charCodeAt(i));
    if (x < 0 || y < 0) return a.localeCompare(b);
    if (x !== y) return x - y;
  }
  for (let i = Math.min(a.length, b.length); i < Math.max(a.length, b.length); i++) {
    if (__svcIdRank((a.length > b.length ? a : b).charCodeAt(i)) < 0) return a.localeCompare(b);
  }
  return a.length - b.length;
}
`

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
    b.onLoad({filter: /.*/, namespace: 'bundled-undici'}, () => ({contents: undiciModule(), loader: 'js', resolveDir: root}))
    b.onLoad({filter: /.*/, namespace: 'lazy-core-dependency'}, (args) => ({contents: lazyModule(args.path), loader: 'js'}))
    b.onLoad({filter: /[\\/]@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/}, (args) => {
      const code = readFileSync(args.path, 'utf8')
      if (!code.includes(CORE_SORT)) {
        return {contents: code, loader: 'js', warnings: [{text: `${CORE_SORT} not found: the ICU-free sort is not applied`}]}
      }
      return {contents: code.replace(CORE_SORT, '.sort((a, b) => __svcCompareIds(a.id, b.id))') + COMPARE_IDS, loader: 'js'}
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

const commandEntries = walk(join(src, 'commands')).filter((f) => f.endsWith('.ts'))
// Library entries that other processes import directly (tests, benchmarks, the sandbox host).
const libEntries = ['lib/sandbox/index.ts', 'lib/index.ts', 'help.ts']
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
  entryPoints: {
    ...Object.fromEntries([...commandEntries, ...libEntries].map((f) => [relative(src, f).replace(/\.ts$/, ''), f])),
    'oclif-core': coreEntry,
  },
  outdir: join(root, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [bundleOclifCore],
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: false,
  logLevel: 'warning',
})
// The bundled CommonJS code calls require() (built-ins, lazy loads) through esbuild's __require,
// which needs a real require in scope; ESM has none. Only the chunk defining __require gets one
// (a banner on every file would cost each command chunk a createRequire at start-up).
const REQUIRE_SHIM = "import {createRequire as __svcCreateRequire} from 'node:module';\nconst require = __svcCreateRequire(import.meta.url);\n"
for (const file of walk(join(root, 'dist')).filter((f) => f.endsWith('.js'))) {
  const code = readFileSync(file, 'utf8')
  if (/typeof require !== "undefined" \? require/.test(code)) writeFileSync(file, REQUIRE_SHIM + code)
}

rmSync(join(root, 'oclif.manifest.json'), {force: true})
execFileSync(process.execPath, [join(root, 'node_modules/oclif/bin/run.js'), 'manifest'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
})
