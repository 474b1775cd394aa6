/**
 * `pay watch` says what it knows: while the service cannot be reached the spinner says so (since
 * when, retrying), and a watch that ends without a successful read in its last interval exits 7
 * "status unknown", never 8 ("still PENDING", a status it did not read).
 */
import {afterEach, describe, expect} from 'vitest'

import {skippingClock} from '../helpers/clock.js'
import {it, type TempConfigDir} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

// Each test stops its own sandbox part-way (the file's shared one cannot be stopped).
let sandbox: TestSandbox | undefined
afterEach(async () => {
  await sandbox?.close().catch(() => {})
  sandbox = undefined
})

/** A live payment nobody approves (it stays PENDING), then the sandbox stopped. */
async function pendingThenStopped(temp: TempConfigDir): Promise<{id: string; env: Record<string, string>; stop: () => Promise<void>}> {
  sandbox = await startTestSandbox()
  const env = {...sandbox.env('live'), SVC_RATE_LIMIT: '0'}
  const created = await runInProcess(['pay', 'create', '--amount', '900', '--phone', '670000001', '--yes', '--json'], {configDir: temp.dir, env})
  expect(created.exitCode).toBe(0)
  const s = sandbox
  return {id: JSON.parse(created.stdout).id, env, stop: () => s.close()}
}

describe('pay watch against a service it cannot reach', () => {
  it('a stopped service: exit 7 "status unknown", never 8; --json gives the error envelope', async ({temp}) => {
    const {id, env, stop} = await pendingThenStopped(temp)
    await stop()
    // The watch's waits and its --timeout on a clock that jumps through them (no real time).
    const r = await runInProcess(['pay', 'watch', id, '--interval', '250ms', '--timeout', '2s'], {configDir: temp.dir, env, clock: skippingClock()})
    expect(r.exitCode).toBe(7)
    expect(r.stderr).toMatch(/status unknown: the service could not be reached/)
    expect(r.stderr).not.toMatch(/still PENDING/)
    const json = await runInProcess(['pay', 'watch', id, '--interval', '250ms', '--timeout', '1s', '--json'], {configDir: temp.dir, env, clock: skippingClock()})
    expect(json.exitCode).toBe(7)
    expect(JSON.parse(json.stdout).error.code).toBe('status_unknown')
  })

  it('a service that goes away mid-watch: the spinner says since when and that it retries, then exit 7', async ({temp}) => {
    const {id, env, stop} = await pendingThenStopped(temp)
    // A process on a terminal runs on the machine's time: --timeout is real, 5 s, what a loaded
    // machine needs between the watch's start and the retry it shows. Once the retry is on the
    // screen, the rest of the 5 s passes 12 times faster (the child's own time).
    const session = runInPty(['pay', 'watch', id, '--interval', '250ms', '--timeout', '5s'], {configDir: temp.dir, env, warp: 12})
    await session.waitFor(/PENDING/)
    await stop()
    await session.waitFor(/could not be reached since \d{2}:\d{2}:\d{2}.*retrying/)
    await session.warp()
    const {exitCode} = await session.exit
    expect(exitCode).toBe(7)
    expect(stripAnsi(session.output())).toMatch(/status unknown: the service could not be reached/)
  }, 30_000)
})
