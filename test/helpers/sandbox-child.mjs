// A local sandbox in a process of its own, for tests where the question is whether the process
// survives (test/helpers/sandbox-process.ts). Prints one JSON line once listening.
//   node test/helpers/sandbox-child.mjs '{"rateLimit": 0}'
// The sandbox is the built library (dist/sandbox/index.js, as `npm test` builds it first), as in
// test/sandbox/data-server.mjs: a plain `node` start, its document worker the built one too,
// without compiling src/ through tsx in the child (about a second of CPU each time).
import {existsSync} from 'node:fs'

const entry = new URL('../../dist/sandbox/index.js', import.meta.url)
if (!existsSync(entry)) throw new Error('dist/sandbox/index.js is missing: npm run build')
const {startSandbox} = await import(entry.href)

const options = JSON.parse(process.argv[2] ?? '{}')
const sb = await startSandbox({rateLimit: 0, ...options})
process.stdout.write(`${JSON.stringify({url: sb.url, keys: sb.keys, adminToken: sb.adminToken})}\n`)
process.on('SIGTERM', () => void sb.close().then(() => process.exit(0)))
