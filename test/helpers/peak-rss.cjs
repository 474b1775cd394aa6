// Preloaded (`node -r`) into a CLI child whose memory a test measures: at exit, the process's
// peak resident set size (kB, as getrusage reports it) is written to SVC_TEST_PEAK_RSS_FILE, and
// with SVC_TEST_CPU_FILE its CPU time (user + system, in microseconds) to that file.
const {writeFileSync} = require('node:fs')

const file = process.env.SVC_TEST_PEAK_RSS_FILE
const cpuFile = process.env.SVC_TEST_CPU_FILE
process.on('exit', () => {
  const usage = process.resourceUsage()
  if (file) writeFileSync(file, String(usage.maxRSS))
  if (cpuFile) writeFileSync(cpuFile, String(usage.userCPUTime + usage.systemCPUTime))
})
