// Preloaded (`node --import`) into a CLI child that runCli starts with a test clock
// (test/helpers/clock.ts): the child's machine time, which the CLI reads only through its clock
// (src/contract/clock.ts, Date.now), stands at the test clock's pinned time, or runs with its offset.
// Pinned, its monotonic time (performance.now, what durations are measured with) stands still too.
const setting = process.env.SVC_TEST_CLOCK
delete process.env.SVC_TEST_CLOCK
if (setting) {
  const {pinnedAt, offsetMs} = JSON.parse(setting)
  const real = Date.now
  Date.now = typeof pinnedAt === 'number' ? () => pinnedAt : () => real() + offsetMs
  if (typeof pinnedAt === 'number') {
    const standing = performance.now()
    performance.now = () => standing
  }
}
