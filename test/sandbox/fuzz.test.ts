// Every route fuzzed from its own schemas (test/helpers/fuzz.ts), against a sandbox in a process
// of its own: 0 answers of 5xx, 0 requests without an answer, and the process alive at the end.
// A bounded count here; bench/fuzz/run.ts is the long run (docs/reliability.md has its figure).
import fc from 'fast-check'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {fuzz, prepareTarget, requestArbitrary, sandboxRoutes, type FuzzTarget} from '../helpers/fuzz.js'
import {startSandboxProcess, type SandboxProcess} from '../helpers/sandbox-process.js'

const COUNT = 2000
const SEED = Number(process.env.FUZZ_SEED ?? 17)

describe('fuzzing every route', () => {
  let sb: SandboxProcess
  let target: FuzzTarget
  beforeAll(async () => {
    sb = await startSandboxProcess({rateLimit: 0, settleAfterMs: 100})
    target = await prepareTarget(sb)
  })
  afterAll(() => sb.stop())

  it(`${COUNT} requests: no 5xx, every request answered, the process alive`, {timeout: 180_000}, async () => {
    const routes = await sandboxRoutes()
    const requests = fc.sample(requestArbitrary(routes, target), {numRuns: COUNT, seed: SEED})
    // Every route is in the sample.
    const hit = new Set(requests.map((r) => r.path.split('?')[0].split('/').slice(0, 3).join('/')))
    expect(hit.size).toBeGreaterThan(5)
    const result = await fuzz(sb.url, target, requests, 8)
    const shown = result.failures.slice(0, 5).map((f) => ({
      request: `${f.request.method} ${f.request.path.slice(0, 200)} ${JSON.stringify(f.request.headers)} ${f.request.body?.toString('utf8').slice(0, 200) ?? ''}`,
      answer: 'status' in f ? `${f.status} ${f.body.slice(0, 300)}` : f.error,
    }))
    expect(shown).toEqual([])
    expect(result.sent).toBe(COUNT)
    expect(sb.exited()).toBeUndefined()
    // Some of the requests got through validation: the fuzzer reaches past the 400s.
    expect(Object.entries(result.statuses).filter(([status]) => Number(status) < 300).reduce((n, [, c]) => n + c, 0)).toBeGreaterThan(COUNT / 20)
  })
})
