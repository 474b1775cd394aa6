// Preloaded (`node -r`) into a CLI child whose memory a test measures: at exit, the process's
// peak resident set size (kB, as getrusage reports it) is written to SVC_TEST_PEAK_RSS_FILE.
const {writeFileSync} = require('node:fs')

const file = process.env.SVC_TEST_PEAK_RSS_FILE
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)))
