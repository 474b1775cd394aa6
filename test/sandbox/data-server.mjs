// A sandbox on a data file, in its own process, so that a test can kill it with SIGKILL. Prints one
// JSON line (url, sandbox key, admin token, pid) once it listens.
//   node test/sandbox/data-server.mjs FILE
// The sandbox is the built library (dist/sandbox/index.js, as `npm test` builds it first): a
// plain `node` start, without compiling src/ through tsx in each of the many processes a kill run
// starts (about half the start-up's CPU).
// Required, not import()ed: the build is CommonJS, and an ESM import of it first runs Node's
// CommonJS export lexer over its 300 KB (about a third of the start-up's CPU).
import {existsSync} from 'node:fs'
import {createRequire} from 'node:module'
import {fileURLToPath} from 'node:url'

const entry = new URL('../../dist/sandbox/index.js', import.meta.url)
if (!existsSync(entry)) throw new Error('dist/sandbox/index.js is missing: npm run build')
const {startSandbox} = createRequire(import.meta.url)(fileURLToPath(entry))

const dataFile = process.argv[2]
if (!dataFile) throw new Error('usage: data-server.mjs FILE')
const sb = await startSandbox({rateLimit: 0, seed: 1, settleAfterMs: 60_000, dataFile})
process.stdout.write(`${JSON.stringify({url: sb.url, key: sb.keys.sandbox, adminToken: sb.adminToken, pid: process.pid})}\n`)
process.on('SIGTERM', () => void sb.close().then(() => process.exit(0)))
