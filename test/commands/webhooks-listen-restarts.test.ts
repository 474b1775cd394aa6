/**
 * `svc --profile local webhooks listen` across three restarts of `svc sandbox serve` on the same
 * port, in memory (each comes back with new keys and a new admin token, saved in the profile) and
 * with `--data`: within 5 s it says the sandbox went away, re-registers when it is back, recovers
 * the events of the gap from the sandbox's event list, and every payment's settlement reaches the app
 * (0 missing). Ctrl-C does not claim every event arrived while it was disconnected.
 * Payments settle at once (`--settle-after 0`): no real time waited for a settlement, and the one
 * made just after a restart has its event at once, most often before listen registers again (in
 * memory, listen then forwards it from the sandbox's event list: "1 event it created since …
 * forwarded"; settled 300 ms later, it came after listen was back and never took that path).
 */
import type {ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {runCli, warpTime, type CliResult} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {startReceiver, waitFor, type Receiver} from '../helpers/receiver.js'
import {freePort} from '../helpers/fault-proxy.js'
import {payOn, startServe} from '../helpers/sandbox.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** How much faster listen's time runs while it waits to reconnect (test/helpers/child-time-warp.mjs). */
const WARP = 12

const settledAt = (app: Receiver, id: string) => app.received.some((r) => (r.event.data as {id?: string})?.id === id)

describe.each([
  ['in memory', false],
  ['with --data', true],
])('webhooks listen across three sandbox restarts, %s', (_name, onDisk) => {
  it('says when the sandbox went away and came back, and 0 events are missing', async () => {
    const temp = tempConfigDir()
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-listen-restarts-'))
    cleanups.push(() => {
      temp.cleanup()
      rmSync(dataDir, {recursive: true, force: true})
    })
    const port = await freePort()
    const serveArgs = ['--port', String(port), '--settle-after', '0', '--rate-limit', '0', ...(onDisk ? ['--data', join(dataDir, 'sb.sqlite')] : [])]
    let served = await startServe(temp.dir, serveArgs)
    cleanups.push(() => void served.stop())
    const app = await startReceiver()
    cleanups.push(() => app.close())

    let child!: ChildProcess
    let err = ''
    const run: Promise<CliResult> = runCli(['--profile', 'local', 'webhooks', 'listen', '--forward-to', app.url], {
      configDir: temp.dir,
      env: {SVC_RATE_LIMIT: '0'},
      timeoutMs: 120_000,
      warp: WARP,
      onSpawn(spawned) {
        child = spawned
        spawned.stderr!.on('data', (d: Buffer) => (err += d.toString()))
      },
    })
    cleanups.push(async () => {
      child.kill('SIGKILL')
      await run
    })
    await waitFor(() => /Press Ctrl-C to stop/.test(err), 20_000, 'listen to be ready')

    const payments: string[] = []
    for (let round = 1; round <= 3; round++) {
      payments.push(await payOn(served, 1000 + round))
      await waitFor(() => payments.every((id) => settledAt(app, id)), 15_000, `round ${round}: the events before the restart`)
      const wentAway = err.length
      await served.stop()
      const stoppedAt = Date.now()
      await waitFor(() => /went away/.test(err.slice(wentAway)), 8_000, `round ${round}: listen to notice the sandbox went away`)
      expect(Date.now() - stoppedAt).toBeLessThan(5_500)
      // Taken before the start: listen may be back before `serve` has printed its keys (its
      // registry entry is written first), and that line belongs to this round too.
      const back = err.length
      served = await startServe(temp.dir, serveArgs)
      // At once, before listen can have registered again: its event is recovered from the sandbox's event list.
      payments.push(await payOn(served, 2000 + round))
      // Listen tries again once a second of its time: that second runs WARP times faster until it is back.
      await warpTime(child, () => err, WARP)
      await waitFor(() => /back/.test(err.slice(back)), 15_000, `round ${round}: listen to re-register`)
      await warpTime(child, () => err, WARP, false)
      payments.push(await payOn(served, 3000 + round))
      await waitFor(() => payments.every((id) => settledAt(app, id)), 20_000, `round ${round}: every event, the gap's included`)
    }
    const missing = payments.filter((id) => !settledAt(app, id))
    expect(missing).toEqual([])

    child.kill('SIGINT')
    const result = await run
    if (process.env.SVC_TEST_SHOW) console.log(result.stderr)
    expect(result.exitCode).toBe(130)
    expect(result.stderr).not.toMatch(/every event reached your app/)
    expect(result.stderr, result.stderr).toMatch(/disconnected/i)
    await served.stop()
  }, 180_000)
})
