// A local sandbox in a process of its own, for tests where the process is the question: whether
// it survives (test/helpers/sandbox-process.ts), or what a SIGKILL leaves of its data file (the
// kill runs, test/sandbox/durability-run.ts). Prints one JSON line (url, keys, the sandbox key,
// admin token, pid) once it listens.
//   node test/helpers/sandbox-child.mjs '{"rateLimit": 0, "dataFile": "FILE"}'
// The sandbox is the built library (dist/sandbox/index.js, as `npm test` builds it first): a
// plain `node` start, its document worker the built one too, without compiling src/ through tsx in
// each of the many processes a kill run starts (about half the start-up's CPU).
// Required, not import()ed: the build is CommonJS, and an ESM import of it first runs Node's
// CommonJS export lexer over its 300 KB (about a third of the start-up's CPU).
import {existsSync} from 'node:fs'
import {createRequire} from 'node:module'
import {fileURLToPath} from 'node:url'

const entry = new URL('../../dist/sandbox/index.js', import.meta.url)
if (!existsSync(entry)) throw new Error('dist/sandbox/index.js is missing: npm run build')
const {startSandbox} = createRequire(import.meta.url)(fileURLToPath(entry))

const options = JSON.parse(process.argv[2] ?? '{}')
const sb = await startSandbox({rateLimit: 0, ...options})
process.stdout.write(`${JSON.stringify({url: sb.url, keys: sb.keys, key: sb.keys.sandbox, adminToken: sb.adminToken, pid: process.pid})}\n`)
process.on('SIGTERM', () => void sb.close().then(() => process.exit(0)))
