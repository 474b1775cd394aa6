/**
 * One clock: time is read only through the injected clock (docs/architecture.md, "Time"). Outside
 * the two clock files, the sources never read the machine's time themselves: no `Date.now`, no
 * argument-less `new Date()`, no `performance.now()` (the machine's monotonic time: a duration is
 * measured with the clock's `monotonic()`, which a test's clock moves too), no
 * `AbortSignal.timeout` (a deadline on the machine's timers). The
 * CLI's code reads `ctx.clock` (src/contract/clock.ts, `Clock`); the sandbox's, its
 * `SandboxClock` (src/sandbox/clock.ts), itself built on a `Clock`, so a test that hands both the
 * same clock sets and moves the time of both.
 */
import {describe, expect, it} from 'vitest'

import {code, sources} from './sources.js'

/** The files that may read the machine's time: they are the clock. */
const CLOCK_FILES = ['src/contract/clock.ts', 'src/sandbox/clock.ts']

const files = sources('src').filter((f) => !CLOCK_FILES.includes(f.file))

function offenders(pattern: RegExp): string[] {
  return files.flatMap((f) =>
    code(f.text)
      .split('\n')
      .filter((line) => pattern.test(line))
      .map((line) => `${f.file}: ${line.trim()}`),
  )
}

describe('one clock', () => {
  it('finds the sources, the CLI\'s and the sandbox\'s', () => {
    expect(files.filter((f) => f.file.startsWith('src/lib/')).length).toBeGreaterThan(150)
    expect(files.filter((f) => f.file.startsWith('src/sandbox/')).length).toBeGreaterThan(50)
  })

  it('reads the time only through the clock', () => {
    expect(offenders(/\bDate\.now\b/)).toEqual([])
    expect(offenders(/\bnew\s+Date\(\s*\)/)).toEqual([])
  })

  it('measures durations on the clock, not on the machine\'s monotonic time', () => {
    expect(offenders(/\bperformance\.now\b/)).toEqual([])
  })

  it('sets deadlines on the clock, not on the machine\'s timers', () => {
    expect(offenders(/\bAbortSignal\.timeout\b/)).toEqual([])
  })

  it('names the two clocks differently: the CLI\'s Clock, the sandbox\'s SandboxClock', () => {
    const declared = sources('src').flatMap((f) => [...code(f.text).matchAll(/\binterface\s+(\w*Clock)\b/g)].map((m) => `${f.file}: ${m[1]}`))
    expect(declared).toEqual(['src/contract/clock.ts: Clock'])
  })
})
