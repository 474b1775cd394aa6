// A local sandbox in a process of its own (from src/, through tsx), for tests where the question is
// whether the process survives. Prints one JSON line once listening.
import {startSandbox} from '../../src/sandbox/index.js'

const options = JSON.parse(process.argv[2] ?? '{}')
const sb = await startSandbox({rateLimit: 0, ...options})
process.stdout.write(`${JSON.stringify({url: sb.url, keys: sb.keys, adminToken: sb.adminToken})}\n`)
process.on('SIGTERM', () => void sb.close().then(() => process.exit(0)))
