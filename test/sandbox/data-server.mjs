// A sandbox on a data file, in its own process, so that a test can kill it with SIGKILL. Prints one
// JSON line (url, sandbox key, admin token, pid) once it listens.
//   node --import tsx test/sandbox/data-server.ts FILE
import {startSandbox} from '../../src/sandbox/index.js'

const dataFile = process.argv[2]
if (!dataFile) throw new Error('usage: data-server.ts FILE')
const sb = await startSandbox({rateLimit: 0, seed: 1, settleAfterMs: 60_000, dataFile})
process.stdout.write(`${JSON.stringify({url: sb.url, key: sb.keys.sandbox, adminToken: sb.adminToken, pid: process.pid})}\n`)
process.on('SIGTERM', () => void sb.close().then(() => process.exit(0)))
